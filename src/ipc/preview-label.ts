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
  return { scene, problems, cuts: cutsByField(template, given, scene.cuts) };
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
