/**
 * The barcode formats LabelDesk encodes: a closed union whose names are the hosted service's markup names
 * (which are bwip-js bcids, reference/markup.md) plus `gs1-128` and `itf14`. Per-format facts that do not
 * depend on the value live here: bwip-js bcid, symbol kind, quiet zones, human-readable default.
 */
import { assertNever } from '../scene';

/** Every format, in the order a format picker shows them. Usable as a zod enum (`z.enum(BARCODE_FORMATS)`). */
export const BARCODE_FORMATS = [
  'code128',
  'gs1-128',
  'code39',
  'ean13',
  'ean8',
  'upca',
  'itf14',
  'isbn',
  'ismn',
  'issn',
  'qrcode',
  'datamatrix',
  'pdf417',
] as const;

export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

/** Linear symbols are bars of one height; matrix symbols (QR, Data Matrix, PDF417 rows) are module grids. */
export type SymbolKind = 'linear' | 'matrix';

/** `name` as a BarcodeFormat, or undefined for a name we do not encode (the caller words the error). */
export function parseBarcodeFormat(name: string): BarcodeFormat | undefined {
  return (BARCODE_FORMATS as readonly string[]).includes(name) ? (name as BarcodeFormat) : undefined;
}

/** The bwip-js encoder id for a format. */
export function bwipBcid(format: BarcodeFormat): string {
  switch (format) {
    case 'code128':
    case 'gs1-128':
    case 'code39':
    case 'ean13':
    case 'ean8':
    case 'upca':
    case 'itf14':
    case 'isbn':
    case 'ismn':
    case 'issn':
    case 'qrcode':
    case 'datamatrix':
    case 'pdf417':
      // Our names are bwip-js's on purpose (markup compatibility); the switch keeps the union closed.
      return format;
    default:
      return assertNever(format, 'barcode format');
  }
}

/** A user-facing name for messages ("EAN-13", "QR code"). */
export function formatLabel(format: BarcodeFormat): string {
  switch (format) {
    case 'code128':
      return 'Code 128';
    case 'gs1-128':
      return 'GS1-128';
    case 'code39':
      return 'Code 39';
    case 'ean13':
      return 'EAN-13';
    case 'ean8':
      return 'EAN-8';
    case 'upca':
      return 'UPC-A';
    case 'itf14':
      return 'ITF-14';
    case 'isbn':
      return 'ISBN';
    case 'ismn':
      return 'ISMN';
    case 'issn':
      return 'ISSN';
    case 'qrcode':
      return 'QR code';
    case 'datamatrix':
      return 'Data Matrix';
    case 'pdf417':
      return 'PDF417';
    default:
      return assertNever(format, 'barcode format');
  }
}

export function symbolKind(format: BarcodeFormat): SymbolKind {
  switch (format) {
    case 'qrcode':
    case 'datamatrix':
    case 'pdf417':
      return 'matrix';
    case 'code128':
    case 'gs1-128':
    case 'code39':
    case 'ean13':
    case 'ean8':
    case 'upca':
    case 'itf14':
    case 'isbn':
    case 'ismn':
    case 'issn':
      return 'linear';
    default:
      return assertNever(format, 'barcode format');
  }
}

/** Quiet zones in modules (X). Linear symbols have left/right zones; matrix symbols one zone on every side. */
export interface QuietZone {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Minimum quiet zones from the symbology specifications: Code 128 / GS1-128 10X (ISO/IEC 15417, GS1 General
 * Specifications), Code 39 10X (ISO/IEC 16388), EAN-13 11X left / 7X right and EAN-8 7X / 7X, UPC-A 9X / 9X
 * (ISO/IEC 15420), ITF-14 10X (GS1), QR 4X (ISO/IEC 18004), Data Matrix 1X (ISO/IEC 16022), PDF417 2X
 * (ISO/IEC 15438). Linear symbols need no vertical quiet zone.
 */
export function quietZone(format: BarcodeFormat): QuietZone {
  const sides = (left: number, right: number): QuietZone => ({ left, right, top: 0, bottom: 0 });
  const around = (q: number): QuietZone => ({ left: q, right: q, top: q, bottom: q });
  switch (format) {
    case 'code128':
    case 'gs1-128':
    case 'code39':
    case 'itf14':
      return sides(10, 10);
    case 'ean13':
    case 'isbn':
    case 'ismn':
    case 'issn':
      return sides(11, 7);
    case 'ean8':
      return sides(7, 7);
    case 'upca':
      return sides(9, 9);
    case 'qrcode':
      return around(4);
    case 'datamatrix':
      return around(1);
    case 'pdf417':
      return around(2);
    default:
      return assertNever(format, 'barcode format');
  }
}

/** Retail and carton codes print their digits under the bars by convention; the rest do not by default. */
export function humanReadableByDefault(format: BarcodeFormat): boolean {
  switch (format) {
    case 'ean13':
    case 'ean8':
    case 'upca':
    case 'itf14':
    case 'isbn':
    case 'ismn':
    case 'issn':
      return true;
    case 'code128':
    case 'gs1-128':
    case 'code39':
    case 'qrcode':
    case 'datamatrix':
    case 'pdf417':
      return false;
    default:
      return assertNever(format, 'barcode format');
  }
}
