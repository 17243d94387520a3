/**
 * Image nodes → PDF image XObjects, cached by content for the life of the process (a batch embeds its logo's
 * compressed data once, not once per label). As pdfkit does it:
 *  - JPEG: the file itself, /DCTDecode (CMYK with Adobe's inverted /Decode);
 *  - PNG without alpha: the IDAT data as is, /FlateDecode with the PNG predictor (no decoding at all);
 *  - PNG with an alpha channel (grey+alpha, RGBA; 8-bit): inflated, unfiltered and split into the colour image
 *    and a DeviceGray /SMask.
 * Anything else (interlaced, 16-bit with alpha, tRNS transparency) throws DirectPdfUnsupported, and the
 * caller renders that document with pdfkit.
 */
import { unzlibSync } from 'fflate';
import { concatBytes } from '../../bytes';
import type { Deflate } from './deflate';
import { DirectPdfUnsupported } from './unsupported';

/** An image XObject's dictionary (without /Length) and stream data, with an optional soft mask. */
export interface ImageXObject {
  width: number;
  height: number;
  dict: string;
  data: Uint8Array;
  smask?: { dict: string; data: Uint8Array };
}

const MAX_CACHED = 32;
const byContent = new Map<string, { bytes: Uint8Array; image: ImageXObject }>();

/** The XObject for PNG or JPEG bytes, from the cache when the same bytes were embedded before. */
export function imageXObject(
  mime: 'image/png' | 'image/jpeg',
  bytes: Uint8Array,
  deflate: Deflate,
): ImageXObject {
  const key = `${mime}:${bytes.length}:${hash(bytes)}`;
  const hit = byContent.get(key);
  if (hit && sameBytes(hit.bytes, bytes)) return hit.image;
  const image = mime === 'image/png' ? pngXObject(bytes, deflate) : jpegXObject(bytes);
  byContent.set(key, { bytes, image });
  if (byContent.size > MAX_CACHED) {
    const oldest = byContent.keys().next().value;
    if (oldest !== undefined) byContent.delete(oldest);
  }
  return image;
}

function hash(b: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ (b[i] ?? 0), 0x01000193);
  return (h >>> 0).toString(16);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const u32 = (b: Uint8Array, at: number): number =>
  (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;

function pngXObject(png: Uint8Array, deflate: Deflate): ImageXObject {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((v, i) => png[i] === v)) throw new Error('image/png: not a PNG file');
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = 0;
  let interlace = 0;
  let palette: Uint8Array | undefined;
  let transparency = false;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const len = u32(png, at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = u32(data, 0);
      height = u32(data, 4);
      depth = data[8] ?? 0;
      colorType = data[9] ?? 0;
      interlace = data[12] ?? 0;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = true;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  if (width === 0 || height === 0) throw new Error('image/png: no IHDR');
  if (interlace !== 0) throw new DirectPdfUnsupported('interlaced PNG');
  if (transparency) throw new DirectPdfUnsupported('PNG with tRNS transparency');
  const compressed = concatBytes(idat);
  const head = `/Type /XObject /Subtype /Image /Width ${width} /Height ${height}`;
  if (colorType === 0 || colorType === 2 || colorType === 3) {
    const colors = colorType === 2 ? 3 : 1;
    let space = colors === 3 ? '/DeviceRGB' : '/DeviceGray';
    if (colorType === 3) {
      if (!palette) throw new Error('image/png: palette image without PLTE');
      let hex = '';
      for (const v of palette) hex += v.toString(16).padStart(2, '0');
      space = `[/Indexed /DeviceRGB ${palette.length / 3 - 1} <${hex}>]`;
    }
    return {
      width,
      height,
      dict:
        `<< ${head} /BitsPerComponent ${depth} /ColorSpace ${space} /Filter /FlateDecode ` +
        `/DecodeParms << /Predictor 15 /Colors ${colors} /BitsPerComponent ${depth} /Columns ${width} >> >>`,
      data: compressed,
    };
  }
  if ((colorType !== 4 && colorType !== 6) || depth !== 8) {
    throw new DirectPdfUnsupported(`PNG colour type ${colorType} at ${depth} bits`);
  }
  const channels = colorType === 6 ? 4 : 2;
  const pixels = unfilter(unzlibSync(compressed), width, height, channels);
  const colors = channels - 1;
  const color = new Uint8Array(width * height * colors);
  const alpha = new Uint8Array(width * height);
  for (let p = 0, c = 0, i = 0; p < alpha.length; p++) {
    for (let k = 0; k < colors; k++) color[c++] = pixels[i++] ?? 0;
    alpha[p] = pixels[i++] ?? 0;
  }
  return {
    width,
    height,
    dict: `<< ${head} /BitsPerComponent 8 /ColorSpace ${colors === 3 ? '/DeviceRGB' : '/DeviceGray'} /Filter /FlateDecode >>`,
    data: deflate(color),
    smask: {
      dict: `<< ${head} /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode >>`,
      data: deflate(alpha),
    },
  };
}

/** Reverses PNG's per-row filters (None, Sub, Up, Average, Paeth) for 8-bit samples. */
function unfilter(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const v = raw[src + x] ?? 0;
      const a = x >= bpp ? (out[row + x - bpp] ?? 0) : 0;
      const b = y > 0 ? (out[prev + x] ?? 0) : 0;
      const c = x >= bpp && y > 0 ? (out[prev + x - bpp] ?? 0) : 0;
      let pred = 0;
      if (filter === 1) pred = a;
      else if (filter === 2) pred = b;
      else if (filter === 3) pred = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`image/png: unknown row filter ${filter}`);
      out[row + x] = (v + pred) & 0xff;
    }
  }
  return out;
}

function jpegXObject(jpeg: Uint8Array): ImageXObject {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('image/jpeg: not a JPEG file');
  for (let at = 2; at + 9 < jpeg.length;) {
    if (jpeg[at] !== 0xff) throw new Error('image/jpeg: broken marker structure');
    const marker = jpeg[at + 1] ?? 0;
    const len = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const bits = jpeg[at + 4] ?? 8;
      const height = ((jpeg[at + 5] ?? 0) << 8) | (jpeg[at + 6] ?? 0);
      const width = ((jpeg[at + 7] ?? 0) << 8) | (jpeg[at + 8] ?? 0);
      const components = jpeg[at + 9] ?? 3;
      const space = components === 1 ? '/DeviceGray' : components === 4 ? '/DeviceCMYK' : '/DeviceRGB';
      const decode = components === 4 ? ' /Decode [1 0 1 0 1 0 1 0]' : '';
      return {
        width,
        height,
        dict: `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /BitsPerComponent ${bits} /ColorSpace ${space}${decode} /Filter /DCTDecode >>`,
        data: jpeg,
      };
    }
    at += 2 + len;
  }
  throw new Error('image/jpeg: no frame header');
}
