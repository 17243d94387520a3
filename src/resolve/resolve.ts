/**
 * Template + apiData → Markup[] (the API's route 01, fetch-markups), with the spec's rules (§2.1–2.3, §7.2):
 *  - keys are case-sensitive; a key that matches no field is ignored (200, not an error);
 *  - a field with no value prints its placeholder;
 *  - all values are strings;
 *  - `amount` is an integer ≥ 1 and there is one Markup per copy.
 */
import { KindedError } from '../base/error-kind';
import type { Element } from '../model/elements';
import { REFERENCE_ATTRIBUTES } from '../model/elements';
import type { Field, Markup, Template } from '../model/schema';
import { parseRefs, substitute, type Segment } from '../model/refs';
import { counterSettings, formatCounter, type CounterValues } from './counters';

/** Limits of one resolution. Documented in the README; the HTTP face maps violations to 422. */
export const LIMITS = {
  /** Copies per request. A batch of more labels goes through the job queue, which streams. */
  maxAmount: 1000,
  /** Keys in apiData. */
  maxApiDataKeys: 500,
  /** Characters in one value (a long multi-line address or item list fits easily). */
  maxValueLength: 10_000,
  /** Characters of all values together. */
  maxApiDataChars: 200_000,
} as const;

/** Bad request input (amount, apiData), with the offending parameter named in `field`. */
export class ResolveError extends KindedError {
  get kind() {
    return 'request-invalid' as const;
  }

  constructor(
    /** The request parameter, e.g. `amount` or `apiData.tracking`. */
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'ResolveError';
  }
}

export type ApiData = Record<string, string>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Checks that apiData is an object of strings within the limits, and returns it typed. */
export function checkApiData(apiData: unknown): ApiData {
  if (typeof apiData !== 'object' || apiData === null || Array.isArray(apiData)) {
    throw new ResolveError(
      'apiData',
      `expected an object of field names to string values, got ${describe(apiData)}`,
    );
  }
  const entries = Object.entries(apiData);
  if (entries.length > LIMITS.maxApiDataKeys) {
    throw new ResolveError('apiData', `has ${entries.length} keys; the maximum is ${LIMITS.maxApiDataKeys}`);
  }
  let total = 0;
  for (const [key, value] of entries) {
    if (typeof value !== 'string') {
      throw new ResolveError(
        `apiData.${key}`,
        `expected a string, got ${describe(value)} (all values are strings)`,
      );
    }
    if (value.length > LIMITS.maxValueLength) {
      throw new ResolveError(
        `apiData.${key}`,
        `is ${value.length} characters long; the maximum is ${LIMITS.maxValueLength}`,
      );
    }
    total += value.length;
  }
  if (total > LIMITS.maxApiDataChars) {
    throw new ResolveError(
      'apiData',
      `values total ${total} characters; the maximum is ${LIMITS.maxApiDataChars}`,
    );
  }
  return apiData as ApiData;
}

/** Checks `amount`: an integer from 1 to LIMITS.maxAmount. */
export function checkAmount(amount: unknown): number {
  if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    throw new ResolveError(
      'amount',
      `expected a whole number of copies, got ${typeof amount === 'number' ? amount : describe(amount)}`,
    );
  }
  if (amount < 1) throw new ResolveError('amount', `must be at least 1, got ${amount}`);
  if (amount > LIMITS.maxAmount) {
    throw new ResolveError(
      'amount',
      `${amount} copies in one request is more than the maximum of ${LIMITS.maxAmount}`,
    );
  }
  return amount;
}

interface CompiledElement {
  element: Element;
  /** Attribute → parsed segments, for attributes that carry references. */
  refs: [string, Segment[]][];
}

interface Compiled {
  fields: Map<string, string>;
  /** Counter fields by name: their values come from `counters`, never from apiData. */
  counters: Map<string, Field>;
  elements: CompiledElement[];
}

// Templates are immutable values once parsed; parsing their reference strings once per template keeps the
// live preview cheap (it resolves on every keystroke).
const compiledCache = new WeakMap<Template, Compiled>();

function compile(template: Template): Compiled {
  const cached = compiledCache.get(template);
  if (cached) return cached;
  const compiled: Compiled = {
    fields: new Map(template.fields.map((f) => [f.name, f.placeholder])),
    counters: new Map(template.fields.filter((f) => f.type === 'counter').map((f) => [f.name, f])),
    elements: template.elements.map((element) => ({
      element,
      refs: (REFERENCE_ATTRIBUTES[element.type] ?? []).flatMap((attr): [string, Segment[]][] => {
        const source = (element as Record<string, unknown>)[attr];
        return typeof source === 'string' ? [[attr, parseRefs(source)]] : [];
      }),
    })),
  };
  compiledCache.set(template, compiled);
  return compiled;
}

/**
 * A deep copy of the plain data a parsed template holds (objects, arrays, strings, numbers, booleans), equal to
 * what structuredClone makes of it at a tenth of the cost; anything else is left to structuredClone.
 */
function cloneData(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) if (i in value) out[i] = cloneData(value[i]);
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = cloneData((value as Record<string, unknown>)[key]);
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}

/**
 * One Markup with every field reference replaced (value, or the field's placeholder when no value). A counter
 * field takes its number from `counters` (formatted with its prefix, padding and suffix), never from apiData;
 * without a number it prints its placeholder.
 */
export function resolveOne(template: Template, apiData: ApiData, counters: CounterValues = {}): Markup {
  const { fields, elements, counters: counterFieldsByName } = compile(template);
  const valueOf = (name: string): string => {
    const counter = counterFieldsByName.get(name);
    if (counter) {
      const n = counters[name];
      return n === undefined ? (fields.get(name) ?? '') : formatCounter(counterSettings(counter), n);
    }
    return Object.hasOwn(apiData, name) ? (apiData[name] as string) : (fields.get(name) ?? '');
  };
  return {
    stage: { ...template.stage },
    elements: elements.map(({ element, refs }) => {
      const out = cloneData(element) as Record<string, unknown>;
      for (const [attr, segments] of refs) out[attr] = substitute(segments, valueOf);
      if (element.hideIfEmpty && refs.length) {
        const names = refs.flatMap(([, segments]) =>
          segments.flatMap((s) => (s.kind === 'field' ? [s.name] : [])),
        );
        if (names.length && names.every((n) => valueOf(n) === '')) out.visible = false;
      }
      return out as Element;
    }),
  };
}

/**
 * Resolves a template for `amount` copies. Throws ResolveError for bad amount or apiData.
 * Every copy is its own object (callers may mutate one without touching the others).
 */
export function resolve(template: Template, apiData: unknown, amount: unknown): Markup[] {
  const out = resolveShared(template, apiData, amount);
  for (let i = 1; i < out.length; i++) out[i] = structuredClone(out[0] as Markup);
  return out;
}

/**
 * `resolve` for a caller that only reads the copies (the renderers, the HTTP face's serialiser): the copies of a
 * request cannot differ (no counter numbers come with it), so the array holds ONE Markup `amount` times, and
 * every step after can do its work once per distinct object. Do not mutate the copies.
 */
export function resolveShared(template: Template, apiData: unknown, amount: unknown): Markup[] {
  const data = checkApiData(apiData);
  const copies = checkAmount(amount);
  return new Array<Markup>(copies).fill(resolveOne(template, data));
}
