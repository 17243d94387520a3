/**
 * The value rules of an RFID element (UHF EPC Class 1 Gen 2 tags), shared by the template validator (layout) and
 * the ZPL encoder (src/zpl/rfid.ts): hex only (`^` or `~` in field data would start a new ZPL command), whole
 * 16-bit words, an EPC of the declared size.
 */

/** A bad RFID value; `field` names what was wrong (`epc`, `user`, `accessPassword`, ...), `problem` says how. */
export class RfidValueError extends Error {
  override name = 'RfidValueError';
  constructor(
    readonly field: string,
    readonly problem: string,
    /** Markup element the write came from, when known. */
    readonly element?: number,
  ) {
    super(`${field}: ${problem}`);
  }
}

/**
 * Checks an EPC given as hex and returns it uppercase: only 0-9/A-F (lowercase accepted), exactly `bits / 4`
 * digits (24 for a 96-bit EPC). Throws `RfidValueError` naming the problem, e.g.
 * `epc: expected 24 hex digits for a 96-bit EPC, got 23`.
 */
export function validateEpcHex(hex: string, bits = 96): string {
  if (!Number.isInteger(bits) || bits < 16 || bits > 496 || bits % 16 !== 0) {
    throw new RangeError(`EPC size must be a multiple of 16 bits from 16 to 496, got ${bits}`);
  }
  const upper = checkHexDigits('epc', hex);
  const digits = bits / 4;
  if (upper.length !== digits) {
    throw new RfidValueError(
      'epc',
      `expected ${digits} hex digits for a ${bits}-bit EPC, got ${upper.length}`,
    );
  }
  return upper;
}

/** Hex for a bank written in whole 16-bit words (4 hex digits each), returned uppercase. */
export function validateWordsHex(field: string, hex: string): string {
  const upper = checkHexDigits(field, hex);
  if (upper.length === 0 || upper.length % 4 !== 0) {
    throw new RfidValueError(
      field,
      `expected whole 16-bit words (a non-zero multiple of 4 hex digits), got ${upper.length}`,
    );
  }
  return upper;
}

/** Uppercases `hex` after checking every character is a hex digit; names the first offending character. */
export function checkHexDigits(field: string, hex: string): string {
  const bad = /[^0-9A-Fa-f]/.exec(hex);
  if (bad) {
    throw new RfidValueError(
      field,
      `${JSON.stringify(bad[0])} at position ${bad.index} is not a hex digit (0-9, A-F)`,
    );
  }
  return hex.toUpperCase();
}
