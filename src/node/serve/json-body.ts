/**
 * The answer bodies of `labeldesk serve` as JSON bytes: exactly `JSON.stringify(body)`, but an array item that
 * repeats the item before it (the same object or string: the copies of a request, see resolveShared and
 * renderZplLabels) is serialised once and its bytes copied, so a 1,000-copy answer costs one label's
 * serialisation and a memory copy.
 */

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const COMMA = Buffer.from(',');

/**
 * Texts of objects already serialised, by object: the answer's size is checked against its budget before it is
 * sent (budgets.ts), from the same text, so a fetch-markups answer's markup is serialised once, not twice.
 */
const texts = new WeakMap<object, string>();

/** JSON.stringify's text of an array item: `null` for what JSON has no value for (undefined, a function). */
export function itemJson(item: unknown): string {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item) ?? 'null';
  let text = texts.get(item);
  if (text === undefined) texts.set(item, (text = JSON.stringify(item) ?? 'null'));
  return text;
}

function pushArray(items: readonly unknown[], parts: Buffer[]): void {
  parts.push(OPEN);
  let previous: unknown;
  let bytes: Buffer | undefined;
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (i > 0) parts.push(COMMA);
    if (bytes === undefined || item !== previous) {
      previous = item;
      bytes = Buffer.from(itemJson(item));
    }
    parts.push(bytes);
  }
  parts.push(CLOSE);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}

/** `Buffer.from(JSON.stringify(body))`, with repeated array items (top level or one level down) written once. */
export function jsonBytes(body: unknown): Buffer {
  if (Array.isArray(body)) {
    const parts: Buffer[] = [];
    pushArray(body, parts);
    return Buffer.concat(parts);
  }
  if (!isPlainObject(body)) return Buffer.from(JSON.stringify(body) ?? '');
  const parts: Buffer[] = [];
  let first = true;
  let text = '{';
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (Array.isArray(value)) {
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      parts.push(Buffer.from(text));
      pushArray(value, parts);
      text = '';
      first = false;
      continue;
    }
    const json = JSON.stringify(value);
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
  }
  parts.push(Buffer.from(`${text}}`));
  return Buffer.concat(parts);
}
