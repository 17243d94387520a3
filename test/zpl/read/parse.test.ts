import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseZpl } from '../../../src/zpl/read/parse';
import { ZplBudgetError } from '../../../src/zpl/read/errors';

const names = (zpl: string, label = 0) =>
  parseZpl(zpl).formats[label]?.commands.map((c) => `${c.prefix}${c.name}${c.params}`);

describe('parseZpl', () => {
  it('splits a stream into labels of commands with their byte offsets', () => {
    const { formats, warnings } = parseZpl(
      '^XA^FO10,20^A0N,30,25^FDHello^FS^XZ\r\n^XA^FO1,2^GB10,10,2^FS^XZ',
    );
    expect(warnings).toEqual([]);
    expect(formats).toHaveLength(2);
    expect(formats[0]?.commands.map((c) => [c.name, c.params, c.offset])).toEqual([
      ['FO', '10,20', 3],
      ['A', '0N,30,25', 11],
      ['FD', 'Hello', 21],
      ['FS', '', 29],
    ]);
    expect(formats[1]?.start).toBe(37);
  });

  it('follows ^CC, ~CT and ^CD across formats, and keeps ^FD data up to the next command prefix', () => {
    const zpl = '^XA^CC+^XZ+XA+CD;+FO5;6+FDa~b,c+FS+XZ+XA+FO7;8+FS+XZ';
    expect(names(zpl, 1)).toEqual(['^FO5,6', '^FDa~b,c', '^FS']);
    expect(names(zpl, 2)).toEqual(['^FO7,8', '^FS']);
  });

  it('reads ^GFB binary data by its byte count even when it holds prefix characters', () => {
    const zpl = '^XA^FO0,0^GFB,4,4,2,^~^~^FS^XZ';
    expect(names(zpl)).toEqual(['^FO0,0', '^GFB,4,4,2,^~^~', '^FS']);
  });

  it('warns (naming the command and offset) for a nameless prefix, a missing ^XZ and stray text', () => {
    const { formats, warnings } = parseZpl('junk^XA^ ^FO1,1^FS');
    expect(formats).toHaveLength(1);
    expect(warnings.map((w) => [w.command, w.offset])).toEqual([
      ['', 0],
      ['^', 7],
      ['^XA', 4],
    ]);
  });

  it('expands ^XF recalls of ^DF formats, refusing recursion and deep nesting with a warning', () => {
    const zpl =
      '^XA^DFR:A.ZPL^FO1,1^FN1^FS^XZ' +
      '^XA^DFR:LOOP.ZPL^XFR:LOOP.ZPL^FO2,2^FS^XZ' +
      '^XA^XFA^FN1^FDx^FS^XZ' +
      '^XA^XFLOOP.ZPL^XZ';
    const { formats, warnings } = parseZpl(zpl);
    expect(formats.map((f) => f.defines)).toEqual(['R:A.ZPL', 'R:LOOP.ZPL', undefined, undefined]);
    expect(formats[2]?.commands.map((c) => `${c.name}${c.params}:${c.recalled ?? ''}`)).toEqual([
      'FO1,1:R:A.ZPL',
      'FN1:R:A.ZPL',
      'FS:R:A.ZPL',
      'FN1:',
      'FDx:',
      'FS:',
    ]);
    expect(formats[3]?.commands.map((c) => c.name)).toEqual(['FO', 'FS']);
    expect(warnings.map((w) => w.command)).toEqual(['^XF']);
    expect(warnings[0]?.message).toMatch(/recalls itself/);
  });

  it('refuses a stream over its byte, label or command budget with a typed error, before reading it', () => {
    expect(() => parseZpl('^XA^XZ'.repeat(10), { budgets: { maxLabels: 5 } })).toThrow(ZplBudgetError);
    expect(() => parseZpl('x'.repeat(100), { budgets: { maxInputBytes: 99 } })).toThrow(/100 bytes/);
    expect(() => parseZpl(`^XA${'^FS'.repeat(50)}^XZ`, { budgets: { maxCommandsPerLabel: 20 } })).toThrow(
      /over 20 commands/,
    );
  });

  it('bounds recall expansion: a format recalling a wide stored format many times is refused, not expanded', () => {
    const zpl = `^XA^DFW^FS${'^FO1,1'.repeat(100)}^XZ^XA${'^XFW'.repeat(100)}^XZ`;
    expect(() => parseZpl(zpl, { budgets: { maxCommandsPerLabel: 1000 } })).toThrow(ZplBudgetError);
  });

  it('only ever answers formats and warnings or a ZplBudgetError, for any input (fuzz)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '^XA',
        '^XZ',
        '^FO',
        '^FD',
        '^FS',
        '^GF',
        '^GFB,',
        '^GFA,',
        '~DG',
        '~DY',
        '^DF',
        '^XF',
        '^CC',
        '~CT',
        '^CD',
        '^A0',
        '^A@',
        '^FH',
        ',',
        ':',
        '_',
        '^',
        '~',
        '\r\n',
        '1',
        '99999999',
        'R:X.ZPL',
      ),
      fc.string({ maxLength: 8 }),
      fc.uint8Array({ maxLength: 8 }).map((b) => String.fromCharCode(...b)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), (pieces) => {
        try {
          const out = parseZpl(pieces.join(''), { budgets: { maxCommandsPerLabel: 300, maxLabels: 50 } });
          expect(Array.isArray(out.formats)).toBe(true);
          for (const w of out.warnings) expect(Number.isInteger(w.offset)).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(ZplBudgetError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
