/** The SQLite job store: what one process wrote, the next one reads (the crash-safety contract). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobSpec } from '../../../src/jobs/model';
import { JobNotFound } from '../../../src/jobs/store';
import { openSqliteJobStore } from '../../../src/node/jobs/sqlite-job-store';

const spec: JobSpec = {
  printer: 'tcp://10.0.0.5:9100',
  format: 'zpl',
  templateName: 'shipping-4x6',
  template: { name: 'shipping-4x6' },
  rows: [{ tracking: '1Z999' }],
  copies: 3,
  dpi: 203,
  createdBy: 'ada',
};

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'labeldesk-store-'));
  dirs.push(d);
  return d;
};

describe('openSqliteJobStore', () => {
  it('stores a job with its labels, and every transition survives reopening', () => {
    const dir = tempDir();
    let store = openSqliteJobStore(dir, { now: () => '2025-01-02T03:04:05.000Z' });
    const job = store.createJob(spec, (id) => [`^XA${id}a^XZ`, `^XA${id}b^XZ`, `^XA${id}c^XZ`]);
    expect(job).toMatchObject({
      ...spec,
      id: 1,
      state: 'queued',
      labelCount: 3,
      createdAt: '2025-01-02T03:04:05.000Z',
    });
    store.setJobState(job.id, 'paused', 'out of paper (media)');
    store.setLabelState(job.id, 1, { state: 'sending', attempt: true });
    store.setLabelState(job.id, 1, { state: 'pending', possibleDuplicate: true });
    store.setLabelState(job.id, 1, { state: 'confirmed' });
    store.setLabelState(job.id, 2, { state: 'sent', attempt: true });
    store.close();

    store = openSqliteJobStore(dir);
    expect(store.getJob(job.id)).toMatchObject({ state: 'paused', reason: 'out of paper (media)' });
    expect(store.labels(job.id).map((l) => [l.number, l.state, l.possibleDuplicate, l.attempts])).toEqual([
      [1, 'confirmed', true, 1],
      [2, 'sent', false, 1],
      [3, 'pending', false, 0],
    ]);
    expect(store.payload(job.id, 3)).toBe('^XA1c^XZ');
    expect(store.counts(job.id)).toEqual({ pending: 1, sending: 0, sent: 1, confirmed: 1, failed: 0 });
    store.close();
  });

  it('lists jobs newest first and unfinished ones oldest first', () => {
    const store = openSqliteJobStore(tempDir());
    const a = store.createJob(spec, () => ['^XA^XZ']);
    const b = store.createJob(spec, () => ['^XA^XZ']);
    const c = store.createJob(spec, () => ['^XA^XZ']);
    store.setJobState(b.id, 'done');
    expect(store.listJobs().map((j) => j.id)).toEqual([c.id, b.id, a.id]);
    expect(store.unfinishedJobs().map((j) => j.id)).toEqual([a.id, c.id]);
    store.close();
  });

  it('creates a job and its labels atomically: a failing render leaves nothing behind', () => {
    const store = openSqliteJobStore(tempDir());
    expect(() =>
      store.createJob(spec, () => {
        throw new RangeError('render failed');
      }),
    ).toThrow('render failed');
    expect(store.listJobs()).toEqual([]);
    store.close();
  });

  it('names the missing job or label', () => {
    const store = openSqliteJobStore(tempDir());
    expect(() => store.setJobState(9, 'done')).toThrow(JobNotFound);
    expect(() => store.setLabelState(9, 1, { state: 'sent' })).toThrow('no label 1 in job 9');
    store.close();
  });

  it('rejects a row that does not match the schema instead of printing from it', () => {
    const dir = tempDir();
    const store = openSqliteJobStore(dir);
    const job = store.createJob(spec, () => ['^XA^XZ']);
    store.close();
    const db = new Database(join(dir, 'jobs.sqlite'));
    db.prepare(`UPDATE labels SET state = 'printed' WHERE job_id = ?`).run(job.id);
    db.close();
    const reopened = openSqliteJobStore(dir);
    expect(() => reopened.labels(job.id)).toThrow(/state/);
    reopened.close();
  });

  it('keeps the database in WAL mode (durable commits, readers do not block the worker)', () => {
    const dir = tempDir();
    openSqliteJobStore(dir).close();
    const db = new Database(join(dir, 'jobs.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('lets one live process at a time claim a printer, and takes over the claim of a dead one', () => {
    const dir = tempDir();
    const alive = new Set([100, 200]);
    const isAlive = (pid: number): boolean => alive.has(pid);
    const first = openSqliteJobStore(dir, { pid: 100, isAlive });
    const second = openSqliteJobStore(dir, { pid: 200, isAlive });
    const release = first.claimPrinter(spec.printer);
    expect(release).toBeTypeOf('function');
    expect(second.claimPrinter(spec.printer)).toBeUndefined();
    expect(second.claimPrinter('tcp://10.0.0.6:9100')).toBeTypeOf('function');
    release?.();
    expect(second.claimPrinter(spec.printer)).toBeTypeOf('function');
    // Process 200 is killed without releasing: the next one takes over.
    alive.delete(200);
    expect(first.claimPrinter(spec.printer)).toBeTypeOf('function');
    first.close();
    second.close();
  });

  it('a deferred job gets its payloads later, in chunks; a stored payload is never rewritten (resends are identical)', () => {
    const dir = tempDir();
    const store = openSqliteJobStore(dir);
    const job = store.createDeferredJob(4, () => spec);
    expect(job).toMatchObject({ labelCount: 4, state: 'queued' });
    expect(store.hasPayload(job.id, 1)).toBe(false);
    expect(() => store.payload(job.id, 1)).toThrow(JobNotFound);
    store.putPayloads(job.id, 1, ['^XA1^XZ', '^XA2^XZ']);
    store.putPayloads(job.id, 2, ['^XA2-again^XZ', '^XA3^XZ']);
    expect([1, 2, 3].map((n) => store.payload(job.id, n))).toEqual(['^XA1^XZ', '^XA2^XZ', '^XA3^XZ']);
    expect(store.hasPayload(job.id, 4)).toBe(false);
    store.close();
  });

  it('a deferred job commits with what its spec callback wrote, or not at all', () => {
    const dir = tempDir();
    const store = openSqliteJobStore(dir);
    store.db.exec('CREATE TABLE side (n INTEGER)');
    expect(() =>
      store.createDeferredJob(2, () => {
        store.db.prepare('INSERT INTO side VALUES (1)').run();
        throw new Error('reservation failed');
      }),
    ).toThrow('reservation failed');
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM side').get()).toEqual({ n: 0 });
    expect(store.listJobs()).toEqual([]);
    store.close();
  });

  it('summaries filter by state, printer, template and text without loading rows', () => {
    const dir = tempDir();
    const store = openSqliteJobStore(dir);
    store.createJob(spec, () => ['^XA^XZ']);
    const other = store.createJob(
      { ...spec, printer: 'tcp://10.0.0.6:9100', templateName: 'x', rows: [{ to: 'ACME Ltd' }] },
      () => ['^XA^XZ'],
    );
    store.setJobState(other.id, 'done');
    expect(store.summaries().map((j) => j.id)).toEqual([2, 1]);
    expect(store.summaries({ state: 'done' }).map((j) => j.id)).toEqual([2]);
    expect(store.summaries({ printer: spec.printer }).map((j) => j.id)).toEqual([1]);
    expect(store.summaries({ templateName: 'x' }).map((j) => j.id)).toEqual([2]);
    expect(store.summaries({ text: 'acme' }).map((j) => j.id)).toEqual([2]);
    store.close();
  });

  it('text search finds what people typed (values, template, printer, user), not the embedded logo', () => {
    // Issue #17: "zzz" matched 11 jobs through the base64 of a logo in the template snapshot.
    const store = openSqliteJobStore(tempDir());
    const logo = `data:image/png;base64,${'zzzAdaQx'.repeat(400)}`;
    const withLogo = { ...spec, createdBy: 'clerk', template: { elements: [{ type: 'image', url: logo }] } };
    const ada = store.createJob({ ...withLogo, rows: [{ ship_to_name: 'Ada Lovelace' }] }, () => ['^XA^XZ']);
    store.createJob({ ...withLogo, rows: [{ ship_to_name: 'Grace Hopper' }] }, () => ['^XA^XZ']);
    expect(store.summaries({ text: 'zzz' })).toEqual([]);
    expect(store.summaries({ text: 'ada' }).map((j) => j.id)).toEqual([ada.id]);
    expect(store.summaries({ text: 'shipping' })).toHaveLength(2);
    expect(store.summaries({ text: "o'brien" })).toEqual([]);
    store.close();
  });

  it('summaries carry the job, not its rows', () => {
    const store = openSqliteJobStore(tempDir());
    store.createJob(spec, () => ['^XA^XZ']);
    expect(store.summaries({ id: 1 })[0]).toMatchObject({
      id: 1,
      printer: spec.printer,
      templateName: 'shipping-4x6',
      rowCount: 1,
      copies: 3,
      labelCount: 1,
      createdBy: 'ada',
      reprintOf: null,
    });
    store.close();
  });
});
