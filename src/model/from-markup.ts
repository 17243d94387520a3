/**
 * Markup JSON (what fetch-markups returns: one Markup, or the array with one per copy) as a template with no
 * fields, so the app can import it like a template file and print or export it at any dpi. Values are already
 * resolved in markup, so braces in them are escaped (`\{`), never read as field references; attributes our
 * template format does not know (markup is loose, spec §2.3) are dropped; copies that differ (a counter)
 * become one template each.
 */
import { TemplateElementSchema, referenceAttributes, type Element } from './elements';
import { TemplateValidationError, formatPath, problemsOf, type Problem } from './errors';
import { MarkupSchema, SCHEMA_VERSION, TemplateSchema, type Markup, type Template } from './schema';

/** Whether a parsed JSON document is Markup rather than a template: an array, or a stage without a schema version. */
export function looksLikeMarkup(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  return !('schemaVersion' in value) && 'stage' in value && 'elements' in value;
}

/** A literal value as template text: backslashes and braces escaped (src/model/refs.ts). */
const literal = (text: string): string => text.replace(/[\\{}]/g, (c) => `\\${c}`);

/** A template name from a file name: no folder, no `.json`, no slashes. */
function baseName(fileName: string): string {
  const name = (fileName.split(/[\\/]/).pop() ?? '').replace(/\.json$/i, '').trim();
  return name || 'imported-markup';
}

/** One markup element as a template element: unknown attributes dropped, values escaped. */
function toElement(
  raw: Record<string, unknown>,
  path: (string | number)[],
  problems: Problem[],
): Element | undefined {
  const value = structuredClone(raw);
  for (const attr of referenceAttributes(value.type)) {
    const text = value[attr];
    if (typeof text === 'string') value[attr] = literal(text);
  }
  // Markup may carry attributes of the hosted service's own (spec §2.3): keep what a template knows. Each pass
  // drops the unknown keys zod reports (nested objects such as `font` report theirs once the outer ones pass).
  for (let pass = 0; pass < 3; pass++) {
    const parsed = TemplateElementSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    const unknown = parsed.error.issues.filter((i) => i.code === 'unrecognized_keys');
    if (unknown.length === 0) {
      problems.push(...problemsOf(parsed.error, path));
      return undefined;
    }
    for (const issue of unknown) {
      let target = value;
      for (const key of issue.path) target = target[key as string] as Record<string, unknown>;
      for (const key of issue.keys) delete target[key];
    }
  }
  problems.push({ path: formatPath(path), message: 'could not be read as a template element' });
  return undefined;
}

function toTemplate(
  markup: Markup,
  raw: unknown,
  name: string,
  source: string,
  prefix: (string | number)[],
): Template {
  const problems: Problem[] = [];
  const rawElements = ((raw as { elements?: unknown[] }).elements ?? []) as Record<string, unknown>[];
  const elements = rawElements
    .map((el, i) => toElement(el, [...prefix, 'elements', i], problems))
    .filter((el): el is Element => el !== undefined);
  if (problems.length > 0) throw new TemplateValidationError(problems, source);
  const { width, height, unit, background } = markup.stage;
  const result = TemplateSchema.safeParse({
    schemaVersion: SCHEMA_VERSION,
    name,
    description: `Imported from the markup file ${source}: fixed values, no fields.`,
    stage: { width, height, unit, background },
    fields: [],
    elements,
  });
  if (!result.success) throw new TemplateValidationError(problemsOf(result.error, prefix), source);
  return result.data;
}

/**
 * Templates for a Markup document (already JSON-parsed): one when every copy is the same, else one per distinct
 * copy, named after the file (`shipping`, or `shipping-1`, `shipping-2`, …). Throws TemplateValidationError
 * naming every path and problem.
 */
export function templatesFromMarkup(value: unknown, fileName: string): Template[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) {
    throw new TemplateValidationError([{ path: '', message: 'an empty list: no label to import' }], fileName);
  }
  const distinct = new Map<string, { raw: unknown; markup: Markup; index: number }>();
  const problems: Problem[] = [];
  list.forEach((raw, index) => {
    const parsed = MarkupSchema.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      problems.push(...problemsOf(parsed.error, Array.isArray(value) ? [index] : []));
      return;
    }
    const markup = parsed.data;
    const key = JSON.stringify(markup);
    if (!distinct.has(key)) distinct.set(key, { raw, markup, index });
  });
  if (problems.length > 0) throw new TemplateValidationError(problems, fileName);
  const base = baseName(fileName);
  const copies = [...distinct.values()];
  return copies.map(({ raw, markup, index }, i) =>
    toTemplate(
      markup,
      raw,
      copies.length === 1 ? base : `${base}-${i + 1}`,
      fileName,
      Array.isArray(value) ? [index] : [],
    ),
  );
}
