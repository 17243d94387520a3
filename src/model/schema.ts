/**
 * Template and Markup: the single source of truth for what a label is (types come from z.infer).
 *  - Template: our JSON files (bundled, user, captured). Elements carry field references.
 *  - Markup: what fetch-markups returns, one per copy (spec §2.3): stage + elements with final values.
 */
import { z } from 'zod';
import { isColor } from './color';
import { MarkupElementSchema, referenceAttributes, TemplateElementSchema } from './elements';
import { FIELD_NAME, RefSyntaxError, parseRefs } from './refs';
import { stageToInches } from '../units/units';

export const SCHEMA_VERSION = 1;

/** Largest label side we render: 48 in (ZPL's ^LL tops out at 32,000 dots, 53 in at 600 dpi). */
export const MAX_STAGE_INCHES = 48;

const stageShape = {
  width: z.number().finite().positive(),
  height: z.number().finite().positive(),
  unit: z.enum(['in', 'cm', 'mm', 'px'], { error: 'expected a unit: in, cm, mm or px' }),
  background: z
    .string()
    .max(32)
    .refine(isColor, { message: 'expected a colour like "#ffffff"' })
    .default('#ffffff'),
};

function checkStageSize(
  stage: { width: number; height: number; unit: 'in' | 'cm' | 'mm' | 'px' },
  ctx: z.RefinementCtx,
) {
  for (const side of ['width', 'height'] as const) {
    const inches = stageToInches(stage[side], stage.unit);
    if (inches > MAX_STAGE_INCHES) {
      ctx.addIssue({
        code: 'custom',
        path: [side],
        message: `${stage[side]} ${stage.unit} is larger than the ${MAX_STAGE_INCHES} in maximum`,
      });
    }
  }
}

export const StageSchema = z.strictObject(stageShape).superRefine(checkStageSize);
export const MarkupStageSchema = z.looseObject(stageShape).superRefine(checkStageSize);

export const FIELD_TYPES = ['text', 'multiline', 'number', 'date', 'choice', 'counter'] as const;

/**
 * A counter that makes GS1 keys. `sscc`: the 18-digit Serial Shipping Container Code of AI (00) — the extension
 * digit, the GS1 company prefix, the counter's number as the serial reference (zero-padded to fill 17 digits)
 * and the mod-10 check digit. Its numbers are kept per extension digit and company prefix, for every template
 * and printer of the workstation, so an SSCC is never typed and never repeats (src/resolve/counters.ts).
 */
export const Gs1CounterSchema = z.strictObject({
  kind: z.literal('sscc', { error: 'the only GS1 counter kind is "sscc"' }),
  /** 0–9, chosen by the company to widen the range of serial references. */
  extension: z.string().regex(/^\d$/, { message: 'the SSCC extension digit is one digit, 0 to 9' }),
  /** The GS1 company prefix GS1 allocated, 6 to 12 digits. */
  companyPrefix: z.string().regex(/^\d{6,12}$/, { message: 'the GS1 company prefix is 6 to 12 digits' }),
});
export type Gs1Counter = z.infer<typeof Gs1CounterSchema>;

/** Digits of an SSCC's serial reference: 17 less the extension digit and the company prefix. */
export function ssccSerialDigits(gs1: Gs1Counter): number {
  return 17 - 1 - gs1.companyPrefix.length;
}

/** The highest serial reference an SSCC counter can make (all nines). */
export function ssccLastSerial(gs1: Gs1Counter): number {
  return 10 ** ssccSerialDigits(gs1) - 1;
}

/**
 * A `counter` field's numbering: the printed value is `prefix + zero-padded number + suffix`, or with `gs1` an
 * SSCC. The next number persists per template and printer in the job store (src/node/jobs; an SSCC's per
 * company prefix), so serial numbers continue across jobs and restarts and never repeat; each physical label
 * gets its own number.
 */
const CounterObject = z.strictObject({
  /** The first number ever printed for a (template, printer). */
  start: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(1),
  /** Added per label. */
  step: z.number().int().min(1).max(1_000_000).default(1),
  /** Zero-padding: the number has at least this many digits (0: no padding). */
  width: z.number().int().min(0).max(32).default(0),
  prefix: z.string().max(100).default(''),
  suffix: z.string().max(100).default(''),
  /** Make GS1 keys instead: `{ "kind": "sscc", "extension": "3", "companyPrefix": "0614141" }`. */
  gs1: Gs1CounterSchema.optional(),
});

export const CounterSchema = CounterObject.superRefine((counter, ctx) => {
  const gs1 = counter.gs1;
  if (!gs1) return;
  for (const key of ['prefix', 'suffix'] as const) {
    if (counter[key] !== '')
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `an SSCC counter prints the 18 digits alone; put text around it in the element, not in ${key}`,
      });
  }
  if (counter.width !== 0)
    ctx.addIssue({
      code: 'custom',
      path: ['width'],
      message: 'an SSCC counter pads its serial reference itself; leave width out',
    });
  if (!/^\d{6,12}$/.test(gs1.companyPrefix)) return; // reported by its own rule
  const last = ssccLastSerial(gs1);
  if (counter.start > last)
    ctx.addIssue({
      code: 'custom',
      path: ['start'],
      message: `start ${counter.start} does not fit: with company prefix ${gs1.companyPrefix} the serial reference has ${ssccSerialDigits(gs1)} digits, so the SSCC range is exhausted after ${last}`,
    });
});
export type Counter = z.infer<typeof CounterSchema>;

export const FieldSchema = z
  .strictObject({
    name: z.string().regex(FIELD_NAME, {
      message: 'a field name starts with a letter or "_" and has only letters, digits, "_", "-", "."',
    }),
    /** Shown next to the form input. */
    label: z.string().min(1).max(200),
    /** Printed when no value is given (spec §2.1). May be empty. */
    placeholder: z.string().max(10_000),
    type: z.enum(FIELD_TYPES).default('text'),
    required: z.boolean().default(false),
    /** A JavaScript regular expression the whole value must match (anchored). */
    pattern: z.string().max(1000).optional(),
    maxLength: z.number().int().min(1).max(100_000).optional(),
    choices: z.array(z.string().max(1000)).min(1).max(1000).optional(),
    /** The form's initial value. */
    default: z.string().max(10_000).optional(),
    /** Help text for the form. */
    hint: z.string().max(500).optional(),
    /** Numbering of a `counter` field (defaults: start 1, step 1, no padding, no prefix or suffix). */
    counter: CounterSchema.optional(),
  })
  .superRefine((field, ctx) => {
    if (field.pattern !== undefined) {
      try {
        new RegExp(field.pattern, 'u');
      } catch (e) {
        ctx.addIssue({
          code: 'custom',
          path: ['pattern'],
          message: `not a valid regular expression: ${(e as Error).message}`,
        });
      }
    }
    if (field.type === 'choice' && !field.choices) {
      ctx.addIssue({
        code: 'custom',
        path: ['choices'],
        message: 'a "choice" field needs a list of choices',
      });
    }
    if (field.type !== 'counter' && field.counter) {
      ctx.addIssue({
        code: 'custom',
        path: ['counter'],
        message: `counter settings are only for "counter" fields, not "${field.type}"`,
      });
    }
    if (field.type !== 'choice' && field.choices) {
      ctx.addIssue({
        code: 'custom',
        path: ['choices'],
        message: `choices are only for "choice" fields, not "${field.type}"`,
      });
    }
  });

export type Field = z.infer<typeof FieldSchema>;

const TemplateObject = z.strictObject({
  $schema: z.string().optional(),
  schemaVersion: z.literal(SCHEMA_VERSION, { error: `expected schemaVersion ${SCHEMA_VERSION}` }),
  /** Unique, case-sensitive (spec §2.1). */
  name: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s/\\][^/\\]*$/, {
      message: 'a template name has no slashes and does not start with a space',
    }),
  /** What people call it in lists ("Shipping label 4×6"); the name when absent. */
  title: z.string().trim().min(1).max(120).optional(),
  description: z.string().max(2000).optional(),
  /**
   * `test`: a template kept to check printers and outputs (every element kind, every symbology), listed last
   * and apart from the ones people print; `labels` (default): a template to print from.
   */
  purpose: z.enum(['labels', 'test']).optional(),
  stage: StageSchema,
  fields: z.array(FieldSchema).max(500).default([]),
  elements: z.array(TemplateElementSchema).max(5000),
});

/**
 * Cross-checks a template value: unique field names, and every field reference declared and well formed.
 * Tolerant of malformed input, so that it can also run when the schema already failed and a user sees every
 * mistake at once.
 */
export function referenceProblems(raw: unknown): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  if (typeof raw !== 'object' || raw === null) return out;
  const { fields, elements } = raw as { fields?: unknown; elements?: unknown };
  const names = new Set<string>();
  if (Array.isArray(fields)) {
    fields.forEach((f: unknown, i) => {
      const name = (f as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') return;
      if (names.has(name))
        out.push({ path: ['fields', i, 'name'], message: `duplicate field name "${name}"` });
      names.add(name);
    });
  }
  if (!Array.isArray(elements)) return out;
  elements.forEach((el: unknown, i) => {
    if (typeof el !== 'object' || el === null) return;
    const type = (el as { type?: unknown }).type;
    for (const attr of referenceAttributes(type)) {
      const source = (el as Record<string, unknown>)[attr];
      if (typeof source !== 'string') continue;
      try {
        for (const seg of parseRefs(source)) {
          if (seg.kind === 'field' && !names.has(seg.name)) {
            out.push({
              path: ['elements', i, attr],
              message: `refers to field "${seg.name}", which is not declared in "fields"`,
            });
          }
        }
      } catch (e) {
        if (!(e instanceof RefSyntaxError)) throw e;
        out.push({ path: ['elements', i, attr], message: e.message });
      }
    }
  });
  return out;
}

export const TemplateSchema = TemplateObject.superRefine((t, ctx) => {
  for (const p of referenceProblems(t)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
});

export type Template = z.infer<typeof TemplateSchema>;
export type TemplateInput = z.input<typeof TemplateSchema>;

export const MarkupSchema = z.looseObject({
  stage: MarkupStageSchema,
  elements: z.array(MarkupElementSchema).max(5000),
});

export type Markup = z.infer<typeof MarkupSchema>;
