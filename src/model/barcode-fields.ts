/**
 * Which fields feed which barcodes, and whether the value a barcode gets from them is one its symbology can
 * encode — the one place the designer (the canvas, Test print, the sample proposed when a field is bound), the
 * Print screen's form and the value checks (`checkBarcodeValues`) ask. A problem names the field to fix
 * ("SKU is empty — the barcode needs a value", "SKU: EAN-13 check digit should be 7, not 8 …"), never the
 * element's index. Pure.
 */
import { gs1CheckDigit } from './barcode/check-digits';
import { BarcodeValueError, type BarcodeValueProblem } from './barcode/errors';
import type { BarcodeFormat } from './barcode/formats';
import { prepareValue } from './barcode/values';
import type { Element } from './elements';
import { parseRefs, RefSyntaxError, substitute, type Segment } from './refs';
import type { Field, Template } from './schema';

/** A barcode of a template and the fields its value is made of. */
export interface BarcodeFeed {
  /** The barcode's index in `template.elements`. */
  element: number;
  format: BarcodeFormat;
  /** The fields its value refers to, once each, in order of appearance (none: a fixed value). */
  fields: string[];
  /** Its value parsed (`{sku}` → one field segment). */
  segments: Segment[];
}

/**
 * Every barcode of the template that is drawn (an invisible one is not), with the fields that feed it. A value
 * that does not parse is left out (the template's own validation names it).
 */
export function barcodeFeeds(template: Pick<Template, 'elements'>): BarcodeFeed[] {
  return template.elements.flatMap((el: Element, element) => {
    if (el.type !== 'barcode' || el.visible === false) return [];
    let segments: Segment[];
    try {
      segments = parseRefs(el.text);
    } catch (e) {
      if (e instanceof RefSyntaxError) return [];
      throw e;
    }
    const fields = [...new Set(segments.flatMap((s) => (s.kind === 'field' ? [s.name] : [])))];
    return [{ element, format: el.format, fields, segments }];
  });
}

/** The barcodes a field feeds (by the field's name). */
export function barcodesFedBy(template: Pick<Template, 'elements'>, field: string): BarcodeFeed[] {
  return barcodeFeeds(template).filter((b) => b.fields.includes(field));
}

const withGs1Check = (digits: string): string => digits + gs1CheckDigit(digits);
/** A GTIN-14 and a batch: a GS1 element string every GS1 symbology takes (the batch's requisite, the GTIN, in it). */
const GS1_SAMPLE = `(01)${withGs1Check('0950600013435')}(10)ABC123`;

/**
 * A value of each symbology as people write them, valid for it (check digits computed): what the designer
 * proposes as the placeholder of a field bound to a barcode, so the label is drawn and prints when nothing is
 * typed. A Record over the closed union: a new format without a sample does not compile.
 */
const SAMPLES: Record<BarcodeFormat, string> = {
  code128: 'ABC-12345',
  'gs1-128': GS1_SAMPLE,
  code39: 'ABC-12345',
  ean13: withGs1Check('590123412345'),
  ean8: withGs1Check('9638507'),
  upca: withGs1Check('03600029145'),
  upce: '01234565',
  itf14: withGs1Check('1540014128876'),
  isbn: '978-3-16-148410-0',
  ismn: '979-0-2600-0043-8',
  issn: '0317-8471',
  qrcode: 'https://example.com/',
  gs1qrcode: GS1_SAMPLE,
  datamatrix: 'ABC-12345',
  gs1datamatrix: GS1_SAMPLE,
  pdf417: 'ABC-12345',
};

/** A valid sample value of `format` ("ABC-12345" for Code 128, a 13-digit EAN-13 with its check digit…). */
export function sampleBarcodeValue(format: BarcodeFormat): string {
  return SAMPLES[format];
}

/** What is wrong with the value a barcode gets from its fields, for the field to fix. */
export interface BarcodeFieldProblem {
  /** The barcode's index in `template.elements`. */
  element: number;
  format: BarcodeFormat;
  /** The field to fix: the first empty one, or the first the barcode uses; null for a fixed value. */
  field: string | null;
  problem: BarcodeValueProblem;
  /** For people, naming the field: "SKU is empty — the barcode needs a value". */
  message: string;
}

/**
 * The value of each field as it would print: a string, or undefined when it is not known here (a counter the
 * job numbers, a value not typed yet): a barcode fed by such a field is not checked.
 */
export type FieldValueOf = (field: Field | undefined, name: string) => string | undefined;

/**
 * Every problem of the values the barcodes get, field values read with `valueOf`: an empty value ("SKU is
 * empty — the barcode needs a value"), or what the symbology's value rules (src/model/barcode/values.ts) refuse,
 * one problem each, prefixed with the field's label. A barcode hidden when its fields are empty
 * (`hideIfEmpty`) is no problem when they are.
 */
export function barcodeFieldProblems(
  template: Pick<Template, 'elements' | 'fields'>,
  valueOf: FieldValueOf,
): BarcodeFieldProblem[] {
  const byName = new Map(template.fields.map((f) => [f.name, f]));
  const labelOf = (name: string) => byName.get(name)?.label || name;
  const problems: BarcodeFieldProblem[] = [];
  for (const feed of barcodeFeeds(template)) {
    const values = new Map<string, string | undefined>(
      feed.fields.map((n) => [n, valueOf(byName.get(n), n)]),
    );
    if ([...values.values()].some((v) => v === undefined)) continue;
    const el = template.elements[feed.element]!;
    const empty = feed.fields.filter((n) => values.get(n)!.trim() === '');
    if (el.hideIfEmpty && feed.fields.length > 0 && empty.length === feed.fields.length) continue;
    const value = substitute(feed.segments, (n) => values.get(n) ?? '');
    const first = empty[0] ?? feed.fields[0] ?? null;
    try {
      prepareValue(feed.format, value);
    } catch (e) {
      if (!(e instanceof BarcodeValueError)) throw e;
      const base = { element: feed.element, format: feed.format, field: first };
      if (e.problem === 'empty' && empty.length > 0) {
        const names = empty.map(labelOf);
        const who = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
        problems.push({
          ...base,
          problem: 'empty',
          message: `${who} ${names.length === 1 ? 'is' : 'are'} empty — the barcode needs a value`,
        });
        continue;
      }
      for (const one of e.each) {
        const label = first === null ? null : labelOf(first);
        problems.push({
          ...base,
          problem: one.problem,
          message: label === null || one.message.startsWith(label) ? one.message : `${label}: ${one.message}`,
        });
      }
    }
  }
  return problems;
}

/**
 * The problems of the barcodes as they print with `values` typed: a field without a value prints its
 * placeholder; a counter without one is numbered by the job (not checked here). The Print screen's form and
 * the designer's Test print ask this.
 */
export function printedBarcodeProblems(
  template: Pick<Template, 'elements' | 'fields'>,
  values: Readonly<Record<string, string>>,
): BarcodeFieldProblem[] {
  return barcodeFieldProblems(template, (field, name) => {
    const typed = Object.hasOwn(values, name) ? values[name] : undefined;
    if (typed !== undefined && typed !== '') return typed;
    if (field?.type === 'counter') return undefined;
    return field?.placeholder ?? '';
  });
}
