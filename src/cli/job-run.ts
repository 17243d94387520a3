/**
 * Running jobs from the command line, for `labeldesk jobs` and `labeldesk batch`: the job service opened for one
 * command, the progress line, Ctrl+C that pauses instead of killing, and the summary at the end.
 */
import { FileWriteError } from '../node/files/atomic-file';
import { BatchError } from '../jobs/batch';
import { formatEta, type JobServiceEvent } from '../jobs/events';
import { JobNotFound } from '../jobs/store';
import { PrinterUriError } from '../printers/uri';
import {
  JobRequestError,
  openJobService,
  type JobDetail,
  type JobService,
  type JobServiceOptions,
} from '../node/jobs/job-service';
import { JobStoreUnreadable } from '../node/jobs/sqlite-job-store';
import { CliError, UsageError, type CliIo } from './io';
import { privateDataDir } from './keys-commands';

/** The options every job command takes (`jobOptions` in jobs-command.ts). */
export type JobArgs = {
  'data-dir'?: string | undefined;
  retries?: string | undefined;
  by?: string | undefined;
};

/** The job service's user errors as one-line exit-1 messages. */
export function asCliError(e: unknown): unknown {
  if (
    e instanceof JobRequestError ||
    e instanceof JobNotFound ||
    e instanceof BatchError ||
    e instanceof PrinterUriError ||
    e instanceof JobStoreUnreadable ||
    e instanceof FileWriteError
  ) {
    return new CliError(e.message);
  }
  return e;
}

function retriesOf(raw: string | undefined): number {
  if (raw === undefined) return Number.POSITIVE_INFINITY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--retries: expected a whole number, got "${raw}"`);
  return n;
}

/** Opens the job service for a command, runs `f`, and closes it. */
export async function withJobService<T>(
  values: JobArgs,
  io: CliIo,
  f: (service: JobService) => Promise<T> | T,
  extra: Partial<JobServiceOptions> = {},
): Promise<T> {
  const by = values.by ?? io.env.LABELDESK_USER;
  const dataDir = privateDataDir(values, io);
  let service: JobService;
  try {
    service = openJobService({
      dataDir,
      timing: { maxConnectFailures: retriesOf(values.retries) },
      ...(by ? { user: by } : {}),
      ...extra,
    });
  } catch (e) {
    throw asCliError(e);
  }
  try {
    return await f(service);
  } finally {
    await service.close();
  }
}

/** The summary line of a job, with possible duplicates by number. */
export function summary(job: JobDetail): string {
  const reason = job.reason ? ` (${job.reason})` : '';
  const dups = job.possibleDuplicates;
  const dupText = dups.length ? `; possible duplicates: label ${dups.join(', ')}` : '';
  return `job ${job.id} ${job.state}${reason}: ${job.counts.confirmed}/${job.labelCount} confirmed${dupText}`;
}

/**
 * Progress for people on stderr: on a terminal one line rewritten in place (count and ETA); otherwise plain
 * lines, about every 5 % so a log of a 10,000-label batch stays short. Returns the unsubscribe.
 */
export function reportProgress(service: JobService, io: CliIo): () => void {
  // A real terminal: the process's own io (tests pass their own env object) on a TTY.
  const tty = io.env === process.env && process.stderr.isTTY === true && io.env.TERM !== 'dumb';
  let lineOpen = false;
  const line = (text: string): void => {
    if (lineOpen) io.stderr('\n');
    lineOpen = false;
    io.stderr(`${text}\n`);
  };
  const off = service.onEvent((e: JobServiceEvent) => {
    switch (e.kind) {
      case 'created':
        return;
      case 'started':
        return line(`job ${e.jobId}: printing, ${e.pending} label${e.pending === 1 ? '' : 's'} to send`);
      case 'progress': {
        const eta = e.etaMs === null ? '' : `, about ${formatEta(e.etaMs)} left`;
        const text = `job ${e.jobId}: ${e.done}/${e.total} labels${eta}`;
        if (tty) {
          io.stderr(`\r${text}\x1b[K`);
          lineOpen = true;
        } else if (e.done === e.total || e.done % Math.max(1, Math.ceil(e.total / 20)) === 0) {
          line(text);
        }
        return;
      }
      case 'paused':
        return line(`job ${e.jobId}: paused: ${e.reason}`);
      case 'resumed':
        return line(`job ${e.jobId}: resumed`);
      case 'connection-lost':
        return line(`job ${e.jobId}: connection lost (${e.reason}); retry ${e.attempt} in ${e.retryInMs} ms`);
      case 'possible-duplicate':
        return line(`job ${e.jobId}: label ${e.labelNumber} is resent after a fault and may print twice`);
      case 'printer-busy':
        return line(`${e.printer}: another LabelDesk process is printing to it; its jobs continue there`);
      case 'error':
        return line(`${e.printer}: the print worker stopped: ${e.message}`);
      case 'done':
        if (lineOpen) io.stderr('\n');
        lineOpen = false;
        return;
      default:
        return ((x: never) => x)(e);
    }
  });
  return () => {
    off();
    if (lineOpen) io.stderr('\n');
  };
}

/**
 * Ctrl+C while a job prints holds it after the label in flight (the process then ends with the job paused;
 * `jobs resume ID` continues it). A second Ctrl+C ends the process at once (still crash-safe).
 */
export function pauseOnInterrupt(service: JobService, io: CliIo, jobIds: () => number[]): () => void {
  if (io.env !== process.env) return () => undefined;
  const onSigint = (): void => {
    process.off('SIGINT', onSigint);
    process.once('SIGINT', () => process.exit(130));
    for (const id of jobIds()) {
      try {
        service.pause(id);
        io.stderr(`job ${id}: pausing after the label in flight; labeldesk jobs resume ${id} continues it\n`);
      } catch (e) {
        if (!(e instanceof JobRequestError)) throw e;
      }
    }
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}

/**
 * Starts printing (`begin`), waits for the printers' workers with progress and Ctrl+C, then prints each job's
 * summary line. Exit code 0 when every job is done (or cancelled), else 1.
 */
export async function printAndReport(
  service: JobService,
  io: CliIo,
  jobIds: number[],
  begin: () => Promise<void>,
): Promise<number> {
  const stopProgress = reportProgress(service, io);
  const stopInterrupt = pauseOnInterrupt(service, io, () => jobIds);
  try {
    await begin();
    await service.idle();
  } finally {
    stopInterrupt();
    stopProgress();
  }
  let ok = true;
  for (const id of jobIds) {
    const job = service.getJob(id);
    if (!job) continue;
    io.stdout(`${summary(job)}\n`);
    if (job.state === 'held') io.stderr(`job ${id} is paused; labeldesk jobs resume ${id} continues it\n`);
    ok &&= job.state === 'done' || job.state === 'cancelled';
  }
  return ok ? 0 : 1;
}
