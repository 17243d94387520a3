/**
 * The form's rules for field values (required, pattern, maxLength, type). The hosted API does not enforce
 * them (spec: a missing value prints the placeholder), so resolution does not either; the app's form, CSV
 * batches and the CLI use these checks to warn or refuse before anything prints.
 */
import type { Problem } from '../model/errors';
import type { Field, Template } from '../model/schema';
import type { ApiData } from './resolve';
import { assertNever } from '../base/assert-never';
import { barcodeFieldProblems } from '../model/barcode-fields';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

// Patterns come from template files; compile each once.
const patternCache = new Map<string, RegExp>();
function anchored(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(`^(?:${pattern})$`, 'u');
    patternCache.set(pattern, re);
  }
  return re;
}

/** Problems with one field's value; `undefined` means no value given. */
export function checkFieldValue(field: Field, value: string | undefined): string | undefined {
  // A counter's value is numbered by the job, not typed: nothing to check.
  if (field.type === 'counter') return undefined;
  if (value === undefined || value === '') {
    return field.required ? `${field.label} is required` : undefined;
  }
  if (field.maxLength !== undefined && [...value].length > field.maxLength) {
    return `${field.label} is ${[...value].length} characters long; the maximum is ${field.maxLength}`;
  }
  switch (field.type) {
    case 'number':
      if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/.test(value.trim()))
        return `${field.label} must be a number, got "${value}"`;
      break;
    case 'date':
      if (!isIsoDate(value)) return `${field.label} must be a date like 2026-11-23, got "${value}"`;
      break;
    case 'choice':
      if (field.choices && !field.choices.includes(value)) {
        return `${field.label} must be one of ${field.choices.map((c) => `"${c}"`).join(', ')}, got "${value}"`;
      }
      break;
    case 'text':
      if (value.includes('\n')) return `${field.label} is a single line; it contains a line break`;
      break;
    case 'multiline':
      break;
    default:
      return assertNever(field.type, 'field type');
  }
  if (field.pattern !== undefined && !anchored(field.pattern).test(value)) {
    return `${field.label} does not have the expected form (pattern ${field.pattern})`;
  }
  return undefined;
}

/**
 * Every problem of `apiData` against the template's field rules, with paths like `apiData.tracking`: each
 * field's own rules, then what its barcodes need (see checkBarcodeValues) for the fields that passed those.
 */
export function checkValues(template: Template, apiData: ApiData): Problem[] {
  const problems: Problem[] = [];
  for (const field of template.fields) {
    const value = Object.hasOwn(apiData, field.name) ? apiData[field.name] : undefined;
    const problem = checkFieldValue(field, value);
    if (problem) problems.push({ path: `apiData.${field.name}`, message: problem });
  }
  const flagged = new Set(problems.map((p) => p.path));
  for (const p of checkBarcodeValues(template, apiData)) if (!flagged.has(p.path)) problems.push(p);
  return problems;
}

/**
 * What the barcodes a value feeds will make of it, checked with the encoders' own value rules (charset, length,
 * check digit: layout/barcode/values.ts, the step every render runs before encoding) — so an EAN-13 with a wrong
 * check digit is a problem of its field where the value is typed, in a CSV report and before a job is created,
 * not a failed label later. A barcode is checked once every field it uses has a typed value; counters are
 * numbered per label by the job and are left to it. The problem goes to the first field the barcode uses
 * (src/model/barcode-fields.ts, which the designer and the Print screen ask too).
 */
export function checkBarcodeValues(template: Template, apiData: ApiData): Problem[] {
  return barcodeFieldProblems(template, (field, name) => {
    const value = Object.hasOwn(apiData, name) ? apiData[name] : undefined;
    return field?.type !== 'counter' && value !== undefined && value !== '' ? value : undefined;
  }).flatMap((p) => (p.field === null ? [] : [{ path: `apiData.${p.field}`, message: p.message }]));
}

/** apiData keys that match no field: ignored by the spec, but worth a warning (often a case mistake). */
export function unknownKeys(template: Template, apiData: ApiData): { key: string; didYouMean?: string }[] {
  const names = template.fields.map((f) => f.name);
  return Object.keys(apiData)
    .filter((k) => !names.includes(k))
    .map((key) => {
      const match = names.find((n) => n.toLowerCase() === key.toLowerCase());
      return match ? { key, didYouMean: match } : { key };
    });
}
