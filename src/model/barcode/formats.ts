/**
 * The barcode formats LabelDesk encodes: a closed union whose names are the hosted service's markup names
 * (which are bwip-js bcids, reference/markup.md) plus bwip-js's `gs1-128`, `itf14`, `gs1datamatrix` and
 * `gs1qrcode`. Per-format facts that do not depend on the value live here: bwip-js
 * bcid, symbol kind, quiet zones, human-readable default.
 */
/** Every format, in the order a format picker shows them. Usable as a zod enum (`z.enum(BARCODE_FORMATS)`). */
export const BARCODE_FORMATS = [
  'code128',
  'gs1-128',
  'code39',
  'ean13',
  'ean8',
  'upca',
  'upce',
  'itf14',
  'isbn',
  'ismn',
  'issn',
  'qrcode',
  'gs1qrcode',
  'datamatrix',
  'gs1datamatrix',
  'pdf417',
] as const;

export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

/**
 * ITF-14 bearer bars (GS1 General Specifications): a frame around the bars and their quiet zones (asked for
 * ITF-14 printed on corrugated), a bar above and one below (enough on a label), or none.
 */
export const ITF_BEARERS = ['frame', 'top-bottom', 'none'] as const;
export type ItfBearer = (typeof ITF_BEARERS)[number];

/** Linear symbols are bars of one height; matrix symbols (QR, Data Matrix, PDF417 rows) are module grids. */
export type SymbolKind = 'linear' | 'matrix';

/** `name` as a BarcodeFormat, or undefined for a name we do not encode (the caller words the error). */
export function parseBarcodeFormat(name: string): BarcodeFormat | undefined {
  return (BARCODE_FORMATS as readonly string[]).includes(name) ? (name as BarcodeFormat) : undefined;
}

/** Quiet zones in modules (X). Linear symbols have left/right zones; matrix symbols one zone on every side. */
export interface QuietZone {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface FormatFacts {
  /** A user-facing name for messages ("EAN-13", "QR code"). */
  label: string;
  kind: SymbolKind;
  quietZone: QuietZone;
  /** Retail and carton codes print their digits under the bars by convention; the rest do not by default. */
  humanReadable: boolean;
}

const sides = (left: number, right: number): QuietZone => ({ left, right, top: 0, bottom: 0 });
const around = (q: number): QuietZone => ({ left: q, right: q, top: q, bottom: q });
const linear = (label: string, quietZone: QuietZone, humanReadable: boolean): FormatFacts => ({
  label,
  kind: 'linear',
  quietZone,
  humanReadable,
});
const matrix = (label: string, quiet: number): FormatFacts => ({
  label,
  kind: 'matrix',
  quietZone: around(quiet),
  humanReadable: false,
});

/**
 * Per-format facts, one row per format (a Record over the closed union: a new format without a row does not
 * compile). Quiet zones are the symbology specifications' minimums: Code 128 / GS1-128 10X (ISO/IEC 15417, GS1
 * General Specifications), Code 39 10X (ISO/IEC 16388), EAN-13 11X left / 7X right and EAN-8 7X / 7X, UPC-A
 * 9X / 9X, UPC-E 9X / 7X (ISO/IEC 15420; an EAN-2/EAN-5 add-on ends with 5X), ITF-14 10X (GS1), QR 4X (ISO/IEC 18004), Data Matrix 1X (ISO/IEC 16022; GS1 asks 1X too), PDF417 2X
 * (ISO/IEC 15438). Linear symbols need no vertical quiet zone.
 */
const FORMATS: Record<BarcodeFormat, FormatFacts> = {
  code128: linear('Code 128', sides(10, 10), false),
  'gs1-128': linear('GS1-128', sides(10, 10), false),
  code39: linear('Code 39', sides(10, 10), false),
  ean13: linear('EAN-13', sides(11, 7), true),
  ean8: linear('EAN-8', sides(7, 7), true),
  upca: linear('UPC-A', sides(9, 9), true),
  upce: linear('UPC-E', sides(9, 7), true),
  itf14: linear('ITF-14', sides(10, 10), true),
  isbn: linear('ISBN', sides(11, 7), true),
  ismn: linear('ISMN', sides(11, 7), true),
  issn: linear('ISSN', sides(11, 7), true),
  qrcode: matrix('QR code', 4),
  gs1qrcode: matrix('GS1 QR code', 4),
  datamatrix: matrix('Data Matrix', 1),
  gs1datamatrix: matrix('GS1 DataMatrix', 1),
  pdf417: matrix('PDF417', 2),
};

/** The bwip-js encoder id for a format: our names are bwip-js's on purpose (markup compatibility). */
export function bwipBcid(format: BarcodeFormat): string {
  return format;
}

/** A user-facing name for messages ("EAN-13", "QR code"). */
export function formatLabel(format: BarcodeFormat): string {
  return FORMATS[format].label;
}

export function symbolKind(format: BarcodeFormat): SymbolKind {
  return FORMATS[format].kind;
}

export function quietZone(format: BarcodeFormat): QuietZone {
  return { ...FORMATS[format].quietZone };
}

/** Retail and carton codes print their digits under the bars by convention; the rest do not by default. */
export function humanReadableByDefault(format: BarcodeFormat): boolean {
  return FORMATS[format].humanReadable;
}
