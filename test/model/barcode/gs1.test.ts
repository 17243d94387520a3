/**
 * GS1 element strings as people type them: what is accepted (and what a scanner will read back), and the one
 * message per problem a user sees, naming the AI.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AI_ROWS, MEASURE_ROWS } from '../../../src/model/barcode/gs1-ais';
import { GS, gs1Bracketed, gs1ElementString, parseGs1 } from '../../../src/model/barcode/gs1';
import { BarcodeValueError } from '../../../src/model/barcode/errors';
import { prepareValue } from '../../../src/model/barcode/values';

const messages = (value: string, requisites = false): string[] =>
  parseGs1(value, { completeCheckDigits: true, requisites }).problems.map((p) => p.message);

describe('a valid element string', () => {
  it('the pallet label of the issue: fixed-length AIs run together, a GS after the variable-length count', () => {
    const parsed = parseGs1('(00)350123451234567894(02)05012345678900(37)12(10)ABC123');
    expect(parsed.problems).toEqual([]);
    expect(parsed.elements).toEqual([
      { ai: '00', data: '350123451234567894' },
      { ai: '02', data: '05012345678900' },
      { ai: '37', data: '12' },
      { ai: '10', data: 'ABC123' },
    ]);
    expect(gs1ElementString(parsed.elements)).toBe(`0035012345123456789402050123456789003712${GS}10ABC123`);
  });

  it('no GS after the last element string, nor after an AI of predefined length (00–04, 11–20, 31–36, 41)', () => {
    const { elements } = parseGs1('(10)AB1(17)260131(3103)001250(410)5412345000013(21)S1');
    expect(gs1ElementString(elements)).toBe(`10AB1${GS}172601313103001250410541234500001321S1`);
    // 422 (country of origin) is fixed-length but not predefined: it ends with a GS.
    expect(gs1ElementString(parseGs1('(01)09501101530003(422)250(10)X').elements)).toBe(
      `0109501101530003422250${GS}10X`,
    );
  });

  it('spaces between element strings, as people write them, are dropped', () => {
    const parsed = parseGs1(' (01) 09501101530003  (17) 260131 (10) AB-1 ');
    expect(parsed.problems).toEqual([]);
    expect(gs1Bracketed(parsed.elements)).toBe('(01)09501101530003(17)260131(10)AB-1');
  });

  it('day 00 is a date where GS1 allows it (production, best before, expiry…), not in a first freeze date', () => {
    expect(messages('(01)09501101530003(17)260200(15)260100(11)251200')).toEqual([]);
    expect(messages('(01)09501101530003(7006)260100')).toEqual([
      'AI (7006) first freeze date: 260100 is not a date: day 00 is not allowed here (YYMMDD).',
    ]);
  });

  it('29 February only in a leap year (the century by the GS1 rule)', () => {
    expect(messages('(01)09501101530003(17)280229')).toEqual([]);
    expect(messages('(01)09501101530003(17)270229')).toEqual([
      'AI (17) expiry date: 270229 is not a date: February 2027 has 28 days (YYMMDD).',
    ]);
  });

  it('a key typed one digit short gets its check digit (SSCC of 17, GTIN of 13, GLN of 12), as EAN-13 does', () => {
    const parsed = parseGs1('(00)35012345123456789(01)0950110153000(410)541234500001', {
      completeCheckDigits: true,
    });
    expect(parsed.problems).toEqual([]);
    expect(gs1Bracketed(parsed.elements)).toBe('(00)350123451234567894(01)09501101530003(410)5412345000013');
    // Without the option the length is the problem.
    expect(parseGs1('(00)35012345123456789').problems.map((p) => p.message)).toEqual([
      'AI (00) SSCC: 18 digits, got 17.',
    ]);
    // Only for a key alone: an AI with more after its key (GDTI) is not guessed at.
    expect(messages('(253)950110153000')).toEqual([
      'AI (253) GDTI (document type): 13 digits, then optionally up to 17 characters, got 12 characters.',
    ]);
  });
});

describe('one message per problem, naming the AI', () => {
  it.each([
    ['(00)350123451234567895', 'AI (00) SSCC: the check digit should be 4, not 5.'],
    ['(01)09501101530004', 'AI (01) GTIN: the check digit should be 3, not 4.'],
    ['(414)5412345000014', 'AI (414) location GLN: the check digit should be 3, not 4.'],
    [
      '(01)09501101530003(17)251332',
      'AI (17) expiry date: 251332 is not a date: there is no month 13 (YYMMDD).',
    ],
    ['(01)09501101530003(10)ABCDEFGHIJKLMNOPQRSTUVW', 'AI (10) batch/lot: at most 20 characters, got 23.'],
    ['(01)09501101530003(98x)1', 'unknown AI (98x).'],
    [
      '(01)09501101530003(3106)001000',
      'unknown AI (3106): the last digit of (310n) net weight (kg) is the number of decimals, 0 to 5.',
    ],
    ['(02)05012345678900(37)1A', 'AI (37) count of items: "A" cannot be used: it takes digits only.'],
    [
      '(01)09501101530003(10)AB 1',
      `AI (10) batch/lot: " " cannot be used: it takes letters A–Z a–z, digits and ! " % & ' * + , - . / : ; < = > ? _ (no spaces, no accents).`,
    ],
    ['(01)09501101530003(10)', 'AI (10) batch/lot: no data after the AI.'],
    [
      '(00)350123451234567894(421)25A12',
      'AI (421) ship-to postal code with country: "A" cannot be used in characters 1–3: they take digits only.',
    ],
    [
      '(01)09501101530003(422)999',
      'AI (422) country of origin: 999 is not a country code (ISO 3166 numeric, e.g. 250 France).',
    ],
    [
      '(01)09501101530003(7007)250101250',
      'AI (7007) harvest date: 6 digits, then optionally 6 digits, got 9 digits.',
    ],
    [
      '(8006)095011015300030302',
      'AI (8006) ITIP (piece of a trade item): piece 03 of 02: the piece is beyond the total.',
    ],
    [
      '(01)09501101530003(02)05012345678900',
      'AI (01) GTIN and AI (02) GTIN of contained items cannot be in the same symbol.',
    ],
    [
      '(01)09501101530003(3102)000123(3103)001234',
      'AI (3102) net weight (kg), 2 decimals and AI (3103) net weight (kg), 3 decimals cannot be in the same symbol.',
    ],
    ['(01)09501101530003(10)A(10)B', 'AI (10) batch/lot is given twice, with different data (A and B).'],
    [
      '(01)09501101530003(8013)1987654Ad4X4bL5ttr2310c2X',
      'AI (8013) GMN (model number): the check characters should be 2K, not 2X.',
    ],
    ['(01', 'the bracket before "01" is not closed.'],
    ['()12', 'empty brackets (): an AI is 2 to 4 digits.'],
    [
      '0109501101530003',
      'GS1 values are Application Identifiers in brackets, each followed by its data, e.g. (01)09501101530003(17)250101.',
    ],
  ])('%s', (value, message) => {
    expect(messages(value)).toEqual([message]);
  });

  it('several problems: each its own message, in the order typed', () => {
    expect(messages('(00)350123451234567895(17)251332(10)ABCDEFGHIJKLMNOPQRSTUVW')).toEqual([
      'AI (00) SSCC: the check digit should be 4, not 5.',
      'AI (17) expiry date: 251332 is not a date: there is no month 13 (YYMMDD).',
      'AI (10) batch/lot: at most 20 characters, got 23.',
    ]);
  });

  it('requisites, when asked (GS1 DataMatrix and QR): a batch needs a GTIN, a count needs an SSCC with (02)', () => {
    expect(messages('(10)ABC', true)).toEqual([
      'AI (10) batch/lot needs AI (01), (02), (03), (8006) or (8026) in the same symbol.',
    ]);
    expect(messages('(02)05012345678900(37)12', true)).toEqual([
      'AI (37) count of items needs AI (00) in the same symbol.',
    ]);
    expect(messages('(00)350123451234567894(02)05012345678900(37)12(10)ABC123', true)).toEqual([]);
    expect(messages('(10)ABC', false)).toEqual([]);
  });
});

describe('the value check every format runs (prepareValue), for GS1-128', () => {
  const errorOf = (value: string): BarcodeValueError => {
    try {
      prepareValue('gs1-128', value);
    } catch (e) {
      if (e instanceof BarcodeValueError) return e;
      throw e;
    }
    throw new Error(`"${value}" was accepted`);
  };

  it('normalises: brackets kept, spaces dropped, check digit completed', () => {
    expect(prepareValue('gs1-128', ' (00) 35012345123456789 ').value).toBe('(00)350123451234567894');
  });

  it('several problems: one error whose `each` holds one per problem, the message all of them', () => {
    const e = errorOf('(00)350123451234567895(17)251332');
    expect(e.each.map((x) => [x.problem, x.message])).toEqual([
      ['bad-check-digit', 'AI (00) SSCC: the check digit should be 4, not 5.'],
      ['gs1-syntax', 'AI (17) expiry date: 251332 is not a date: there is no month 13 (YYMMDD).'],
    ]);
    expect(e.each[0]?.expectedCheckDigit).toBe('4');
    expect(e.message).toBe(e.each.map((x) => x.message).join(' '));
  });

  it('GS1-128 carries at most 48 characters, separators included (the issue’s pallet string has 49)', () => {
    const e = errorOf('(00)350123451234567894(02)05012345678900(37)12(10)ABC123');
    expect(e.problem).toBe('too-long');
    expect(e.message).toContain('at most 48 characters');
    expect(e.message).toContain('has 49');
    expect(prepareValue('gs1-128', '(00)350123451234567894(02)05012345678900(37)12').value).toBe(
      '(00)350123451234567894(02)05012345678900(37)12',
    );
  });
});

describe('GS1 DataMatrix and GS1 QR take the same element strings, with requisites', () => {
  it.each(['gs1datamatrix', 'gs1qrcode'] as const)('%s', (format) => {
    expect(prepareValue(format, '(00)350123451234567894(02)05012345678900(37)12(10)ABC123').value).toBe(
      '(00)350123451234567894(02)05012345678900(37)12(10)ABC123',
    );
    expect(prepareValue(format, '(01)0950110153000(17)260131(10)AB-1').value).toBe(
      '(01)09501101530003(17)260131(10)AB-1',
    );
    let error: unknown;
    try {
      prepareValue(format, '(10)ABC(17)251332');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BarcodeValueError);
    expect((error as BarcodeValueError).format).toBe(format);
    expect((error as BarcodeValueError).each.map((e) => e.message)).toEqual([
      'AI (17) expiry date: 251332 is not a date: there is no month 13 (YYMMDD).',
      'AI (10) batch/lot needs AI (01), (02), (03), (8006) or (8026) in the same symbol.',
      'AI (17) expiry date needs AI (01), (02), (03), (255), (8006) or (8026) in the same symbol.',
    ]);
  });
});

describe('the AI table', () => {
  it('covers the AIs of logistics, retail and healthcare labels', () => {
    const ais = new Set(AI_ROWS.map(([ai]) => ai));
    const wanted =
      '00 01 02 10 11 12 13 15 16 17 20 21 22 30 37 240 241 250 251 253 254 400 401 402 403 410 411 412 413 414 415 416 417 420 421 422 7003 8003 8004 8005 8006 8008 8018 8020 90';
    for (const ai of wanted.split(' ')) expect(ais.has(ai), ai).toBe(true);
    expect(ais.has('91-99')).toBe(true);
    const measures = new Set(MEASURE_ROWS.map(([prefix]) => prefix));
    for (const p of ['310', '320', '330', '340', '356', '369', '390', '391', '392', '393'])
      expect(measures.has(p), p).toBe(true);
    for (let n = 0; n <= 5; n++) expect(messages(`(01)09501101530003(310${n})001250`)).toEqual([]);
    for (let ai = 91; ai <= 99; ai++) expect(messages(`(${ai})X-1`)).toEqual([]);
  });
});

describe('random input never throws, and each problem is one message naming what is wrong', () => {
  const aiCodes = [...AI_ROWS.map(([ai]) => ai.split('-')[0] ?? ''), '3102', '3925', '98x', '', '0', '12345'];
  const elementString = fc
    .array(
      fc.record({
        ai: fc.constantFrom(...aiCodes),
        data: fc.oneof(
          fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 22 }),
          fc.string({ unit: fc.constantFrom(...'0123456789ABCabc-/ é'), maxLength: 40 }),
        ),
        space: fc.constantFrom('', ' '),
      }),
      { minLength: 1, maxLength: 6 },
    )
    .map((list) => list.map((e) => `${e.space}(${e.ai})${e.space}${e.data}`).join(''));
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: fc.constantFrom(...'()0123456789 AX'), maxLength: 40 }),
    elementString,
  );

  it('parseGs1', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), fc.boolean(), (value, completeCheckDigits, requisites) => {
        const { elements, problems } = parseGs1(value, { completeCheckDigits, requisites });
        for (const p of problems) {
          expect(p.message.length).toBeGreaterThan(0);
          expect(p.message).toMatch(/\.$/);
          expect(p.message).not.toMatch(/undefined|NaN|\[object/);
        }
        // What was accepted reads back the same.
        if (problems.length === 0) {
          expect(parseGs1(gs1Bracketed(elements)).problems).toEqual([]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('prepareValue throws BarcodeValueError and nothing else', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        try {
          prepareValue('gs1-128', value);
        } catch (e) {
          if (!(e instanceof BarcodeValueError)) throw e;
          expect(e.each.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });
});
