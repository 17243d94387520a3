/**
 * Field references inside template values: `{Name}` and `{{api:Name}}` (both forms appear in the hosted
 * service's templates). Names are case-sensitive. A literal brace is escaped with a backslash: `\{`, `\}`
 * (and `\\` for a literal backslash); any other backslash is literal (Windows paths stay as written). Parsed once; resolution substitutes values verbatim (a value is never
 * parsed again, so a value containing braces stays as typed).
 *
 * A reference may name a format after a bar: `{best_before|YYMMDD}` prints the date field's 2026-11-24 as
 * 261124, the form GS1's date AIs (11), (13), (15), (17) take — the field keeps the date as people type it and the
 * human-readable text can show it so. A value that is not such a date is substituted as it is (the barcode's
 * value check then names the problem).
 */

/** Formats a reference can apply to its field's value (`{name|FORMAT}`). */
export const REF_FORMATS = ['YYMMDD'] as const;
export type RefFormat = (typeof REF_FORMATS)[number];

export type Segment = { kind: 'literal'; text: string } | { kind: 'field'; name: string; format?: RefFormat };

const ISO_DATE = /^\d{2}(\d{2})-(\d{2})-(\d{2})$/;

/** `value` in `format`; a value the format does not apply to is returned unchanged. */
export function applyRefFormat(format: RefFormat, value: string): string {
  switch (format) {
    case 'YYMMDD': {
      const m = ISO_DATE.exec(value.trim());
      return m ? `${m[1]}${m[2]}${m[3]}` : value;
    }
  }
}

/** A field segment written back as a reference (`{name}` or `{name|FORMAT}`), for tools that rewrite templates. */
export function writeRef(segment: { name: string; format?: RefFormat }): string {
  return `{${segment.name}${segment.format ? `|${segment.format}` : ''}}`;
}

/** A field name: a letter or underscore, then letters, digits, `_`, `-`, `.`. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export class RefSyntaxError extends Error {
  constructor(
    message: string,
    /** Character offset in the string. */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'RefSyntaxError';
  }
}

const API_OPEN = '{{api:';

function isRefFormat(format: string): format is RefFormat {
  return (REF_FORMATS as readonly string[]).includes(format);
}

/** Splits a template string into literal text and field references. Throws RefSyntaxError. */
export function parseRefs(source: string): Segment[] {
  const segments: Segment[] = [];
  let literal = '';
  const flush = () => {
    if (literal) segments.push({ kind: 'literal', text: literal });
    literal = '';
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1];
      // Only braces and the backslash itself are escapable; any other backslash is literal (Windows paths).
      if (next === '{' || next === '}' || next === '\\') {
        literal += next;
        i += 2;
      } else {
        literal += ch;
        i++;
      }
      continue;
    }
    if (ch === '{') {
      const api = source.startsWith(API_OPEN, i);
      const open = api ? API_OPEN.length : 1;
      const close = api ? '}}' : '}';
      const end = source.indexOf(close, i + open);
      const raw = end < 0 ? '' : source.slice(i + open, end);
      const bar = api ? -1 : raw.indexOf('|');
      const name = api ? raw.trim() : bar < 0 ? raw : raw.slice(0, bar);
      const format = bar < 0 ? undefined : raw.slice(bar + 1);
      if (end >= 0 && FIELD_NAME.test(name) && format !== undefined && !isRefFormat(format)) {
        throw new RefSyntaxError(
          `"{${raw}}" at character ${i + 1}: unknown format "${format}"; the formats are ${REF_FORMATS.join(', ')}`,
          i,
        );
      }
      if (end < 0 || !FIELD_NAME.test(name)) {
        const what = api
          ? `"{{api:" at character ${i + 1} is not closed by a field name and "}}"`
          : `"{" at character ${i + 1} does not start a field reference like {Name}`;
        throw new RefSyntaxError(`${what}; write \\{ for a literal brace`, i);
      }
      flush();
      segments.push(
        format !== undefined && isRefFormat(format)
          ? { kind: 'field', name, format }
          : { kind: 'field', name },
      );
      i = end + close.length;
      continue;
    }
    if (ch === '}') {
      throw new RefSyntaxError(`unmatched "}" at character ${i + 1}; write \\} for a literal brace`, i);
    }
    literal += ch;
    i++;
  }
  flush();
  return segments;
}

/** The field names a template string refers to, in order of appearance (may repeat). */
export function referencedFields(source: string): string[] {
  return parseRefs(source).flatMap((s) => (s.kind === 'field' ? [s.name] : []));
}

/** Substitutes values into parsed segments. `valueOf` decides value vs placeholder. */
export function substitute(segments: readonly Segment[], valueOf: (name: string) => string): string {
  let out = '';
  for (const s of segments) {
    if (s.kind === 'literal') out += s.text;
    else out += s.format ? applyRefFormat(s.format, valueOf(s.name)) : valueOf(s.name);
  }
  return out;
}

/** Escapes literal text so that parseRefs gives it back unchanged (used by template capture). */
export function escapeLiteral(text: string): string {
  return text.replace(/[\\{}]/g, (c) => '\\' + c);
}
