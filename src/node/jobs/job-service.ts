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
import { isUnfinished, formatLabelList } from '../../jobs/model';
import { SKIP_OR_CANCEL } from '../../jobs/worker';
import { openedTransport, type PrinterTransport } from '../../printers/transport';
import { createTransport } from '../printers/open-transport';
import { createProfileStore } from '../printers/profile-store';
import { createJobCreation } from './job-creation';
import { createJobEvents } from './job-events';
import { createJobPreflight } from './job-preflight';
import { createJobScheduler } from './job-scheduler';
import { jobViews } from './job-views';
import { createLabelRenderer } from './label-renderer';
import { sqliteAuditLog } from './sqlite-audit-log';
import { sqliteCounters } from './sqlite-counters';
import { openSqliteJobStore } from './sqlite-job-store';

export * from './job-service-types';
import { JobRequestError, type JobService, type JobServiceOptions } from './job-service-types';

const PAUSED_BY_USER = 'paused by the user';
const CANCELLED_BY_USER = 'cancelled by the user';

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

async function defaultOpenTransport(printer: string): Promise<PrinterTransport> {
  // A job's file printer gathers its labels: each connection (a retry, a resume) adds to the file.
  return openedTransport(createTransport(printer, { file: { append: true } }), { timeoutMs: 10_000 });
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

  const views = jobViews(store);
  const { detail, withCounts } = views;
  const events = createJobEvents({ views, auditLog, clock, user: serviceUser, machine });
  const { emit, record, finished } = events;
  const scheduler = createJobScheduler({
    store,
    renderer,
    connect,
    clock,
    timing: options.timing,
    views,
    onWorkerEvent: events.onWorkerEvent,
    emit,
  });
  const { start, idle } = scheduler;
  const preflight = createJobPreflight({ store, renderer, profiles, connect, views, events });
  const { addJob, addZplJob, reprint } = createJobCreation({
    store,
    counters,
    views,
    events,
    preflight,
    scheduler,
    user: serviceUser,
  });

  const service: JobService = {
    planBatch: (csvText, template, batchOptions) => planBatch(csvText, template, batchOptions),
    addJob,
    addZplJob,
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
    reprint,
    listJobs: (filter) => store.summaries(filter).map(withCounts),
    getJob(jobId) {
      const [summary] = store.summaries({ id: jobId });
      return summary ? withCounts(summary) : undefined;
    },
    labels: views.labels,
    summary: views.summary,
    audit: (filter) => auditLog.list(filter),
    onEvent: events.onEvent,
    idle,
    async close() {
      await scheduler.stop();
      events.clearListeners();
      store.close();
    },
  };
  return service;
}
