/**
 * The dpi a ZPL file was made for (src/zpl/file-dpi.ts): ^MU as the ZPL II guide defines it, else ^PW against
 * the printer's labels when one reading alone fits, else nothing claimed; hostile values never claim a dpi.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zplFileDpi } from '../../src/zpl/file-dpi';

const at300 = { dpi: 300, printWidthDots: 1232 };
const at203 = { dpi: 203, printWidthDots: 832 };

describe('zplFileDpi', () => {
  it('infers 203 from ^PW812 on a 4 in printer at 300 dpi, and says how', () => {
    const { dpi } = zplFileDpi('^XA^PW812^LL1218^FO10,10^GB100,100,2^FS^XZ', at300);
    expect(dpi).toEqual({
      kind: 'known',
      dpi: 203,
      how: "inferred from its ^PW812: 4 in at 203 dpi, the width of the printer's labels (4.11 in, the printer's print width of 1232 dots at 300 dpi)",
    });
  });

  it('reads a file written for the printer dpi as that dpi', () => {
    expect(zplFileDpi('^XA^PW1218^XZ', at300).dpi).toMatchObject({ kind: 'known', dpi: 300 });
    expect(zplFileDpi('^XA^PW812^XZ', at203).dpi).toMatchObject({ kind: 'known', dpi: 203 });
    // A 600-dpi file for a 4 in label, sent to a 203-dpi printer.
    expect(zplFileDpi('^XA^PW2436^XZ', at203).dpi).toMatchObject({ kind: 'known', dpi: 600 });
  });

  it('claims nothing when no reading fits the printer labels, or the file gives two widths', () => {
    // 3 in at 300 dpi, 4.43 in at 203: neither is within 5 % of the 4.11 in labels.
    expect(zplFileDpi('^XA^PW900^XZ', at300).dpi).toEqual({ kind: 'unknown' });
    expect(zplFileDpi('^XA^FO10,10^FDx^FS^XZ', at300).dpi).toEqual({ kind: 'unknown' });
    expect(zplFileDpi('^XA^PW812^XZ^XA^PW1218^XZ', at300).dpi).toEqual({ kind: 'unknown' });
  });

  it('the length confirms or contradicts the width when the printer labels length is known', () => {
    const withLength = { ...at300, labelLengthDots: 1800 };
    expect(zplFileDpi('^XA^PW812^LL1218^XZ', withLength).dpi).toMatchObject({ kind: 'known', dpi: 203 });
    expect(zplFileDpi('^XA^PW812^LL1800^XZ', withLength).dpi).toEqual({ kind: 'unknown' });
    expect(zplFileDpi('^XA^LL1218^XZ', withLength).dpi).toMatchObject({
      kind: 'known',
      dpi: 203,
      how: "inferred from its ^LL1218: 6 in at 203 dpi, the length of the printer's labels (1800 dots)",
    });
  });

  it('takes the ^MU format base, and leaves a conversion to the printer when it is the printer dpi', () => {
    expect(zplFileDpi('^XA^MUd,200,200^PW1218^XZ', at300).dpi).toEqual({
      kind: 'known',
      dpi: 203,
      how: 'its ^MUd,200,200 gives a 203-dpi format base',
    });
    expect(zplFileDpi('^XA^MUd,200,600^XZ', { dpi: 600, printWidthDots: 2464 }).dpi).toEqual({
      kind: 'printer-converts',
      how: "its ^MUd,200,600 asks the printer to convert its 203-dpi sizes to 600 dpi, the printer's own",
    });
    // Sizes in inches or millimetres are the printer's to convert: nothing to claim.
    expect(zplFileDpi('^XA^MUi^PW812^XZ', at300).dpi).toEqual({ kind: 'unknown' });
    // Two bases in one file: nothing to claim.
    expect(zplFileDpi('^XA^MUd,200,200^XZ^XA^MUd,300,300^XZ', at300).dpi).toEqual({ kind: 'unknown' });
  });

  it('ignores a ^MU a printer ignores, naming it, and reads on as without it', () => {
    for (const [mu, why] of [
      ['^MUQ,7,9', 'units "Q" are not D, I or M'],
      ['^MUd,203', 'the format base and the conversion must each be 150, 200, 300 or 600 dpi'],
      ['^MUd,abc,300', 'the format base and the conversion must each be 150, 200, 300 or 600 dpi'],
      ['^MUd,200,300', 'a 200-dpi format cannot be converted to 300 dpi (a whole multiple is needed)'],
      ['^MUd,600,300', 'a 600-dpi format cannot be converted to 300 dpi (a whole multiple is needed)'],
    ] as const) {
      const { dpi, warnings } = zplFileDpi(`^XA${mu}^PW812^XZ`, at300);
      expect(warnings).toEqual([
        {
          command: '^MU',
          offset: 3,
          message: `${mu}: ${why}: ignored, as a printer does, when telling the file's dpi.`,
        },
      ]);
      expect(dpi).toMatchObject({ kind: 'known', dpi: 203 });
    }
  });

  it('claims nothing from absurd sizes', () => {
    for (const pw of ['^PW99999999', '^PW-812', '^PW0', '^PW812.5', '^PWabc', '^PW']) {
      expect(zplFileDpi(`^XA${pw}^LL99999^XZ`, at300).dpi).toEqual({ kind: 'unknown' });
    }
  });

  it('only ever answers a standard dpi, a conversion or nothing, for any stream of ^MU, ^PW and ^LL', () => {
    const value = fc.oneof(
      fc.integer({ min: -99999, max: 99999999 }).map(String),
      fc.string({ maxLength: 8 }),
    );
    const piece = fc.oneof(
      fc
        .tuple(fc.constantFrom('^MU', '^PW', '^LL'), fc.array(value, { maxLength: 4 }))
        .map(([c, params]) => `${c}${params.join(',')}`),
      fc.constantFrom('^XA', '^XZ', '^FO10,10^FDx^FS', '^CC+', '+MUd,200,200'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom(203, 300, 600), (pieces, dpi) => {
        const { dpi: made } = zplFileDpi(pieces.join(''), { dpi, printWidthDots: Math.round(4.1 * dpi) });
        if (made.kind === 'known') expect([152, 203, 300, 600]).toContain(made.dpi);
      }),
    );
  });
});
