/**
 * The job service: print jobs for the CLI (`labeldesk jobs`, `labeldesk batch`) and the desktop app, composed
 * over the SQLite job store, the counters, the audit log, the printer transports and the renderer.
 *
 *   const jobs = openJobService({ dataDir });
 *   const off = jobs.onEvent((e) => console.log(e));          // plain JSON objects (they cross IPC)
 *   const plan = jobs.planBatch(csvText, template);           // validation report before anything prints
 *   const { job } = await jobs.addJob({ template, printer, rows: plan.rows, skippedRows: plan.badRows });
 *   jobs.pause(job.id); jobs.resume(job.id);                  // between labels, never mid-label
 *   await jobs.idle();                                        // every printer's worker has stopped
 *   await jobs.reprint(job.id, [3, 7]);                       // a new job with the same bytes
 *   jobs.audit({ jobId: job.id });                            // who did what, where, when
 *   off(); await jobs.close();
 *
 * Jobs print in the background, one at a time per printer, in order (src/jobs/queue.ts); a job's labels are
 * rendered in chunks as printing reaches them (label-renderer.ts). Every action a person takes is appended to
 * the audit log with the user and machine. Counter numbers are reserved for the whole job when it is created,
 * in the same transaction (sqlite-counters.ts says what happens to them on cancel and reprint).
 */
import { hostname, userInfo } from 'node:os';
import { systemClock, type Clock } from '../../base/clock';
import { planBatch } from '../../jobs/batch';
import { ProgressTracker, type JobServiceEvent } from '../../jobs/events';
import { formatLabelList, isUnfinished, type Job, type JobSpec } from '../../jobs/model';
import { runPrinterQueue } from '../../jobs/queue';
import { JobNotFound } from '../../jobs/store';
import { reprintChain } from '../../jobs/reprint-chain';
import { LabelNotRendered, SKIP_OR_CANCEL, type JobEvent, type WorkerDeps } from '../../jobs/worker';
import type { PrinterTransport } from '../../printers/transport';
import { formatPrinterUri, parsePrinterUri } from '../../printers/uri';
import { counterFields, counterSettings, counterValuesAt, formatCounter } from '../../resolve/counters';
import { checkApiData, LIMITS } from '../../resolve/resolve';
import { parseTemplate } from '../../model/parse';
import type { Template } from '../../model/schema';
import { createTransport } from '../printers/open-transport';
import { createProfileStore } from '../printers/profile-store';
import { createLabelRenderer, LabelRenderFailed } from './label-renderer';
import { askOverNewConnection, decidePrinterSetup } from '../printers/setup';
import { sqliteAuditLog, type NewAuditEntry } from './sqlite-audit-log';
import { sqliteCounters } from './sqlite-counters';
import { openSqliteJobStore, type JobSummary } from './sqlite-job-store';

export * from './job-service-types';
import {
  JobRequestError,
  type JobDetail,
  type JobService,
  type JobServiceOptions,
  type NewJob,
} from './job-service-types';

const PAUSED_BY_USER = 'paused by the user';
const CANCELLED_BY_USER = 'cancelled by the user';

/** Thrown into a worker's sleep when the service closes. */
class ServiceClosing extends Error {
  override name = 'ServiceClosing';
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

async function defaultOpenTransport(printer: string): Promise<PrinterTransport> {
  // A job's file printer gathers its labels: each connection (a retry, a resume) adds to the file.
  const transport = createTransport(printer, { file: { append: true } });
  try {
    await transport.open({ timeoutMs: 10_000 });
  } catch (e) {
    await transport.close().catch(() => undefined);
    throw e;
  }
  return transport;
}

/** Opens the job service on `dataDir`. Call `close()` when done. */
export function openJobService(options: JobServiceOptions): JobService {
  const clock: Clock = options.clock ?? systemClock;
  const iso = (): string => new Date(clock.now()).toISOString();
  const store = openSqliteJobStore(options.dataDir, { now: iso });
  const counters = sqliteCounters(store.db, iso);
  const auditLog = sqliteAuditLog(store.db, iso);
  const renderer = createLabelRenderer(store, options);
  const profiles = createProfileStore(options.dataDir);
  const connect = options.openTransport ?? defaultOpenTransport;
  const serviceUser = options.user ?? osUser();
  const machine = options.machine ?? hostname();
  const listeners = new Set<(event: JobServiceEvent) => void>();
  const emit = (event: JobServiceEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };
  let closing = false;

  const mustJob = (jobId: number): Job => {
    const job = store.getJob(jobId);
    if (!job) throw new JobNotFound(`no job ${jobId}`);
    return job;
  };
  const detail = (jobId: number): JobDetail => {
    const [summary] = store.summaries({ id: jobId });
    if (!summary) throw new JobNotFound(`no job ${jobId}`);
    return withCounts(summary);
  };
  const withCounts = (summary: JobSummary): JobDetail => ({
    ...summary,
    counts: store.counts(summary.id),
    possibleDuplicates: store.possibleDuplicates(summary.id),
    reprintedLabels: summary.reprintOf === null ? null : (mustJob(summary.id).reprintOf?.labels ?? null),
  });
  const record = (action: NewAuditEntry['action'], job: JobSummary, labels: number, text: string | null) =>
    auditLog.append({
      user: serviceUser,
      machine,
      action,
      jobId: job.id,
      template: job.templateName,
      printer: job.printer,
      labels,
      detail: text,
    });
  const finished = (jobId: number): void => {
    const job = detail(jobId);
    emit({
      kind: 'done',
      jobId,
      state: job.state,
      reason: job.reason,
      confirmed: job.counts.confirmed,
      total: job.labelCount,
      possibleDuplicates: job.possibleDuplicates,
    });
  };

  /** "label 5 (record 5)": how people find a label of a CSV job. */
  const describeLabel = (jobId: number, labelNumber: number): string => {
    const job = mustJob(jobId);
    if (!job.rows.length || job.reprintOf) return `label ${labelNumber}`;
    const index = Math.floor((labelNumber - 1) / job.copies);
    return `label ${labelNumber} (record ${job.render?.sourceRows?.[index] ?? index + 1})`;
  };

  const progress = new Map<number, ProgressTracker>();
  const onWorkerEvent = (e: JobEvent): void => {
    switch (e.kind) {
      case 'started': {
        const job = detail(e.jobId);
        progress.set(e.jobId, new ProgressTracker(job.counts.confirmed, job.labelCount, job.printer));
        emit({ kind: 'started', jobId: e.jobId, printer: job.printer, pending: e.pending });
        return;
      }
      case 'confirmed': {
        const tracker = progress.get(e.jobId);
        if (!tracker) return;
        const { printer } = tracker;
        emit({
          kind: 'progress',
          jobId: e.jobId,
          printer,
          labelNumber: e.labelNumber,
          ...tracker.confirmed(clock.now()),
        });
        return;
      }
      case 'paused':
        emit({
          kind: 'paused',
          jobId: e.jobId,
          reason: e.reason,
          byUser: false,
          ...(e.printerState ? { printerState: e.printerState } : {}),
        });
        return;
      case 'resumed':
      case 'connection-lost':
      case 'possible-duplicate':
      case 'printer-busy':
        emit(e);
        return;
      case 'finished': {
        progress.delete(e.jobId);
        const job = detail(e.jobId);
        if (e.state === 'done') record('printed', job, job.counts.confirmed, null);
        else if (e.state === 'failed') record('failed', job, job.counts.confirmed, e.reason);
        finished(e.jobId);
        return;
      }
      default:
        return ((x: never) => x)(e);
    }
  };

  const deps: WorkerDeps = {
    store,
    claimPrinter: (printer) => store.claimPrinter(printer),
    connect,
    sleep: async (ms) => {
      if (closing) throw new ServiceClosing();
      await clock.sleep(ms);
      if (closing) throw new ServiceClosing();
    },
    onEvent: onWorkerEvent,
    preparePayload: async (jobId, labelNumber) => {
      if (closing) throw new ServiceClosing();
      try {
        await renderer.prepare(jobId, labelNumber);
      } catch (e) {
        if (!(e instanceof LabelRenderFailed)) throw e;
        throw new LabelNotRendered(`${describeLabel(jobId, labelNumber)} cannot be printed: ${e.message}`);
      }
    },
    ...(options.timing ? { timing: options.timing } : {}),
  };

  // One worker per printer; requests that arrive while it runs are served when it finishes its pass.
  const runners = new Map<string, Promise<void>>();
  const wanted = new Map<string, { all: boolean; jobs: Set<number> }>();
  const start = (target: string | number): Promise<void> => {
    const printer = typeof target === 'number' ? mustJob(target).printer : target;
    const want = wanted.get(printer) ?? { all: false, jobs: new Set<number>() };
    wanted.set(printer, want);
    if (typeof target === 'number') want.jobs.add(target);
    else want.all = true;
    const running = runners.get(printer);
    if (running) return running;
    const run = (async () => {
      try {
        while (!closing && (want.all || want.jobs.size)) {
          if (want.all) {
            want.all = false;
            want.jobs.clear();
            await runPrinterQueue(printer, deps);
          } else {
            const [jobId] = want.jobs;
            want.jobs.delete(jobId as number);
            await runPrinterQueue(printer, deps, jobId);
          }
        }
      } catch (e) {
        if (!(e instanceof ServiceClosing)) {
          emit({ kind: 'error', printer, message: e instanceof Error ? e.message : String(e) });
        }
      } finally {
        runners.delete(printer);
        wanted.delete(printer);
      }
    })();
    runners.set(printer, run);
    return run;
  };
  const idle = async (): Promise<void> => {
    while (runners.size) await Promise.all([...runners.values()]);
  };

  /** The dpi and ZPL settings a new job on `printer` renders with (its profile, else asked, else 203). */
  const setupFor = async (printer: string, dpi: number | undefined) => {
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
  };

  /**
   * The job whose rows and counters label `n` of a job was resolved from (reprints followed back; a reprint
   * that names no label `n` is where it stops), for one call's labels: each job is read once per call.
   */
  const firstJobs = () => reprintChain(store);

  const addJob = async (request: NewJob): Promise<{ job: JobDetail; warnings: string[] }> => {
    const printer = formatPrinterUri(parsePrinterUri(request.printer));
    const template = request.template;
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
    const setup = await setupFor(printer, request.dpi);
    // Equal copies: rows stored once with `copies`; else each row repeated, one label each.
    const uniform = rows.every((r) => r.copies === rows[0]?.copies);
    const copies = uniform ? (rows[0]?.copies ?? 1) : 1;
    const stored = uniform ? rows : rows.flatMap((r) => Array.from({ length: r.copies }, () => r));
    const labelCount = stored.length * copies;
    if (request.markups && request.markups.length !== labelCount) {
      throw new JobRequestError(
        `${request.markups.length} resolved labels given for a job of ${labelCount} labels`,
      );
    }
    const user = request.user ?? serviceUser;
    const created = store.createDeferredJob(labelCount, (): JobSpec => {
      const counterFirsts: Record<string, number> = {};
      for (const field of request.markups ? [] : counterFields(template)) {
        const c = counterSettings(field);
        const key = { template: template.name, printer, field: field.name };
        counterFirsts[field.name] = counters.reserve(key, labelCount, c.start, c.step);
      }
      const sourceRows = stored.map((r, i) => r.row ?? i + 1);
      return {
        printer,
        format: 'zpl',
        templateName: template.name,
        template,
        rows: stored.map((r) => r.data),
        copies,
        dpi: setup.dpi,
        createdBy: user,
        render: {
          ...(request.baseDir !== undefined ? { baseDir: request.baseDir } : {}),
          zpl: setup.zpl,
          counterFirsts,
          sourceRows,
          ...(request.markups ? { markups: [...request.markups] } : {}),
        },
      };
    });
    const skipped = request.skippedRows?.length
      ? `skipped invalid records: ${request.skippedRows.join(', ')}`
      : null;
    const summary = detail(created.id);
    record('created', summary, labelCount, skipped);
    emit({ kind: 'created', jobId: created.id, printer, labelCount });
    await renderFirstOrFail(created.id);
    if (request.start !== false) void start(printer);
    return { job: detail(created.id), warnings: setup.warnings };
  };

  /** Renders label 1 now, so a template or value the engine cannot render fails the job before it prints. */
  const renderFirstOrFail = async (jobId: number): Promise<void> => {
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
  };

  const service: JobService = {
    planBatch: (csvText, template, batchOptions) => planBatch(csvText, template, batchOptions),
    addJob,
    start,
    async resumeAll() {
      for (const job of store.unfinishedJobs()) {
        if (job.state === 'printing' || job.state === 'paused') {
          record('resumed', detail(job.id), store.counts(job.id).pending, 'continued after an interruption');
        }
      }
      const printers = new Set(store.unfinishedJobs().map((j) => j.printer));
      await Promise.all([...printers].map((p) => start(p)));
    },
    pause(jobId) {
      const job = detail(jobId);
      if (!isUnfinished(job.state))
        throw new JobRequestError(`job ${jobId} is ${job.state}; it cannot be paused`);
      if (job.state === 'held') return job;
      store.setJobState(jobId, 'held', PAUSED_BY_USER);
      record('paused', job, job.counts.confirmed, null);
      emit({ kind: 'paused', jobId, reason: PAUSED_BY_USER, byUser: true });
      return detail(jobId);
    },
    resume(jobId) {
      const job = detail(jobId);
      if (!isUnfinished(job.state))
        throw new JobRequestError(`job ${jobId} is ${job.state}; it cannot be resumed`);
      if (job.state === 'held') store.setJobState(jobId, 'queued', null);
      record('resumed', job, job.counts.pending, null);
      emit({ kind: 'resumed', jobId });
      void start(jobId);
      return detail(jobId);
    },
    cancel(jobId) {
      const job = detail(jobId);
      if (job.state === 'done' || job.state === 'cancelled') {
        throw new JobRequestError(`job ${jobId} is already ${job.state}`);
      }
      store.setJobState(jobId, 'cancelled', CANCELLED_BY_USER);
      record('cancelled', job, job.counts.confirmed, `${job.counts.confirmed}/${job.labelCount} confirmed`);
      finished(jobId);
      return detail(jobId);
    },
    skip(jobId, labels) {
      const job = detail(jobId);
      if (!isUnfinished(job.state)) {
        throw new JobRequestError(`job ${jobId} is ${job.state}; there is nothing left to skip`);
      }
      const numbers = [...new Set(labels)].sort((a, b) => a - b);
      if (!numbers.length) throw new JobRequestError('name the labels to skip');
      for (const n of numbers) {
        const label = store.label(jobId, n);
        if (!label)
          throw new JobRequestError(`job ${jobId} has labels 1 to ${job.labelCount}; there is no label ${n}`);
        if (label.state !== 'pending' && label.state !== 'failed') {
          throw new JobRequestError(
            `label ${n} of job ${jobId} is ${label.state}; only labels not yet sent can be skipped`,
          );
        }
      }
      for (const n of numbers) store.setLabelState(jobId, n, { state: 'failed' });
      record(
        'skipped',
        job,
        numbers.length,
        `label${numbers.length === 1 ? '' : 's'} ${formatLabelList(numbers)}`,
      );
      // Held on a label that could not be rendered: with it skipped, the job goes on. A person's own hold stays.
      if (job.state === 'held' && job.reason?.endsWith(SKIP_OR_CANCEL)) {
        store.setJobState(jobId, 'queued', null);
        emit({ kind: 'resumed', jobId });
        void start(jobId);
      }
      return detail(jobId);
    },
    async reprint(jobId, labels, reprintOptions = {}) {
      const original = mustJob(jobId);
      const numbers = labels ? [...labels] : Array.from({ length: original.labelCount }, (_, i) => i + 1);
      if (!numbers.length) throw new JobRequestError('no labels to reprint');
      for (const n of numbers) {
        if (!Number.isInteger(n) || n < 1 || n > original.labelCount) {
          throw new JobRequestError(
            `job ${jobId} has labels 1 to ${original.labelCount}; there is no label ${n}`,
          );
        }
      }
      const target = reprintOptions.printer
        ? formatPrinterUri(parsePrinterUri(reprintOptions.printer))
        : original.printer;
      // Another printer: the labels are drawn again for it, so each must come from a job that resolved them.
      let redraw: { dpi: number; render: JobSpec['render'] } | undefined;
      if (target !== original.printer) {
        const firstJobOf = firstJobs();
        for (const n of numbers) {
          const first = firstJobOf(jobId, n).job;
          if (!first.render) {
            throw new JobRequestError(
              `job ${first.id} was stored as printer bytes only; it can be reprinted on ${first.printer} only`,
            );
          }
        }
        const setup = await setupFor(target, reprintOptions.dpi);
        for (const warning of setup.warnings) reprintOptions.warn?.(warning);
        redraw = { dpi: setup.dpi, render: { zpl: setup.zpl, counterFirsts: {} } };
      }
      const created = store.createDeferredJob(numbers.length, () => ({
        printer: target,
        format: original.format,
        templateName: original.templateName,
        template: original.template,
        rows: [],
        copies: 1,
        dpi: redraw?.dpi ?? original.dpi,
        createdBy: serviceUser,
        ...(redraw ? { render: redraw.render } : {}),
        reprintOf: { jobId, labels: numbers },
      }));
      const where = redraw ? `, on ${target}` : '';
      const text = `reprint of job ${jobId}, label${numbers.length === 1 ? '' : 's'} ${formatLabelList(numbers)}${where}`;
      record('reprinted', detail(created.id), numbers.length, text);
      emit({ kind: 'created', jobId: created.id, printer: target, labelCount: numbers.length });
      await renderFirstOrFail(created.id);
      if (reprintOptions.start !== false) void start(target);
      return detail(created.id);
    },
    listJobs: (filter) => store.summaries(filter).map(withCounts),
    getJob(jobId) {
      const [summary] = store.summaries({ id: jobId });
      return summary ? withCounts(summary) : undefined;
    },
    labels(jobId) {
      const job = mustJob(jobId);
      const templates = new Map<number, Template | undefined>();
      const templateOf = (source: Job): Template | undefined => {
        if (!templates.has(source.id)) {
          templates.set(
            source.id,
            source.render ? parseTemplate(source.template, `job ${source.id}`) : undefined,
          );
        }
        return templates.get(source.id);
      };
      const describe = (source: Job, n: number) => {
        const template = templateOf(source);
        const rowIndex = Math.floor((n - 1) / source.copies);
        const row = source.rows.length ? (source.render?.sourceRows?.[rowIndex] ?? rowIndex + 1) : null;
        const values: Record<string, string> = {};
        if (template && source.render) {
          const numbers = counterValuesAt(template, source.render.counterFirsts, n - 1);
          for (const field of counterFields(template)) {
            const v = numbers[field.name];
            if (v !== undefined) values[field.name] = formatCounter(counterSettings(field), v);
          }
        }
        const typed: Record<string, string> = { ...(source.rows[rowIndex] ?? {}), ...values };
        const shown = (template?.fields ?? []).flatMap((f) => {
          const value = typed[f.name];
          return value ? [{ field: f.name, label: f.label, value }] : [];
        });
        return { row, counters: values, values: shown };
      };
      const firstJobOf = firstJobs();
      return store.labels(jobId).map((label) => {
        const original = job.reprintOf ? (job.reprintOf.labels[label.number - 1] ?? null) : null;
        const first = firstJobOf(jobId, label.number);
        return { ...label, ...describe(first.job, first.n), reprintOf: original };
      });
    },
    audit: (filter) => auditLog.list(filter),
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    idle,
    async close() {
      closing = true;
      await idle();
      listeners.clear();
      store.close();
    },
  };
  return service;
}
