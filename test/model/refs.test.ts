import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  RefSyntaxError,
  escapeLiteral,
  parseRefs,
  referencedFields,
  substitute,
  writeRef,
} from '../../src/model/refs';
import { parseTemplate } from '../../src/model/parse';
import { resolve } from '../../src/resolve/resolve';
import { checkValues } from '../../src/resolve/values';

describe('field references', () => {
  it('reads {Name} and {{api:Name}} as references, the rest as literal text', () => {
    expect(parseRefs('Hello {name}, order {{api:order_id}}!')).toEqual([
      { kind: 'literal', text: 'Hello ' },
      { kind: 'field', name: 'name' },
      { kind: 'literal', text: ', order ' },
      { kind: 'field', name: 'order_id' },
      { kind: 'literal', text: '!' },
    ]);
  });

  it('keeps names case-sensitive', () => {
    expect(referencedFields('{Tracking}{tracking}')).toEqual(['Tracking', 'tracking']);
  });

  it('escapes literal braces with a backslash', () => {
    expect(substitute(parseRefs('\\{not a field\\} {a}'), () => 'A')).toBe('{not a field} A');
  });

  it('leaves other backslashes alone (Windows paths)', () => {
    expect(substitute(parseRefs('C:\\labels\\logo-{n}.png'), () => '2')).toBe('C:\\labels\\logo-2.png');
  });

  it.each([
    ['a { b', /does not start a field reference/],
    ['a } b', /unmatched "}"/],
    ['{1abc}', /does not start a field reference/],
    ['{{api:x}', /not closed/],
    ['{}', /does not start/],
  ])('rejects %j with a message that says how to write a literal brace', (source, message) => {
    expect(() => parseRefs(source)).toThrow(RefSyntaxError);
    expect(() => parseRefs(source)).toThrow(message);
    expect(() => parseRefs(source)).toThrow(/\\[{}] for a literal brace/);
  });

  it('substitutes values verbatim: a value with braces is never parsed again', () => {
    expect(substitute(parseRefs('[{a}]'), () => '{b} \\{')).toBe('[{b} \\{]');
  });

  it('escapeLiteral round-trips any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const segments = parseRefs(escapeLiteral(text));
        expect(substitute(segments, () => 'never')).toBe(text);
        expect(segments.every((s) => s.kind === 'literal')).toBe(true);
      }),
    );
  });

  it('never throws anything but RefSyntaxError on random input (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('{', '}', '\\', 'a', ':', 'api', ' ', '1') }),
        (source) => {
          try {
            parseRefs(source);
          } catch (e) {
            expect(e).toBeInstanceOf(RefSyntaxError);
          }
        },
      ),
    );
  });
});

describe('reference formats: {date|YYMMDD}', () => {
  it('prints a date typed as 2026-11-24 as 261124 (what GS1 date AIs take); other values as they are', () => {
    const segments = parseRefs('(15){best_before|YYMMDD} BEST BEFORE {best_before}');
    expect(segments).toEqual([
      { kind: 'literal', text: '(15)' },
      { kind: 'field', name: 'best_before', format: 'YYMMDD' },
      { kind: 'literal', text: ' BEST BEFORE ' },
      { kind: 'field', name: 'best_before' },
    ]);
    expect(substitute(segments, () => '2026-11-24')).toBe('(15)261124 BEST BEFORE 2026-11-24');
    expect(substitute(segments, () => '261124')).toBe('(15)261124 BEST BEFORE 261124');
    expect(substitute(segments, () => '')).toBe('(15) BEST BEFORE ');
    expect(referencedFields('{a|YYMMDD}{b}')).toEqual(['a', 'b']);
  });

  it('an unknown format is a syntax error naming it and the formats there are', () => {
    expect(() => parseRefs('x {d|DDMMYY}')).toThrow(
      new RefSyntaxError('"{d|DDMMYY}" at character 3: unknown format "DDMMYY"; the formats are YYMMDD', 2),
    );
    expect(() => parseRefs('{|YYMMDD}')).toThrow(RefSyntaxError);
  });

  it('writeRef writes a reference back as parseRefs reads it', () => {
    for (const source of ['{d|YYMMDD}', '{d}']) {
      const [segment] = parseRefs(source);
      expect(segment?.kind === 'field' && writeRef(segment)).toBe(source);
    }
  });

  it('a GS1-128 fed a date field through |YYMMDD resolves and passes the value checks', () => {
    const template = parseTemplate({
      schemaVersion: 1,
      name: 'dates',
      stage: { width: 4, height: 2, unit: 'in' },
      fields: [{ name: 'best_before', label: 'Best before', placeholder: '', type: 'date' }],
      elements: [
        {
          type: 'barcode',
          x: 0,
          y: 0,
          width: 300,
          height: 100,
          format: 'gs1-128',
          text: '(15){best_before|YYMMDD}',
        },
      ],
    });
    expect(checkValues(template, { best_before: '2026-11-24' })).toEqual([]);
    expect(
      (resolve(template, { best_before: '2026-11-24' }, 1)[0]?.elements[0] as { text: string }).text,
    ).toBe('(15)261124');
    // A date the form refuses is refused once, as a date (not again as a GS1 problem).
    expect(checkValues(template, { best_before: '24/11/2026' })).toEqual([
      {
        path: 'apiData.best_before',
        message: 'Best before must be a date like 2026-11-23, got "24/11/2026"',
      },
    ]);
  });
});
