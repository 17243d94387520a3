/** A field's pattern in words for the messages people read (#42 item 9: the rule in words, not `\d{12,13}`). */
import { describe, expect, it } from 'vitest';
import { patternInWords } from '../../src/resolve/pattern-words';

describe('patternInWords', () => {
  it.each([
    ['\\d{12,13}', '12 or 13 digits'],
    ['[0-9]{14}', '14 digits'],
    ['[0-9]{1,4}', '1 to 4 digits'],
    ['[0-9]{1,14}|[!-~]{1,7}', '1 to 14 digits, or 1 to 7 visible ASCII characters'],
    ['[0-9A-Fa-f]{24}', '24 hexadecimal digits'],
    ['[\\x20-\\x7E]+', 'one or more printable ASCII characters'],
    ['[A-Z]{2}\\d{3}', '2 capital letters, then 3 digits'],
    ['SKU-\\d+', '"SKU-", then one or more digits'],
    ['[A-Z]{2}-?\\d{4}', '2 capital letters, an optional "-", then 4 digits'],
    ['\\d{3,}', '3 or more digits'],
  ])('%s → %s', (pattern, words) => expect(patternInWords(pattern)).toBe(words));

  it('gives up on what it cannot say simply (the message then quotes the pattern)', () => {
    for (const p of ['(a|b)c', '[^0-9]+', '\\d(?=x)', 'a\\|b']) expect(patternInWords(p)).toBeNull();
  });
});
