import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RefSyntaxError, escapeLiteral, parseRefs, referencedFields, substitute } from '../../src/model/refs';

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
