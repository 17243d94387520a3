/**
 * Template capture: turns a hosted template (designed in the service's canvas, spec §1) into a local Template
 * with ONE fetch-markups call (every call counts as a print, spec §1 rule 3). Each field gets a sentinel value
 * (./sentinels); the resolved markup is the layout, and an element value containing a sentinel becomes a
 * field reference (`{name}`, literal parts escaped with escapeLiteral). Everything else stays literal.
 *
 * What cannot be captured is reported as notes rather than guessed:
 *  - a field whose sentinel appears nowhere: not used by the template, or transformed beyond recognition
 *    (formatted as a number or date, cut below 6 characters, replaced);
 *  - a sentinel that appears transformed (upper-/lower-cased, truncated): captured as a reference, noted,
 *    since the local engine prints values as typed (a truncation becomes the field's maxLength);
 *  - barcodes whose value holds no sentinel: fixed, or computed by the template. A field that feeds a
 *    numeric symbology (EAN, UPC, ITF) needs a digit sentinel, and which fields do cannot be known before the
 *    call: mark such fields `digits` (CLI: `--fields sku,gtin:digits`) and capture again;
 *  - attributes the local engine does not know (dropped), and placeholders, which one call cannot reveal
 *    (the optional second call, `placeholders: true`, learns them and counts as another print).
 */
import { formatLabel, type BarcodeFormat } from '../model/barcode/formats';
import { referenceAttributes, TemplateElementSchema, type ElementType } from '../model/elements';
import { parseTemplate } from '../model/parse';
import { escapeLiteral, FIELD_NAME, parseRefs } from '../model/refs';
import { SCHEMA_VERSION, type Markup, type Template } from '../model/schema';
import type { CallOptions, LabelBackend } from './backend';
import { ValidationError } from './errors';
import { findSentinels, makeSentinels, type Match, type SentinelKind } from './sentinels';

export interface CaptureField {
  /** The hosted template's mapped API field name (case-sensitive). */
  name: string;
  /** Form label; default the name made readable ("ship_to_name" → "Ship to name"). */
  label?: string;
  /** Printed when no value is given; default learned (with `placeholders`) or "". */
  placeholder?: string;
  /** The field feeds a numeric barcode (EAN/UPC/ITF): send a 12-digit sentinel. */
  digits?: boolean;
}

export type CaptureNoteKind =
  | 'unused'
  | 'transformed'
  | 'truncated'
  | 'check-digit'
  | 'fixed-barcode'
  | 'not-a-reference'
  | 'dropped-attributes'
  | 'placeholders'
  | 'renamed';

export interface CaptureNote {
  kind: CaptureNoteKind;
  /** The field concerned, if any. */
  field?: string;
  /** The element concerned, e.g. `elements[4]`. */
  path?: string;
  message: string;
}

export interface CaptureOptions extends CallOptions {
  backend: Pick<LabelBackend, 'fetchMarkups'>;
  /** The hosted template's exact name. */
  templateName: string;
  fields: readonly (string | CaptureField)[];
  /** A second fetch-markups call without values, to learn each field's placeholder (counts as a print). */
  placeholders?: boolean;
  /** Sentinel randomness (tests inject a seeded source). */
  random?: () => number;
  /** For the description; default now. */
  now?: () => Date;
}

export interface CaptureResult {
  /** A valid local template (parseTemplate succeeds). */
  template: Template;
  notes: CaptureNote[];
  /** Field name → the sentinel sent for it. */
  sentinels: Record<string, string>;
}

const NUMERIC_FORMATS: ReadonlySet<string> = new Set([
  'ean13',
  'ean8',
  'upca',
  'upce',
  'itf14',
  'isbn',
  'ismn',
  'issn',
]);
const CHECK_DIGIT_FORMATS: ReadonlySet<string> = new Set(['ean13', 'ean8', 'upca', 'upce', 'itf14']);

/** Attribute names each element kind accepts in a Template (strict schema), and the font's. */
const ALLOWED: Map<string, Set<string>> = new Map(
  TemplateElementSchema.options.map((o) => [String(o.shape.type.value), new Set(Object.keys(o.shape))]),
);
const FONT_KEYS = new Set(['size', 'family', 'style', 'color']);

/** "ship_to_name" → "Ship to name". */
export function humanize(name: string): string {
  const words = name
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words ? words[0]?.toUpperCase() + words.slice(1) : name;
}

function describeAppearance(m: Match): string {
  const a = m.appearance;
  switch (a.how) {
    case 'exact':
      return 'as sent';
    case 'case':
      return a.transform;
    case 'truncated':
      return `cut to its ${a.kept === 'start' ? 'first' : 'last'} ${a.length} characters${a.caseChanged ? ' and case-changed' : ''}`;
  }
}

/** Captures the hosted template `templateName`. Throws what fetchMarkups throws (HostedTemplateNotFound…). */
export async function captureTemplate(options: CaptureOptions): Promise<CaptureResult> {
  const fields: CaptureField[] = options.fields.map((f) => (typeof f === 'string' ? { name: f } : f));
  const names = new Set<string>();
  for (const f of fields) {
    if (!FIELD_NAME.test(f.name)) {
      throw new ValidationError(
        `fields: "${f.name}" cannot be a LabelDesk field name (letters, digits, "_", "-", "."; starting with a letter or "_")`,
        'fields',
      );
    }
    if (names.has(f.name)) throw new ValidationError(`fields: "${f.name}" is listed twice`, 'fields');
    names.add(f.name);
  }
  const kinds: SentinelKind[] = fields.map((f) => (f.digits ? 'digits' : 'text'));
  const sentinels = makeSentinels(kinds, options.random);
  const apiData = Object.fromEntries(fields.map((f, i) => [f.name, sentinels[i] as string]));
  const call = options.signal ? { signal: options.signal } : {};
  const [markup] = await options.backend.fetchMarkups(
    { label_name: options.templateName, amount: 1, apiData },
    call,
  );
  if (!markup) throw new Error('fetch-markups returned no markup for amount 1');
  const notes: CaptureNote[] = [];
  const used = new Set<number>();
  const maxLength = new Map<number, number>();

  /** A markup value → a template reference string, noting transforms. */
  const toReference = (value: string, path: string, format: BarcodeFormat | undefined): string => {
    const matches = findSentinels(value, sentinels);
    let out = '';
    let at = 0;
    for (const m of matches) {
      const field = fields[m.field] as CaptureField;
      out += escapeLiteral(value.slice(at, m.start)) + `{${field.name}}`;
      at = m.end;
      used.add(m.field);
      const a = m.appearance;
      if (a.how === 'case' || (a.how === 'truncated' && a.caseChanged)) {
        notes.push({
          kind: 'transformed',
          field: field.name,
          path,
          message: `${path}: the template transforms the value of "${field.name}" (${describeAppearance(m)}); LabelDesk prints values as typed`,
        });
      }
      if (a.how === 'truncated') {
        notes.push({
          kind: 'truncated',
          field: field.name,
          path,
          message: `${path}: the template shows "${field.name}" ${describeAppearance(m)}; captured as the whole value${a.kept === 'start' ? ` with a maximum length of ${a.length}` : ''}`,
        });
        if (a.kept === 'start')
          maxLength.set(m.field, Math.min(maxLength.get(m.field) ?? Infinity, a.length));
      }
      // The service completed a check digit after a digit sentinel: the local engine computes it too.
      const next = value[at];
      if (
        format &&
        CHECK_DIGIT_FORMATS.has(format) &&
        kinds[m.field] === 'digits' &&
        a.how === 'exact' &&
        next !== undefined &&
        /\d/.test(next) &&
        at + 1 === value.length
      ) {
        at += 1;
        notes.push({
          kind: 'check-digit',
          field: field.name,
          path,
          message: `${path}: the service appends a check digit to "${field.name}"; the local engine computes it as well`,
        });
      }
    }
    return out + escapeLiteral(value.slice(at));
  };

  const elements = markup.elements.map((element, index) => {
    const path = `elements[${index}]`;
    const type = element.type as ElementType;
    const allowed = ALLOWED.get(type) ?? new Set<string>();
    const refAttrs = referenceAttributes(type);
    const out: Record<string, unknown> = {};
    const dropped: string[] = [];
    for (const [key, value] of Object.entries(element)) {
      if (!allowed.has(key)) {
        dropped.push(key);
        if (typeof value === 'string' && findSentinels(value, sentinels).length) {
          notes.push({
            kind: 'not-a-reference',
            path,
            message: `${path}.${key}: holds a field's value, but a LabelDesk template cannot fill "${key}" from a field; dropped`,
          });
        }
        continue;
      }
      if (key === 'font' && typeof value === 'object' && value !== null) {
        const font = Object.fromEntries(
          Object.entries(value).filter(([k]) => FONT_KEYS.has(k) || (dropped.push(`font.${k}`), false)),
        );
        out[key] = font;
      } else if (typeof value === 'string' && refAttrs.includes(key)) {
        out[key] = toReference(
          value,
          `${path}.${key}`,
          type === 'barcode' ? (element as { format: BarcodeFormat }).format : undefined,
        );
      } else {
        if (typeof value === 'string' && findSentinels(value, sentinels).length) {
          notes.push({
            kind: 'not-a-reference',
            path,
            message: `${path}.${key}: holds a field's value, but "${key}" cannot refer to a field; kept as captured`,
          });
        }
        out[key] = value;
      }
    }
    if (dropped.length) {
      notes.push({
        kind: 'dropped-attributes',
        path,
        message: `${path} (${type}): dropped attributes the local engine does not use: ${dropped.join(', ')}`,
      });
    }
    if (
      element.type === 'barcode' &&
      NUMERIC_FORMATS.has(element.format) &&
      !parseRefs(out.text as string).some((s) => s.kind === 'field')
    ) {
      notes.push({
        kind: 'fixed-barcode',
        path,
        message: `${path} (${formatLabel(element.format)}): its value "${element.text}" holds no field, so it is fixed or computed by the template and captured as is; if a field feeds it, capture again with that field marked as digits (a text sentinel cannot pass as a number)`,
      });
    }
    return out;
  });

  fields.forEach((f, i) => {
    if (!used.has(i)) {
      notes.push({
        kind: 'unused',
        field: f.name,
        message: `"${f.name}" appears nowhere in the label: the template does not use it, or transforms it beyond recognition (formats it, cuts it short, replaces it); it is declared but prints nowhere`,
      });
    }
  });

  let learned = new Map<string, string>();
  if (options.placeholders) {
    const [bare] = await options.backend.fetchMarkups(
      { label_name: options.templateName, amount: 1, apiData: {} },
      call,
    );
    learned = bare ? learnPlaceholders(elements, bare) : learned;
  } else if (fields.some((f) => f.placeholder === undefined)) {
    notes.push({
      kind: 'placeholders',
      message:
        'placeholders were not captured (that takes a second request, which counts as a print): fields without a value print nothing; capture with placeholders to learn them',
    });
  }

  let name = options.templateName.replace(/[/\\]/g, '-').replace(/^\s+/, '');
  if (!name) name = 'captured-template';
  if (name !== options.templateName) {
    notes.push({
      kind: 'renamed',
      message: `the template is saved as "${name}": LabelDesk template names have no slashes and do not start with a space`,
    });
  }
  const stage = markup.stage;
  const template = parseTemplate(
    {
      schemaVersion: SCHEMA_VERSION,
      name,
      description: `Captured from the hosted template "${options.templateName}" on ${(options.now?.() ?? new Date()).toISOString().slice(0, 10)}.`,
      stage: { width: stage.width, height: stage.height, unit: stage.unit, background: stage.background },
      fields: fields.map((f, i) => ({
        name: f.name,
        label: f.label ?? humanize(f.name),
        placeholder: f.placeholder ?? learned.get(f.name) ?? '',
        ...(maxLength.has(i) ? { maxLength: maxLength.get(i) } : {}),
      })),
      elements,
    },
    `captured ${options.templateName}`,
  );
  return {
    template,
    notes,
    sentinels: Object.fromEntries(fields.map((f, i) => [f.name, sentinels[i] as string])),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Aligns captured references with the markup resolved without values: each field's placeholder. */
function learnPlaceholders(elements: readonly Record<string, unknown>[], bare: Markup): Map<string, string> {
  const learned = new Map<string, string>();
  elements.forEach((element, i) => {
    const other = bare.elements[i] as Record<string, unknown> | undefined;
    if (!other) return;
    for (const attr of referenceAttributes(element.type)) {
      const source = element[attr];
      const value = other[attr];
      if (typeof source !== 'string' || typeof value !== 'string') continue;
      const segments = parseRefs(source);
      const order = segments.flatMap((s) => (s.kind === 'field' ? [s.name] : []));
      if (!order.length) continue;
      const pattern = segments.map((s) => (s.kind === 'literal' ? escapeRegExp(s.text) : '(.*?)')).join('');
      const m = new RegExp(`^${pattern}$`, 's').exec(value);
      if (!m) continue;
      order.forEach((name, k) => {
        if (!learned.has(name)) learned.set(name, m[k + 1] ?? '');
      });
    }
  });
  return learned;
}
