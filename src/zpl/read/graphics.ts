/**
 * ZPL graphic data → 1-bit rows: `^GF` (A: hex with the ACS run-length compression, `:Z64:` and `:B64:` with
 * their CRC; B: binary; C: AR-compressed, refused with a warning), `~DG` (hex/ACS) and `~DY` (hex, binary,
 * Z64/B64 of a GRF). Sizes are checked before anything is allocated; a zlib stream inflates into a buffer of the
 * declared size, so a "bomb" cannot grow past it.
 */
import { unzlibSync } from 'fflate';
import { crc16XmodemValue } from '../crc';
import type { PathNode } from '../../layout/scene';

export interface ZplBitmap {
  /** Bytes per row. */
  rowBytes: number;
  rows: number;
  /** rowBytes × rows, MSB first, 1 = black. */
  data: Uint8Array;
}

export type GraphicResult = { bitmap: ZplBitmap; problem?: string } | { problem: string };

/** Repetition counts of the ACS letters: G–Y are 1–19, g–z are 20–400 in steps of 20. */
function acsCount(c: number): number {
  if (c >= 0x47 && c <= 0x59) return c - 0x46;
  if (c >= 0x67 && c <= 0x7a) return (c - 0x66) * 20;
  return 0;
}

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;

/**
 * Graphic data of `total` bytes in rows of `rowBytes`, as written after the header of `^GFA`/`~DG`: hex with
 * ACS compression, or `:Z64:`/`:B64:` base64 with a CRC. `total` must already be within the budget.
 */
export function decodeAsciiGraphic(data: string, total: number, rowBytes: number): GraphicResult {
  if (!(rowBytes > 0) || !(total > 0))
    return { problem: 'declares no bytes or no bytes per row: nothing drawn.' };
  const rows = Math.ceil(total / rowBytes);
  const out = new Uint8Array(rows * rowBytes);
  const trimmed = data.trim();
  const b64 = /^:(Z64|B64):([^:]*)(?::([0-9A-Fa-f]{1,4}))?/.exec(trimmed);
  if (b64) {
    const [, kind, text = '', crc] = b64;
    let problem: string | undefined;
    if (crc !== undefined && Number.parseInt(crc, 16) !== crc16XmodemValue(asciiBytes(text))) {
      problem = `the ${kind} data's CRC ${crc.toUpperCase()} is wrong (a printer would refuse it): drawn anyway.`;
    }
    let raw: Uint8Array;
    try {
      raw = base64Bytes(text);
    } catch {
      return { problem: `the ${kind} data is not base64: nothing drawn.` };
    }
    if (kind === 'Z64') {
      try {
        const inflated = unzlibSync(raw, { out });
        if (inflated !== out) out.set(inflated.subarray(0, out.length));
      } catch {
        return { problem: 'the Z64 data does not inflate: nothing drawn.' };
      }
    } else {
      out.set(raw.subarray(0, out.length));
    }
    return { bitmap: { rowBytes, rows, data: out }, ...(problem ? { problem } : {}) };
  }
  decodeAcs(trimmed, out, rowBytes);
  return { bitmap: { rowBytes, rows, data: out } };
}

/** Hex nibbles with ACS: counts, `,` (rest of the row white), `!` (rest black), `:` (the row above again). */
function decodeAcs(text: string, out: Uint8Array, rowBytes: number): void {
  const rowNibbles = rowBytes * 2;
  const totalNibbles = out.length * 2;
  let n = 0; // nibbles written
  let count = 0;
  const put = (v: number, times: number) => {
    const end = Math.min(totalNibbles, n + times);
    for (; n < end; n++) {
      const i = n >> 1;
      out[i] = (out[i] ?? 0) | (n & 1 ? v : v << 4);
    }
  };
  for (let i = 0; i < text.length && n < totalNibbles; i++) {
    const c = text.charCodeAt(i);
    const h = hexValue(c);
    if (h >= 0) {
      put(h, count || 1);
      count = 0;
      continue;
    }
    const k = acsCount(c);
    if (k) {
      count += k;
      continue;
    }
    count = 0;
    const inRow = n % rowNibbles;
    if (c === 0x2c /* , */) {
      // A comma at the start of a row is a whole white row.
      put(0, rowNibbles - inRow);
    } else if (c === 0x21 /* ! */) {
      put(15, rowNibbles - inRow);
    } else if (c === 0x3a /* : */ && inRow === 0 && n >= rowNibbles) {
      const row = n / 2;
      out.copyWithin(row, row - rowBytes, row);
      n += rowNibbles;
    }
  }
}

/** Binary graphic data (`^GFB`, `~DY…,B`): the bytes as given, short data padded white. */
export function binaryGraphic(data: string, total: number, rowBytes: number): GraphicResult {
  if (!(rowBytes > 0) || !(total > 0))
    return { problem: 'declares no bytes or no bytes per row: nothing drawn.' };
  const rows = Math.ceil(total / rowBytes);
  const out = new Uint8Array(rows * rowBytes);
  for (let i = 0; i < Math.min(data.length, out.length); i++) out[i] = data.charCodeAt(i) & 0xff;
  return { bitmap: { rowBytes, rows, data: out } };
}

function asciiBytes(text: string): Uint8Array {
  const b = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) b[i] = text.charCodeAt(i) & 0xff;
  return b;
}

function base64Bytes(text: string): Uint8Array {
  const bin = atob(text.replace(/\s/g, ''));
  return asciiBytes(bin);
}

/**
 * A bitmap as one path of its black runs (one rectangle a run), at (x, y), each dot `scale` scene units (the
 * `^GF`/`^XG` magnification). Rectangles on whole dots draw exactly the same dots in every output.
 */
export function bitmapPath(
  bitmap: ZplBitmap,
  x: number,
  y: number,
  scaleX: number,
  scaleY: number,
  color: string,
): PathNode | undefined {
  const parts: string[] = [];
  const width = bitmap.rowBytes * 8;
  for (let r = 0; r < bitmap.rows; r++) {
    const base = r * bitmap.rowBytes;
    let start = -1;
    for (let c = 0; c <= width; c++) {
      const black = c < width && ((bitmap.data[base + (c >> 3)] ?? 0) & (0x80 >> (c & 7))) !== 0;
      if (black && start < 0) start = c;
      if (!black && start >= 0) {
        const w = (c - start) * scaleX;
        parts.push(`M${x + start * scaleX} ${y + r * scaleY}h${w}v${scaleY}h${-w}Z`);
        start = -1;
      }
    }
  }
  if (!parts.length) return undefined;
  return { kind: 'path', d: parts.join(''), fill: color };
}
