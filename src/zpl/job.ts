/**
 * One complete ZPL label job (`^XA` ... `^XZ`) from a label's 1-bit bitmap, its RFID writes and the printer
 * profile's settings. One command per line, in this order (golden tests pin it):
 *
 *   ^XA
 *   ~SD15 or ^MD-3          darkness, only when the profile sets one
 *   ^MNY ^MMT ^PR4          media tracking, print mode, print speed: each only when the profile sets it
 *   ^PW812                  print width in dots: the bitmap width, capped at the printer's maximum
 *   ^LL1218                 label length in dots: the bitmap height (1..32000)
 *   ^LH0,0                  label home, only when the profile sets offsets
 *   ^RS8 ^RFW... ^RLM...    RFID, only when the label has writes (see rfid.ts)
 *   ^FO0,y^GFA,...^FS       the bitmap, one field per band of at most 99,999 bytes (see gfa.ts)
 *   ^XZ
 *
 * followed by a final line break. Copies are separate jobs (`buildZplJobs`), never `^PQ`: each copy may carry
 * its own serial number and EPC.
 */
import { assertNever } from '../base/assert-never';
import type { RfidWrite } from '../layout/scene';
import type { MonoBitmap } from '../render/bitmap';
import { encodeGfaBands, type Deflate, type GfaCompression } from './gfa';
import { rfidCommands, type RfidOptions } from './rfid';

/** 832 dots = 4.1 in at 203 dpi, the print width of most 4 in desktop printers. */
export const DEFAULT_MAX_WIDTH_DOTS = 832;
/** Media tracking (`^MN`): `gap` die-cut labels (Y), `mark` black mark (M), `continuous` (N). */
export const MEDIA_TRACKING = ['gap', 'mark', 'continuous'] as const;
export type MediaTracking = (typeof MEDIA_TRACKING)[number];
/** What the printer does after a label (`^MM`): tear-off (T), peel-off (P), cutter (C), rewind (R). */
export const PRINT_MODES = ['tear-off', 'peel', 'cutter', 'rewind'] as const;
export type PrintMode = (typeof PRINT_MODES)[number];
/** `^PR` print speed in inches per second: 1..14 (a printer clamps it to what it can do). */
export const PRINT_SPEED_RANGE = { min: 1, max: 14 } as const;

/** `^LL` accepts 1..32000 dots. */
export const MAX_LABEL_LENGTH_DOTS = 32_000;

/**
 * Print darkness. `absolute` is `~SD` (00..30, the printer's darkness setting: it stays in effect for later
 * labels too). `relative` is `^MD` (-30..30, added to the printer's configured darkness).
 */
export type Darkness = { mode: 'absolute'; level: number } | { mode: 'relative'; delta: number };

export interface ZplJobOptions {
  /** The whole label at the printer's dpi, 1 = black. */
  bitmap: MonoBitmap;
  /** The printer's print width in dots; wider content is cropped on the right (no error). Default 832. */
  maxWidthDots?: number;
  /** Default `z64`. */
  compression?: GfaCompression;
  /** Printer profile offsets in dots (`^LH`, which moves every field). Omitted: no `^LH` is sent. */
  labelHome?: { x: number; y: number };
  darkness?: Darkness;
  /** `^MN`; omitted: the printer's own setting. */
  mediaTracking?: MediaTracking;
  /** `^MM`; omitted: the printer's own setting. */
  printMode?: PrintMode;
  /** `^PR` in inches per second; omitted: the printer's own setting. */
  printSpeed?: number;
  rfid?: readonly RfidWrite[];
  rfidOptions?: RfidOptions;
  /** zlib compressor for Z64 (Node injects native zlib); default fflate level 9. */
  deflate?: Deflate;
}

/**
 * One complete job string `^XA ... ^XZ\n` for one label. Throws `RangeError` for an impossible label size or
 * setting and `RfidValueError` for a bad RFID value; never emits a job it knows a printer would reject.
 */
export function buildZplJob(options: ZplJobOptions): string {
  const { bitmap, maxWidthDots = DEFAULT_MAX_WIDTH_DOTS, compression = 'z64' } = options;
  const label = fitToWidth(bitmap, maxWidthDots);
  return assembleJob(options, label, encodeGfaBands(label, compression, undefined, gfaOptions(options)));
}

/** One label of a multi-copy print: its own bitmap and RFID writes. */
export interface ZplCopy {
  bitmap: MonoBitmap;
  rfid?: readonly RfidWrite[];
}

/**
 * One complete job per copy, in order, with the shared settings. Copies that share the same bitmap object are
 * encoded once.
 */
export function buildZplJobs(
  copies: readonly ZplCopy[],
  shared: Omit<ZplJobOptions, 'bitmap' | 'rfid'> = {},
): string[] {
  const { maxWidthDots = DEFAULT_MAX_WIDTH_DOTS, compression = 'z64' } = shared;
  const encoded = new Map<MonoBitmap, { label: MonoBitmap; graphics: string[] }>();
  return copies.map((copy) => {
    let entry = encoded.get(copy.bitmap);
    if (!entry) {
      const label = fitToWidth(copy.bitmap, maxWidthDots);
      entry = { label, graphics: encodeGfaBands(label, compression, undefined, gfaOptions(shared)) };
      encoded.set(copy.bitmap, entry);
    }
    return assembleJob({ ...shared, ...copy }, entry.label, entry.graphics);
  });
}

function gfaOptions(options: { deflate?: Deflate }): { deflate?: Deflate } {
  return options.deflate ? { deflate: options.deflate } : {};
}

function assembleJob(options: ZplJobOptions, label: MonoBitmap, graphics: readonly string[]): string {
  const lines = ['^XA'];
  if (options.darkness) lines.push(darknessCommand(options.darkness));
  lines.push(...mediaCommands(options));
  lines.push(`^PW${label.width}`, `^LL${label.height}`);
  if (options.labelHome) {
    const { x, y } = options.labelHome;
    lines.push(`^LH${dotsParam('labelHome.x', x)},${dotsParam('labelHome.y', y)}`);
  }
  lines.push(...rfidCommands(options.rfid ?? [], options.rfidOptions), ...graphics, '^XZ');
  return `${lines.join('\n')}\n`;
}

function darknessCommand(darkness: Darkness): string {
  switch (darkness.mode) {
    case 'absolute':
      return `~SD${String(intInRange('darkness.level', darkness.level, 0, 30)).padStart(2, '0')}`;
    case 'relative':
      return `^MD${intInRange('darkness.delta', darkness.delta, -30, 30)}`;
    default:
      return assertNever(darkness, 'darkness');
  }
}

const TRACKING_LETTER: Record<MediaTracking, string> = { gap: 'Y', mark: 'M', continuous: 'N' };
const MODE_LETTER: Record<PrintMode, string> = { 'tear-off': 'T', peel: 'P', cutter: 'C', rewind: 'R' };

/** `^MN`, `^MM`, `^PR` for the settings given (none for the printer's own). */
export function mediaCommands(
  options: Pick<ZplJobOptions, 'mediaTracking' | 'printMode' | 'printSpeed'>,
): string[] {
  const lines: string[] = [];
  if (options.mediaTracking !== undefined) {
    const letter = TRACKING_LETTER[options.mediaTracking] as string | undefined;
    if (!letter) throw new RangeError(`mediaTracking must be ${MEDIA_TRACKING.join(', ')}`);
    lines.push(`^MN${letter}`);
  }
  if (options.printMode !== undefined) {
    const letter = MODE_LETTER[options.printMode] as string | undefined;
    if (!letter) throw new RangeError(`printMode must be ${PRINT_MODES.join(', ')}`);
    lines.push(`^MM${letter}`);
  }
  if (options.printSpeed !== undefined) {
    const { min, max } = PRINT_SPEED_RANGE;
    lines.push(`^PR${intInRange('printSpeed', options.printSpeed, min, max)}`);
  }
  return lines;
}

function dotsParam(name: string, value: number): number {
  return intInRange(name, value, 0, MAX_LABEL_LENGTH_DOTS);
}

function intInRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Checks the label size, then crops the bitmap to `maxWidthDots` (the printer cannot print past its head) and
 * clears the padding bits past the last column so equal labels always encode equally. Returns the bitmap itself
 * when nothing changes.
 */
function fitToWidth(bitmap: MonoBitmap, maxWidthDots: number): MonoBitmap {
  intInRange('maxWidthDots', maxWidthDots, 1, MAX_LABEL_LENGTH_DOTS);
  if (bitmap.width < 1) throw new RangeError(`label width must be at least 1 dot, got ${bitmap.width}`);
  // Checked before any encoding work: ^LL accepts 1..32000.
  if (bitmap.height < 1 || bitmap.height > MAX_LABEL_LENGTH_DOTS) {
    throw new RangeError(`label length must be 1..${MAX_LABEL_LENGTH_DOTS} dots, got ${bitmap.height}`);
  }
  if (
    bitmap.rowBytes !== Math.ceil(bitmap.width / 8) ||
    bitmap.data.length < bitmap.rowBytes * bitmap.height
  ) {
    throw new RangeError(`bitmap ${bitmap.width}x${bitmap.height} has inconsistent rowBytes or data length`);
  }
  const width = Math.min(bitmap.width, maxWidthDots);
  const rowBytes = Math.ceil(width / 8);
  const lastMask = width % 8 === 0 ? 0xff : (0xff << (8 - (width % 8))) & 0xff;
  const cropped = width < bitmap.width;
  if (!cropped && !hasPaddingBits(bitmap, lastMask)) return bitmap;
  const data = new Uint8Array(rowBytes * bitmap.height);
  for (let y = 0; y < bitmap.height; y++) {
    const from = y * bitmap.rowBytes;
    data.set(bitmap.data.subarray(from, from + rowBytes), y * rowBytes);
    data[y * rowBytes + rowBytes - 1] = (data[y * rowBytes + rowBytes - 1] ?? 0) & lastMask;
  }
  return { width, height: bitmap.height, rowBytes, data };
}

function hasPaddingBits(bitmap: MonoBitmap, lastMask: number): boolean {
  if (lastMask === 0xff) return false;
  for (let y = 0; y < bitmap.height; y++) {
    if (((bitmap.data[y * bitmap.rowBytes + bitmap.rowBytes - 1] ?? 0) & ~lastMask & 0xff) !== 0) return true;
  }
  return false;
}
