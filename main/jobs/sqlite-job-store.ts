/**
 * The job store in SQLite (better-sqlite3): `jobs.sqlite` in the app's data directory. Every call is one
 * synchronous statement or transaction in WAL mode with `synchronous = FULL`, so it is on disk when the call
 * returns: a process killed at any moment leaves the last completed transition, never half of one. Rows are
 * validated with the zod schemas of src/jobs/model.ts when read.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  jobSchema,
  jobSpecSchema,
  labelSchema,
  LABEL_STATES,
  type Job,
  type JobSpec,
  type JobState,
  type Label,
  type LabelCounts,
} from '../../src/jobs/model';
import { JobNotFound, type JobStore, type LabelUpdate } from '../../src/jobs/store';

export const JOBS_FILE_NAME = 'jobs.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  spec TEXT NOT NULL,
  state TEXT NOT NULL,
  reason TEXT,
  label_count INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS labels (
  job_id INTEGER NOT NULL REFERENCES jobs(id),
  number INTEGER NOT NULL,
  state TEXT NOT NULL,
  possible_duplicate INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  payload TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (job_id, number)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS printer_claims (
  printer TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  claimed_at TEXT NOT NULL
);
`;

interface JobRow {
  id: number;
  spec: string;
  state: string;
  reason: string | null;
  label_count: number;
  created_at: string;
  updated_at: string;
}

interface LabelRow {
  job_id: number;
  number: number;
  state: string;
  possible_duplicate: number;
  attempts: number;
  updated_at: string;
}

export interface SqliteJobStoreOptions {
  /** ISO timestamps for created/updated (tests pin it). */
  now?: () => string;
  /** This process's id, and whether a process is alive (tests fake both). */
  pid?: number;
  isAlive?: (pid: number) => boolean;
}

export type SqliteJobStore = JobStore & {
  readonly path: string;
  /**
   * Claims `printer` for this process so two LabelDesk processes (a `jobs resume` next to a running
   * `jobs add`) never feed one printer at once. A claim whose process has died (killed, crashed) is taken
   * over. Returns the release function, or undefined while another live process holds it.
   */
  claimPrinter(printer: string): (() => void) | undefined;
};

/** Signal 0 checks existence; EPERM means it exists but belongs to someone else. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens (creating if needed) the job store in `dataDir`. Close it when done. */
export function openSqliteJobStore(dataDir: string, options: SqliteJobStoreOptions = {}): SqliteJobStore {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, JOBS_FILE_NAME);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  const now = options.now ?? (() => new Date().toISOString());

  const toJob = (row: JobRow): Job =>
    jobSchema.parse({
      ...jobSpecSchema.parse(JSON.parse(row.spec)),
      id: row.id,
      state: row.state,
      reason: row.reason,
      labelCount: row.label_count,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
  const toLabel = (row: LabelRow): Label =>
    labelSchema.parse({
      jobId: row.job_id,
      number: row.number,
      state: row.state,
      possibleDuplicate: row.possible_duplicate !== 0,
      attempts: row.attempts,
      updatedAt: row.updated_at,
    });

  const labelColumns = 'job_id, number, state, possible_duplicate, attempts, updated_at';
  const q = {
    insertJob: db.prepare(
      `INSERT INTO jobs (spec, state, reason, label_count, created_at, updated_at) VALUES (?, 'queued', NULL, 0, ?, ?)`,
    ),
    setCount: db.prepare('UPDATE jobs SET label_count = ? WHERE id = ?'),
    insertLabel: db.prepare(
      `INSERT INTO labels (job_id, number, state, payload, updated_at) VALUES (?, ?, 'pending', ?, ?)`,
    ),
    job: db.prepare<[number], JobRow>('SELECT * FROM jobs WHERE id = ?'),
    jobs: db.prepare<[], JobRow>('SELECT * FROM jobs ORDER BY id DESC'),
    unfinished: db.prepare<[], JobRow>(
      `SELECT * FROM jobs WHERE state IN ('queued', 'printing', 'paused') ORDER BY id`,
    ),
    setJob: db.prepare('UPDATE jobs SET state = ?, reason = ?, updated_at = ? WHERE id = ?'),
    labels: db.prepare<[number], LabelRow>(
      `SELECT ${labelColumns} FROM labels WHERE job_id = ? ORDER BY number`,
    ),
    label: db.prepare<[number, number], LabelRow>(
      `SELECT ${labelColumns} FROM labels WHERE job_id = ? AND number = ?`,
    ),
    payload: db.prepare<[number, number], { payload: string }>(
      'SELECT payload FROM labels WHERE job_id = ? AND number = ?',
    ),
    setLabel: db.prepare(
      `UPDATE labels SET state = ?, possible_duplicate = MAX(possible_duplicate, ?), attempts = attempts + ?,
       updated_at = ? WHERE job_id = ? AND number = ?`,
    ),
    claim: db.prepare<[string], { pid: number }>('SELECT pid FROM printer_claims WHERE printer = ?'),
    putClaim: db.prepare('INSERT OR REPLACE INTO printer_claims (printer, pid, claimed_at) VALUES (?, ?, ?)'),
    dropClaim: db.prepare('DELETE FROM printer_claims WHERE printer = ? AND pid = ?'),
    counts: db.prepare<[number], { state: string; n: number }>(
      'SELECT state, COUNT(*) AS n FROM labels WHERE job_id = ? GROUP BY state',
    ),
  };

  const getJob = (id: number): Job | undefined => {
    const row = q.job.get(id);
    return row ? toJob(row) : undefined;
  };
  const mustJob = (id: number): Job => {
    const job = getJob(id);
    if (!job) throw new JobNotFound(`no job ${id}`);
    return job;
  };

  const create = db.transaction((spec: JobSpec, render: (jobId: number) => readonly string[]): number => {
    const at = now();
    const id = Number(q.insertJob.run(JSON.stringify(jobSpecSchema.parse(spec)), at, at).lastInsertRowid);
    const payloads = render(id);
    payloads.forEach((payload, i) => q.insertLabel.run(id, i + 1, payload, at));
    q.setCount.run(payloads.length, id);
    return id;
  });

  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processAlive;
  const claim = db.transaction((printer: string): boolean => {
    const holder = q.claim.get(printer);
    if (holder && holder.pid !== pid && isAlive(holder.pid)) return false;
    q.putClaim.run(printer, pid, now());
    return true;
  });

  return {
    path,
    claimPrinter: (printer) =>
      claim.immediate(printer) ? () => void q.dropClaim.run(printer, pid) : undefined,
    createJob: (spec, render) => mustJob(create(spec, render)),
    getJob,
    listJobs: () => q.jobs.all().map(toJob),
    unfinishedJobs: () => q.unfinished.all().map(toJob),
    setJobState(id: number, state: JobState, reason: string | null = null): Job {
      if (q.setJob.run(state, reason, now(), id).changes === 0) throw new JobNotFound(`no job ${id}`);
      return mustJob(id);
    },
    labels: (jobId) => q.labels.all(jobId).map(toLabel),
    label(jobId, labelNumber) {
      const row = q.label.get(jobId, labelNumber);
      return row ? toLabel(row) : undefined;
    },
    payload(jobId, labelNumber) {
      const row = q.payload.get(jobId, labelNumber);
      if (!row) throw new JobNotFound(`no label ${labelNumber} in job ${jobId}`);
      return row.payload;
    },
    setLabelState(jobId: number, labelNumber: number, update: LabelUpdate): Label {
      const changed = q.setLabel.run(
        update.state,
        update.possibleDuplicate ? 1 : 0,
        update.attempt ? 1 : 0,
        now(),
        jobId,
        labelNumber,
      ).changes;
      if (changed === 0) throw new JobNotFound(`no label ${labelNumber} in job ${jobId}`);
      const row = q.label.get(jobId, labelNumber);
      if (!row) throw new JobNotFound(`no label ${labelNumber} in job ${jobId}`);
      return toLabel(row);
    },
    counts(jobId: number): LabelCounts {
      const counts = Object.fromEntries(LABEL_STATES.map((s) => [s, 0])) as LabelCounts;
      for (const { state, n } of q.counts.all(jobId)) {
        if ((LABEL_STATES as readonly string[]).includes(state)) counts[state as keyof LabelCounts] = n;
      }
      return counts;
    },
    close: () => db.close(),
  };
}
