/**
 * Value checks done before bwip-js sees a value: they are cheap (run per keystroke) and give messages that
 * name the problem in the user's terms. GS1 element strings are checked against the AI table (gs1.ts). What
 * only the encoder can know (QR capacity) is checked by bwip-js and reworded in bwip.ts.
 */
import { gs1CheckDigit, mod11CheckChar } from './check-digits';
import { BarcodeValueError, listBadChars, showChar } from './errors';
import { formatLabel, type BarcodeFormat } from './formats';
import { gs1Bracketed, gs1ElementString, parseGs1 } from './gs1';
import { assertNever } from '../../base/assert-never';

/** A value ready for the encoder. */
export interface PreparedValue {
  /** What the bars carry and a scanner reads (check digit completed; ISBN/ISMN/ISSN as their 13-digit EAN). */
  value: string;
  /** The text handed to bwip-js (its ISBN/ISMN/ISSN encoders want their hyphenated forms). */
  bwipText: string;
}

const isDigit = (ch: string): boolean => ch >= '0' && ch <= '9';
const CODE39_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%';
// An unpaired UTF-16 surrogate cannot be turned into bytes for the 2D symbols' byte mode.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Check `raw` for `format` and normalise it; throws BarcodeValueError naming the problem. */
export function prepareValue(format: BarcodeFormat, raw: string): PreparedValue {
  const label = formatLabel(format);
  if (raw.trim() === '') throw new BarcodeValueError(format, 'empty', `${label}: the value is empty.`);
  switch (format) {
    case 'code128': {
      // Printable ASCII only: Code 128 reaches Latin-1 through FNC4, but bwip-js would encode UTF-8 bytes and
      // most scanners would show mojibake, so we refuse rather than print something that reads wrong.
      badChars(
        format,
        raw,
        (ch) => ch >= ' ' && ch <= '~',
        'printable ASCII: letters, digits, space and punctuation',
      );
      return same(raw);
    }
    case 'code39': {
      const hint = raw !== raw.toUpperCase() ? ' (lowercase letters need capitals)' : '';
      badChars(
        format,
        raw,
        (ch) => CODE39_CHARS.includes(ch),
        `capital letters A–Z, digits, space and - . $ / + %${hint}`,
      );
      return same(raw);
    }
    case 'gs1-128':
    case 'gs1datamatrix':
    case 'gs1qrcode':
      return gs1(format, raw);
    case 'ean13':
      return withAddon(format, raw, [12, 13], (main) => gtinLike(format, main, 13));
    case 'ean8':
      return same(gtinLike(format, raw, 8));
    case 'upca':
      return withAddon(format, raw, [11, 12], (main) => gtinLike(format, main, 12));
    case 'upce':
      return withAddon(format, raw, [6, 7, 8, 11, 12], upce);
    case 'itf14':
      return same(gtinLike(format, raw, 14));
    case 'isbn':
      return isbn(raw);
    case 'ismn':
      return ismn(raw);
    case 'issn':
      return issn(raw);
    case 'qrcode':
    case 'datamatrix':
    case 'pdf417': {
      const m = LONE_SURROGATE.exec(raw);
      if (m) {
        throw new BarcodeValueError(
          format,
          'bad-character',
          `${label} cannot encode ${showChar(m[0])} (a broken character).`,
        );
      }
      return same(raw);
    }
    default:
      return assertNever(format, 'barcode format');
  }
}

const same = (v: string): PreparedValue => ({ value: v, bwipText: v });

function badChars(format: BarcodeFormat, value: string, ok: (ch: string) => boolean, takes: string): void {
  const bad = listBadChars(value, ok);
  if (bad)
    throw new BarcodeValueError(
      format,
      'bad-character',
      `${formatLabel(format)} cannot encode ${bad}: it takes ${takes}.`,
    );
}

/**
 * EAN-13/8, UPC-A, ITF-14: `length` digits, the last a GS1 check digit; one digit fewer gets it computed.
 * Spaces are dropped (people copy these numbers in printed groups: "5 901234 123457").
 */
function gtinLike(format: BarcodeFormat, raw: string, length: number): string {
  const label = formatLabel(format);
  const digits = raw.replace(/\s+/g, '');
  badChars(format, digits, isDigit, 'digits only');
  if (digits.length === length - 1) return digits + gs1CheckDigit(digits);
  if (digits.length !== length) {
    throw new BarcodeValueError(
      format,
      'bad-length',
      `${label} takes ${length - 1} digits, or ${length} with the check digit; this value has ${digits.length}.`,
    );
  }
  checkGs1Digit(format, digits, `${label} check digit`);
  return digits;
}

/**
 * EAN-13, UPC-A and UPC-E may carry an EAN-2 or EAN-5 add-on (ISO/IEC 15420: a periodical's issue, a book's
 * price), typed as bwip-js takes it: the number, a space, the add-on's 2 or 5 digits ("5901234123457 12").
 * Spaces inside the number stay allowed ("5 901234 123457"): a last group is an add-on only when the digits
 * before it have a length the number takes (`lengths`) and the whole value is not a number it takes.
 */
function withAddon(
  format: BarcodeFormat,
  raw: string,
  lengths: readonly number[],
  main: (digits: string) => string,
): PreparedValue {
  const parts = raw.trim().split(/\s+/);
  const last = parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
  const before = parts.slice(0, -1).join('');
  const canSplit = last !== '' && lengths.includes(before.length);
  if (!canSplit) return same(main(raw));
  if (lengths.includes(parts.join('').length)) {
    // Both readings have the right length (a UPC-E and its add-on, or a UPC-A typed in groups): the whole
    // number first; the add-on when the whole one is refused, and the whole one's problem if both are.
    try {
      return same(main(raw));
    } catch (whole) {
      try {
        return addon(format, before, last, main);
      } catch {
        throw whole;
      }
    }
  }
  return addon(format, before, last, main);
}

function addon(
  format: BarcodeFormat,
  before: string,
  last: string,
  main: (digits: string) => string,
): PreparedValue {
  badChars(format, last, isDigit, 'digits only (the add-on after the space too)');
  if (last.length !== 2 && last.length !== 5) {
    throw new BarcodeValueError(
      format,
      'bad-length',
      `${formatLabel(format)} add-on (after the space) has 2 or 5 digits; "${last}" has ${last.length}.`,
    );
  }
  return same(`${main(before)} ${last}`);
}

/**
 * UPC-E: 6 digits (number system 0 taken), 7 with the number system 0 or 1 in front, or 8 with the check
 * digit, which is the check digit of the UPC-A it stands for. A UPC-A of 11 or 12 digits is shortened to its
 * UPC-E when it has one (zeros where the UPC-E rules put them), else refused with why.
 */
function upce(raw: string): string {
  const digits = raw.replace(/\s+/g, '');
  badChars('upce', digits, isDigit, 'digits only');
  let body: string;
  if (digits.length === 11 || digits.length === 12) {
    const upca = digits.length === 12 ? digits : digits + gs1CheckDigit(digits);
    if (digits.length === 12) checkGs1Digit('upce', upca, 'UPC-E: the UPC-A check digit');
    const short = upcaToUpce(upca.slice(0, 11));
    if (!short) {
      throw new BarcodeValueError(
        'upce',
        'invalid',
        `UPC-E: the UPC-A ${upca} has no UPC-E form (only numbers of number system 0 or 1 with the zeros UPC-E ` +
          `leaves out can be shortened); use UPC-A for it.`,
      );
    }
    body = short;
  } else if (digits.length === 6) {
    body = '0' + digits;
  } else if (digits.length === 7 || digits.length === 8) {
    body = digits.slice(0, 7);
  } else {
    throw new BarcodeValueError(
      'upce',
      'bad-length',
      `UPC-E takes 6 digits, 7 with the number system (0 or 1) in front or 8 with the check digit (or the ` +
        `UPC-A it shortens); this value has ${digits.length}.`,
    );
  }
  const system = body.charAt(0);
  if (system !== '0' && system !== '1') {
    throw new BarcodeValueError(
      'upce',
      'invalid',
      `UPC-E: the first of 7 or 8 digits is the number system, 0 or 1, not ${system}.`,
    );
  }
  const full = body + gs1CheckDigit(upceToUpca(body));
  if (digits.length === 8 && digits !== full) {
    throw new BarcodeValueError(
      'upce',
      'bad-check-digit',
      `UPC-E check digit should be ${full.charAt(7)}, not ${digits.charAt(7)} (leave it off and it is computed).`,
      full.charAt(7),
    );
  }
  return full;
}

/** The 11 digits (without check digit) of the UPC-A a 7-digit UPC-E (number system + 6) stands for. */
export function upceToUpca(e: string): string {
  const [s, d1, d2, d3, d4, d5, d6] = [...e];
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return `${s}${d1}${d2}${d6}0000${d3}${d4}${d5}`;
    case '3':
      return `${s}${d1}${d2}${d3}00000${d4}${d5}`;
    case '4':
      return `${s}${d1}${d2}${d3}${d4}00000${d5}`;
    default:
      return `${s}${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  }
}

/** The UPC-E (number system + 6 digits) of an 11-digit UPC-A, or undefined when it has none. */
export function upcaToUpce(a: string): string | undefined {
  if (!/^[01]\d{10}$/.test(a)) return undefined;
  const s = a.charAt(0);
  const maker = a.slice(1, 6);
  const item = a.slice(6, 11);
  let e: string | undefined;
  if (/^\d\d[012]00$/.test(maker) && item.startsWith('00')) e = maker.slice(0, 2) + item.slice(2) + maker[2];
  else if (maker.endsWith('00') && item.startsWith('000')) e = maker.slice(0, 3) + item.slice(3) + '3';
  else if (maker.endsWith('0') && item.startsWith('0000')) e = maker.slice(0, 4) + item.slice(4) + '4';
  else if (item.startsWith('0000') && item.charAt(4) >= '5') e = maker + item.charAt(4);
  // Only a UPC-E that expands back to this UPC-A is its form (the rules above overlap at their edges).
  return e !== undefined && upceToUpca(s + e) === a ? s + e : undefined;
}

/** Throws when the last digit of `digits` is not their GS1 check digit; the message names the right one. */
function checkGs1Digit(format: BarcodeFormat, digits: string, what: string): void {
  const expected = gs1CheckDigit(digits.slice(0, -1));
  const given = digits.slice(-1);
  if (given !== expected) {
    throw new BarcodeValueError(
      format,
      'bad-check-digit',
      `${what} should be ${expected}, not ${given} (leave it off and it is computed).`,
      expected,
    );
  }
}

/** GS1-128 holds at most 48 data characters: AIs, data and the FNC1 separators between element strings. */
const GS1_128_MAX_CHARACTERS = 48;

/**
 * A GS1 element string in brackets, `(AI)data(AI)data…`, checked against the AI table (gs1.ts): every problem
 * gets its message. A key typed without its check digit (SSCC of 17 digits, GTIN of 13) gets it computed, as a
 * 12-digit EAN-13 does. A 2D symbol carries an item's whole data, so each AI's requisites must be in it too (a
 * batch needs its GTIN); GS1-128 labels often split the data over symbols, so not for it (as bwip-js, which lints
 * the content again when it encodes).
 */
function gs1(format: 'gs1-128' | 'gs1datamatrix' | 'gs1qrcode', raw: string): PreparedValue {
  const { elements, problems } = parseGs1(raw, {
    completeCheckDigits: true,
    requisites: format !== 'gs1-128',
  });
  const errors = problems.map((p) =>
    p.kind === 'check-digit'
      ? new BarcodeValueError(format, 'bad-check-digit', p.message, p.expected)
      : new BarcodeValueError(format, 'gs1-syntax', p.message),
  );
  const characters = gs1ElementString(elements).length;
  if (format === 'gs1-128' && characters > GS1_128_MAX_CHARACTERS) {
    errors.push(
      new BarcodeValueError(
        format,
        'too-long',
        `${formatLabel(format)} holds at most ${GS1_128_MAX_CHARACTERS} characters (AIs, data and separators); this value has ${characters}: split it over two symbols or use GS1 DataMatrix.`,
      ),
    );
  }
  const [first, ...rest] = errors;
  if (first) throw BarcodeValueError.joining([first, ...rest]);
  return same(gs1Bracketed(elements));
}

/** Strips a leading "ISBN", "ISMN" or "ISSN" label (with optional "-13"/"-10" and colon) and spaces/hyphens. */
function compact(raw: string, prefix: string): string {
  return raw
    .trim()
    .replace(new RegExp(`^${prefix}(-1[03])?:?`, 'i'), '')
    .replace(/[\s-]+/g, '');
}

/** ISBN-13 (978/979…), with or without check digit, or ISBN-10 (converted to its 978 EAN-13). */
function isbn(raw: string): PreparedValue {
  const c = compact(raw, 'ISBN').toUpperCase();
  badChars(
    'isbn',
    c,
    (ch) => isDigit(ch) || ch === 'X',
    'digits and hyphens (and X as an ISBN-10 check digit)',
  );
  let ean: string;
  if (c.length === 10 || c.length === 9) {
    if (c.slice(0, 9).includes('X')) throw xOnlyLast('isbn');
    if (c.length === 10) checkMod11('isbn', c, 'ISBN-10 check digit');
    ean = '978' + c.slice(0, 9);
  } else if (c.length === 13 || c.length === 12) {
    if (c.includes('X')) throw xOnlyLast('isbn');
    if (!/^97[89]/.test(c)) throw new BarcodeValueError('isbn', 'invalid', 'ISBN-13 starts with 978 or 979.');
    if (c.length === 13) checkGs1Digit('isbn', c, 'ISBN check digit');
    ean = c.slice(0, 12);
  } else {
    throw new BarcodeValueError(
      'isbn',
      'bad-length',
      `ISBN has 10 or 13 digits; this value has ${c.length}.`,
    );
  }
  const d = ean + gs1CheckDigit(ean);
  // bwip-js wants 4 hyphens in an ISBN-13; their places are not checked and the bars carry digits only.
  return {
    value: d,
    bwipText: `${d.slice(0, 3)}-${d.slice(3, 4)}-${d.slice(4, 9)}-${d.slice(9, 12)}-${d.slice(12)}`,
  };
}

/** ISMN as 979-0… (12 or 13 digits) or the older M… form (M + 8 or 9 digits). */
function ismn(raw: string): PreparedValue {
  let c = compact(raw, 'ISMN').toUpperCase();
  if (c.startsWith('M')) c = '9790' + c.slice(1);
  badChars('ismn', c, isDigit, 'digits and hyphens (after an optional leading M)');
  if (c.length !== 12 && c.length !== 13) {
    throw new BarcodeValueError(
      'ismn',
      'bad-length',
      'ISMN has 13 digits starting 979-0 (or M and 9 digits).',
    );
  }
  if (!c.startsWith('9790')) throw new BarcodeValueError('ismn', 'invalid', 'ISMN starts with 979-0 (or M).');
  if (c.length === 13) checkGs1Digit('ismn', c, 'ISMN check digit');
  const d = c.slice(0, 12) + gs1CheckDigit(c.slice(0, 12));
  return { value: d, bwipText: `979-0-${d.slice(4, 8)}-${d.slice(8, 12)}-${d.slice(12)}` };
}

/** ISSN "0317-8471" (check character optional) plus an optional 2-digit sequence variant, or its 977 EAN-13. */
function issn(raw: string): PreparedValue {
  const parts = raw
    .trim()
    .replace(/^ISSN:?/i, '')
    .trim()
    .split(/\s+/);
  const main = (parts[0] ?? '').replace(/-/g, '').toUpperCase();
  let issn7: string;
  let variant = '00';
  if (parts.length === 1 && /^977\d{9,10}$/.test(main)) {
    issn7 = main.slice(3, 10);
    variant = main.slice(10, 12);
    if (main.length === 13) checkGs1Digit('issn', main, 'ISSN barcode check digit');
  } else {
    if (parts.length > 2) {
      throw new BarcodeValueError('issn', 'invalid', 'ISSN add-on codes (issue numbers) are not supported.');
    }
    badChars('issn', main, (ch) => isDigit(ch) || ch === 'X', 'digits, a hyphen and X as a check character');
    if (main.length !== 7 && main.length !== 8) {
      throw new BarcodeValueError(
        'issn',
        'bad-length',
        `ISSN has 8 characters (e.g. 0317-8471); this value has ${main.length}.`,
      );
    }
    if (main.slice(0, 7).includes('X')) throw xOnlyLast('issn');
    if (main.length === 8) checkMod11('issn', main, 'ISSN check character');
    issn7 = main.slice(0, 7);
    if (parts[1] !== undefined) {
      if (!/^\d\d$/.test(parts[1])) {
        throw new BarcodeValueError(
          'issn',
          'invalid',
          'The ISSN sequence variant after the space is 2 digits (e.g. 00).',
        );
      }
      variant = parts[1];
    }
  }
  const ean = '977' + issn7 + variant;
  const check = mod11CheckChar(issn7);
  return {
    value: ean + gs1CheckDigit(ean),
    bwipText: `${issn7.slice(0, 4)}-${issn7.slice(4)}${check} ${variant}`,
  };
}

function checkMod11(format: BarcodeFormat, chars: string, what: string): void {
  const expected = mod11CheckChar(chars.slice(0, -1));
  const given = chars.slice(-1);
  if (given !== expected) {
    throw new BarcodeValueError(
      format,
      'bad-check-digit',
      `${what} should be ${expected}, not ${given}.`,
      expected,
    );
  }
}

const xOnlyLast = (format: BarcodeFormat): BarcodeValueError =>
  new BarcodeValueError(
    format,
    'bad-character',
    `${formatLabel(format)}: X can only be the last (check) character.`,
  );
