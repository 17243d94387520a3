/**
 * Counter fields (`type: "counter"`): their printed value never comes from user data but from a number the job
 * store reserved for the label (see src/node/jobs/sqlite-counters.ts). Without a number (the live preview, a plain
 * `labeldesk print`) a counter field prints its placeholder, like any field without a value.
 */
import { CounterSchema, type Counter, type Field, type Template } from '../model/schema';

/** Counter numbers by field name, one label's worth. */
export type CounterValues = Readonly<Record<string, number>>;

/** The template's counter fields, in declaration order. */
export function counterFields(template: Template): Field[] {
  return template.fields.filter((f) => f.type === 'counter');
}

/** A counter field's settings with the defaults filled in. */
export function counterSettings(field: Field): Counter {
  return field.counter ?? CounterSchema.parse({});
}

/** The printed text of `value`: prefix, the number zero-padded to `width` digits, suffix. */
export function formatCounter(counter: Counter, value: number): string {
  const digits = String(Math.abs(value)).padStart(counter.width, '0');
  return `${counter.prefix}${value < 0 ? '-' : ''}${digits}${counter.suffix}`;
}

/**
 * The numbers of label `index` (0-based, in print order) of a job whose counters start at `firsts` (the first
 * number reserved per field): one number per physical label, so copies of a row get consecutive numbers.
 */
export function counterValuesAt(template: Template, firsts: CounterValues, index: number): CounterValues {
  const out: Record<string, number> = {};
  for (const field of counterFields(template)) {
    const first = firsts[field.name];
    if (first !== undefined) out[field.name] = first + index * counterSettings(field).step;
  }
  return out;
}
