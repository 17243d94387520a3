/**
 * Per-printer workers: every unfinished job of a printer runs one at a time, oldest first; printers run side by
 * side. A job left paused (its printer stayed unreachable) or held by the user holds its printer's queue, so jobs
 * never overtake.
 */
import { isUnfinished, type Job } from './model';
import { runJob, type WorkerDeps } from './worker';

/**
 * Runs the unfinished jobs of `printer` in order (all of them, or only `onlyJob`). Returns every job it ran, as
 * it ended; none when another process holds the printer (a `printer-busy` event says so).
 */
export async function runPrinterQueue(printer: string, deps: WorkerDeps, onlyJob?: number): Promise<Job[]> {
  const release = deps.claimPrinter ? deps.claimPrinter(printer) : () => undefined;
  if (!release) {
    deps.onEvent?.({ kind: 'printer-busy', printer });
    return [];
  }
  const ran: Job[] = [];
  try {
    for (;;) {
      const next = deps.store
        .unfinishedJobs()
        .find((j) => j.printer === printer && (onlyJob === undefined || j.id === onlyJob));
      // A job the user holds keeps its place, and its printer's later jobs wait behind it (no overtaking).
      if (!next || next.state === 'held') return ran;
      const ended = await runJob(next.id, deps);
      ran.push(ended);
      if (isUnfinished(ended.state)) return ran;
    }
  } finally {
    release();
  }
}

/** Resumes every unfinished job: one worker per printer. Returns every job run, oldest first. */
export async function resumeAllJobs(deps: WorkerDeps): Promise<Job[]> {
  const printers = [...new Set(deps.store.unfinishedJobs().map((j) => j.printer))];
  const results = await Promise.all(printers.map((p) => runPrinterQueue(p, deps)));
  return results.flat().sort((a, b) => a.id - b.id);
}
