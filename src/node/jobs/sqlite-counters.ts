/**
 * Counter fields' next numbers, per (template name, printer URI, field name), in the job store's database.
 *
 * Numbers are reserved, a whole job's worth at once, inside the transaction that creates the job (the caller
 * runs `reserve` from `createDeferredJob`'s spec callback), so two jobs on two printers, two processes, or a
 * crash right after creation never hand out the same number twice. Decisions (pinned by tests):
 * - one number per physical label: copies of a row get consecutive numbers (warehouses expect a serial per
 *   label);
 * - numbers reserved by a job that is cancelled or fails are burned, never reused: the labels may already be
 *   on parcels, and a gap is harmless where a repeat is not;
 * - a reprint sends the original labels' bytes, so it repeats their numbers on purpose (it replaces a damaged
 *   label) and reserves none.
 */
import type Database from 'better-sqlite3';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS counters (
  template TEXT NOT NULL,
  printer TEXT NOT NULL,
  field TEXT NOT NULL,
  next INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (template, printer, field)
) WITHOUT ROWID;
`;

export interface CounterKey {
  template: string;
  printer: string;
  field: string;
}

export interface SqliteCounters {
  /**
   * Reserves `count` numbers `step` apart: returns the first; the next reservation starts `count × step` later.
   * A counter never used starts at `start`. Call it inside the job's creating transaction.
   */
  reserve(key: CounterKey, count: number, start: number, step: number): number;
  /** The number the next reservation would start at, or undefined for a counter never used. */
  peek(key: CounterKey): number | undefined;
}

export function sqliteCounters(
  db: Database.Database,
  now: () => string = () => new Date().toISOString(),
): SqliteCounters {
  db.exec(SCHEMA);
  const get = db.prepare<[string, string, string], { next: number }>(
    'SELECT next FROM counters WHERE template = ? AND printer = ? AND field = ?',
  );
  const put = db.prepare(
    `INSERT INTO counters (template, printer, field, next, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (template, printer, field) DO UPDATE SET next = excluded.next, updated_at = excluded.updated_at`,
  );
  const reserve = db.transaction((key: CounterKey, count: number, start: number, step: number): number => {
    const first = get.get(key.template, key.printer, key.field)?.next ?? start;
    const next = first + count * step;
    if (!Number.isSafeInteger(next))
      throw new RangeError(`counter ${key.field} would pass ${Number.MAX_SAFE_INTEGER}`);
    put.run(key.template, key.printer, key.field, next, now());
    return first;
  });
  const counters: SqliteCounters = {
    reserve: (key, count, start, step) => reserve(key, count, start, step),
    peek: (key) => get.get(key.template, key.printer, key.field)?.next,
  };
  return counters;
}
