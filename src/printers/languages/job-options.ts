/**
 * What every printer-language writer takes besides the label's dots: the printer profile's settings, in the
 * units LabelDesk already uses for ZPL (dots, ~SD darkness 0..30, inches per second), so one profile drives any
 * language. Each writer maps them onto its own command's scale and says how in its header comment.
 */
import { KindedError } from '../../base/error-kind';
import type { MonoBitmap } from '../../render/bitmap';

/** Media tracking, as ZPL's `^MN`: die-cut labels with a gap, black mark, or continuous. */
export type LanguageMedia = 'gap' | 'mark' | 'continuous';

export interface LabelJobOptions {
  /** The printer's resolution in dots per inch (the bitmap was rasterised at it). */
  dpi: number;
  /** Label length in dots; default: the bitmap's height. */
  labelLengthDots?: number;
  /** Label width in dots; default: the bitmap's width. */
  labelWidthDots?: number;
  /** Default `gap`. */
  media?: LanguageMedia;
  /** The gap (or black mark) between labels in dots; default 3 mm at `dpi`. */
  gapDots?: number;
  /** Darkness on the ZPL `~SD` scale 0..30; omitted: the printer's own setting. */
  darkness?: number;
  /** Print speed in inches per second; omitted: the printer's own setting. */
  speed?: number;
  /** Copies of this label, 1..9999 (default 1). */
  copies?: number;
  /** The printer's print head width in dots; default the language's widest printer (see each writer). */
  printWidthDots?: number;
}

/** A label the printer or its language cannot print as given (the profile or the label must change). */
export class LanguageJobError extends KindedError {
  get kind() {
    return 'printer-refuses-format' as const;
  }

  constructor(message: string) {
    super(message);
    this.name = 'LanguageJobError';
  }
}

/** Options checked once, with their defaults applied. */
export interface CheckedJobOptions {
  dpi: number;
  labelLengthDots: number;
  labelWidthDots: number;
  media: LanguageMedia;
  gapDots: number;
  darkness: number | undefined;
  speed: number | undefined;
  copies: number;
  printWidthDots: number;
}

function wholeNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new LanguageJobError(`${name}: expected a whole number from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** What a language (or its widest printer) can take; each writer names its source. */
export interface JobLimits {
  /** The widest print line at `dpi`, in dots. */
  maxWidthDots: (dpi: number) => number;
  maxLengthDots: number;
}

/** A head `inches` wide at `dpi`, in whole bytes of dots (4.1 in at 203 dpi: 832). */
export function headWidthDots(dpi: number, inches: number): number {
  return Math.round((dpi * inches) / 8) * 8;
}

/**
 * The budget every writer checks before it encodes a byte: the bitmap fits the printer's head (`maxWidth` is
 * the language's or the head's widest line) and each option is in range.
 */
export function checkJobOptions(
  language: string,
  bitmap: MonoBitmap,
  options: LabelJobOptions,
  limits: JobLimits,
): CheckedJobOptions {
  const dpi = wholeNumber('dpi', options.dpi, 100, 1200);
  const maxWidthDots = limits.maxWidthDots(dpi);
  const printWidthDots = options.printWidthDots ?? Math.min(maxWidthDots, headWidthDots(dpi, 4.1));
  if (!Number.isInteger(printWidthDots) || printWidthDots < 8 || printWidthDots > maxWidthDots) {
    throw new LanguageJobError(
      `${language} printers print at most ${maxWidthDots} dots (${(maxWidthDots / dpi).toFixed(2)} in) at ` +
        `${dpi} dpi; a print width of ${printWidthDots} dots is not one of them`,
    );
  }
  if (bitmap.width > printWidthDots) {
    throw new LanguageJobError(
      `The label is ${bitmap.width} dots wide but this ${language} printer prints at most ${printWidthDots} dots ` +
        `(${(printWidthDots / dpi).toFixed(2)} in at ${dpi} dpi); choose a narrower label or let it be cut to the head`,
    );
  }
  if (bitmap.height < 1 || bitmap.height > limits.maxLengthDots) {
    throw new LanguageJobError(
      `The label is ${bitmap.height} dots long; ${language} takes 1 to ${limits.maxLengthDots} dots`,
    );
  }
  const labelLengthDots = wholeNumber(
    'label length',
    options.labelLengthDots ?? bitmap.height,
    1,
    limits.maxLengthDots,
  );
  return {
    dpi,
    labelLengthDots,
    labelWidthDots: wholeNumber('label width', options.labelWidthDots ?? bitmap.width, 1, printWidthDots),
    media: options.media ?? 'gap',
    gapDots: wholeNumber('gap', options.gapDots ?? Math.round((3 * dpi) / 25.4), 0, 10_000),
    darkness: options.darkness === undefined ? undefined : wholeNumber('darkness', options.darkness, 0, 30),
    speed: options.speed === undefined ? undefined : wholeNumber('speed', options.speed, 1, 14),
    copies: wholeNumber('copies', options.copies ?? 1, 1, 9999),
    printWidthDots,
  };
}

/** Grows a byte array from ASCII command text and raw bytes. */
export class ByteWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  ascii(text: string): this {
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return this.bytes(bytes);
  }

  bytes(bytes: ArrayLike<number>): this {
    const copy = Uint8Array.from(bytes);
    this.chunks.push(copy);
    this.size += copy.length;
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/** One row of the bitmap, `rowBytes` bytes, 1 = black, MSB = leftmost dot (the bitmap's own layout). */
export function bitmapRow(bitmap: MonoBitmap, y: number): Uint8Array {
  return bitmap.data.subarray(y * bitmap.rowBytes, (y + 1) * bitmap.rowBytes);
}

/** `value` (0..30 on ~SD's scale) onto a scale min..max, rounded. */
export function scaleDarkness(value: number, min: number, max: number): number {
  return Math.round(min + (value / 30) * (max - min));
}
