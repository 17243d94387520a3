/**
 * An image file from the user's disk made an image element's data: URL (the template carries its image, so it
 * prints the same from any machine). The bytes are read in the renderer and checked with the engine's own
 * rules before anything decodes them: the format sniffed from the bytes (a `.png` may be a JPEG or text), the
 * declared size from the header against the engine's pixel budget for this label at the lowest dpi it may print
 * at (`imagePixelLimit`), an SVG's references (`inspectImage`), and the file size against the longest value an
 * element may hold (`MAX_VALUE_LENGTH`: the data: URL must fit it, or the template would not save).
 */
import { decodedPixels, ImageError, imagePixelLimit, inspectImage } from '../../../src/layout/images';
import { MAX_VALUE_LENGTH } from '../../../src/model/elements';
import { stageToInches } from '../../../src/units/units';
import { DESIGN_DPIS, type DesignDocument } from './design-document';

/** The longest media type an image's data: URL names. */
const LONGEST_PREFIX = 'data:image/svg+xml;base64,'.length;

/** The largest file whose base64 data: URL fits in one element value (74,979 bytes). */
export const MAX_IMAGE_FILE_BYTES = Math.floor((MAX_VALUE_LENGTH - LONGEST_PREFIX) / 4) * 3;

export type ImageFileResult =
  | { ok: true; url: string; format: 'PNG' | 'JPEG' | 'SVG'; width: number; height: number }
  | { ok: false; message: string };

const kb = (bytes: number): string =>
  `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KB`;
const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Checks a file's size before its bytes are read: empty, or too large for a template to carry. Undefined when
 * it may be read.
 */
export function imageFileSizeProblem(fileName: string, size: number): string | undefined {
  if (size === 0) return `“${fileName}” is empty (0 bytes): choose a PNG, JPEG or SVG image.`;
  if (size > MAX_IMAGE_FILE_BYTES)
    return `“${fileName}” is ${kb(size)}; an image kept in a template may be at most ${kb(MAX_IMAGE_FILE_BYTES)} (${count(MAX_IMAGE_FILE_BYTES)} bytes). Scale it down or save it with fewer colours.`;
  return undefined;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The data: URL of an image file's bytes for an element of `doc`, or why it cannot be one (the message names
 * the file and the limit it is over). Nothing is decoded: only the header is read.
 */
export function imageFileToDataUrl(
  fileName: string,
  bytes: Uint8Array,
  doc: DesignDocument,
): ImageFileResult {
  const sizeProblem = imageFileSizeProblem(fileName, bytes.length);
  if (sizeProblem) return { ok: false, message: sizeProblem };
  let image;
  try {
    image = inspectImage(fileName, bytes);
  } catch (e) {
    if (!(e instanceof ImageError)) throw e;
    // "image logo.png: is not a PNG, JPEG or SVG image" → about the file, by its name.
    return { ok: false, message: `“${fileName}” ${e.message.slice(`image ${fileName}: `.length)}.` };
  }
  const { stage } = doc.template;
  // As the engine counts it when printing (checkImageBudget: the label's dots, width × height), at the lowest
  // resolution the template may be printed at, whatever dpi it is designed for: it prints on every printer.
  const dpi = Math.min(...DESIGN_DPIS);
  const labelDots =
    stageToInches(stage.width, stage.unit) * dpi * stageToInches(stage.height, stage.unit) * dpi;
  const limit = imagePixelLimit(labelDots);
  const pixels = decodedPixels(image);
  if (pixels > limit) {
    const what =
      image.mime === 'image/svg+xml'
        ? `embeds images of ${count(pixels)} pixels`
        : `declares ${count(image.width)} × ${count(image.height)} pixels (${count(pixels)})`;
    return {
      ok: false,
      message: `“${fileName}” ${what}; an image on this label may have at most ${count(limit)} pixels to print at ${dpi} dpi. Scale it down.`,
    };
  }
  const format = image.mime === 'image/png' ? 'PNG' : image.mime === 'image/jpeg' ? 'JPEG' : 'SVG';
  return {
    ok: true,
    url: `data:${image.mime};base64,${toBase64(bytes)}`,
    format,
    width: image.width,
    height: image.height,
  };
}
