/**
 * What the job service tells its listeners (the CLI's progress line, the app over IPC): plain JSON objects,
 * a closed union on `kind`. Progress carries the count and an ETA from the pace of the last labels.
 */
import type { JobState } from './model';
import type { PrinterState } from '../printers/status';

export type JobServiceEvent =
  | { kind: 'created'; jobId: number; printer: string; labelCount: number }
  | { kind: 'started'; jobId: number; printer: string; pending: number }
  | {
      kind: 'progress';
      jobId: number;
      printer: string;
      labelNumber: number;
      /** Labels confirmed so far (this run and earlier ones). */
      done: number;
      total: number;
      /** Milliseconds until the last label, at the recent pace; null until there is a pace. */
      etaMs: number | null;
    }
  /** `printerState`: the printer's own state (~HS) when the printer caused the pause. */
  | { kind: 'paused'; jobId: number; reason: string; byUser: boolean; printerState?: PrinterState }
  | { kind: 'resumed'; jobId: number }
  | { kind: 'connection-lost'; jobId: number; reason: string; attempt: number; retryInMs: number }
  | { kind: 'possible-duplicate'; jobId: number; labelNumber: number }
  | {
      kind: 'done';
      jobId: number;
      state: JobState;
      reason: string | null;
      confirmed: number;
      total: number;
      possibleDuplicates: number[];
    }
  | { kind: 'printer-busy'; printer: string }
  /** A printer's worker stopped on an unexpected error (a bug or a broken store): its jobs stay unfinished. */
  | { kind: 'error'; printer: string; message: string };

/** Labels the pace is measured over. */
const WINDOW = 20;

/**
 * Progress of one job run: count and ETA. `now` is milliseconds from the injected clock. The ETA is the
 * remaining labels times the mean interval of the last WINDOW confirmations (none before two).
 */
export class ProgressTracker {
  private readonly times: number[] = [];

  constructor(
    private done: number,
    readonly total: number,
    readonly printer: string,
  ) {}

  /** One more label confirmed at `now`. Returns the count and ETA. */
  confirmed(now: number): { done: number; total: number; etaMs: number | null } {
    this.done++;
    this.times.push(now);
    if (this.times.length > WINDOW) this.times.shift();
    const first = this.times[0];
    const last = this.times[this.times.length - 1];
    const etaMs =
      first !== undefined && last !== undefined && this.times.length >= 2
        ? Math.round(((last - first) / (this.times.length - 1)) * Math.max(0, this.total - this.done))
        : null;
    return { done: this.done, total: this.total, etaMs };
  }
}

/** `1 h 02 min`, `3 min 05 s`, `12 s`: an ETA for people. */
export function formatEta(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600)
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${s} s`;
}
