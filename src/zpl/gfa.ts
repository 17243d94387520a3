/**
 * `^GFA` graphic field encoders: a MonoBitmap (1 = black, rows packed MSB first) to the data a Zebra printer
 * downloads, in one of three encodings (reference/zpl.md, "^GF graphic field"):
 *  - `z64`: `:Z64:` + base64(zlib stream) + `:` + CRC-16/XMODEM of the base64 text. Smallest; the default.
 *  - `acs`: Zebra's ASCII compression (run letters, `,` and `:`). For old firmware without Z64.
 *  - `hex`: two uppercase hex digits per byte. Largest; for debugging and the most basic emulators.
 *
 * In every encoding the `b` and `c` fields are the UNCOMPRESSED byte count (real printers reject `b != c`), and the
 * data alphabet never contains `^` or `~`, which would abort the download and start a new command.
 */
import { zlibSync } from 'fflate';
import type { MonoBitmap } from '../render/bitmap';
import type { Deflate } from '../render/deflate';
import { assertNever } from '../base/assert-never';
import { crc16XmodemValue } from './crc';

export type GfaCompression = 'z64' | 'acs' | 'hex';

/** The zlib port (src/render/deflate.ts); Node passes native zlib, fflate level 9 is the default here. */
export type { Deflate };

export interface GfaOptions {
  /** zlib compressor for `z64`; default fflate level 9. */
  deflate?: Deflate;
}

/** fflate's zlib at level 9: pure JS, for the browser and wherever no native zlib is injected. */
export const fflateDeflate9: Deflate = (bytes) => zlibSync(bytes, { level: 9 });

/** Documented maximum of `^GF`'s byte counts; larger labels are split into bands of whole rows. */
export const GFA_MAX_BYTES = 99_999;

/** A horizontal band of whole rows: `y` is the first row, in dots from the top of the bitmap. */
export interface GfaBand {
  y: number;
  rows: number;
}

/**
 * Splits `height` rows of `rowBytes` bytes into as few bands as possible, each at most `maxBytes` uncompressed
 * bytes, top to bottom. 4x6 in at 300 dpi (150 bytes/row, 1800 rows) gives bands of 666, 666 and 468 rows.
 */
export function planGfaBands(rowBytes: number, height: number, maxBytes: number = GFA_MAX_BYTES): GfaBand[] {
  if (!Number.isInteger(rowBytes) || rowBytes < 1)
    throw new RangeError(`rowBytes must be a positive integer, got ${rowBytes}`);
  if (!Number.isInteger(height) || height < 1)
    throw new RangeError(`height must be a positive integer, got ${height}`);
  const rowsPerBand = Math.floor(maxBytes / rowBytes);
  if (rowsPerBand < 1)
    throw new RangeError(`one row of ${rowBytes} bytes exceeds the ${maxBytes}-byte ^GF limit`);
  const bands: GfaBand[] = [];
  for (let y = 0; y < height; y += rowsPerBand) bands.push({ y, rows: Math.min(rowsPerBand, height - y) });
  return bands;
}

/**
 * One `^GFA,b,c,d,data` command (no `^FO`, no `^FS`) for the rows `band` of `bitmap` (all rows by default).
 * `b` = `c` = rowBytes * rows (uncompressed, whatever the encoding), `d` = rowBytes.
 */
export function encodeGfa(
  bitmap: MonoBitmap,
  compression: GfaCompression,
  band?: GfaBand,
  options: GfaOptions = {},
): string {
  const rows = bandRows(bitmap, band);
  const byteCount = rows.length;
  return `^GFA,${byteCount},${byteCount},${bitmap.rowBytes},${encodeGfaData(rows, bitmap.rowBytes, compression, options)}`;
}

/**
 * The whole bitmap as `^FO0,y^GFA,...^FS` fields, one per band of at most `maxBytes` uncompressed bytes, so a
 * label of any size stays within the documented `^GF` limit. Field origins are relative to the label home.
 */
export function encodeGfaBands(
  bitmap: MonoBitmap,
  compression: GfaCompression,
  maxBytes: number = GFA_MAX_BYTES,
  options: GfaOptions = {},
): string[] {
  return planGfaBands(bitmap.rowBytes, bitmap.height, maxBytes).map(
    (band) => `^FO0,${band.y}${encodeGfa(bitmap, compression, band, options)}^FS`,
  );
}

/** The data part of `^GFA` for packed rows (`rows.length` a multiple of `rowBytes`). */
export function encodeGfaData(
  rows: Uint8Array,
  rowBytes: number,
  compression: GfaCompression,
  options: GfaOptions = {},
): string {
  switch (compression) {
    case 'z64':
      return encodeZ64(rows, options.deflate, rowBytes);
    case 'acs':
      return encodeAcs(rows, rowBytes);
    case 'hex':
      return encodeHex(rows);
    default:
      return assertNever(compression, 'GFA compression');
  }
}

/**
 * `:Z64:` + base64(zlib(bytes)) + `:` + CRC, the CRC over the base64 ASCII, not the bytes. The size matters on
 * slow serial/USB links, so the default deflate is level 9 (label bitmaps are mostly white).
 * One pass after the deflate: base64, CRC and the framing are written into one buffer, decoded to text once.
 */
export function encodeZ64(bytes: Uint8Array, deflate: Deflate = fflateDeflate9, rowBytes?: number): string {
  const z = deflate(bytes, rowBytes);
  const b64Length = Math.ceil(z.length / 3) * 4;
  const out = new Uint8Array(Z64_PREFIX.length + b64Length + 5);
  out.set(Z64_PREFIX);
  const end = writeBase64(z, out, Z64_PREFIX.length);
  const crc = crc16XmodemValue(out.subarray(Z64_PREFIX.length, end));
  out[end] = 58; // ':'
  // Four UPPERCASE hex digits: printers reject a lowercase or short CRC.
  out[end + 1] = HEX_DIGITS[(crc >> 12) & 15] ?? 0;
  out[end + 2] = HEX_DIGITS[(crc >> 8) & 15] ?? 0;
  out[end + 3] = HEX_DIGITS[(crc >> 4) & 15] ?? 0;
  out[end + 4] = HEX_DIGITS[crc & 15] ?? 0;
  return asciiString(out);
}

/** ':Z64:' */
const Z64_PREFIX = new Uint8Array([58, 90, 54, 52, 58]);

/** Two UPPERCASE hex digits per byte, no separators. */
export function encodeHex(bytes: Uint8Array): string {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    out[2 * i] = HEX_DIGITS[byte >> 4] ?? 0;
    out[2 * i + 1] = HEX_DIGITS[byte & 15] ?? 0;
  }
  return asciiString(out);
}

/**
 * Zebra ASCII compression, row by row:
 *  - a row equal to the previous one is `:`;
 *  - trailing zero digits of a row are `,` (an all-white row is just `,`);
 *  - a run of 3 or more equal hex digits is a count prefix + the digit: at most one of `g`..`z` (20..400) and
 *    at most one of `G`..`Y` (1..19), so a prefix never exceeds 419 and longer runs are split. Firmware that
 *    does not add several letters of the same case therefore reads us right.
 *  - `!` (fill the row with 1s) is NEVER emitted: renderers disagree on what it means.
 */
export function encodeAcs(bytes: Uint8Array, rowBytes: number): string {
  if (bytes.length % rowBytes !== 0)
    throw new RangeError(`${bytes.length} bytes is not whole rows of ${rowBytes}`);
  const digitsPerRow = rowBytes * 2;
  const nibbles = new Uint8Array(digitsPerRow);
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += rowBytes) {
    if (start > 0 && sameRow(bytes, start - rowBytes, start, rowBytes)) {
      parts.push(':');
      continue;
    }
    for (let i = 0; i < rowBytes; i++) {
      const byte = bytes[start + i] ?? 0;
      nibbles[2 * i] = byte >> 4;
      nibbles[2 * i + 1] = byte & 15;
    }
    let end = digitsPerRow; // one past the last non-zero digit
    while (end > 0 && nibbles[end - 1] === 0) end--;
    let row = '';
    for (let i = 0; i < end;) {
      const digit = nibbles[i] ?? 0;
      let run = 1;
      while (i + run < end && nibbles[i + run] === digit) run++;
      row += acsRun(digit, run);
      i += run;
    }
    if (end < digitsPerRow) row += ',';
    parts.push(row);
  }
  return parts.join('');
}

/** Largest run one count prefix expresses: `z` (400) + `Y` (19). */
const ACS_MAX_RUN = 419;

function acsRun(digit: number, run: number): string {
  const char = String.fromCharCode(HEX_DIGITS[digit] ?? 0);
  let out = '';
  for (let left = run; left > 0;) {
    const chunk = Math.min(left, ACS_MAX_RUN);
    if (chunk <= 2) {
      // A prefix would not be shorter than the digits themselves.
      out += char.repeat(chunk);
    } else {
      const twenties = Math.floor(chunk / 20);
      const ones = chunk % 20;
      if (twenties > 0) out += String.fromCharCode(0x67 + twenties - 1); // 'g' = 20 ... 'z' = 400
      if (ones > 0) out += String.fromCharCode(0x47 + ones - 1); // 'G' = 1 ... 'Y' = 19
      out += char;
    }
    left -= chunk;
  }
  return out;
}

function sameRow(bytes: Uint8Array, a: number, b: number, rowBytes: number): boolean {
  for (let i = 0; i < rowBytes; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

function bandRows(bitmap: MonoBitmap, band: GfaBand | undefined): Uint8Array {
  const { width, height, rowBytes, data } = bitmap;
  if (rowBytes !== Math.ceil(width / 8) || width < 1) {
    throw new RangeError(`bitmap rowBytes ${rowBytes} does not match width ${width}`);
  }
  if (data.length < rowBytes * height)
    throw new RangeError(`bitmap data has ${data.length} bytes, needs ${rowBytes * height}`);
  const { y, rows } = band ?? { y: 0, rows: height };
  if (!Number.isInteger(y) || !Number.isInteger(rows) || y < 0 || rows < 1 || y + rows > height) {
    throw new RangeError(`band y=${y} rows=${rows} is outside the bitmap's ${height} rows`);
  }
  return data.subarray(y * rowBytes, (y + rows) * rowBytes);
}

/** ASCII codes of 0-9A-F. */
const HEX_DIGITS = new Uint8Array([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70]);

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_CODES = new Uint8Array([...BASE64_ALPHABET].map((c) => c.charCodeAt(0)));
const PAD = 61; // '='

/**
 * Standard base64 with padding, no line breaks, written into `out` from `at`; returns the end offset (no
 * Buffer/btoa: src/ stays portable and binary-safe).
 */
function writeBase64(bytes: Uint8Array, out: Uint8Array, at: number): number {
  let o = at;
  let i = 0;
  const n = bytes.length;
  for (; i + 2 < n; i += 3) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out[o++] = BASE64_CODES[v >> 18] ?? 0;
    out[o++] = BASE64_CODES[(v >> 12) & 63] ?? 0;
    out[o++] = BASE64_CODES[(v >> 6) & 63] ?? 0;
    out[o++] = BASE64_CODES[v & 63] ?? 0;
  }
  const left = n - i;
  if (left > 0) {
    const v = ((bytes[i] ?? 0) << 16) | (left === 2 ? (bytes[i + 1] ?? 0) << 8 : 0);
    out[o++] = BASE64_CODES[v >> 18] ?? 0;
    out[o++] = BASE64_CODES[(v >> 12) & 63] ?? 0;
    out[o++] = left === 2 ? (BASE64_CODES[(v >> 6) & 63] ?? 0) : PAD;
    out[o++] = PAD;
  }
  return o;
}

/** Pure-ASCII bytes decode identically as UTF-8; TextDecoder is ~50x faster than String.fromCharCode spreads. */
const ASCII_DECODER = new TextDecoder();

function asciiString(codes: Uint8Array): string {
  return ASCII_DECODER.decode(codes);
}
