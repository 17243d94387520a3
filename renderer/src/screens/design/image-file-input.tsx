/**
 * "Image file": a PNG, JPEG or SVG from the user's disk becomes the selected image elements' data: URL (one
 * undo step). A file input, so it works the same in Electron and web mode and no path ever reaches main; the
 * bytes are checked here (image-file.ts) and a refusal names the file and the limit.
 */
import { useId, useState } from 'react';
import { withElements } from '../../design/operations';
import { imageFileSizeProblem, imageFileToDataUrl, MAX_IMAGE_FILE_BYTES } from '../../design/image-file';
import { useStores } from '../../store/stores-context';

export function ImageFileInput() {
  const { design } = useStores();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [reading, setReading] = useState(false);

  const take = async (file: File) => {
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
    setReading(true);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch {
      setProblem(`“${file.name}” could not be read.`);
      return;
    } finally {
      setReading(false);
    }
    const current = design.getState().doc;
    if (!current) return;
    const result = imageFileToDataUrl(file.name, bytes, current);
    if (!result.ok) {
      setProblem(result.message);
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
        disabled={reading}
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
      <span className="field-hint" id={`${id}-hint`}>
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
