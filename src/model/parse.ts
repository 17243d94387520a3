/** Parsing templates and markup from JSON text or values, with path-precise errors. */
import { MarkupSchema, TemplateSchema, referenceProblems, type Markup, type Template } from './schema';
import { TemplateValidationError, formatPath, problemsOf } from './errors';

/** Parses JSON text; a syntax error becomes a TemplateValidationError naming the line and column. */
export function parseJsonText(text: string, source?: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const message = (e as Error).message;
    const pos = /position (\d+)/.exec(message);
    let where = '';
    if (pos?.[1]) {
      const offset = Number(pos[1]);
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${column}`;
    }
    throw new TemplateValidationError([{ path: '', message: `not valid JSON${where}: ${message}` }], source);
  }
}

/** Validates a template value (already JSON-parsed). Throws TemplateValidationError with every problem. */
export function parseTemplate(value: unknown, source?: string): Template {
  const result = TemplateSchema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  // The schema stops before its cross-checks when the shape is wrong; run them anyway so every mistake is
  // reported in one go.
  const problems = problemsOf(result.error);
  for (const p of referenceProblems(value)) {
    const path = formatPath(p.path);
    if (!problems.some((q) => q.path === path && q.message === p.message))
      problems.push({ path, message: p.message });
  }
  throw new TemplateValidationError(problems, source);
}

/** Validates one Markup (e.g. from the hosted API's fetch-markups). */
export function parseMarkup(value: unknown, source?: string): Markup {
  const result = MarkupSchema.safeParse(value, { reportInput: true });
  if (!result.success) throw new TemplateValidationError(problemsOf(result.error), source);
  return result.data;
}

/** Validates a template given as JSON text. */
export function parseTemplateText(text: string, source?: string): Template {
  return parseTemplate(parseJsonText(text, source), source);
}
