/** Messages a user sees for values a format cannot take, and the pin that nothing else is ever thrown. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BARCODE_FORMATS,
  BarcodeValueError,
  validateBarcodeValue,
  type BarcodeFormat,
  type BarcodeValueProblem,
  type EncodeOptions,
} from '../../../src/layout/barcode';

function errorOf(format: BarcodeFormat, value: string, options?: EncodeOptions): BarcodeValueError {
  try {
    validateBarcodeValue(format, value, options);
  } catch (e) {
    if (e instanceof BarcodeValueError) return e;
    throw e;
  }
  throw new Error(`${format} "${value}" was accepted`);
}

function expectProblem(
  format: BarcodeFormat,
  value: string,
  problem: BarcodeValueProblem,
  ...says: string[]
): void {
  const e = errorOf(format, value);
  expect(e.problem).toBe(problem);
  expect(e.format).toBe(format);
  for (const s of says) expect(e.message).toContain(s);
  // bwip-js's internal codes ("bwipp.ean13badCheckDigit#6915") never reach the user.
  expect(e.message).not.toMatch(/bwipp|#\d{3,}/);
}

describe('check digits are completed or checked', () => {
  it.each([
    ['ean13', '590123412345', '5901234123457'],
    ['ean13', '5901234123457', '5901234123457'],
    ['ean13', '5 901234 123457', '5901234123457'],
    ['ean8', '9638507', '96385074'],
    ['upca', '03600029145', '036000291452'],
    ['itf14', '1540014128876', '15400141288763'],
    ['isbn', '978-1-56581-231-4', '9781565812314'],
    ['isbn', 'ISBN 978-1-56581-231', '9781565812314'],
    ['isbn', '1-56581-231-X', '9781565812314'],
    ['isbn', '0-8044-2957-X', '9780804429573'],
    ['ismn', 'M-2600-0043-8', '9790260000438'],
    ['ismn', '979-0-2600-0043-8', '9790260000438'],
    ['issn', '0317-8471', '9770317847001'],
    ['issn', '2049-3630 05', '9772049363057'],
    ['issn', '1050-124X', '9771050124008'],
  ] as const)('%s "%s" → %s', (format, typed, normalised) => {
    expect(validateBarcodeValue(format, typed)).toBe(normalised);
  });

  it('an EAN-13 with a wrong check digit names the expected digit', () => {
    const e = errorOf('ean13', '5901234123458');
    expect(e.problem).toBe('bad-check-digit');
    expect(e.expectedCheckDigit).toBe('7');
    expect(e.message).toMatch(/EAN-13 check digit should be 7, not 8/);
  });

  it.each([
    ['ean8', '96385075', '4'],
    ['upca', '036000291453', '2'],
    ['itf14', '15400141288760', '3'],
    ['isbn', '978-1-56581-231-5', '4'],
    ['isbn', '1-56581-231-5', 'X'],
    ['ismn', '979-0-2600-0043-9', '8'],
    ['issn', '0317-8472', '1'],
  ] as const)('%s "%s": check digit should be %s', (format, typed, expected) => {
    const e = errorOf(format, typed);
    expect(e.problem).toBe('bad-check-digit');
    expect(e.expectedCheckDigit).toBe(expected);
    expect(e.message).toContain(`should be ${expected}`);
  });

  it('GS1-128 names the expected check digit of a GTIN', () => {
    const e = errorOf('gs1-128', '(01)09501101530004(10)AB1');
    expect(e.problem).toBe('bad-check-digit');
    expect(e.message).toBe('AI (01) GTIN: the check digit should be 3, not 4.');
  });
});

describe('characters a format cannot encode', () => {
  it('letters in EAN/UPC/ITF', () => {
    expectProblem('ean13', '59012341234A', 'bad-character', 'EAN-13', '"A"', 'digits only');
    expectProblem('upca', '0360002914O', 'bad-character', '"O"');
    expectProblem('itf14', '1540014128876A', 'bad-character', 'ITF-14', '"A"');
  });

  it('Code 39 lists what it cannot encode and what it takes', () => {
    expectProblem('code39', 'Abc*1', 'bad-character', '"b", "c", "*"', 'capital letters', 'lowercase');
  });

  it('Code 128 refuses non-ASCII rather than print mojibake', () => {
    expectProblem('code128', 'Straße', 'bad-character', '"ß"');
    expectProblem('code128', 'a\tb', 'bad-character', 'U+0009');
  });

  it('a broken (unpaired surrogate) character in a 2D code', () => {
    expectProblem('qrcode', 'ab\uD800', 'bad-character', 'U+D800');
  });
});

describe('lengths', () => {
  it.each([
    ['ean13', '59012341', 'EAN-13 takes 12 digits, or 13 with the check digit; this value has 8'],
    ['ean8', '123', 'EAN-8 takes 7 digits'],
    ['upca', '1234567890123', 'UPC-A takes 11 digits'],
    ['itf14', '12345', 'ITF-14 takes 13 digits'],
    ['isbn', '978-1-5658', 'ISBN has 10 or 13 digits'],
    ['issn', '0317-84', 'ISSN has 8 characters'],
  ] as const)('%s "%s"', (format, typed, says) => expectProblem(format, typed, 'bad-length', says));

  it('too long for a QR code, at the chosen error correction', () => {
    const long = 'x'.repeat(2500);
    expectProblem(
      'qrcode',
      long,
      'too-long',
      'Too long for a QR code',
      '2500 bytes',
      '2331 bytes at error correction M',
    );
    // The same value fits at level L (2953 bytes): the option reaches the encoder.
    expect(validateBarcodeValue('qrcode', long, { qrErrorCorrection: 'L' })).toBe(long);
  });

  it('too long for Data Matrix and PDF417', () => {
    expectProblem('datamatrix', 'x'.repeat(3000), 'too-long', 'Data Matrix', '1556 bytes');
    expectProblem('pdf417', '\u00e9'.repeat(1500), 'too-long', 'PDF417');
  });
});

describe('other problems', () => {
  it.each(BARCODE_FORMATS)('%s: an empty value', (format) => {
    expectProblem(format, '', 'empty', 'empty');
    expectProblem(format, '   ', 'empty');
  });

  it('GS1-128 wants bracketed AIs', () => {
    expectProblem('gs1-128', '0109501101530003', 'gs1-syntax', '(01)09501101530003');
    expectProblem('gs1-128', '(01)095011015300', 'gs1-syntax', 'AI (01) GTIN: 14 digits, got 12');
  });

  it('ISBN-13 needs the 978/979 prefix; ISSN add-ons are not supported', () => {
    expectProblem('isbn', '9771234567898', 'invalid', '978 or 979');
    expectProblem('issn', '0317-8471 00 05', 'invalid', 'add-on');
  });
});

describe('UPC-E', () => {
  it.each([
    ['425261', '04252614'],
    ['0425261', '04252614'],
    ['04252614', '04252614'],
    ['1234565', '12345656'],
    // A UPC-A with a UPC-E form is shortened to it (each of the four zero-suppression rules).
    ['042100005264', '04252614'],
    ['04210000526', '04252614'],
    ['012300000451', '01234531'],
    ['012340000053', '01234543'],
    ['012345000058', '01234558'],
  ] as const)('"%s" → %s', (typed, normalised) => {
    expect(validateBarcodeValue('upce', typed)).toBe(normalised);
  });

  it('one clear message per problem', () => {
    expectProblem('upce', '04252615', 'bad-check-digit', 'UPC-E check digit should be 4, not 5');
    expect(errorOf('upce', '04252615').expectedCheckDigit).toBe('4');
    expectProblem('upce', '2425261', 'invalid', 'number system, 0 or 1, not 2');
    expectProblem('upce', '036000291452', 'invalid', 'UPC-A 036000291452 has no UPC-E form', 'use UPC-A');
    expectProblem('upce', '042100005265', 'bad-check-digit', 'UPC-A check digit should be 4, not 5');
    expectProblem('upce', '12345', 'bad-length', 'UPC-E takes 6 digits', 'this value has 5');
    expectProblem('upce', '42526A', 'bad-character', 'UPC-E cannot encode "A"');
  });
});

describe('EAN-2 / EAN-5 add-ons', () => {
  it.each([
    ['ean13', '5901234123457 12', '5901234123457 12'],
    ['ean13', '590123412345 12345', '5901234123457 12345'],
    // Digits typed in their printed groups are not an add-on.
    ['ean13', '5 901234 123457', '5901234123457'],
    ['ean13', '5 901234 12345', '5901234123457'],
    ['upca', '036000291452 53999', '036000291452 53999'],
    ['upca', '03600029145 12', '036000291452 12'],
    ['upce', '04252614 12', '04252614 12'],
    ['upce', '425261 12345', '04252614 12345'],
  ] as const)('%s "%s" → %s', (format, typed, normalised) => {
    expect(validateBarcodeValue(format, typed)).toBe(normalised);
  });

  it('one clear message per problem', () => {
    expectProblem(
      'ean13',
      '5901234123457 123',
      'bad-length',
      'EAN-13 add-on (after the space) has 2 or 5 digits',
      '"123" has 3',
    );
    expectProblem('upca', '036000291452 1A', 'bad-character', 'UPC-A cannot encode "A"');
    // The main number's own problems are named as without an add-on.
    expectProblem('ean13', '5901234123458 12', 'bad-check-digit', 'should be 7, not 8');
    expectProblem('upce', '036000291452 12', 'invalid', 'has no UPC-E form');
  });
});

describe('random input never throws anything but BarcodeValueError', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...'0123456789 -X()M'), maxLength: 20 }),
    fc.stringMatching(/^(\(\d{2,4}\)[0-9A-Za-z-]{0,12}){1,3}$/),
  );
  it.each(BARCODE_FORMATS)('%s', (format) => {
    fc.assert(
      fc.property(anyText, (value) => {
        try {
          const normalised = validateBarcodeValue(format, value);
          expect(typeof normalised).toBe('string');
        } catch (e) {
          if (!(e instanceof BarcodeValueError)) throw e;
          expect(e.message.length).toBeGreaterThan(0);
          expect(e.message).not.toMatch(/bwipp/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
