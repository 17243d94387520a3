/**
 * Fields that feed barcodes, and whether what would print in each barcode is a value its symbology takes.
 *
 * A field left empty prints its placeholder (spec §2.1); a field with no placeholder that feeds a barcode then
 * leaves the barcode with nothing to encode, and the engine refuses the label (`Code 128: the value is empty`)
 * only when it is printed. These functions say so at the field, before anything prints (#42 item 3), in the
 * field's words: "SKU is empty — the barcode needs a value". A barcode that also uses a counter is left to the
 * job (its number is assigned when printed); a value typed into every field it uses is checked by the field
 * rules (src/resolve/values.ts checkBarcodeValues), so only barcodes that print a placeholder are checked here;
 * a barcode hidden when its fields are empty (`hideIfEmpty`) is not printed, so it is not checked either.
 */
import type { Field, Template } from './schema';
import type { BarcodeFormat } from './barcode/formats';
import { formatLabel } from './barcode/formats';
import { BarcodeValueError } from './barcode/errors';
import { prepareValue } from './barcode/values';
import { parseRefs, substitute, type Segment } from './refs';

/** A barcode element and the fields its value names, in the order they appear. */
export interface BarcodeFeed {
  /** Index of the barcode in `template.elements`. */
  element: number;
  format: BarcodeFormat;
  fields: string[];
}

/** A field whose empty value leaves a barcode without a valid value. */
export interface BarcodeFieldProblem {
  field: string;
  message: string;
}

/** Every barcode whose value names at least one field (elements whose value does not parse are left out). */
export function barcodeFeeds(template: Template): BarcodeFeed[] {
  const feeds: BarcodeFeed[] = [];
  template.elements.forEach((element, index) => {
    if (element.type !== 'barcode') return;
    let segments: Segment[];
    try {
      segments = parseRefs(element.text);
    } catch {
      return; // the template's own validation reports it
    }
    const fields = [...new Set(segments.flatMap((s) => (s.kind === 'field' ? [s.name] : [])))];
    if (fields.length) feeds.push({ element: index, format: element.format, fields });
  });
  return feeds;
}

/** The names of the fields that feed at least one barcode. */
export function fieldsFeedingBarcodes(template: Template): Set<string> {
  return new Set(barcodeFeeds(template).flatMap((f) => f.fields));
}

/**
 * For the values as typed (empty or absent: the field's placeholder prints), the fields left empty whose
 * barcode would print no value or one its symbology refuses: at most one problem per field, on the first empty
 * field of each such barcode.
 */
export function emptyBarcodeFieldProblems(
  template: Template,
  values: Readonly<Record<string, string | undefined>>,
): BarcodeFieldProblem[] {
  const byName = new Map<string, Field>(template.fields.map((f) => [f.name, f]));
  const typed = (name: string): string => values[name] ?? '';
  const problems = new Map<string, string>();
  for (const feed of barcodeFeeds(template)) {
    const fields = feed.fields.map((name) => byName.get(name));
    // A counter's number is assigned when printed; an unknown field is the template's own problem.
    if (fields.some((f) => f === undefined || f.type === 'counter')) continue;
    const empty = (fields as Field[]).filter((f) => typed(f.name) === '');
    const first = empty[0];
    if (!first || problems.has(first.name)) continue;
    const element = template.elements[feed.element];
    if (element?.type !== 'barcode' || element.visible === false) continue;
    const valueOf = (name: string): string => {
      const value = typed(name);
      return value !== '' ? value : (byName.get(name)?.placeholder ?? '');
    };
    // Left out of the label when its fields are all empty (as resolve does): nothing to encode, nothing wrong.
    if (element.hideIfEmpty && feed.fields.every((name) => valueOf(name) === '')) continue;
    const printed = substitute(parseRefs(element.text), valueOf);
    if (printed.trim() === '') {
      problems.set(first.name, `${first.label} is empty — the barcode needs a value`);
      continue;
    }
    try {
      prepareValue(feed.format, printed);
    } catch (e) {
      if (!(e instanceof BarcodeValueError)) throw e;
      problems.set(
        first.name,
        first.placeholder === ''
          ? `${first.label} is empty — the barcode needs a value`
          : `${first.label} is empty — the ${formatLabel(feed.format)} barcode needs a value (left empty it prints “${first.placeholder}”, which it cannot encode)`,
      );
    }
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}
