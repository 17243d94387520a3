/**
 * Validation errors a user can act on: every problem with its JSON path and reason,
 * e.g. `elements[3].format: unknown barcode format "code12"`.
 */
import { KindedError } from '../base/error-kind';
import type { z } from 'zod';

export interface Problem {
  /** JSON path like `elements[3].format` ("" for the document itself). */
  path: string;
  message: string;
}

/** `['elements', 3, 'format']` → `elements[3].format`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function describeType(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (input === undefined) return 'nothing';
  return `a ${typeof input}`;
}

/** One message per zod issue, phrased for people (zod's defaults are phrased for developers). */
export function problemsOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): Problem[] {
  return error.issues.map((issue) => {
    const path = formatPath([...prefix, ...issue.path]);
    let message = issue.message;
    switch (issue.code) {
      case 'invalid_type':
        message =
          issue.input === undefined
            ? `is required (${issue.expected})`
            : `expected ${issue.expected}, got ${describeType(issue.input)}`;
        break;
      case 'unrecognized_keys':
        message = `unknown attribute${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
        break;
      case 'invalid_value':
        if (!message.startsWith('expected') && !message.startsWith('unknown')) {
          message = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
        }
        break;
      default:
        break;
    }
    return { path, message };
  });
}

export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('\n');
}

/** A template (or markup) that failed validation, with every problem found. */
export class TemplateValidationError extends KindedError {
  get kind() {
    return 'template-invalid' as const;
  }

  constructor(
    readonly problems: Problem[],
    /** Where it came from (file path or template name), for messages. */
    readonly source?: string,
  ) {
    super(
      `${source ? `${source}: ` : ''}${problems.length} problem${problems.length === 1 ? '' : 's'}\n${formatProblems(problems)}`,
    );
    this.name = 'TemplateValidationError';
  }
}

/** A named template that does not exist (names are exact and case-sensitive, spec §2.1). */
export class TemplateNotFound extends KindedError {
  get kind() {
    return 'template-not-found' as const;
  }

  constructor(
    readonly templateName: string,
    /** Names that differ only in case, to help a user who mistyped. */
    readonly didYouMean: string[] = [],
  ) {
    super(
      `template not found: "${templateName}" (names are case-sensitive)` +
        (didYouMean.length ? `; did you mean ${didYouMean.map((n) => `"${n}"`).join(' or ')}?` : ''),
    );
    this.name = 'TemplateNotFound';
  }
}
