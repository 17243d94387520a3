/**
 * The designer's edits of fields — add, edit (a rename follows into every element that refers to the field),
 * remove — binding a field to an element (`{Name}` into its text, value, URL or EPC) and the fields no element
 * uses. Pure functions from one document to the next.
 */
import { REFERENCE_ATTRIBUTES, type Element } from '../../../src/model/elements';
import { escapeLiteral, parseRefs, RefSyntaxError, writeRef, type Segment } from '../../../src/model/refs';
import { sampleBarcodeValue } from '../../../src/model/barcode-fields';
import type { Field } from '../../../src/model/schema';
import { checkFieldValue } from '../../../src/resolve/values';
import type { DesignDocument } from './design-document';
import { defaultElement } from './element-defaults';
import { withElements } from './operations';

const withFields = (doc: DesignDocument, fields: Field[]): DesignDocument => ({
  ...doc,
  template: { ...doc.template, fields },
});

/** The attributes of an element that may hold field references (text, barcode value, image URL, EPC). */
export const referenceAttributes = (el: Element): readonly string[] => REFERENCE_ATTRIBUTES[el.type] ?? [];

/** `{name}` segments of a value, or none when it does not parse (the save reports it at the element). */
function segmentsOf(source: unknown): Segment[] {
  if (typeof source !== 'string') return [];
  try {
    return parseRefs(source);
  } catch (e) {
    if (e instanceof RefSyntaxError) return [];
    throw e;
  }
}

/** A name no field has: `field1`, `field2`… */
function freshFieldName(fields: readonly Field[]): string {
  const taken = new Set(fields.map((f) => f.name));
  let n = fields.length + 1;
  while (taken.has(`field${n}`)) n++;
  return `field${n}`;
}

/** Adds a field (a text field named `fieldN` unless `field` says otherwise) at the end of the form. */
export function addField(doc: DesignDocument, field: Partial<Field> = {}): DesignDocument {
  const name = field.name ?? freshFieldName(doc.template.fields);
  const added: Field = { type: 'text', required: false, placeholder: '', label: name, ...field, name };
  return withFields(doc, [...doc.template.fields, tidyField(added)]);
}

/**
 * Settings that only one type takes are dropped when the type changes (choices for `choice`, numbering for
 * `counter`); a field made a `choice` gets one choice to start from.
 */
function tidyField(field: Field): Field {
  const out: Field = { ...field };
  if (out.type !== 'choice') delete out.choices;
  else if (!out.choices?.length) out.choices = [out.default || 'Option 1'];
  if (out.type !== 'counter') delete out.counter;
  return out;
}

/** A value with every reference to field `from` made a reference to `to` (literal text kept as it was). */
function renameIn(source: string, from: string, to: string): string {
  const segments = segmentsOf(source);
  if (!segments.some((s) => s.kind === 'field' && s.name === from)) return source;
  return segments
    .map((s) =>
      s.kind === 'literal' ? escapeLiteral(s.text) : writeRef({ ...s, name: s.name === from ? to : s.name }),
    )
    .join('');
}

/**
 * Changes a field's settings; `undefined` removes an optional one. A new name follows into every element that
 * refers to the field, so a rename never leaves a reference behind.
 */
export function editField(doc: DesignDocument, index: number, patch: Partial<Field>): DesignDocument {
  const old = doc.template.fields[index];
  if (!old) return doc;
  const next: Record<string, unknown> = { ...old };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  const field = tidyField(next as Field);
  let out = withFields(
    doc,
    doc.template.fields.map((f, i) => (i === index ? field : f)),
  );
  if (field.name !== old.name) {
    out = withElements(
      out,
      out.template.elements.map((el) => {
        const copy: Record<string, unknown> = { ...el };
        for (const attr of referenceAttributes(el)) {
          const value = copy[attr];
          if (typeof value === 'string') copy[attr] = renameIn(value, old.name, field.name);
        }
        return copy as Element;
      }),
    );
  }
  return out;
}

/**
 * Removes a field. Elements that still refer to it keep their `{Name}`: the save names each of them, where a
 * silent deletion of the text would lose what the user typed around it.
 */
export function removeField(doc: DesignDocument, index: number): DesignDocument {
  return withFields(
    doc,
    doc.template.fields.filter((_, i) => i !== index),
  );
}

/** Moves a field to another place in the form. */
export function moveField(doc: DesignDocument, from: number, to: number): DesignDocument {
  const fields = [...doc.template.fields];
  const [field] = fields.splice(from, 1);
  if (!field) return doc;
  fields.splice(Math.max(0, Math.min(to, fields.length)), 0, field);
  return withFields(doc, fields);
}

/** Where a field is inserted: a caret (`start` = `end`) or a selected range it replaces, in the value's characters. */
export interface InsertAt {
  start: number;
  end: number;
}

/** The value an element of this kind starts with (the palette's), which a field inserted replaces. */
function isDefaultValue(el: Element, attr: string, value: string): boolean {
  if (value.trim() === '') return true;
  const fresh = defaultElement(el.type, 0, 0) as Record<string, unknown>;
  return fresh[attr] === value;
}

/**
 * Binds a field to an element: `{Name}` goes into the element's reference attribute (`attr`, default its
 * first: a text's text, a barcode's value, an image's URL, an RFID tag's EPC), the same way for every kind: a
 * value still as the palette made it ("Text", a barcode's "12345678") or empty is replaced; any other is kept
 * and `{Name}` inserted at `at` — the input's caret, or its selection, which it replaces — or at the end.
 * A barcode whose whole value the field is, when the field has no placeholder (what prints when nothing is
 * typed, and what the designer draws), gets the symbology's sample as its placeholder, so the label is drawn
 * and prints (sampleBarcodeValue). An element with no such attribute is left as it is.
 */
export function bindField(
  doc: DesignDocument,
  index: number,
  name: string,
  options: { attr?: string; at?: number | InsertAt } = {},
): DesignDocument {
  const el = doc.template.elements[index];
  if (!el) return doc;
  const attrs = referenceAttributes(el);
  const attr = options.attr ?? attrs[0];
  if (attr === undefined || !attrs.includes(attr)) return doc;
  const current = (el as Record<string, unknown>)[attr];
  const value = typeof current === 'string' ? current : '';
  const ref = `{${name}}`;
  let next: string;
  if (isDefaultValue(el, attr, value)) {
    next = ref;
  } else {
    const at = typeof options.at === 'number' ? { start: options.at, end: options.at } : options.at;
    const clamp = (n: number) => Math.max(0, Math.min(n, value.length));
    const start = at === undefined ? value.length : clamp(Math.min(at.start, at.end));
    const end = at === undefined ? value.length : clamp(Math.max(at.start, at.end));
    next = value.slice(0, start) + ref + value.slice(end);
  }
  let out = withElements(
    doc,
    doc.template.elements.map((e, i) => (i === index ? ({ ...e, [attr]: next } as Element) : e)),
  );
  if (el.type === 'barcode' && next === ref) {
    const f = out.template.fields.findIndex((field) => field.name === name);
    const field = out.template.fields[f];
    if (field && field.type !== 'counter' && field.placeholder === '')
      out = editField(out, f, { placeholder: sampleBarcodeValue(el.format) });
  }
  return out;
}

/** The fields an element refers to (by name, once each, in order of appearance). */
export function fieldsOfElement(el: Element): string[] {
  const names = referenceAttributes(el).flatMap((attr) =>
    segmentsOf((el as Record<string, unknown>)[attr]).flatMap((s) => (s.kind === 'field' ? [s.name] : [])),
  );
  return [...new Set(names)];
}

/** Fields no element refers to: the designer flags them (they would be asked for and never printed). */
export function unusedFields(doc: DesignDocument): Field[] {
  const used = new Set(doc.template.elements.flatMap(fieldsOfElement));
  return doc.template.fields.filter((f) => !used.has(f.name));
}

/** The settings of a field the designer checks beyond the schema, by key. */
export type FieldRuleKey = 'default' | 'choices';

/**
 * What the template schema lets through but a form would trip on: choices listed twice, and a default the
 * field's own rules refuse (too long, not one of the choices, not the pattern's form, not a number or date) —
 * checked with the rules the Print screen's form checks values with (`checkFieldValue`). An invalid pattern is
 * the schema's problem, reported there.
 */
export function fieldRuleProblems(field: Field): Partial<Record<FieldRuleKey, string>> {
  const out: Partial<Record<FieldRuleKey, string>> = {};
  const twice = (field.choices ?? []).filter((c, i, all) => all.indexOf(c) !== i);
  if (twice.length)
    out.choices = `${[...new Set(twice)].map((c) => `“${c}”`).join(', ')} listed more than once.`;
  if (field.default !== undefined && field.default !== '' && field.type !== 'counter') {
    let patternValid = true;
    if (field.pattern !== undefined) {
      try {
        new RegExp(field.pattern, 'u');
      } catch {
        patternValid = false;
      }
    }
    const checked: Field = { ...field, required: false };
    if (!patternValid) delete checked.pattern;
    const problem = checkFieldValue(checked, field.default);
    if (problem) out.default = `The default is refused: ${problem}.`;
  }
  return out;
}
