/**
 * "Image file": a PNG, JPEG or SVG from the user's disk becomes the selected image elements' data: URL (one
 * undo step). A file input, so it works the same in Electron and web mode and no path ever reaches main; the
 * bytes are checked here (image-file.ts) and a refusal names the file and the limit.
 */
import { useId, useRef, useState } from 'react';
import { withElements } from '../../design/operations';
import { imageFileSizeProblem, imageFileToDataUrl, MAX_IMAGE_FILE_BYTES } from '../../design/image-file';
import { useStores } from '../../store/stores-context';

/** Whether the browser can decode the image (only ever asked of one within the pixel budget). */
async function decodes(url: string): Promise<boolean> {
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
    return image.naturalWidth > 0;
  } catch {
    return false;
  }
}

export function ImageFileInput() {
  const { design } = useStores();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // A file picked while another is still being checked is ignored (the input stays focusable meanwhile).
  const reading = useRef(false);

  const take = async (file: File) => {
    if (reading.current) return;
    reading.current = true;
    try {
      await check(file);
    } finally {
      reading.current = false;
    }
  };

  const check = async (file: File) => {
    setProblem(null);
    setDone(null);
    // Refused before a byte is read: an empty file, or one the template could not carry.
    const early = imageFileSizeProblem(file.name, file.size);
    if (early) {
      setProblem(early);
      return;
    }
    const { doc, selection } = design.getState();
    if (!doc) return;
    const targets = selection.filter((i) => doc.template.elements[i]?.type === 'image');
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch {
      setProblem(`“${file.name}” could not be read.`);
      return;
    }
    const current = design.getState().doc;
    if (!current) return;
    const result = imageFileToDataUrl(file.name, bytes, current);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    // Within the budget, so safe to decode: a header with broken image data after it is refused here, not
    // found later by the preview or the printer.
    if (!(await decodes(result.url))) {
      setProblem(`“${file.name}” has a ${result.format} header but its image data cannot be read.`);
      return;
    }
    // The elements chosen when the file was picked (still images: the document may have changed meanwhile).
    design.getState().change((d) =>
      withElements(
        d,
        d.template.elements.map((el, i) =>
          targets.includes(i) && el.type === 'image' ? { ...el, url: result.url } : el,
        ),
      ),
    );
    setDone(`“${file.name}”: ${result.format}, ${result.width} × ${result.height} pixels.`);
  };

  return (
    <div className={`field design-field${problem ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        Image file
      </label>
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg"
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          // Cleared, so choosing the same file again (after fixing it) is a change too.
          input.value = '';
          if (file) void take(file);
        }}
      />
      <span className="field-hint" id={`${id}-hint`} aria-live="polite">
        {done ??
          `PNG, JPEG or SVG, up to ${Math.floor(MAX_IMAGE_FILE_BYTES / 1024)} KB; kept in the template.`}
      </span>
      {problem && (
        <span className="field-problem" id={`${id}-problem`} role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
