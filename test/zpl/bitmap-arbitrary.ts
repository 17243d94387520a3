/** fast-check generators of MonoBitmaps shaped like labels: white, black, repeated, random and long-run rows. */
import fc from 'fast-check';
import { createMonoBitmap, getDot, setDot, type MonoBitmap } from '../../src/render/bitmap';

type RowSpec =
  | { kind: 'white' }
  | { kind: 'black' }
  | { kind: 'repeat' }
  | { kind: 'bits'; bits: boolean[] }
  | { kind: 'runs'; runs: { length: number; black: boolean }[] };

function rowArbitrary(width: number): fc.Arbitrary<RowSpec> {
  return fc.oneof(
    fc.constant<RowSpec>({ kind: 'white' }),
    fc.constant<RowSpec>({ kind: 'black' }),
    fc.constant<RowSpec>({ kind: 'repeat' }),
    fc
      .array(fc.boolean(), { minLength: width, maxLength: width })
      .map<RowSpec>((bits) => ({ kind: 'bits', bits })),
    fc
      .array(fc.record({ length: fc.integer({ min: 1, max: Math.max(1, width) }), black: fc.boolean() }), {
        minLength: 1,
        maxLength: 6,
      })
      .map<RowSpec>((runs) => ({ kind: 'runs', runs })),
  );
}

function build(width: number, rows: RowSpec[]): MonoBitmap {
  const bitmap = createMonoBitmap(width, rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) {
      let black = false;
      switch (row.kind) {
        case 'white':
          break;
        case 'black':
          black = true;
          break;
        case 'repeat':
          black = y > 0 && getDot(bitmap, x, y - 1);
          break;
        case 'bits':
          black = row.bits[x] ?? false;
          break;
        case 'runs': {
          let at = 0;
          for (const run of row.runs) {
            if (x < at + run.length) {
              black = run.black;
              break;
            }
            at += run.length;
          }
          break;
        }
      }
      if (black) setDot(bitmap, x, y, true);
    }
  });
  return bitmap;
}

/** Bitmaps of 1..maxWidth dots (any width, not only multiples of 8) by 1..maxHeight rows; padding bits are 0. */
export function bitmapArbitrary(maxWidth = 70, maxHeight = 24): fc.Arbitrary<MonoBitmap> {
  return fc
    .integer({ min: 1, max: maxWidth })
    .chain((width) =>
      fc.array(rowArbitrary(width), { minLength: 1, maxLength: maxHeight }).map((rows) => build(width, rows)),
    );
}
