/** The one error type barcode validation and encoding throw for a value a user typed. */
import type { BarcodeFormat } from './formats';

/** What is wrong with the value, for code that reacts to the kind of problem (the message is for people). */
export type BarcodeValueProblem =
  | 'empty'
  /** A character the symbology cannot encode (letters in EAN, lowercase in Code 39, ...). */
  | 'bad-character'
  /** Wrong number of digits for a fixed-length code (EAN, UPC, ITF-14, ISBN, ...). */
  | 'bad-length'
  | 'bad-check-digit'
  /** More data than the largest symbol holds (QR, Data Matrix, PDF417). */
  | 'too-long'
  /** GS1 Application Identifier syntax or content (GS1-128, GS1 DataMatrix, GS1 QR): see gs1.ts. */
  | 'gs1-syntax'
  /** Anything else the encoder refused, with its reason reworded. */
  | 'invalid';

/**
 * A barcode value the chosen format cannot encode. `message` is written for the person who typed the value
 * and names the problem (e.g. `EAN-13 check digit should be 7, not 8`).
 */
export class BarcodeValueError extends Error {
  override readonly name = 'BarcodeValueError';
  /**
   * Every problem of the value, one message each: this error, or the ones it joins when the value has several (a
   * GS1 element string can: a check digit in one AI, a date in another). The form and the batch report show
   * each; this error's message is all of theirs.
   */
  readonly each: readonly BarcodeValueError[];

  constructor(
    readonly format: BarcodeFormat,
    readonly problem: BarcodeValueProblem,
    message: string,
    /** For `bad-check-digit`: the digit the value should end with. */
    readonly expectedCheckDigit?: string,
  ) {
    super(message);
    this.each = [this];
  }

  /** One error for several problems of one value (at least one): the first's kind, every message in turn. */
  static joining(errors: readonly [BarcodeValueError, ...BarcodeValueError[]]): BarcodeValueError {
    const [first] = errors;
    if (errors.length === 1) return first;
    const joined = new BarcodeValueError(
      first.format,
      first.problem,
      errors.map((e) => e.message).join(' '),
      first.expectedCheckDigit,
    );
    (joined as { each: readonly BarcodeValueError[] }).each = errors;
    return joined;
  }
}

/** A character as a person can read it in a message: `"a"`, or `U+0009` for invisible ones. */
export function showChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const invisible = cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff);
  return invisible ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : `"${ch}"`;
}

/** Distinct characters of `value` that fail `ok`, shown for a message: `"a", "b"` (at most 5). */
export function listBadChars(value: string, ok: (ch: string) => boolean): string | undefined {
  const bad: string[] = [];
  for (const ch of value) {
    if (!ok(ch) && !bad.includes(ch)) bad.push(ch);
  }
  if (bad.length === 0) return undefined;
  const shown = bad.slice(0, 5).map(showChar).join(', ');
  return bad.length > 5 ? `${shown} and ${bad.length - 5} more` : shown;
}
