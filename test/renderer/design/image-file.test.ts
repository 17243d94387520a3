/**
 * An image file from disk made an image element's data: URL (#22): the type from the bytes, the size from the
 * header against the engine's pixel budget, the file against what a template value may hold — and what a
 * user reads when it is refused.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_VALUE_LENGTH } from '../../../src/model/elements';
import { parseTemplate } from '../../../src/model/parse';
import { newDesign } from '../../../renderer/src/design/design-document';
import {
  imageFileSizeProblem,
  imageFileToDataUrl,
  MAX_IMAGE_FILE_BYTES,
} from '../../../renderer/src/design/image-file';
import { addElement, setProperties } from '../../../renderer/src/design/operations';

const LOGO = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../../../assets/images/logo.png')));
const doc = newDesign({ name: 'img', size: '4x2', unit: 'in', dpi: 203 });

/** A PNG signature and IHDR declaring `w × h`, padded to `bytes` (no pixel data: nothing may decode it). */
function pngHeader(w: number, h: number, bytes = 64): Uint8Array {
  const d = new Uint8Array(bytes);
  d.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(d.buffer).setUint32(16, w);
  new DataView(d.buffer).setUint32(20, h);
  return d;
}

/** A baseline JPEG's first segments declaring `w × h`. */
function jpegHeader(w: number, h: number): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    0xff,
    0xc0,
    0,
    11,
    8,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    1,
    1,
    0x11,
    0,
    0,
    0,
    0,
  ]);
}

describe('imageFileToDataUrl', () => {
  it('makes a PNG a data: URL the template schema takes, with its size read from the header', () => {
    const result = imageFileToDataUrl('logo.png', LOGO, doc);
    expect(result).toMatchObject({ ok: true, format: 'PNG', width: 128, height: 128 });
    if (!result.ok) return;
    expect(result.url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(result.url.split(',')[1]!, 'base64').equals(Buffer.from(LOGO))).toBe(true);
    const added = addElement(doc, 'image').doc;
    const withLogo = setProperties(added, [0], { url: result.url });
    expect(() => parseTemplate(withLogo.template)).not.toThrow();
  });

  it('goes by the bytes, not the name: a ".png" that is a JPEG is a JPEG, one that is text is refused', () => {
    expect(imageFileToDataUrl('photo.png', jpegHeader(300, 200), doc)).toMatchObject({
      ok: true,
      format: 'JPEG',
      width: 300,
      height: 200,
    });
    const text = new TextEncoder().encode('not an image at all, just words\n');
    expect(imageFileToDataUrl('notes.png', text, doc)).toEqual({
      ok: false,
      message: '“notes.png” is not a PNG, JPEG or SVG image.',
    });
  });

  it('refuses an empty file, naming it', () => {
    expect(imageFileToDataUrl('empty.png', new Uint8Array(0), doc)).toEqual({
      ok: false,
      message: '“empty.png” is empty (0 bytes): choose a PNG, JPEG or SVG image.',
    });
  });

  it('refuses a small file declaring 40000 × 40000 from its header alone', () => {
    const result = imageFileToDataUrl('bomb.png', pngHeader(40000, 40000, 1024), doc);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // The engine's own check and words (inspectImage), about the file by its name.
    expect(result.message).toBe(
      '“bomb.png” declares 40000 × 40000 pixels (1,600,000,000); the limit for any image is 16,000,000 pixels, so scale the image down.',
    );
  });

  it('holds a label to its own budget: 4 × the label’s dots, at least the minimum', () => {
    // 4 × 2 in at 203 dpi: 812 × 406 dots, × 4 = 1,318,688 < the 4,000,000 minimum.
    expect(imageFileToDataUrl('ok.png', pngHeader(2000, 2000), doc).ok).toBe(true);
    const over = imageFileToDataUrl('big.png', pngHeader(2001, 2000), doc);
    expect(over).toMatchObject({ ok: false });
    if (!over.ok)
      expect(over.message).toBe(
        '“big.png” declares 2,001 × 2,000 pixels (4,002,000); an image on this label may have at most 4,000,000 pixels to print at 203 dpi. Scale it down.',
      );
  });

  it('holds a template designed at 600 dpi to what a 203 dpi printer takes (it may be printed there)', () => {
    const at600 = newDesign({ name: 'img', size: '4x6', unit: 'in', dpi: 600 });
    // 4 × 6 in at 600 dpi would take 16,000,000 pixels; at 203 dpi 4 × 812 × 1218 < the 4,000,000 minimum.
    expect(imageFileToDataUrl('ok.png', pngHeader(2000, 2000), at600).ok).toBe(true);
    expect(imageFileToDataUrl('photo.png', pngHeader(3000, 2000), at600)).toMatchObject({ ok: false });
  });

  it('refuses a file whose data: URL would not fit a template value, by its size in the message', () => {
    // The 40000 × 40000 header in a 100 KB file: refused for its size before its header is looked at.
    const result = imageFileToDataUrl('bomb-100k.png', pngHeader(40000, 40000, 100 * 1024), doc);
    expect(result).toEqual({
      ok: false,
      message:
        '“bomb-100k.png” is 100 KB; an image kept in a template may be at most 73.2 KB (74,979 bytes). Scale it down or save it with fewer colours.',
    });
    // The largest file that may be read makes a data: URL the schema takes.
    expect(imageFileSizeProblem('x.svg', MAX_IMAGE_FILE_BYTES)).toBeUndefined();
    expect('data:image/svg+xml;base64,'.length + (MAX_IMAGE_FILE_BYTES / 3) * 4).toBeLessThanOrEqual(
      MAX_VALUE_LENGTH,
    );
  });

  it('refuses an SVG that refers to a file on the disk', () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="/etc/passwd.png"/></svg>',
    );
    const result = imageFileToDataUrl('sneaky.svg', svg, doc);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toMatch(/^“sneaky\.svg” is an SVG referring to another file/);
  });
});
