/**
 * What a job must pass before it is stored and before it prints (job-creation.ts): its rows and copies, the
 * count of labels resolved by the hosted API, the label numbers of a reprint and whether they can be drawn
 * again for another printer, the printer's dpi and ZPL settings, and label 1 rendered (a template or value the
 * engine cannot render fails the job before it prints).
 */
import type { Job } from '../../jobs/model';
import type { FirstLabel } from '../../jobs/reprint-chain';
import type { PrinterTransport } from '../../printers/transport';
import { checkApiData, LIMITS } from '../../resolve/resolve';
import type { ProfileStore } from '../printers/profile-store';
import { askOverNewConnection, decidePrinterSetup, type PrinterSetup } from '../printers/setup';
import type { JobEvents } from './job-events';
import { JobRequestError, type NewJob } from './job-service-types';
import type { JobViews } from './job-views';
import { LabelRenderFailed, type LabelRenderer } from './label-renderer';
import type { SqliteJobStore } from './sqlite-job-store';

/** A new job's rows, their data checked and each with its copies (the request's default when it gives none). */
export function checkedRows(request: NewJob) {
  const defaultCopies = request.copies ?? 1;
  const rows = request.rows.map((r) => ({
    ...r,
    data: checkApiData(r.data),
    copies: r.copies ?? defaultCopies,
  }));
  for (const r of rows) {
    if (!Number.isInteger(r.copies) || r.copies < 1 || r.copies > LIMITS.maxAmount) {
      throw new JobRequestError(
        `copies must be a whole number from 1 to ${LIMITS.maxAmount}, got ${r.copies}`,
      );
    }
  }
  if (rows.length === 0) throw new JobRequestError('nothing to print: the job has no rows');
  return rows;
}

/** The labels the hosted API resolved, when given, are one per label of the job. */
export function checkMarkupCount(request: NewJob, labelCount: number): void {
  if (request.markups && request.markups.length !== labelCount) {
    throw new JobRequestError(
      `${request.markups.length} resolved labels given for a job of ${labelCount} labels`,
    );
  }
}

/** The label numbers a reprint of `original` prints (all of them when `labels` is not given), checked. */
export function reprintNumbers(
  jobId: number,
  original: Job,
  labels: readonly number[] | undefined,
): number[] {
  const numbers = labels ? [...labels] : Array.from({ length: original.labelCount }, (_, i) => i + 1);
  if (!numbers.length) throw new JobRequestError('no labels to reprint');
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 1 || n > original.labelCount) {
      throw new JobRequestError(
        `job ${jobId} has labels 1 to ${original.labelCount}; there is no label ${n}`,
      );
    }
  }
  return numbers;
}

/** Another printer: the labels are drawn again for it, so each must come from a job that resolved them. */
export function checkRedrawable(
  firstJobOf: (jobId: number, n: number) => FirstLabel,
  jobId: number,
  numbers: readonly number[],
): void {
  for (const n of numbers) {
    const first = firstJobOf(jobId, n).job;
    if (!first.render) {
      throw new JobRequestError(
        `job ${first.id} was stored as printer bytes only; it can be reprinted on ${first.printer} only`,
      );
    }
  }
}

export interface JobPreflightDeps {
  store: SqliteJobStore;
  renderer: LabelRenderer;
  profiles: ProfileStore;
  connect: (printer: string) => Promise<PrinterTransport>;
  views: Pick<JobViews, 'detail'>;
  events: Pick<JobEvents, 'record' | 'finished'>;
}

export interface JobPreflight {
  /** The dpi and ZPL settings a new job on `printer` renders with (its profile, else asked, else 203). */
  setupFor(printer: string, dpi: number | undefined): Promise<PrinterSetup>;
  /** Renders label 1 now, so a template or value the engine cannot render fails the job before it prints. */
  renderFirstOrFail(jobId: number): Promise<void>;
}

export function createJobPreflight({
  store,
  renderer,
  profiles,
  connect,
  views,
  events,
}: JobPreflightDeps): JobPreflight {
  const { detail } = views;
  const { record, finished } = events;
  return {
    async setupFor(printer, dpi) {
      const profile = await profiles.get(printer);
      // Asks the printer only without a profile: it may be busy printing another job over its one connection.
      const setup = await decidePrinterSetup(printer, dpi, {
        profile,
        askDpi: askOverNewConnection(printer, connect),
        whenUnreachable: 'the job is stored and waits for the printer',
      });
      if (setup.save) {
        await profiles.put(setup.save);
        setup.warnings.push(`detected ${setup.dpi} dpi; saved in the printer profile (${profiles.path})`);
      }
      return setup;
    },
    async renderFirstOrFail(jobId) {
      try {
        await renderer.prepare(jobId, 1, 1);
      } catch (e) {
        const reason = `cannot render label 1: ${e instanceof Error ? e.message : String(e)}`;
        store.setJobState(jobId, 'failed', reason);
        record('failed', detail(jobId), 0, reason);
        finished(jobId);
        // The engine's own error (a value it cannot encode…) is what the caller knows how to tell the user.
        throw e instanceof LabelRenderFailed ? e.cause : e;
      }
    },
  };
}
