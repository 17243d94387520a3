/**
 * The one place that calls bwip-js. We use only its `raw()` geometry (bar/space widths, module matrices),
 * never its drawings: snapping modules to printer dots is ours (placement.ts).
 *
 * `bwip-js/generic` is the platform-neutral build: no Node built-ins (the default Node entry pulls in zlib
 * for PNG) and no canvas (the browser entry), and its default export carries `raw()` in Node, vitest and a
 * browser bundle alike. (Its *named* `raw` export is BWIPP's "raw" symbology, not the geometry function.)
 */
import bwipjs from 'bwip-js/generic';
import { gs1CheckDigit } from '../../model/barcode/check-digits';
import { BarcodeValueError } from '../../model/barcode/errors';
import { bwipBcid, formatLabel, type BarcodeFormat } from '../../model/barcode/formats';
import { DEFAULT_QR_ERROR_CORRECTION, type EncodeOptions } from './geometry';
import { assertNever } from '../../base/assert-never';

/** bwip-js raw output, reduced to what we use. */
export type RawSymbol =
  /** Linear: alternating bar, space, bar… widths in modules, starting with a bar. */
  | { kind: 'linear'; sbs: number[] }
  /** Matrix: row-major 0/1 modules, `cols` × `rows` (PDF417 rows already repeated to its row height). */
  | { kind: 'matrix'; pixs: ArrayLike<number>; cols: number; rows: number };

/** Encode `text` (already checked by prepareValue) with bwip-js; its errors become BarcodeValueError. */
export function bwipRaw(format: BarcodeFormat, text: string, options: EncodeOptions): RawSymbol {
  let result: unknown;
  try {
    result = bwipjs.raw({ bcid: bwipBcid(format), text, ...bwipOptions(format, options) });
  } catch (e) {
    throw translateError(format, text, options, e);
  }
  const first = (Array.isArray(result) ? result[0] : undefined) as Record<string, unknown> | undefined;
  if (first && Array.isArray(first.sbs)) return { kind: 'linear', sbs: first.sbs as number[] };
  if (
    first &&
    Array.isArray(first.pixs) &&
    typeof first.pixx === 'number' &&
    typeof first.pixy === 'number'
  ) {
    return { kind: 'matrix', pixs: first.pixs as number[], cols: first.pixx, rows: first.pixy };
  }
  throw new BarcodeValueError(
    format,
    'invalid',
    `${formatLabel(format)}: the encoder returned no symbol for this value.`,
  );
}

/** BWIPP options per format. `includetext` stays off: human-readable text is laid out by us. */
function bwipOptions(format: BarcodeFormat, o: EncodeOptions): Record<string, string | number | boolean> {
  switch (format) {
    case 'qrcode':
    case 'gs1qrcode':
      return { eclevel: o.qrErrorCorrection ?? DEFAULT_QR_ERROR_CORRECTION };
    case 'pdf417':
      return {
        ...(o.pdf417ErrorCorrection !== undefined ? { eclevel: o.pdf417ErrorCorrection } : {}),
        ...(o.pdf417Columns !== undefined ? { columns: o.pdf417Columns } : {}),
      };
    case 'datamatrix':
    case 'gs1datamatrix':
      return o.dataMatrixShape === 'rectangle' ? { format: 'rectangle' } : {};
    case 'code128':
    case 'gs1-128':
    case 'code39':
    case 'ean13':
    case 'ean8':
    case 'upca':
    case 'upce':
    case 'itf14':
    case 'isbn':
    case 'ismn':
    case 'issn':
      return {};
    default:
      return assertNever(format, 'barcode format');
  }
}

/** Largest byte-mode payloads (ISO/IEC 18004 version 40, ISO/IEC 16022 144×144, ISO/IEC 15438), for messages. */
function capacityHint(format: BarcodeFormat, o: EncodeOptions): string {
  switch (format) {
    case 'qrcode':
    case 'gs1qrcode': {
      const level = o.qrErrorCorrection ?? DEFAULT_QR_ERROR_CORRECTION;
      const bytes = { L: 2953, M: 2331, Q: 1663, H: 1273 }[level];
      return `the largest QR code holds ${bytes} bytes at error correction ${level} (more if it is all digits); shorten the value or lower the error correction`;
    }
    case 'datamatrix':
    case 'gs1datamatrix':
      return 'the largest Data Matrix holds 1556 bytes (3116 digits); shorten the value';
    case 'pdf417':
      return 'a PDF417 symbol holds about 1100 bytes (1850 letters, 2710 digits); shorten the value or lower the error correction';
    default:
      return 'shorten the value';
  }
}

// bwip-js messages look like "bwipp.ean13badCheckDigit#6915: Incorrect EAN-13 check digit provided".
const BWIPP_MESSAGE = /^bwipp\.(\w+)#\d+:\s*(.*)$/s;

function translateError(
  format: BarcodeFormat,
  text: string,
  o: EncodeOptions,
  e: unknown,
): BarcodeValueError {
  const label = formatLabel(format);
  const raw = e instanceof Error ? e.message : String(e);
  const m = BWIPP_MESSAGE.exec(raw);
  const code = m?.[1] ?? '';
  const reason = (m?.[2] ?? raw).replace(/\.$/, '');
  const bytes = new TextEncoder().encode(text).length;
  // GS1 lint first: its "GS1alphaTooLong" is about one AI's field, not the symbol's capacity.
  if (code.startsWith('GS1')) return gs1Error(format, text, code, reason);
  if (/TooLong|TooLarge|TooMuch|insufficientCapacity|NoValidSymbol/i.test(code)) {
    return new BarcodeValueError(
      format,
      'too-long',
      `Too long for ${withArticle(label)}: ${bytes} bytes; ${capacityHint(format, o)}.`,
    );
  }
  if (/CheckDigit|Checksum/i.test(code))
    return new BarcodeValueError(format, 'bad-check-digit', `${label}: ${reason}.`);
  if (/badCharacter/i.test(code))
    return new BarcodeValueError(format, 'bad-character', `${label}: ${reason}.`);
  if (/Length|Dashes/i.test(code)) return new BarcodeValueError(format, 'bad-length', `${label}: ${reason}.`);
  return new BarcodeValueError(format, 'invalid', `${label} cannot encode this value: ${reason}.`);
}

/**
 * GS1 lint errors ("AI 01: Bad checksum") reworded; a wrong check digit names the expected one. The value check
 * (model/barcode/gs1.ts) finds these first; this is for what bwip-js's lint knows and it does not.
 */
function gs1Error(format: BarcodeFormat, text: string, code: string, reason: string): BarcodeValueError {
  const label = formatLabel(format);
  const ai = /^AI (\d{2,4}):\s*(.*)$/s.exec(reason);
  if (ai && code === 'GS1badChecksum') {
    const data = new RegExp(`\\(${ai[1]}\\)([^(]*)`).exec(text)?.[1] ?? '';
    if (/^\d+$/.test(data)) {
      const expected = gs1CheckDigit(data.slice(0, -1));
      return new BarcodeValueError(
        format,
        'bad-check-digit',
        `${label}: the check digit of AI (${ai[1]}) should be ${expected}, not ${data.slice(-1)}.`,
        expected,
      );
    }
  }
  const where = ai ? `AI (${ai[1]}): ${lowerFirst(ai[2] ?? '')}` : lowerFirst(reason);
  return new BarcodeValueError(format, 'gs1-syntax', `${label}: ${where}.`);
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const withArticle = (label: string): string => (/^[AEIOU]/.test(label) ? `an ${label}` : `a ${label}`);
