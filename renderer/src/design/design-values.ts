/**
 * What the design canvas draws for the fields, and what it says about barcodes it cannot draw. The canvas is
 * the preview engine's scene of the template with no values typed, so each field prints its placeholder; a
 * field with none would be drawn as nothing. Here it is drawn as `{name}` — a stand-in given to the canvas
 * only (the printer view, Test print and every print are the template's own values and placeholders). A
 * field that feeds a barcode gets no stand-in (`{sku}` is no EAN-13): the barcode's problem is named instead,
 * with the words the Print screen uses (src/model/barcode-fields.ts). Pure.
 */
import type { TemplateProblemView } from '../../../src/ipc/contract';
import { barcodeFeeds, barcodeFieldProblems, sampleBarcodeValue } from '../../../src/model/barcode-fields';
import type { BarcodeFormat } from '../../../src/model/barcode/formats';
import type { Template } from '../../../src/model/schema';
import { problemAt } from './problems';

/** The values the design canvas draws with: `{name}` for each field without a placeholder that feeds no barcode. */
export function designStandIns(template: Template): Record<string, string> {
  const fedBarcodes = new Set(barcodeFeeds(template).flatMap((b) => b.fields));
  return Object.fromEntries(
    template.fields.flatMap((f) =>
      f.placeholder === '' && !fedBarcodes.has(f.name) ? [[f.name, `{${f.name}}`]] : [],
    ),
  );
}

/**
 * The barcodes the canvas cannot draw with the placeholders: for the problems list and the properties, each at
 * its element's value (`elements[i].text`), naming the field and what to do; and for the canvas, the short
 * reason drawn on each element (the message the Print screen shows for that field).
 */
export function barcodeCanvasProblems(template: Template): {
  problems: TemplateProblemView[];
  notes: Map<number, string>;
} {
  const found = barcodeFieldProblems(template, (field) => field?.placeholder);
  const notes = new Map<number, string>();
  const problems = found.map((p) => {
    const field = template.fields.find((f) => f.name === p.field);
    const sentence = p.message.endsWith('.') ? p.message : `${p.message}.`;
    const advice =
      p.problem === 'empty' && field
        ? ` Give ${field.label || field.name} a placeholder (it prints when nothing is typed), e.g. ${sampleBarcodeValue(p.format)}.`
        : '';
    notes.set(p.element, notes.has(p.element) ? `${notes.get(p.element)!} ${sentence}` : sentence);
    return problemAt(`elements[${p.element}].text`, sentence + advice);
  });
  return { problems, notes };
}

/**
 * A field to give the symbology's sample as its placeholder, for a barcode the canvas cannot draw: the field
 * that is its whole value (`{sku}`), with a placeholder that is empty or the symbology refuses. Null otherwise.
 */
export function sampleFix(
  template: Template,
  element: number,
): { field: number; label: string; sample: string; format: BarcodeFormat } | null {
  const problem = barcodeFieldProblems(template, (field) => field?.placeholder).find(
    (p) => p.element === element,
  );
  const feed = barcodeFeeds(template).find((b) => b.element === element);
  if (!problem || !feed || feed.segments.length !== 1 || feed.fields.length !== 1) return null;
  const index = template.fields.findIndex((f) => f.name === feed.fields[0]);
  const field = template.fields[index];
  if (!field || field.type === 'counter') return null;
  return {
    field: index,
    label: field.label || field.name,
    sample: sampleBarcodeValue(feed.format),
    format: feed.format,
  };
}
