/**
 * The audit log: who did what to which job, on which machine, when, in the job store's database. Append-only:
 * this module has no UPDATE or DELETE statement, and triggers make the database refuse both, whoever asks.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';

export const AUDIT_ACTIONS = [
  'created',
  'printed',
  'paused',
  'resumed',
  'cancelled',
  'failed',
  'reprinted',
  'skipped',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntrySchema = z.object({
  id: z.number().int().positive(),
  /** ISO time. */
  at: z.string(),
  user: z.string(),
  /** os.hostname() of the machine that did it. */
  machine: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  jobId: z.number().int().positive(),
  template: z.string(),
  printer: z.string(),
  /** Labels concerned: created/reprinted = labels in the job; printed/cancelled = confirmed so far. */
  labels: z.number().int().min(0),
  /** Free text for people: the original job of a reprint, a cancel's confirmed count, skipped rows. */
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

export interface AuditFilter {
  jobId?: number;
  action?: AuditAction;
  printer?: string;
  template?: string;
  /** Newest first; default 1000. */
  limit?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  user TEXT NOT NULL,
  machine TEXT NOT NULL,
  action TEXT NOT NULL,
  job_id INTEGER NOT NULL,
  template TEXT NOT NULL,
  printer TEXT NOT NULL,
  labels INTEGER NOT NULL,
  detail TEXT
);
CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
`;

export interface SqliteAuditLog {
  append(entry: NewAuditEntry): AuditEntry;
  /** Newest first. */
  list(filter?: AuditFilter): AuditEntry[];
}

interface Row {
  id: number;
  at: string;
  user: string;
  machine: string;
  action: string;
  job_id: number;
  template: string;
  printer: string;
  labels: number;
  detail: string | null;
}

const toEntry = (r: Row): AuditEntry => auditEntrySchema.parse({ ...r, jobId: r.job_id, job_id: undefined });

export function sqliteAuditLog(
  db: Database.Database,
  now: () => string = () => new Date().toISOString(),
): SqliteAuditLog {
  db.exec(SCHEMA);
  const insert = db.prepare(
    `INSERT INTO audit_log (at, user, machine, action, job_id, template, printer, labels, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM audit_log WHERE id = ?');
  return {
    append(e) {
      const id = Number(
        insert.run(now(), e.user, e.machine, e.action, e.jobId, e.template, e.printer, e.labels, e.detail)
          .lastInsertRowid,
      );
      const row = byId.get(id);
      if (!row) throw new Error(`audit entry ${id} vanished`);
      return toEntry(row);
    },
    list(filter = {}) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      const add = (sql: string, value: string | number | undefined): void => {
        if (value === undefined) return;
        where.push(sql);
        args.push(value);
      };
      add('job_id = ?', filter.jobId);
      add('action = ?', filter.action);
      add('printer = ?', filter.printer);
      add('template = ?', filter.template);
      const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY id DESC LIMIT ?`;
      return (db.prepare(sql).all(...args, filter.limit ?? 1000) as Row[]).map(toEntry);
    },
  };
}
