/**
 * What is wrong with a design document as it stands, checked in the renderer with the same template schema
 * main saves with, so each problem is shown at once where it is (the property or field at fault, the element
 * on the canvas) rather than only after a save. Pure.
 */
import type { TemplateProblemView } from '../../../src/ipc/contract';
import { TemplateValidationError } from '../../../src/model/errors';
import { parseTemplate } from '../../../src/model/parse';
import type { Template } from '../../../src/model/schema';
import { templateFileNameProblem } from '../../../src/model/template-name';

/** `elements[3].text` → the element and field indices the problem is about (as main's save reports them). */
export function problemAt(path: string, message: string): TemplateProblemView {
  const element = /^elements\[(\d+)\]/.exec(path);
  const field = /^fields\[(\d+)\]/.exec(path);
  return {
    path,
    element: element ? Number(element[1]) : null,
    field: field ? Number(field[1]) : null,
    message,
  };
}

/** Every problem the template schema finds, and a name that cannot be a file name. */
export function templateProblems(template: Template): TemplateProblemView[] {
  const out: TemplateProblemView[] = [];
  try {
    parseTemplate(template);
  } catch (e) {
    if (!(e instanceof TemplateValidationError)) throw e;
    out.push(...e.problems.map((p) => problemAt(p.path, p.message)));
  }
  const name = templateFileNameProblem(template.name);
  if (name && !out.some((p) => p.path === 'name')) out.push(problemAt('name', name));
  return out;
}

/** Both lists, each problem once. */
export function mergeProblems(
  a: readonly TemplateProblemView[],
  b: readonly TemplateProblemView[],
): TemplateProblemView[] {
  const seen = new Set<string>();
  return [...a, ...b].filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
