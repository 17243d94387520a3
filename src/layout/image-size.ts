/**
 * An image's declared size, read from its header without decoding a pixel: PNG (IHDR), JPEG (the first
 * start-of-frame), GIF (logical screen), WebP (VP8, VP8L, VP8X) and SVG (width/height or viewBox). Cheap
 * (a few dozen bytes for the raster formats, the first 2 KiB of an SVG), so every image can be checked against
 * a pixel budget before anything allocates its pixels: a 93 KB PNG can declare 24000 × 24000.
 */

export type SniffedFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'svg';

export interface DeclaredSize {
  format: SniffedFormat;
  /** Pixels as the header declares them (an SVG's user units). */
  width: number;
  height: number;
}

/** The bytes are of a known format but their header is broken or declares no size. */
export class ImageHeaderError extends Error {
  constructor(
    readonly format: SniffedFormat,
    problem: string,
  ) {
    super(problem);
    this.name = 'ImageHeaderError';
  }
}

const u32be = (d: Uint8Array, o: number) =>
  (((d[o] ?? 0) << 24) | ((d[o + 1] ?? 0) << 16) | ((d[o + 2] ?? 0) << 8) | (d[o + 3] ?? 0)) >>> 0;
const u16be = (d: Uint8Array, o: number) => ((d[o] ?? 0) << 8) | (d[o + 1] ?? 0);
const u16le = (d: Uint8Array, o: number) => (d[o] ?? 0) | ((d[o + 1] ?? 0) << 8);
const u24le = (d: Uint8Array, o: number) => u16le(d, o) | ((d[o + 2] ?? 0) << 16);
const ascii = (d: Uint8Array, o: number, n: number) => String.fromCharCode(...d.subarray(o, o + n));

function png(d: Uint8Array): DeclaredSize {
  const width = u32be(d, 16);
  const height = u32be(d, 20);
  if (!width || !height) throw new ImageHeaderError('png', 'the PNG has no size');
  return { format: 'png', width, height };
}

/** Walks the segments to the first start-of-frame marker (SOF0–SOF15 except DHT, JPG, DAC). */
function jpeg(d: Uint8Array): DeclaredSize {
  let o = 2;
  while (o + 9 < d.length) {
    if (d[o] !== 0xff) throw new ImageHeaderError('jpeg', 'the JPEG is corrupt');
    const marker = d[o + 1] ?? 0;
    if (marker === 0xff) {
      o++; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const width = u16be(d, o + 7);
      const height = u16be(d, o + 5);
      if (!width || !height) break;
      return { format: 'jpeg', width, height };
    }
    o += 2 + u16be(d, o + 2);
  }
  throw new ImageHeaderError('jpeg', 'the JPEG has no size');
}

function gif(d: Uint8Array): DeclaredSize {
  const width = u16le(d, 6);
  const height = u16le(d, 8);
  if (!width || !height) throw new ImageHeaderError('gif', 'the GIF has no size');
  return { format: 'gif', width, height };
}

function webp(d: Uint8Array): DeclaredSize {
  const chunk = ascii(d, 12, 4);
  let width = 0;
  let height = 0;
  if (chunk === 'VP8 ') {
    width = u16le(d, 26) & 0x3fff;
    height = u16le(d, 28) & 0x3fff;
  } else if (chunk === 'VP8L') {
    const bits = (u16le(d, 21) | (u16le(d, 23) << 16)) >>> 0; // 14 bits width − 1, 14 bits height − 1
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
  } else if (chunk === 'VP8X') {
    width = u24le(d, 24) + 1;
    height = u24le(d, 27) + 1;
  }
  if (!width || !height) throw new ImageHeaderError('webp', 'the WebP has no size');
  return { format: 'webp', width, height };
}

function svg(head: string): DeclaredSize {
  // "1.2.3" or 400 digits match the pattern but are no number (NaN, Infinity): read as not given.
  const finite = (text: string | undefined) => {
    const n = text ? Number(text) : NaN;
    return Number.isFinite(n) ? n : undefined;
  };
  const num = (name: string) =>
    finite(new RegExp(`<svg[^>]*\\s${name}="([\\d.]+)(px)?"`, 'i').exec(head)?.[1]);
  const vb = /<svg[^>]*\sviewBox="[\d.\s-]*?([\d.]+)\s+([\d.]+)"/i.exec(head);
  const width = num('width') ?? finite(vb?.[1]) ?? 100;
  const height = num('height') ?? finite(vb?.[2]) ?? 100;
  return { format: 'svg', width, height };
}

/**
 * The format (sniffed from the bytes: a declared type is often wrong) and declared size, or undefined for
 * bytes of no format above. Throws ImageHeaderError for a known format whose header declares no size.
 */
export function declaredSize(data: Uint8Array): DeclaredSize | undefined {
  if (data.length > 24 && u32be(data, 0) === 0x89504e47 && u32be(data, 12) === 0x49484452) return png(data);
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) return jpeg(data);
  if (data.length >= 10 && ascii(data, 0, 4) === 'GIF8') return gif(data);
  if (data.length >= 30 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 4) === 'WEBP') return webp(data);
  const head = new TextDecoder().decode(data.subarray(0, 2048));
  if (/<svg[\s>]/i.test(head)) return svg(head);
  return undefined;
}
