/**
 * Barcode geometry in MODULE units, independent of any target: computed once per value (encode.ts) and
 * placed on a target's grid by placement.ts. Module 0 is the left edge of the left quiet zone.
 */
import type { BarcodeFormat } from '../../model/barcode/formats';
import { assertNever } from '../../base/assert-never';

/** Encoder choices that change the symbol (not its placement). Defaults are the symbologies' usual ones. */
export interface EncodeOptions {
  /** QR error correction: L 7 %, M 15 % (default), Q 25 %, H 30 % of the symbol can be lost. */
  qrErrorCorrection?: 'L' | 'M' | 'Q' | 'H';
  /** PDF417 error correction level 0–8; default chosen by bwip-js from the data length (ISO/IEC 15438 minimums). */
  pdf417ErrorCorrection?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  /** PDF417 data columns (1–30); default chosen by bwip-js for a roughly 2:1 symbol. */
  pdf417Columns?: number;
  /** Data Matrix ECC 200 has fixed error correction; only its shape is a choice (default square). */
  dataMatrixShape?: 'square' | 'rectangle';
}

/** QR error correction when none is asked for: M, as bwip-js and most QR generators default to. */
export const DEFAULT_QR_ERROR_CORRECTION = 'M';

interface GeometryBase {
  format: BarcodeFormat;
  /** What the symbol encodes and a scanner reads (check digit completed; ISBN/ISMN/ISSN as 13-digit EAN). */
  value: string;
  /** The text printed under the bars when human-readable text is on. */
  humanReadable: string;
}

/** A linear symbol: dark bars on a light background, all of the same height. */
export interface LinearGeometry extends GeometryBase {
  kind: 'linear';
  /** Dark bars as [startModule, widthModules], whole modules, left to right, quiet zone included in starts. */
  bars: ReadonlyArray<readonly [number, number]>;
  /** Quiet zones in modules, left and right. */
  quietLeft: number;
  quietRight: number;
  /** Symbol width in modules including both quiet zones. */
  totalModules: number;
  /** EAN/UPC (ISO/IEC 15420): which bars are guards, the add-on, and where the digits go. Absent for the rest. */
  retail?: RetailLayout;
}

/**
 * How an EAN/UPC symbol is drawn (ISO/IEC 15420, GS1 General Specifications 5.2): guard bars (and UPC-A's
 * first and last characters) extend 5X below the data bars; the digits sit under the data bars between the
 * guards, the leading digit of EAN-13 and the outer digits of UPC-A/UPC-E outside the bars in the quiet zones
 * (UPC's smaller); an EAN-2/EAN-5 add-on's bars start lower, with its digits above them.
 */
export interface RetailLayout {
  /** Per bar of `bars`, in order: a guard bar, a data bar, or a bar of the add-on. */
  roles: ReadonlyArray<BarRole>;
  /** The human-readable digits, group by group. */
  digits: ReadonlyArray<RetailDigits>;
}

export type BarRole = 'guard' | 'data' | 'addon';

/** A group of digits centred over modules [from, to) (module 0 is the left edge of the left quiet zone). */
export interface RetailDigits {
  text: string;
  from: number;
  to: number;
  /** UPC-A/UPC-E's number system and check digits: a smaller size. */
  small: boolean;
  /** Above the bars (an add-on's digits) rather than under them. */
  above: boolean;
}

/** A matrix symbol (QR, Data Matrix, PDF417): square modules in rows × cols plus a quiet zone on every side. */
export interface MatrixGeometry extends GeometryBase {
  kind: 'matrix';
  rows: number;
  cols: number;
  /** Row-major, `rows * cols` entries, 1 = dark. PDF417 rows are repeated to their 3-module row height. */
  modules: Uint8Array;
  /** Quiet zone in modules on each side (QR 4, Data Matrix 1, PDF417 2). */
  quietZone: number;
}

export type BarcodeGeometry = LinearGeometry | MatrixGeometry;

/** Symbol size in modules, quiet zones included. */
export function geometrySize(g: BarcodeGeometry): { width: number; height: number } {
  switch (g.kind) {
    case 'linear':
      // Linear symbols have no height in modules: the box decides it.
      return { width: g.totalModules, height: 0 };
    case 'matrix':
      return { width: g.cols + 2 * g.quietZone, height: g.rows + 2 * g.quietZone };
    default:
      return assertNever(g, 'barcode geometry');
  }
}
