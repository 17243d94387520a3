/**
 * What the job service (job-service.ts) tells: events to its listeners (plain JSON objects, src/jobs/events.ts),
 * the progress of each printing job (labels confirmed, rate, time left), and the audit log entries of what
 * people and workers did (with the user and machine).
 */
import type { Clock } from '../../base/clock';
import { ProgressTracker, type JobServiceEvent } from '../../jobs/events';
import type { JobEvent } from '../../jobs/worker';
import type { JobViews } from './job-views';
import type { NewAuditEntry, SqliteAuditLog } from './sqlite-audit-log';
import type { JobSummary } from './sqlite-job-store';

export interface JobEventsDeps {
  views: Pick<JobViews, 'detail'>;
  auditLog: SqliteAuditLog;
  clock: Clock;
  /** Who acts, for the audit log. */
  user: string;
  machine: string;
}

export interface JobEvents {
  emit(event: JobServiceEvent): void;
  onEvent(listener: (event: JobServiceEvent) => void): () => void;
  /** Forgets every listener (the service closes). */
  clearListeners(): void;
  /** Appends to the audit log. */
  record(action: NewAuditEntry['action'], job: JobSummary, labels: number, text: string | null): void;
  /** Tells that a job has ended (done, failed, cancelled) with its counts. */
  finished(jobId: number): void;
  /** A worker's event, told as the service's (with progress) and recorded when the job ends. */
  onWorkerEvent(e: JobEvent): void;
}

export function createJobEvents({ views, auditLog, clock, user, machine }: JobEventsDeps): JobEvents {
  const { detail } = views;
  const listeners = new Set<(event: JobServiceEvent) => void>();
  const emit = (event: JobServiceEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };
  const record = (action: NewAuditEntry['action'], job: JobSummary, labels: number, text: string | null) =>
    auditLog.append({
      user,
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

  return {
    emit,
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clearListeners: () => listeners.clear(),
    record,
    finished,
    onWorkerEvent,
  };
}
