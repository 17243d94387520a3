/**
 * The job store in SQLite (better-sqlite3): `jobs.sqlite` in the app's data directory. Every call is one
 * synchronous statement or transaction in WAL mode with `synchronous = FULL`, so it is on disk when the call
 * returns: a process killed at any moment leaves the last completed transition, never half of one. Rows are
 * validated with the zod schemas of src/jobs/model.ts when read.
 *
 * A label whose payload is the empty string is not rendered yet (jobs rendered in chunks as they print, see
 * `createDeferredJob`); a payload, once stored, is never rewritten, so every resend is byte-identical. The same
 * database holds the counters (sqlite-counters.ts) and the audit log (sqlite-audit-log.ts), which share its
 * connection (`db`) so a counter reservation commits in the transaction that creates its job.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  JOB_STATES,
  jobSchema,
  jobSpecSchema,
  labelSchema,
  LABEL_STATES,
  type Job,
  type JobSpec,
  type JobState,
  type Label,
  type LabelCounts,
} from '../../jobs/model';
import { JobNotFound, type JobStore, type LabelUpdate } from '../../jobs/store';
import { z } from 'zod';
import { securePrivateFile, securePrivateFolder } from '../files/data-dir';

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

/** A job without its template and rows: what lists show. */
export interface JobSummary {
  id: number;
  state: JobState;
  reason: string | null;
  printer: string;
  templateName: string;
  rowCount: number;
  copies: number;
  dpi: number;
  labelCount: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** The job this one reprints, if it is a reprint. */
  reprintOf: number | null;
}

export interface JobFilter {
  id?: number;
  state?: JobState;
  printer?: string;
  templateName?: string;
  /**
   * Case-insensitive text in what people typed or chose: the values of the job's rows, the template name, the
   * printer, the user, the reason. Not the template snapshot or resolved markup (an embedded logo's base64
   * matched almost any three letters).
   */
  text?: string;
  /** Newest first; default 1000. */
  limit?: number;
}

export type SqliteJobStore = JobStore & {
  readonly path: string;
  /** The connection, shared by the counters and the audit log so they join this store's transactions. */
  readonly db: Database.Database;
  /**
   * Creates a job of `labelCount` labels whose payloads are rendered later (`putPayloads`), in one transaction
   * that also runs `makeSpec` (so whatever it writes, a counter reservation, commits with the job or not at all).
   */
  createDeferredJob(labelCount: number, makeSpec: () => JobSpec): Job;
  /** Whether label `labelNumber` has its payload stored. */
  hasPayload(jobId: number, labelNumber: number): boolean;
  /** Stores payloads from label `firstNumber` on, in one transaction; labels already rendered keep theirs. */
  putPayloads(jobId: number, firstNumber: number, payloads: readonly string[]): void;
  /** Job summaries, newest first, filtered. */
  summaries(filter?: JobFilter): JobSummary[];
  /** Numbers of the labels flagged as possibly printed twice. */
  possibleDuplicates(jobId: number): number[];
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

/** `jobs.sqlite` could not be opened: damaged, another kind of file, or not readable. */
export class JobStoreUnreadable extends Error {
  override name = 'JobStoreUnreadable';
}

/** SQLite's answers for a file that is not a usable job database, in words. */
const UNREADABLE: Record<string, string> = {
  SQLITE_NOTADB: 'is not a LabelDesk job database (damaged, or another kind of file)',
  SQLITE_CORRUPT: 'is damaged',
  SQLITE_CANTOPEN: 'cannot be opened',
  SQLITE_READONLY: 'cannot be written (read-only)',
  SQLITE_PERM: 'cannot be written (permission denied)',
  SQLITE_FULL: 'cannot grow: the disk is full',
};

function openDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    db.exec(SCHEMA);
    return db;
  } catch (e) {
    db?.close();
    const problem = e instanceof Database.SqliteError ? UNREADABLE[e.code] : undefined;
    if (!problem) throw e;
    throw new JobStoreUnreadable(
      `${path} ${problem}; move it aside to start without jobs, or restore it from a backup`,
      { cause: e },
    );
  }
}

/**
 * Opens (creating if needed) the job store in `dataDir`. Close it when done. The folder is made 0700 and the
 * database with its -wal and -shm files 0600 (tightened when wider): they hold names and addresses.
 */
export function openSqliteJobStore(dataDir: string, options: SqliteJobStoreOptions = {}): SqliteJobStore {
  securePrivateFolder(dataDir);
  const path = join(dataDir, JOBS_FILE_NAME);
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
  securePrivateFile(path, ['-wal', '-shm', '-journal']);
  const db = openDatabase(path);
  const now = options.now ?? (() => new Date().toISOString());

  // A job's spec never changes after creation, and may hold 10,000 rows: parse it once per job, not on every
  // state read of the worker (callers must not mutate what they get).
  const specs = new Map<number, JobSpec>();
  const specOf = (row: JobRow): JobSpec => {
    let spec = specs.get(row.id);
    if (!spec) {
      spec = jobSpecSchema.parse(JSON.parse(row.spec));
      if (specs.size >= 8) specs.delete(specs.keys().next().value as number);
      specs.set(row.id, spec);
    }
    return spec;
  };
  const jobStateSchema = jobSchema.pick({
    id: true,
    state: true,
    reason: true,
    labelCount: true,
    createdAt: true,
    updatedAt: true,
  });
  const toJob = (row: JobRow): Job => ({
    ...specOf(row),
    ...jobStateSchema.parse({
      id: row.id,
      state: row.state,
      reason: row.reason,
      labelCount: row.label_count,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }),
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
      `SELECT * FROM jobs WHERE state IN ('queued', 'printing', 'paused', 'held') ORDER BY id`,
    ),
    insertBlankLabel: db.prepare(
      `INSERT INTO labels (job_id, number, state, payload, updated_at) VALUES (?, ?, 'pending', '', ?)`,
    ),
    hasPayload: db.prepare<[number, number], { n: number }>(
      `SELECT COUNT(*) AS n FROM labels WHERE job_id = ? AND number = ? AND payload <> ''`,
    ),
    duplicates: db.prepare<[number], { number: number }>(
      'SELECT number FROM labels WHERE job_id = ? AND possible_duplicate = 1 ORDER BY number',
    ),
    putPayload: db.prepare(`UPDATE labels SET payload = ? WHERE job_id = ? AND number = ? AND payload = ''`),
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

  const createDeferred = db.transaction((labelCount: number, makeSpec: () => JobSpec): number => {
    const spec = jobSpecSchema.parse(makeSpec());
    const at = now();
    const id = Number(q.insertJob.run(JSON.stringify(spec), at, at).lastInsertRowid);
    for (let n = 1; n <= labelCount; n++) q.insertBlankLabel.run(id, n, at);
    q.setCount.run(labelCount, id);
    return id;
  });
  const putPayloads = db.transaction((jobId: number, first: number, payloads: readonly string[]) => {
    payloads.forEach((payload, i) => q.putPayload.run(payload, jobId, first + i));
  });

  const summaryColumns = `id, state, reason, label_count, created_at, updated_at,
    json_extract(spec, '$.printer') AS printer, json_extract(spec, '$.templateName') AS template_name,
    json_array_length(spec, '$.rows') AS row_count, json_extract(spec, '$.copies') AS copies,
    json_extract(spec, '$.dpi') AS dpi, json_extract(spec, '$.createdBy') AS created_by,
    json_extract(spec, '$.reprintOf.jobId') AS reprint_of`;
  const summaries = (filter: JobFilter = {}): JobSummary[] => {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.id !== undefined) {
      where.push('id = ?');
      args.push(filter.id);
    }
    if (filter.state !== undefined) {
      where.push('state = ?');
      args.push(filter.state);
    }
    if (filter.printer !== undefined) {
      where.push(`json_extract(spec, '$.printer') = ?`);
      args.push(filter.printer);
    }
    if (filter.templateName !== undefined) {
      where.push(`json_extract(spec, '$.templateName') = ?`);
      args.push(filter.templateName);
    }
    if (filter.text) {
      const has = (sql: string) => {
        args.push(filter.text as string);
        return `instr(lower(${sql}), lower(?)) > 0`;
      };
      where.push(
        `(${[
          has(`coalesce(json_extract(spec, '$.templateName'), '')`),
          has(`coalesce(json_extract(spec, '$.printer'), '')`),
          has(`coalesce(json_extract(spec, '$.createdBy'), '')`),
          has(`coalesce(reason, '')`),
          `EXISTS (SELECT 1 FROM json_each(spec, '$.rows') AS r, json_each(r.value) AS v
             WHERE v.type = 'text' AND ${has('v.value')})`,
        ].join(' OR ')})`,
      );
    }
    const sql = `SELECT ${summaryColumns} FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY id DESC LIMIT ?`;
    const rows = db.prepare(sql).all(...args, filter.limit ?? 1000) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: Number(r.id),
      state: z.enum(JOB_STATES).parse(r.state),
      reason: (r.reason as string | null) ?? null,
      printer: String(r.printer),
      templateName: String(r.template_name),
      rowCount: Number(r.row_count),
      copies: Number(r.copies),
      dpi: Number(r.dpi),
      labelCount: Number(r.label_count),
      createdBy: String(r.created_by),
      createdAt: String(r.created_at),
      updatedAt: String(r.updated_at),
      reprintOf: r.reprint_of === null || r.reprint_of === undefined ? null : Number(r.reprint_of),
    }));
  };

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
    db,
    createDeferredJob: (labelCount, makeSpec) => mustJob(createDeferred.immediate(labelCount, makeSpec)),
    hasPayload: (jobId, labelNumber) => (q.hasPayload.get(jobId, labelNumber)?.n ?? 0) > 0,
    putPayloads: (jobId, first, payloads) => putPayloads.immediate(jobId, first, payloads),
    summaries,
    possibleDuplicates: (jobId) => q.duplicates.all(jobId).map((r) => r.number),
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
      if (row.payload === '')
        throw new JobNotFound(`label ${labelNumber} of job ${jobId} is not rendered yet`);
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
