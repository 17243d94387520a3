/**
 * Test support: read a ZPL job produced by src/zpl back into what a printer would print, so tests can compare
 * bits and scan barcodes (decodeZpl + writeMonoPgm + zbarimg).
 *
 * Deliberately strict and independent of src/zpl: its own CRC-16/XMODEM, Node's zlib and Buffer base64, its own
 * ACS parser. It rejects what a real printer would reject or what we promise never to emit: a bad or lowercase
 * Z64 CRC, `b != c`, a byte count that does not match the data, ACS `!`, `^GFB`/`^GFC`, a job without `^XA`/`^XZ`.
 */
import { inflateSync } from 'node:zlib';
import { createMonoBitmap, setDot, type MonoBitmap } from '../../src/render/bitmap';
import { writeMonoPgm } from './pgm';

export class ZplDecodeError extends Error {
  override name = 'ZplDecodeError';
}

export type GfaEncoding = 'z64' | 'b64' | 'acs' | 'hex';

export interface DecodedGraphic {
  /** Field origin (`^FO`) in dots, relative to the label home. */
  x: number;
  y: number;
  /** `b`, `c` and `d` of `^GFA,b,c,d,`. */
  byteCount: number;
  fieldCount: number;
  rowBytes: number;
  rows: number;
  encoding: GfaEncoding;
  /** The uncompressed packed rows. */
  data: Uint8Array;
}

export interface ZplCommand {
  /** `^XA`, `^PW`, `~SD`, ... (uppercase). */
  name: string;
  /** Everything after the name up to the next `^`/`~`, line breaks removed. */
  params: string;
}

export interface DecodedRfidWrite {
  /** The `^RF` parameters, e.g. `W,H` or `W,H,0,4,3`. */
  params: string;
  /** The `^FD` data of that field. */
  data: string;
}

export interface DecodedZpl {
  /**
   * The printed dots in label coordinates (relative to the label home): `^PW` wide and `^LL` long when given
   * (else just large enough for the graphics); dots outside are cropped as the printer would.
   */
  bitmap: MonoBitmap;
  printWidth?: number;
  labelLength?: number;
  labelHome?: { x: number; y: number };
  graphics: DecodedGraphic[];
  rfidWrites: DecodedRfidWrite[];
  /** Every command in order. */
  commands: ZplCommand[];
}

/** Parses one label job `^XA ... ^XZ` (optionally followed by line breaks). */
export function decodeZpl(zpl: string): DecodedZpl {
  const commands = tokenize(zpl);
  if (commands[0]?.name !== '^XA') throw new ZplDecodeError('job does not start with ^XA');
  if (commands.at(-1)?.name !== '^XZ') throw new ZplDecodeError('job does not end with ^XZ');
  if (commands.filter((c) => c.name === '^XA' || c.name === '^XZ').length !== 2) {
    throw new ZplDecodeError('expected exactly one ^XA ... ^XZ label');
  }

  const result: Omit<DecodedZpl, 'bitmap'> = { graphics: [], rfidWrites: [], commands };
  let origin = { x: 0, y: 0 };
  let graphic: Omit<DecodedGraphic, 'x' | 'y'> | undefined;
  let rfidParams: string | undefined;
  let fieldData: string | undefined;
  for (const { name, params } of commands) {
    switch (name) {
      case '^PW':
        result.printWidth = parseInteger(name, params);
        break;
      case '^LL':
        result.labelLength = parseInteger(name, params);
        break;
      case '^LH': {
        const [x = '', y = ''] = params.split(',');
        result.labelHome = { x: parseInteger('^LH x', x), y: parseInteger('^LH y', y) };
        break;
      }
      case '^FO': {
        const [x = '', y = ''] = params.split(',');
        origin = { x: parseInteger('^FO x', x), y: parseInteger('^FO y', y) };
        break;
      }
      case '^GF':
        graphic = decodeGfaParams(params);
        break;
      case '^RF':
        rfidParams = params;
        break;
      case '^FD':
        fieldData = params;
        break;
      case '^FS':
        if (graphic) result.graphics.push({ ...origin, ...graphic });
        if (rfidParams !== undefined) result.rfidWrites.push({ params: rfidParams, data: fieldData ?? '' });
        origin = { x: 0, y: 0 };
        graphic = undefined;
        rfidParams = undefined;
        fieldData = undefined;
        break;
      default:
        break;
    }
  }
  if (graphic || rfidParams !== undefined) throw new ZplDecodeError('field not closed with ^FS');
  return { ...result, bitmap: paint(result) };
}

/**
 * decodeZpl, then the printed dots to a PGM for zbarimg (white `margin` around them; each dot `scale` pixels
 * square, as a scan at that multiple of the printer's dpi).
 */
export function decodeZplToPgm(zpl: string, path: string, margin = 20, scale = 1): DecodedZpl {
  const decoded = decodeZpl(zpl);
  writeMonoPgm(path, decoded.bitmap, margin, scale);
  return decoded;
}

/** Parses the parameters of `^GF` (after the `^GF`): `A,b,c,d,data`. */
export function decodeGfaParams(params: string): Omit<DecodedGraphic, 'x' | 'y'> {
  const match = /^([A-Z]),(\d+),(\d+),(\d+),([\s\S]*)$/.exec(params);
  if (!match) throw new ZplDecodeError(`malformed ^GF parameters: ${params.slice(0, 40)}`);
  const [, format = '', b = '', c = '', d = '', data = ''] = match;
  if (format !== 'A') throw new ZplDecodeError(`^GF format ${format}: only A (ASCII) is decoded`);
  const byteCount = Number(b);
  const fieldCount = Number(c);
  const rowBytes = Number(d);
  if (byteCount !== fieldCount) throw new ZplDecodeError(`^GFA b (${byteCount}) != c (${fieldCount})`);
  if (rowBytes < 1 || byteCount % rowBytes !== 0) {
    throw new ZplDecodeError(`^GFA byte count ${byteCount} is not whole rows of ${rowBytes}`);
  }
  if (byteCount > 99_999) throw new ZplDecodeError(`^GFA byte count ${byteCount} exceeds 99,999`);
  const { encoding, bytes } = decodeGfaData(data, byteCount, rowBytes);
  return { byteCount, fieldCount, rowBytes, rows: byteCount / rowBytes, encoding, data: bytes };
}

/** The data of a `^GFA` to `byteCount` bytes: Z64/B64 (CRC checked), else ACS (plain hex being its subset). */
export function decodeGfaData(
  data: string,
  byteCount: number,
  rowBytes: number,
): { encoding: GfaEncoding; bytes: Uint8Array } {
  const base = /^:(Z64|B64):([A-Za-z0-9+/=]*):(.*)$/.exec(data);
  if (base) {
    const [, kind = '', text = '', crc = ''] = base;
    if (!/^[0-9A-F]{4}$/.test(crc))
      throw new ZplDecodeError(`${kind} CRC must be 4 uppercase hex digits, got "${crc}"`);
    const expected = crc16XmodemReference(text);
    if (crc !== expected)
      throw new ZplDecodeError(`${kind} CRC mismatch: data says ${crc}, computed ${expected}`);
    const raw = Buffer.from(text, 'base64');
    let bytes: Uint8Array;
    try {
      bytes = kind === 'Z64' ? new Uint8Array(inflateSync(raw)) : new Uint8Array(raw);
    } catch (e) {
      throw new ZplDecodeError(`${kind} data does not inflate: ${(e as Error).message}`);
    }
    if (bytes.length !== byteCount) {
      throw new ZplDecodeError(`${kind} data holds ${bytes.length} bytes, ^GFA says ${byteCount}`);
    }
    return { encoding: kind === 'Z64' ? 'z64' : 'b64', bytes };
  }
  if (data.startsWith(':Z64:') || data.startsWith(':B64:'))
    throw new ZplDecodeError('malformed Z64/B64 data');
  const isPlainHex = data.length === byteCount * 2 && /^[0-9A-F]*$/.test(data);
  return { encoding: isPlainHex ? 'hex' : 'acs', bytes: decodeAcs(data, byteCount, rowBytes) };
}

/**
 * Zebra ASCII compression: hex digits; `G`..`Y` (1..19) and `g`..`z` (20..400) add up to a repeat count for the
 * next digit; `,` fills the rest of the row with 0; `:` repeats the previous row. `!` is refused (renderers
 * disagree on it). Digits are uppercase only, as we emit.
 */
export function decodeAcs(data: string, byteCount: number, rowBytes: number): Uint8Array {
  const out = new Uint8Array(byteCount);
  const digitsPerRow = rowBytes * 2;
  const totalRows = byteCount / rowBytes;
  let row = 0;
  let pos = 0; // hex digit position in the current row
  let repeat = 0;
  const finishRow = (): void => {
    row++;
    pos = 0;
  };
  for (let i = 0; i < data.length; i++) {
    const ch = data[i] ?? '';
    const code = ch.charCodeAt(0);
    if (row >= totalRows)
      throw new ZplDecodeError(`ACS data continues past ${totalRows} rows at offset ${i}`);
    if (ch >= 'G' && ch <= 'Y') {
      repeat += code - 0x47 + 1;
    } else if (ch >= 'g' && ch <= 'z') {
      repeat += (code - 0x67 + 1) * 20;
    } else if (/[0-9A-F]/.test(ch)) {
      const count = repeat || 1;
      repeat = 0;
      if (pos + count > digitsPerRow) throw new ZplDecodeError(`ACS run at offset ${i} overflows row ${row}`);
      const nibble = parseInt(ch, 16);
      for (let k = 0; k < count; k++) {
        const index = row * rowBytes + ((pos + k) >> 1);
        out[index] = (out[index] ?? 0) | ((pos + k) % 2 === 0 ? nibble << 4 : nibble);
      }
      pos += count;
      if (pos === digitsPerRow) finishRow();
    } else if (ch === ',') {
      if (repeat) throw new ZplDecodeError(`ACS repeat count before "," at offset ${i}`);
      finishRow(); // the rest of the row is already 0
    } else if (ch === ':') {
      if (repeat || pos !== 0) throw new ZplDecodeError(`ACS ":" not at a row start (offset ${i})`);
      if (row === 0) throw new ZplDecodeError('ACS ":" on the first row has no previous row');
      out.copyWithin(row * rowBytes, (row - 1) * rowBytes, row * rowBytes);
      finishRow();
    } else if (ch === '!') {
      throw new ZplDecodeError(
        `ACS "!" at offset ${i}: ambiguous between renderers, never emitted by LabelDesk`,
      );
    } else {
      throw new ZplDecodeError(`unexpected character ${JSON.stringify(ch)} in ^GFA data at offset ${i}`);
    }
  }
  if (repeat) throw new ZplDecodeError('ACS data ends with a repeat count and no digit');
  if (row !== totalRows || pos !== 0) {
    throw new ZplDecodeError(`ACS data fills ${row} rows and ${pos} digits, ^GFA says ${totalRows} rows`);
  }
  return out;
}

/** Bit-by-bit CRC-16/XMODEM (poly 0x1021, init 0), independent of the table-driven one in src/zpl/crc.ts. */
export function crc16XmodemReference(ascii: string): string {
  let crc = 0;
  for (let i = 0; i < ascii.length; i++) {
    crc ^= ascii.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function tokenize(zpl: string): ZplCommand[] {
  const commands: ZplCommand[] = [];
  const text = zpl.replace(/[\r\n]/g, '');
  for (let i = 0; i < text.length;) {
    const prefix = text[i];
    if (prefix !== '^' && prefix !== '~') {
      throw new ZplDecodeError(
        `text outside any command at offset ${i}: ${JSON.stringify(text.slice(i, i + 20))}`,
      );
    }
    let end = i + 1;
    while (end < text.length && text[end] !== '^' && text[end] !== '~') end++;
    const body = text.slice(i + 1, end);
    if (body.length < 2) throw new ZplDecodeError(`truncated command at offset ${i}`);
    commands.push({ name: prefix + body.slice(0, 2).toUpperCase(), params: body.slice(2) });
    i = end;
  }
  return commands;
}

function parseInteger(what: string, text: string): number {
  if (!/^-?\d+$/.test(text)) throw new ZplDecodeError(`${what}: expected an integer, got "${text}"`);
  return Number(text);
}

function paint(decoded: Omit<DecodedZpl, 'bitmap'>): MonoBitmap {
  const width = decoded.printWidth ?? Math.max(1, ...decoded.graphics.map((g) => g.x + g.rowBytes * 8));
  const height = decoded.labelLength ?? Math.max(1, ...decoded.graphics.map((g) => g.y + g.rows));
  const bitmap = createMonoBitmap(width, height);
  for (const g of decoded.graphics) {
    for (let r = 0; r < g.rows; r++) {
      const y = g.y + r;
      if (y >= height) break;
      for (let b = 0; b < g.rowBytes; b++) {
        const byte = g.data[r * g.rowBytes + b] ?? 0;
        if (byte === 0) continue;
        for (let bit = 0; bit < 8; bit++) {
          const x = g.x + b * 8 + bit;
          if (x < width && byte & (0x80 >> bit)) setDot(bitmap, x, y, true);
        }
      }
    }
  }
  return bitmap;
}
