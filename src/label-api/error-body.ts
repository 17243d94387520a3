/**
 * Reading the service's error bodies (spec §7: "JSON that includes a human-readable message naming the
 * problem. Fields beyond the message: not shown"). Tolerant of the common shapes — `{message}`, `{error}`,
 * `{detail}`, `{errors: {field: [..]}}`, `{errors: [{field, message}]}`, `{detail: [{loc, msg}]}` — and decides which 422s mean an
 * unknown template (spec §7 rule 4) or an RFID template (spec §4.4, §4.7).
 */

/** The request parameters a 422 can be about (spec §2.2). */
export const REQUEST_PARAMETERS = [
  'label_name',
  'amount',
  'apiData',
  'printer_id',
  'dpi',
  'max_width_dots',
] as const;

export interface ErrorBody {
  /** The service's message, or "" when it sent none. */
  message: string;
  /** The parameter the error is about, when the body names one or the message mentions exactly one. */
  field: string | undefined;
  /** Every message in the body, for classification. */
  allText: string;
}

const asString = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim() : undefined;

/** Extracts message and field from a (possibly non-JSON) error body. */
export function readErrorBody(text: string): ErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const texts: string[] = [];
  let field: string | undefined;
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    const nested =
      typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>) : undefined;
    for (const v of [o.message, o.error, o.detail, o.title, nested?.message]) {
      const s = asString(v);
      if (s) texts.push(s);
    }
    field = asString(o.field) ?? asString(o.param) ?? asString(o.parameter) ?? asString(nested?.field);
    for (const list of [o.errors, o.detail]) {
      if (typeof list !== 'object' || list === null) continue;
      if (Array.isArray(list)) {
        for (const item of list) {
          if (typeof item === 'string') texts.push(item);
          else if (typeof item === 'object' && item !== null) {
            const it = item as Record<string, unknown>;
            const s = asString(it.message) ?? asString(it.msg);
            if (s) texts.push(s);
            field ??=
              asString(it.field) ??
              asString(it.param) ??
              (Array.isArray(it.loc) ? asString(it.loc.at(-1)) : undefined);
          }
        }
      } else if (list === o.errors) {
        for (const [key, v] of Object.entries(list as Record<string, unknown>)) {
          field ??= key;
          for (const s of Array.isArray(v) ? v : [v]) {
            const str = asString(s);
            if (str) texts.push(str);
          }
        }
      }
    }
  } else if (typeof json === 'string') {
    texts.push(json);
  }
  const message = texts[0] ?? '';
  const allText = texts.join('\n');
  field ??= mentionedParameter(allText);
  return { message, field, allText };
}

/** The one request parameter a message mentions (`label_name`, `apiData.sku`…), if exactly one. */
function mentionedParameter(text: string): string | undefined {
  const found = new Set<string>();
  for (const p of REQUEST_PARAMETERS) {
    const m = new RegExp(`(?<![A-Za-z0-9_])${p}(\\.[A-Za-z_][A-Za-z0-9_.-]*)?(?![A-Za-z0-9_])`).exec(text);
    if (m) found.add(m[0]);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

const RFID = /\brfid\b/i;
/** Phrases that say "does not exist". */
const NOT_FOUND =
  /not\s+found|\bunknown\b|do(?:es)?\s*n[o']t\s+exist|\bnot\s+exist|\bno\s+such\b|could\s*n[o']t\s+(?:be\s+)?f(?:i|ou)nd|can(?:no|')t\s+(?:be\s+)?f(?:i|ou)nd|\bno\s+(?:label|template)s?\s+(?:named|called|with)\b|\bmissing\s+template\b/i;
/** Phrases that say "is invalid" — Laravel's `exists` rule words a missing template this way. */
const INVALID = /\bis\s+(?:invalid|not\s+valid)\b/i;
/** Phrases that say a parameter is missing or of the wrong type (a validation error, not a lookup). */
const BAD_PARAMETER = /\brequired\b|\bmust\b|\bis\s+missing\b|\bexpected\b|\bshould\b|\bempty\b/i;
const ABOUT_TEMPLATE = /label[\s_-]?name|\btemplates?\b/i;

/** A 422 that refuses a template because it has an RFID element. */
export function isRfidRefusal(body: ErrorBody): boolean {
  return RFID.test(body.allText);
}

/**
 * A 422 that means "no template with that name" (spec §4.6 rule 8, §4.7 rule 2, §7 rule 4). It must be about
 * the template (mentions label_name or template, names the parameter label_name, or quotes the name we sent)
 * and say it does not exist; "label_name is required" or "must be a string" stay validation errors.
 */
export function isUnknownTemplate(body: ErrorBody, labelName: string): boolean {
  const text = body.allText;
  if (!text || isRfidRefusal(body)) return false;
  const quotesName = labelName.length >= 3 && text.includes(labelName);
  const about = body.field === 'label_name' || ABOUT_TEMPLATE.test(text) || quotesName;
  if (!about) return false;
  if (NOT_FOUND.test(text)) return true;
  return (
    INVALID.test(text) &&
    !BAD_PARAMETER.test(text) &&
    (body.field === 'label_name' || quotesName || /label[\s_-]?name/i.test(text))
  );
}
