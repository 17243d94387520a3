/**
 * Counter fields (`type: "counter"`): their printed value never comes from user data but from a number the job
 * store reserved for the label (see src/node/jobs/sqlite-counters.ts). Without a number (the live preview, a plain
 * `labeldesk print`) a counter field prints its placeholder, like any field without a value.
 */
import { gs1CheckDigit } from '../model/barcode/check-digits';
import {
  CounterSchema,
  ssccLastSerial,
  ssccSerialDigits,
  type Counter,
  type Field,
  type Template,
} from '../model/schema';

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

/** A counter number a GS1 counter cannot make a key of (past the last serial reference). */
export class CounterRangeError extends RangeError {
  override name = 'CounterRangeError';
}

/**
 * The highest number `counter` can print, or undefined when only Number.MAX_SAFE_INTEGER bounds it (an SSCC
 * counter: the serial reference of all nines).
 */
export function counterLast(counter: Counter): number | undefined {
  return counter.gs1 ? ssccLastSerial(counter.gs1) : undefined;
}

/**
 * Why numbers `first` to `last` of counter field `field` cannot be printed, or undefined when they can: for an
 * SSCC counter, a number past the last serial reference (the SSCC range is exhausted).
 */
export function counterRangeProblem(field: Field, first: number, last: number): string | undefined {
  const counter = counterSettings(field);
  const max = counterLast(counter);
  if (max === undefined || !counter.gs1 || last <= max) return undefined;
  const { extension, companyPrefix } = counter.gs1;
  const left = Math.max(0, max - first + 1);
  return (
    `${field.label} (${field.name}): the SSCC range is exhausted — company prefix ${companyPrefix} with ` +
    `extension digit ${extension} has ${ssccSerialDigits(counter.gs1)}-digit serial references, the last is ${max}, ` +
    `and this job needs up to ${last} (${left === 0 ? 'none' : left} left); use another extension digit or company prefix`
  );
}

/**
 * The key the job store keeps a counter field's next number under. A plain counter: per template, printer and
 * field. An SSCC counter: one sequence per extension digit and company prefix shared by every template and
 * printer — an SSCC must never repeat, whichever label or printer made it.
 */
export function counterKey(
  field: Field,
  template: string,
  printer: string,
): { template: string; printer: string; field: string } {
  const gs1 = counterSettings(field).gs1;
  if (gs1) return { template: '', printer: '', field: `gs1:sscc:${gs1.extension}${gs1.companyPrefix}` };
  return { template, printer, field: field.name };
}

/**
 * The printed text of `value`: prefix, the number zero-padded to `width` digits, suffix; for an SSCC counter the
 * 18 digits (extension, company prefix, `value` as the serial reference, check digit). Throws CounterRangeError
 * for a number an SSCC counter cannot make (the job store refuses those before; see counterRangeProblem).
 */
export function formatCounter(counter: Counter, value: number): string {
  if (counter.gs1) {
    const last = ssccLastSerial(counter.gs1);
    if (!Number.isSafeInteger(value) || value < 0 || value > last)
      throw new CounterRangeError(`the SSCC range is exhausted: serial reference ${value} is past ${last}`);
    const serial = String(value).padStart(ssccSerialDigits(counter.gs1), '0');
    const key = `${counter.gs1.extension}${counter.gs1.companyPrefix}${serial}`;
    return `${key}${gs1CheckDigit(key)}`;
  }
  const digits = String(Math.abs(value)).padStart(counter.width, '0');
  return `${counter.prefix}${value < 0 ? '-' : ''}${digits}${counter.suffix}`;
}

/**
 * Whether the copies of one row share the field's number. An SSCC names one logistic unit, and GS1 labels a
 * pallet on two sides with the same SSCC, so its copies are identical; any other counter numbers every physical
 * label (a serial number per label).
 */
export function counterPerRow(field: Field): boolean {
  return counterSettings(field).gs1 !== undefined;
}

/** How many numbers a job reserves for `field`: one per row (SSCC) or one per physical label. */
export function counterNumbersNeeded(field: Field, rows: number, labels: number): number {
  return counterPerRow(field) ? rows : labels;
}

/**
 * The numbers of label `index` (0-based, in print order) of a job whose counters start at `firsts` (the first
 * number reserved per field), `unit` being the 0-based row of the request that label comes from: a counter
 * numbered per label takes `index`, so copies of a row get consecutive numbers; an SSCC takes `unit`, so they
 * share one (counterPerRow).
 */
export function counterValuesAt(
  template: Template,
  firsts: CounterValues,
  index: number,
  unit: number,
): CounterValues {
  const out: Record<string, number> = {};
  for (const field of counterFields(template)) {
    const first = firsts[field.name];
    if (first !== undefined) {
      out[field.name] = first + (counterPerRow(field) ? unit : index) * counterSettings(field).step;
    }
  }
  return out;
}

/**
 * The counter numbers of label `n` (1-based) of a stored job: its stored row is `floor((n - 1) / copies)`, and
 * `units` (absent: the stored rows are the request's rows) says which request row each stored row repeats.
 */
export function jobLabelCounters(
  template: Template,
  job: { copies: number; render?: { counterFirsts: CounterValues; counterUnits?: readonly number[] } },
  n: number,
): CounterValues {
  if (!job.render) return {};
  const stored = Math.floor((n - 1) / job.copies);
  return counterValuesAt(
    template,
    job.render.counterFirsts,
    n - 1,
    job.render.counterUnits?.[stored] ?? stored,
  );
}
