/**
 * Our Code 128 encoder (src/layout/barcode/code128.ts) replaced bwip-js for format 'code128', and a label must
 * print the same bars as before: random printable-ASCII values (fully random, digit-heavy, capitals and digits,
 * tracking numbers) and the code set edge cases are compared with bwip-js width for width. A few values are also
 * placed on a 300-dpi dot grid through encodeBarcode, drawn, and read back with zbarimg.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BarcodeValueError,
  encodeBarcode,
  placeBarcode,
  type LinearGeometry,
} from '../../../src/layout/barcode';
import { bwipRaw } from '../../../src/layout/barcode/bwip';
import { encodeCode128 } from '../../../src/layout/barcode/code128';
import { drawRects } from '../../support/draw-rects';
import { writeGreyPgm } from '../../support/pgm';
import { zbarDecodeFilesAsync } from '../../support/zbar';

const dir = mkdtempSync(join(tmpdir(), 'labeldesk-code128-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bwipSbs(text: string): number[] {
  const raw = bwipRaw('code128', text, {});
  if (raw.kind !== 'linear') throw new Error('bwip-js gave no bars');
  return raw.sbs;
}

const UPPERCASE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const chars = (s: string): fc.Arbitrary<string> => fc.constantFrom(...s);

const printable = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 80 });
// Digit runs of every length and parity, at the start, middle and end, between a few letters and spaces.
const digitHeavy = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: chars(DIGITS), minLength: 1, maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: chars('AZaz ~-`'), minLength: 1, maxLength: 2 }) },
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join('').slice(0, 80));
// Set A and set B are equally short for these; bwip-js picks B.
const capitalsAndDigits = fc.string({ unit: chars(UPPERCASE + DIGITS), minLength: 1, maxLength: 80 });
const trackingNumbers = fc.oneof(
  fc.string({ unit: chars(DIGITS), minLength: 1, maxLength: 12 }).map((d) => `1Z999AA1${d}`),
  fc
    .tuple(
      fc.string({ unit: chars(UPPERCASE + DIGITS), minLength: 6, maxLength: 6 }),
      fc.string({ unit: chars(DIGITS), minLength: 10, maxLength: 10 }),
    )
    .map(([account, serial]) => `1Z${account}${serial}`),
);

describe('the same bars as bwip-js', () => {
  it.each([
    ['printable ASCII', printable],
    ['digit-heavy', digitHeavy],
    ['capitals and digits', capitalsAndDigits],
    ['tracking numbers', trackingNumbers],
  ] as const)('%s (fast-check, 2,500 values)', (_name, arb) => {
    fc.assert(
      fc.property(arb, (text) => {
        expect(encodeCode128(text)).toEqual(bwipSbs(text));
      }),
      { numRuns: 2_500 },
    );
  });

  const digitRuns = (prefix: string, suffix: string): string[] =>
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => prefix + '1234567890'.slice(0, n) + suffix);
  it.each([
    'A',
    'z',
    ' ',
    '7',
    '42',
    '123',
    '1234',
    '12345',
    '0000000000000000000000000000',
    '98765432109876543210987654321',
    ...digitRuns('', ''),
    ...digitRuns('', 'X'),
    ...digitRuns('X', ''),
    ...digitRuns('AB', 'cd'),
    ...digitRuns('a', ' '),
    'HELLO WORLD',
    'hello world',
    'Hello World 2024',
    '`{|}~',
    ' !"#$%&\'()*+,-./:;<=>?@[\\]^_',
    'A1B2C3D4',
    '12AB34cd5678',
    '1Z999AA10123456784',
    'x'.repeat(80),
    '5'.repeat(499),
    '5'.repeat(500),
  ])('%j', (text) => {
    expect(encodeCode128(text)).toEqual(bwipSbs(text));
  });
});

describe('left to bwip-js', () => {
  it('returns undefined for what it does not encode: empty, over 500 characters, not printable ASCII', () => {
    for (const text of ['', 'x'.repeat(501), 'tab\there', 'café', 'DEL\u007f']) {
      expect(encodeCode128(text)).toBeUndefined();
    }
  });

  it('bwip-js still words the error for a value that is too long', () => {
    const tooLong = (): unknown => encodeBarcode('code128', 'x'.repeat(501));
    expect(tooLong).toThrow(BarcodeValueError);
    expect(tooLong).toThrow('Too long for a Code 128: 501 bytes; shorten the value.');
  });
});

describe('placed and scanned (zbarimg, 300 dpi)', () => {
  const values = [
    '1Z999AA10123456784',
    '12345',
    '42',
    'Order #A-0042/b',
    '`{|}~ hello 0123456789',
    'SHIP TO 221B BAKER ST 12345678901',
  ];
  it('every value reads back as typed, as CODE-128', async () => {
    const dpi = 300;
    const paths = values.map((value, i) => {
      const geometry = encodeBarcode('code128', value) as LinearGeometry;
      const box = { x: 0, y: 0, width: geometry.totalModules * 3, height: dpi / 2 };
      const { node } = placeBarcode(geometry, box, { unit: 'dots', dpi });
      const image = drawRects(node.rects, box.width, box.height, 20);
      const path = join(dir, `code128-${i}.pgm`);
      writeGreyPgm(path, image.width, image.height, image.grey);
      return path;
    });
    const found = await zbarDecodeFilesAsync(paths);
    const read = paths.map((p) => (found.get(p) ?? []).map((d) => `${d.symbology}:${d.value}`));
    expect(read).toEqual(values.map((v) => [`CODE-128:${v}`]));
  });
});
