/**
 * Print jobs that survive trouble: the persisted shapes (zod is their single source of truth) and the closed
 * unions of job and label states. A job is a template snapshot + data rows + copies + target printer + format,
 * rendered once at creation into one `^XA…^XZ` payload per label, so a resend is byte-identical.
 *
 * Label lifecycle, each transition stored before the next step is taken:
 *
 *   pending → sending (stored before the first byte is written)
 *           → sent (the write resolved: the OS accepted every byte)
 *           → confirmed (the printer's ~HS says it left the buffer; for printers without status, at `sent`)
 *   any → failed (the job gave up on it)
 *
 * A label found in `sending`/`sent` after a fault whose fate the printer cannot tell is resent and flagged
 * `possibleDuplicate`: that is the "at most one duplicate per fault", reported by label number.
 *
 * Jobs created by the job service (src/node/jobs/job-service.ts) store their labels unrendered and render them in
 * chunks as printing reaches them (`JobSpec.render`), so a 10,000-row batch never holds every label at once; a
 * label's bytes are stored before its first send and never rewritten, so a resend is still byte-identical.
 *
 * Job states: `held` is a pause the user asked for (the worker stops between labels and does not continue by
 * itself); `paused` is a printer fault or a lost connection the worker waits out.
 */
import { z } from 'zod';
import { assertNever } from '../base/assert-never';
import { OVERSIZE_CHOICES } from '../outputs/fit';
import { MEDIA_TRACKING, PRINT_MODES } from '../zpl/job';

export const JOB_STATES = ['queued', 'printing', 'paused', 'held', 'done', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const LABEL_STATES = ['pending', 'sending', 'sent', 'confirmed', 'failed'] as const;
export type LabelState = (typeof LABEL_STATES)[number];

export const JOB_FORMATS = ['zpl'] as const;
export type JobFormat = (typeof JOB_FORMATS)[number];

/** ZPL settings of the printer profile a job was rendered with (kept so later chunks render the same way). */
export const zplSettingsSchema = z.object({
  maxWidthDots: z.number().int().optional(),
  /** A label wider than the head: `fit`, `rotate` or `cut` (src/outputs/fit.ts); absent: cut, as before. */
  oversize: z.enum(OVERSIZE_CHOICES).optional(),
  /** The loaded labels' length the printer measured, when known: a `fit` keeps the label within it too. */
  labelLengthDots: z.number().int().optional(),
  labelHome: z.object({ x: z.number().int(), y: z.number().int() }).optional(),
  darkness: z
    .union([
      z.object({ mode: z.literal('absolute'), level: z.number().int() }),
      z.object({ mode: z.literal('relative'), delta: z.number().int() }),
    ])
    .optional(),
  mediaTracking: z.enum(MEDIA_TRACKING).optional(),
  printMode: z.enum(PRINT_MODES).optional(),
  printSpeed: z.number().int().optional(),
});
export type ZplSettings = z.infer<typeof zplSettingsSchema>;

/**
 * How a job's labels are rendered when printing reaches them (absent: every payload was stored at creation).
 * Label n (1-based) is row `floor((n - 1) / copies)`; its counters are `counterFirsts[field] + (n - 1) × step`,
 * or for a counter numbered per row (an SSCC) `counterFirsts[field] + unit × step`, `unit` the request row.
 */
export const jobRenderSchema = z.object({
  /** Folder that relative image paths of the template are read from. */
  baseDir: z.string().optional(),
  zpl: zplSettingsSchema,
  /**
   * First counter number reserved for this job, per counter field; the job owns `labelCount` numbers of each
   * (the request's row count of a counter numbered per row).
   */
  counterFirsts: z.record(z.string(), z.number().int()).default({}),
  /**
   * The request row (0-based) each stored row repeats, when rows with different copies were stored one label
   * each; absent, stored row i is request row i. Counters numbered per row (SSCC) use it.
   */
  counterUnits: z.array(z.number().int().min(0)).optional(),
  /** Line number in the CSV file of each row (for `jobs show` and the audit log), when from a CSV. */
  sourceRows: z.array(z.number().int()).optional(),
  /**
   * Labels already resolved elsewhere (the hosted API's fetch-markups), one per label: label n is
   * `markups[n - 1]`, drawn as given; the template and rows then only name and describe the job.
   */
  markups: z.array(z.unknown()).optional(),
});
export type JobRender = z.infer<typeof jobRenderSchema>;

/** What the user asked for, stored with the job (the template is a snapshot, so later edits do not matter). */
export const jobSpecSchema = z.object({
  printer: z.string().min(1),
  format: z.enum(JOB_FORMATS),
  templateName: z.string(),
  template: z.unknown(),
  rows: z.array(z.record(z.string(), z.string())),
  copies: z.number().int().min(1),
  dpi: z.number().int().min(100).max(1200),
  createdBy: z.string(),
  render: jobRenderSchema.optional(),
  /**
   * A ZPL file printed as it came (`labeldesk print --zpl`, src/zpl/print-plan.ts): each label's payload is its
   * own bytes, one char per byte (0–255), stored at creation and sent unchanged (never tagged or re-rendered).
   * `copies`: the `^PQ` count of each label (the printer makes them; one label here is confirmed once).
   */
  zplFile: z.object({ name: z.string(), copies: z.array(z.number().int().min(1)) }).optional(),
  /** A reprint: the original job and the label numbers reprinted (label n of this job is `labels[n - 1]`). */
  reprintOf: z.object({ jobId: z.number().int().positive(), labels: z.array(z.number().int()) }).optional(),
});
export type JobSpec = z.infer<typeof jobSpecSchema>;

export const jobSchema = jobSpecSchema.extend({
  id: z.number().int().positive(),
  state: z.enum(JOB_STATES),
  /** Why the job is paused or failed (paper out, head open, connection lost…), for people. */
  reason: z.string().nullable(),
  labelCount: z.number().int().min(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Job = z.infer<typeof jobSchema>;

export const labelSchema = z.object({
  jobId: z.number().int().positive(),
  /** 1-based, in print order. */
  number: z.number().int().positive(),
  state: z.enum(LABEL_STATES),
  /** Resent after a fault that left its fate unknown: it may have printed twice. */
  possibleDuplicate: z.boolean(),
  /** Times written to the printer (whole or in part). */
  attempts: z.number().int().min(0),
  updatedAt: z.string(),
});
export type Label = z.infer<typeof labelSchema>;

/** Per-state label counts of a job. */
export type LabelCounts = Record<LabelState, number>;

/** Whether a job still has work to do (resume picks these up). */
export function isUnfinished(state: JobState): boolean {
  switch (state) {
    case 'queued':
    case 'printing':
    case 'paused':
    case 'held':
      return true;
    case 'done':
    case 'cancelled':
    case 'failed':
      return false;
    default:
      return assertNever(state, 'job state');
  }
}

/** Whether a label's bytes may have reached the printer without it being confirmed (the fate to decide). */
export function isInFlight(state: LabelState): boolean {
  switch (state) {
    case 'sending':
    case 'sent':
      return true;
    case 'pending':
    case 'confirmed':
    case 'failed':
      return false;
    default:
      return assertNever(state, 'label state');
  }
}

/**
 * Tags a rendered label with a ZPL comment naming its job and number (`^FXLabelDesk job 3 label 17^FS`), right
 * after `^XA`. Printers ignore `^FX`; whoever reads a printer's log (or the emulator's) can tell labels apart.
 */
export function tagLabel(zpl: string, jobId: number, labelNumber: number): string {
  const at = zpl.indexOf('^XA');
  if (at < 0) throw new RangeError(`label ${labelNumber} is not a ZPL format (no ^XA)`);
  return `${zpl.slice(0, at + 3)}^FXLabelDesk job ${jobId} label ${labelNumber}^FS${zpl.slice(at + 3)}`;
}

/** A tagged label under another job and number (a reprint): the old tag is replaced, the rest kept byte for byte. */
export function retagLabel(zpl: string, jobId: number, labelNumber: number): string {
  return tagLabel(zpl.replace(/\^FXLabelDesk job \d+ label \d+\^FS/, ''), jobId, labelNumber);
}

/** The job and label number of a tagged label, or undefined. */
export function readLabelTag(zpl: string): { jobId: number; labelNumber: number } | undefined {
  const m = /\^FXLabelDesk job (\d+) label (\d+)\^FS/.exec(zpl);
  return m ? { jobId: Number(m[1]), labelNumber: Number(m[2]) } : undefined;
}

/** A payload of a ZPL-file job (one char per byte) as the bytes it stands for. */
export function payloadBytes(payload: string): Uint8Array {
  const out = new Uint8Array(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = payload.charCodeAt(i) & 0xff;
  return out;
}

/** Label (or row) numbers for people: `[3, 7, 8, 9]` → `3, 7-9`. */
export function formatLabelList(numbers: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1) j++;
    parts.push(j > i + 1 ? `${numbers[i]}-${numbers[j]}` : numbers.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}
