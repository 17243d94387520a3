/**
 * Test support: every output format read back to 8-bit grey pixels (0 = black, 255 = white), so one set of
 * helpers can crop a symbol out of a ZPL bitmap, a PNG, a resvg rendering or a pdftoppm page and hand it to
 * a decoder. Independent of src/render: its own PNG reader (zlib + the five PNG filters) and PGM reader.
 */
import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import type { MonoBitmap } from '../../src/render/bitmap';
import type { GreyImage } from './draw-rects';

export type { GreyImage };

/** Luma of straight RGBA composited on white (ITU-R BT.601 weights, like ImageMagick's grey). */
export function rgbaToGreyImage(width: number, height: number, rgba: Uint8Array): GreyImage {
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    const a = (rgba[p + 3] ?? 255) / 255;
    const luma = 0.299 * (rgba[p] ?? 0) + 0.587 * (rgba[p + 1] ?? 0) + 0.114 * (rgba[p + 2] ?? 0);
    grey[i] = Math.round(luma * a + 255 * (1 - a));
  }
  return { width, height, grey };
}

/** A 1-bit printer bitmap (1 = black) as grey pixels, one per dot. */
export function monoToGreyImage(bitmap: MonoBitmap): GreyImage {
  const { width, height, rowBytes, data } = bitmap;
  const grey = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    for (let b = 0; b < rowBytes; b++) {
      const byte = data[y * rowBytes + b] ?? 0;
      if (byte === 0) continue;
      for (let bit = 0; bit < 8; bit++) {
        const x = b * 8 + bit;
        if (x < width && byte & (0x80 >> bit)) grey[y * width + x] = 0;
      }
    }
  }
  return { width, height, grey };
}

/** Reads a binary 8-bit PGM (what `pdftoppm -gray` writes). */
export async function readPgm(path: string): Promise<GreyImage> {
  const bytes = await readFile(path);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header || header[3] !== '255') throw new Error(`${path}: not an 8-bit binary PGM`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  if (bytes.length - start < width * height) throw new Error(`${path}: PGM data is truncated`);
  return { width, height, grey: new Uint8Array(bytes.subarray(start, start + width * height)) };
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

interface PngHeader {
  width: number;
  height: number;
  /** 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA. */
  channels: number;
  /** From pHYs, when the unit is the metre. */
  pixelsPerMetre?: number;
}

/**
 * Reads a non-interlaced 8-bit PNG (grey, grey + alpha, RGB or RGBA) and hands each unfiltered row to
 * `onRow`. Throws for anything else, so a change of output format is noticed rather than misread.
 */
function readPng(png: Uint8Array, onRow: (row: Uint8Array, y: number, header: PngHeader) => void): PngHeader {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  const header: PngHeader = { width: 0, height: 0, channels: 0 };
  const idat: Buffer[] = [];
  for (let o = 8; o + 8 <= buf.length;) {
    const len = buf.readUInt32BE(o);
    const type = buf.toString('latin1', o + 4, o + 8);
    const body = buf.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      header.width = body.readUInt32BE(0);
      header.height = body.readUInt32BE(4);
      const colourType = body[9] ?? -1;
      if (body[8] !== 8 || body[12] !== 0 || !(colourType in CHANNELS)) {
        throw new Error(
          `PNG depth ${body[8]}, colour type ${colourType}, interlace ${body[12]}: not supported here`,
        );
      }
      header.channels = CHANNELS[colourType] ?? 0;
    } else if (type === 'pHYs' && body[8] === 1) {
      header.pixelsPerMetre = body.readUInt32BE(0);
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    o += 12 + len;
  }
  const { width, height, channels: ch } = header;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * ch;
  if (raw.length < (stride + 1) * height) throw new Error('PNG data is truncated');
  let prev = new Uint8Array(stride);
  let cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1) + 1;
    const filter = raw[start - 1];
    const line = raw.subarray(start, start + stride);
    switch (filter) {
      case 0:
        cur.set(line);
        break;
      case 1:
        for (let i = 0; i < stride; i++) cur[i] = (line[i]! + (i >= ch ? cur[i - ch]! : 0)) & 0xff;
        break;
      case 2:
        for (let i = 0; i < stride; i++) cur[i] = (line[i]! + prev[i]!) & 0xff;
        break;
      case 3:
        for (let i = 0; i < stride; i++)
          cur[i] = (line[i]! + (((i >= ch ? cur[i - ch]! : 0) + prev[i]!) >> 1)) & 0xff;
        break;
      case 4:
        for (let i = 0; i < stride; i++) {
          const a = i >= ch ? cur[i - ch]! : 0;
          const b = prev[i]!;
          const c = i >= ch ? prev[i - ch]! : 0;
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - 2 * c);
          cur[i] = (line[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
        }
        break;
      default:
        throw new Error(`PNG row ${y}: unknown filter ${filter}`);
    }
    onRow(cur, y, header);
    [prev, cur] = [cur, prev];
  }
  return header;
}

/** Decodes a PNG (see readPng) to grey pixels composited on white; `pixelsPerMetre` from pHYs. */
export function decodePngToGrey(png: Uint8Array): GreyImage & { pixelsPerMetre?: number } {
  let grey = new Uint8Array(0);
  const header = readPng(png, (row, y, { width, height, channels }) => {
    if (y === 0) grey = new Uint8Array(width * height);
    for (let x = 0, o = y * width; x < width; x++, o++) {
      const p = x * channels;
      if (channels <= 2) {
        const alpha = channels === 2 ? row[p + 1]! / 255 : 1;
        grey[o] = Math.round(row[p]! * alpha + 255 * (1 - alpha));
      } else {
        const alpha = channels === 4 ? row[p + 3]! / 255 : 1;
        const luma = 0.299 * row[p]! + 0.587 * row[p + 1]! + 0.114 * row[p + 2]!;
        grey[o] = Math.round(luma * alpha + 255 * (1 - alpha));
      }
    }
  });
  const { width, height, pixelsPerMetre } = header;
  return { width, height, grey, ...(pixelsPerMetre !== undefined ? { pixelsPerMetre } : {}) };
}

/** Decodes a PNG (see readPng) to straight RGBA, 4 bytes per pixel. */
export function decodePngToRgba(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  let rgba = new Uint8Array(0);
  const { width, height } = readPng(png, (row, y, { width: w, height: h, channels }) => {
    if (y === 0) rgba = new Uint8Array(w * h * 4);
    for (let x = 0, o = y * w * 4; x < w; x++, o += 4) {
      const p = x * channels;
      const grey = channels <= 2;
      rgba[o] = row[p]!;
      rgba[o + 1] = grey ? row[p]! : row[p + 1]!;
      rgba[o + 2] = grey ? row[p]! : row[p + 2]!;
      rgba[o + 3] = channels === 2 ? row[p + 1]! : channels === 4 ? row[p + 3]! : 255;
    }
  });
  return { width, height, rgba };
}

/**
 * The pixels of `box` (clipped to the image), with `pad` white pixels around them: a scanner's view of one
 * symbol, its quiet zone guaranteed even when the symbol sits at the label's edge.
 */
export function cropGrey(
  image: GreyImage,
  box: { x: number; y: number; width: number; height: number },
  pad = 20,
): GreyImage {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  const w = Math.max(0, x1 - x0) + 2 * pad;
  const h = Math.max(0, y1 - y0) + 2 * pad;
  const grey = new Uint8Array(w * h).fill(255);
  for (let y = y0; y < y1; y++) {
    grey.set(image.grey.subarray(y * image.width + x0, y * image.width + x1), (y - y0 + pad) * w + pad);
  }
  return { width: w, height: h, grey };
}
