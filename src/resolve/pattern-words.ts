/**
 * A field's pattern in words, for messages people read: `\d{12,13}` → "12 or 13 digits", `[A-Z]{2}\d{3}` →
 * "2 capital letters, then 3 digits", `[0-9]{1,14}|[!-~]{1,7}` → "1 to 14 digits, or 1 to 7 visible ASCII
 * characters". Patterns made of other parts (groups, look-arounds, classes not listed here) are null: the
 * caller then quotes the pattern itself.
 */

/** Character classes people have names for: singular and plural. */
const CLASSES: Record<string, [string, string]> = {
  '\\d': ['digit', 'digits'],
  '[0-9]': ['digit', 'digits'],
  '[A-Z]': ['capital letter', 'capital letters'],
  '[a-z]': ['lowercase letter', 'lowercase letters'],
  '[A-Za-z]': ['letter', 'letters'],
  '[a-zA-Z]': ['letter', 'letters'],
  '[A-Z0-9]': ['capital letter or digit', 'capital letters or digits'],
  '[0-9A-Z]': ['capital letter or digit', 'capital letters or digits'],
  '[A-Za-z0-9]': ['letter or digit', 'letters or digits'],
  '[a-zA-Z0-9]': ['letter or digit', 'letters or digits'],
  '[0-9A-Fa-f]': ['hexadecimal digit', 'hexadecimal digits'],
  '[0-9a-fA-F]': ['hexadecimal digit', 'hexadecimal digits'],
  '[0-9A-F]': ['hexadecimal digit', 'hexadecimal digits'],
  '[\\x20-\\x7E]': ['printable ASCII character', 'printable ASCII characters'],
  '[!-~]': ['visible ASCII character', 'visible ASCII characters'],
  '\\w': ['letter, digit or "_"', 'letters, digits or "_"'],
  '.': ['character', 'characters'],
};

const CLASS_KEYS = Object.keys(CLASSES).sort((a, b) => b.length - a.length);

function count(min: number, max: number | null, [one, many]: [string, string]): string {
  if (max === null)
    return min === 0 ? `any number of ${many}` : min === 1 ? `one or more ${many}` : `${min} or more ${many}`;
  if (min === max) return `${min} ${min === 1 ? one : many}`;
  if (min === 0 && max === 1) return `an optional ${one}`;
  if (min === 0) return `up to ${max} ${many}`;
  return `${min} ${max === min + 1 ? 'or' : 'to'} ${max} ${many}`;
}

/** One branch (no top-level `|`) in words, or null. */
function branch(source: string): string | null {
  const parts: string[] = [];
  let literal = '';
  let at = 0;
  const flush = () => {
    if (literal) parts.push(`"${literal}"`);
    literal = '';
  };
  while (at < source.length) {
    const cls = CLASS_KEYS.find((k) => source.startsWith(k, at));
    let names: [string, string] | null = null;
    let unit = '';
    if (cls !== undefined) {
      names = CLASSES[cls]!;
      at += cls.length;
    } else {
      const ch = source[at]!;
      if (ch === '\\' && at + 1 < source.length && /[-.\\/+*?()[\]{}|^$ ]/.test(source[at + 1]!)) {
        unit = source[at + 1]!;
        at += 2;
      } else if (/[\\()[\]{}|^$+*?]/.test(ch)) {
        return null;
      } else {
        unit = ch;
        at += 1;
      }
    }
    const q = /^(?:\{(\d+)(?:(,)(\d*))?\}|([+*?]))/.exec(source.slice(at));
    let min = 1;
    let max: number | null = 1;
    if (q) {
      at += q[0].length;
      if (q[4] === '+') [min, max] = [1, null];
      else if (q[4] === '*') [min, max] = [0, null];
      else if (q[4] === '?') [min, max] = [0, 1];
      else {
        min = Number(q[1]);
        max = q[2] ? (q[3] ? Number(q[3]) : null) : min;
      }
    }
    if (names) {
      flush();
      parts.push(count(min, max, names));
    } else if (min === 1 && max === 1) {
      literal += unit;
    } else {
      flush();
      parts.push(count(min, max, [`"${unit}"`, `"${unit}" characters`]));
    }
  }
  flush();
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')}, then ${parts.at(-1)!}`;
}

export function patternInWords(pattern: string): string | null {
  const branches = pattern.split('|');
  const words = branches.map(branch);
  if (words.some((w) => w === null)) return null;
  return words.join(', or ');
}
