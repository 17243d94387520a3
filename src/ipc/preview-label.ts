/**
 * The live preview of one label, as main and the renderer's preview worker both compute it, so the two are the
 * same Scene: the template resolved with the form's values (empties left out), its images loaded under the
 * incomplete-markup policy (one that cannot load is left out and named in the warnings), laid out in px with an
 * element that cannot render drawn as a marked box, the field rules checked and the text cut at its box told by
 * field.
 */
import { prepareImages, type ImageLoading } from '../engine/incomplete-markup';
import { isBundledFamily, type FontSet } from '../layout/fonts';
import { collectImageUrls } from '../layout/images';
import { layout } from '../layout/layout';
import type { Scene, TextCut } from '../layout/scene';
import { REFERENCE_ATTRIBUTES } from '../model/elements';
import { formatLabel } from '../model/barcode/formats';
import { printedBarcodeProblems } from '../model/barcode-fields';
import { referencedFields } from '../model/refs';
import type { Markup, Template } from '../model/schema';
import type { LayoutTarget } from '../layout/element-context';
import { resolveOne } from '../resolve/resolve';
import { checkValues } from '../resolve/values';
import type { FieldValues } from './contract';
import type { FieldProblem } from './wire-scene';

/** Values the form holds, minus empties (an empty field prints its placeholder, as the API does). */
export function filled(values: FieldValues): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

/** Element index → the fields its values reference (the preview focuses them on click). */
export function elementFields(template: Template): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  template.elements.forEach((element, i) => {
    const names = new Set<string>();
    for (const attr of REFERENCE_ATTRIBUTES[element.type] ?? []) {
      const value = (element as Record<string, unknown>)[attr];
      if (typeof value === 'string') for (const name of referencedFields(value)) names.add(name);
    }
    if (names.size) out[i] = [...names];
  });
  return out;
}

/**
 * Text that did not fit on the label, told by the field it came from: "Address: “United Kingdom” does not fit on
 * the label and would be cut off." An element showing one field names it; one showing several names the field
 * whose value holds the start of the lost text, else its last. Text the template itself wrote (no field) is
 * not the user's to fix and stays a warning of the preview.
 */
export function cutsByField(
  template: Template,
  values: Readonly<Record<string, string>>,
  cuts: readonly TextCut[] | undefined,
): { field: string; message: string }[] {
  if (!cuts?.length) return [];
  const fieldsOf = elementFields(template);
  const labels = new Map(template.fields.map((f) => [f.name, f.label]));
  return cuts.flatMap(({ element, lost }) => {
    const names = fieldsOf[element] ?? [];
    const start = (lost.split(' / ')[0] ?? '').slice(0, 24);
    const field = names.find((n) => start !== '' && (values[n] ?? '').includes(start)) ?? names.at(-1);
    if (field === undefined) return [];
    const short = lost.length > 80 ? `${lost.slice(0, 77)}...` : lost;
    return [
      {
        field,
        message: `${labels.get(field) ?? field}: “${short}” does not fit on the label and would be cut off.`,
      },
    ];
  });
}

/**
 * One markup laid out for a preview (the screen's in px, the printer view's in dots): the incomplete-markup
 * policy (README) leaves an image that cannot be loaded out and names it in the warnings, and `mark` draws an
 * element that cannot render (a barcode value its symbology refuses) as a marked box with a warning, so the
 * preview keeps following the typing.
 */
export async function previewLayout(
  markup: Markup,
  ports: ImageLoading & { fonts: FontSet },
  target: LayoutTarget,
): Promise<Scene> {
  const prepared = await prepareImages([markup], ports, 'omit');
  const [ready = markup] = prepared.markups;
  const images = await prepared.ports.loadImages(collectImageUrls([ready]));
  const scene = layout(ready, { fonts: ports.fonts, images, target, onInvalid: 'mark' });
  scene.warnings.push(...prepared.warnings);
  return scene;
}

/** The label's preview: its Scene in px, the values its field rules refuse, and the text cut at its box. */
export async function previewLabel(
  template: Template,
  values: FieldValues,
  ports: ImageLoading & { fonts: FontSet },
): Promise<{ scene: Scene; problems: FieldProblem[]; cuts: FieldProblem[] }> {
  const given = filled(values);
  const scene = await previewLayout(resolveOne(template, given), ports, { unit: 'px' });
  const problems = checkValues(template, given).map((p) => ({
    field: p.path.replace(/^apiData\./, ''),
    message: p.message,
  }));
  // A field left empty that leaves its barcode nothing to encode (#42 item 3): said at the field, not by the
  // engine when the label is printed.
  const flagged = new Set(problems.map((p) => p.field));
  for (const p of printedBarcodeProblems(template, given)) {
    if (p.field !== null && !flagged.has(p.field)) problems.push({ field: p.field, message: p.message });
  }
  for (const p of problems) flagged.add(p.field);
  scene.warnings = warningsForPeople(template, scene.warnings, flagged);
  return { scene, problems, cuts: cutsByField(template, given, scene.cuts) };
}

const ELEMENT_WARNING = /^elements\[(\d+)\](?:\.[a-z]+)?(?: \([^)]*\))?: (.*)$/s;

/**
 * The engine's warnings (`elements[1] (barcode code128): Code 128: the value is empty`: the API's words, by
 * element index) as the preview shows them to people (#42 item 13): the element named by what it is and what it
 * shows — "The Code 128 barcode of SKU: the value is empty." A warning about an element whose field the form
 * already flags (an empty field feeding a barcode) is said there, next to the field, and not twice.
 */
export function warningsForPeople(
  template: Template,
  warnings: readonly string[],
  flaggedFields: ReadonlySet<string>,
): string[] {
  const fieldsOf = elementFields(template);
  const labels = new Map(template.fields.map((f) => [f.name, f.label || f.name]));
  const out: string[] = [];
  for (const warning of warnings) {
    const match = ELEMENT_WARNING.exec(warning);
    const element = match ? template.elements[Number(match[1])] : undefined;
    if (!match || !element) {
      out.push(warning);
      continue;
    }
    const fields = fieldsOf[Number(match[1])] ?? [];
    if (fields.some((f) => flaggedFields.has(f))) continue;
    let what: string;
    let rest = match[2]!;
    if (element.type === 'barcode') {
      const name = formatLabel(element.format);
      what = `The ${name} barcode`;
      if (rest.startsWith(`${name}: `)) rest = rest.slice(name.length + 2);
    } else if (element.type === 'text' && fields.length === 0) {
      const shown = element.text.length > 24 ? `${element.text.slice(0, 23)}…` : element.text;
      what = `The text “${shown}”`;
    } else what = element.type === 'rfid' ? 'The RFID tag' : `The ${element.type}`;
    if (fields.length > 0) what += ` of ${fields.map((f) => labels.get(f) ?? f).join(', ')}`;
    // An image's own message starts with the word and its address: "The image https://…: the server answered 404".
    const sentence =
      element.type === 'image' && rest.startsWith('image ') ? `${what} ${rest.slice(6)}` : `${what}: ${rest}`;
    out.push(/[.!?]$/.test(sentence) ? sentence : `${sentence}.`);
  }
  return out;
}

/**
 * Whether any element of `template` (groups' children and barcodes' text included) names a font family that is
 * not one of the generic bundled ones (`isBundledFamily`): a user's or the machine's font, which only main
 * loads. The page's preview, which has the bundled fonts alone, hands such a label to main (docs/fonts.md).
 */
export function namesUnbundledFamily(template: Template): boolean {
  const visit = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(visit);
    if (typeof value !== 'object' || value === null) return false;
    const font = (value as { font?: unknown }).font;
    if (typeof font === 'object' && font !== null) {
      const family = (font as { family?: unknown }).family;
      if (typeof family === 'string' && !isBundledFamily(family)) return true;
    }
    return Object.values(value).some(visit);
  };
  return visit(template.elements);
}
