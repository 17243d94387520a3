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
 */
import { z } from 'zod';
import { assertNever } from '../layout/scene';

export const JOB_STATES = ['queued', 'printing', 'paused', 'done', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const LABEL_STATES = ['pending', 'sending', 'sent', 'confirmed', 'failed'] as const;
export type LabelState = (typeof LABEL_STATES)[number];

export const JOB_FORMATS = ['zpl'] as const;
export type JobFormat = (typeof JOB_FORMATS)[number];

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

/** The job and label number of a tagged label, or undefined. */
export function readLabelTag(zpl: string): { jobId: number; labelNumber: number } | undefined {
  const m = /\^FXLabelDesk job (\d+) label (\d+)\^FS/.exec(zpl);
  return m ? { jobId: Number(m[1]), labelNumber: Number(m[2]) } : undefined;
}
