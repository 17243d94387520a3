/**
 * The site server's shared print queue (src/node/site/print-queue.ts) with real parts: a private PostgreSQL,
 * the Zebra emulator over TCP, `labeldesk serve`'s HTTP server in process (several instances on one database).
 * Each label carries its own number — a counter field written as the RFID tag's EPC (`^RFW,H^FD<24 digits>`) —
 * so what the printer received can be checked label by label. The kill -9 of a real process is in
 * print-queue-takeover.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteKeys } from '../../../src/node/site/site-stores';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import { filePrinterGateway } from '../../../src/node/serve/file-printer-gateway';
import { createTransport } from '../../../src/node/printers/open-transport';
import type { PrintQueueSettings } from '../../../src/node/site/print-queue';
import type { PrinterTransport } from '../../../src/printers/transport';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { startPostgres, type TestPostgres } from '../../support/postgres';
import { SERIAL_TAG, serialsOf } from './print-queue-labels';

const FAST: Partial<PrintQueueSettings> = { leaseMs: 1_500, pollMs: 100 };

let postgres: TestPostgres;
let work: string;
let printer: ZebraEmulator;
let printersFile: string;
let templatesDir: string;

beforeAll(async () => {
  postgres = await startPostgres();
  work = mkdtempSync(join(tmpdir(), 'ld-pq-'));
  templatesDir = join(work, 'templates');
  mkdirSync(templatesDir);
  writeFileSync(join(templatesDir, 'serial-tag.json'), JSON.stringify(SERIAL_TAG));
});

afterAll(async () => {
  await postgres?.stop();
  rmSync(work, { recursive: true, force: true });
});

interface Instance {
  name: string;
  server: ApiServer;
  db: SiteDb;
  logs: string[];
  /** Job transports open now, and the most ever open at once (this instance's drivers). */
  open: { now: number; most: number };
  close(): Promise<void>;
}

let instances: Instance[] = [];
let url: string;
let headers: Record<string, string>;

afterEach(async () => {
  for (const i of instances) await i.close();
  instances = [];
  await printer?.close();
});

/** A fresh database, the emulator as printer 7, a key. */
async function site(): Promise<void> {
  url = await postgres.createDatabase();
  printer = await startZebraEmulator({ dpi: 203, port: 0 });
  printersFile = join(work, `printers-${printer.port}.json`);
  writeFileSync(printersFile, JSON.stringify([{ id: 7, uri: printer.uri, name: 'Dock 7' }]));
  const db = await openSiteDb(url, { max: 2 });
  const { key, secret } = await siteKeys(db).create();
  await db.close();
  headers = { 'content-type': 'application/json', 'x-api-key': key, 'x-api-secret': secret };
}

/** Job connections open at once across every instance of the test (one printer: must never pass 1). */
const shared = { now: 0, most: 0 };

async function instance(name: string, settings: Partial<PrintQueueSettings> = FAST): Promise<Instance> {
  const db = await openSiteDb(url, { max: 4 });
  const logs: string[] = [];
  const open = { now: 0, most: 0 };
  const count = (t: PrinterTransport): PrinterTransport => {
    let counted = false;
    const done = () => {
      if (!counted) return;
      counted = false;
      open.now--;
      shared.now--;
    };
    return {
      ...t,
      capabilities: t.capabilities,
      async open(o) {
        await t.open(o);
        counted = true;
        open.now++;
        shared.now++;
        open.most = Math.max(open.most, open.now);
        shared.most = Math.max(shared.most, shared.now);
      },
      write: (d, o) => t.write(d, o),
      request: (d, o) => t.request(d, o),
      async close() {
        done();
        await t.close();
      },
      async abort() {
        done();
        await (t.abort?.() ?? t.close());
      },
    };
  };
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: join(work, `data-${name}-${Date.now()}`),
    templatesDir,
    rateLimitPerMinute: 1_000_000,
    logStream: { write: (line) => logs.push(line) },
    printers: filePrinterGateway({ file: printersFile, openTransport: (uri) => createTransport(uri) }),
    site: {
      db,
      instance: name,
      printQueue: settings,
      openTransport: (uri) => count(createTransport(uri)),
    },
  });
  const made: Instance = {
    name,
    server,
    db,
    logs,
    open,
    close: async () => {
      await server.close();
      await db.close();
    },
  };
  instances.push(made);
  return made;
}

async function print(at: Instance, amount: number) {
  const response = await fetch(`${at.server.url}/custom-labels/print-relay`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ label_name: 'serial-tag', amount, apiData: {}, printer_id: 7 }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function rows<R>(sql: string, values: unknown[] = []): Promise<R[]> {
  const db = await openSiteDb(url, { max: 1 });
  try {
    return (await db.query(sql, values)).rows as R[];
  } finally {
    await db.close();
  }
}

/** Polls `check` until it holds (bounded by a count of tries, not by time). */
async function eventually(check: () => boolean | Promise<boolean>, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the condition did not come true');
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the shared print queue', () => {
  test('a job through one instance: every label printed once, confirmed, recorded with who asked', async () => {
    await site();
    const a = await instance('A');
    const answer = await print(a, 25);
    expect(answer).toEqual({ status: 200, json: { status: 'sent_to_printer', printer_dpi: 203 } });
    expect(serialsOf(printer.jobs)).toEqual(range(1, 25));

    const [job] = await rows<Record<string, unknown>>('SELECT * FROM print_jobs');
    expect(job).toMatchObject({
      printer_id: 7,
      format: 'zpl',
      state: 'done',
      api_key: headers['x-api-key'],
      accepted_by: 'A',
      driven_by: 'A',
      labels: 25,
      confirmed: 25,
      possible_duplicates: [],
      error: null,
    });
    const labels = await rows<{
      number: number;
      state: string;
      attempts: number;
      possible_duplicate: boolean;
    }>('SELECT number, state, attempts, possible_duplicate FROM print_labels ORDER BY number');
    expect(labels).toEqual(
      range(1, 25).map((number) => ({ number, state: 'confirmed', attempts: 1, possible_duplicate: false })),
    );
    // Its printer has no more work: the lease is let go.
    await eventually(async () => (await rows('SELECT * FROM printer_leases')).length === 0);
  });

  test('two instances on one printer never drive it at the same time; every label of every job once', async () => {
    await site();
    shared.most = 0;
    const [a, b] = [await instance('A'), await instance('B')];
    const answers = await Promise.all([print(a, 12), print(b, 12), print(a, 12), print(b, 12), print(a, 12)]);
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200, 200]);
    expect(serialsOf(printer.jobs).sort((x, y) => x - y)).toEqual(range(1, 60));
    expect(shared.most).toBe(1);
    // One job at a time: each job's labels arrived together, in order.
    const received = serialsOf(printer.jobs);
    const jobs = await rows<{ id: string }>('SELECT id FROM print_jobs ORDER BY id');
    expect(jobs).toHaveLength(5);
    for (const { id } of jobs) {
      const mine = (
        await rows<{ payload: Buffer }>(
          'SELECT payload FROM print_labels WHERE job_id = $1 ORDER BY number',
          [id],
        )
      ).map((r) => serialsOf([{ zpl: r.payload.toString() }])[0] ?? -1);
      const at = received.indexOf(mine[0] ?? -1);
      expect(received.slice(at, at + mine.length)).toEqual(mine);
    }
    const states = await rows<{ state: string; possible_duplicates: number[] }>(
      'SELECT state, possible_duplicates FROM print_jobs',
    );
    expect(states.every((s) => s.state === 'done' && s.possible_duplicates.length === 0)).toBe(true);
  });

  test('a lease that runs out is taken over: the job goes on at its first unconfirmed label, the one in doubt flagged', async () => {
    await site();
    // What an instance killed mid-label leaves behind: its lease (running out soon), a job printing with labels
    // 1–3 confirmed and label 4 `sending` (its bytes may have reached the printer).
    await rows(`INSERT INTO print_jobs (printer_id, format, state, api_key, accepted_by, driven_by, labels, confirmed)
                VALUES (7, 'zpl', 'printing', 'k', 'ghost', 'ghost', 8, 3)`);
    const zpl = (n: number) => `^XA^RFW,H^FD${String(n).padStart(24, '0')}^FS^XZ`;
    for (const n of range(1, 8)) {
      await rows(
        `INSERT INTO print_labels (job_id, number, payload, state, attempts)
           SELECT id, $1, $2, $3, $4 FROM print_jobs`,
        [n, Buffer.from(zpl(n)), n <= 3 ? 'confirmed' : n === 4 ? 'sending' : 'pending', n <= 4 ? 1 : 0],
      );
    }
    await rows(`INSERT INTO printer_leases (printer_id, holder, epoch, expires_at)
                VALUES (7, 'ghost', nextval('printer_lease_epochs'), now() + interval '1 second')`);
    const b = await instance('B');
    await eventually(
      async () => (await rows<{ state: string }>('SELECT state FROM print_jobs'))[0]?.state === 'done',
    );
    expect(serialsOf(printer.jobs)).toEqual([4, 5, 6, 7, 8]);
    const [job] = await rows<Record<string, unknown>>('SELECT * FROM print_jobs');
    expect(job).toMatchObject({ driven_by: 'B', confirmed: 8, possible_duplicates: [4] });
    const label4 = await rows(
      'SELECT state, attempts, possible_duplicate FROM print_labels WHERE number = 4',
    );
    expect(label4).toEqual([{ state: 'confirmed', attempts: 2, possible_duplicate: true }]);
    const log = b.logs.join('');
    expect(log).toContain('printer 7 taken over from ghost');
    expect(log).toContain('label 4 was sent again after the connection failed and may have printed twice');
  });

  test('close() hands the printer over at once: the label in flight finishes, nothing is in doubt, the waiting request is answered', async () => {
    await site();
    // A slow printer, so the job is still running when A stops.
    printer.setFault({ readDelayMs: 15 });
    const a = await instance('A', { leaseMs: 60_000, pollMs: 100 });
    const b = await instance('B', { leaseMs: 60_000, pollMs: 100 });
    const asked = print(a, 60);
    await eventually(() => printer.jobs.length >= 10);
    // Whichever instance's poll took the printer (A's own, usually; B's on a loaded machine) is stopped.
    const leases = await rows<{ holder: string }>('SELECT holder FROM printer_leases');
    expect(leases).toHaveLength(1);
    const [stopped, other] = leases[0]?.holder === 'A' ? [a, b] : [b, a];
    expect(stopped.name).toBe(leases[0]?.holder);
    await stopped.close();
    instances = instances.filter((i) => i !== stopped);
    // The request (to A) waited on while the other printed the rest: delivered in full.
    expect((await asked).status).toBe(200);
    // With a lease of a minute, only a release lets B go on before the test ends.
    await eventually(
      async () => (await rows<{ state: string }>('SELECT state FROM print_jobs'))[0]?.state === 'done',
    );
    expect(serialsOf(printer.jobs)).toEqual(range(1, 60));
    const [job] = await rows<Record<string, unknown>>('SELECT * FROM print_jobs');
    expect(job).toMatchObject({ driven_by: other.name, possible_duplicates: [] });
    expect(other.logs.join('')).toContain('driving printer 7');
  });

  test('an instance stopping with no other to print its request’s job: 500 saying it stays queued; the next instance prints it', async () => {
    await site();
    printer.setFault({ readDelayMs: 15 });
    const a = await instance('A', { ...FAST, stopWaitMs: 300 });
    const asked = print(a, 40);
    await eventually(() => printer.jobs.length >= 5);
    await a.close();
    instances = instances.filter((i) => i !== a);
    const answer = await asked;
    expect(answer.status).toBe(500);
    expect(answer.json.message).toMatch(
      /print job 1 .*stays queued and another instance prints it — do not send it again/,
    );
    const [left] = await rows<{ state: string }>('SELECT state FROM print_jobs');
    expect(left?.state).toBe('printing');
    await instance('B');
    await eventually(
      async () => (await rows<{ state: string }>('SELECT state FROM print_jobs'))[0]?.state === 'done',
    );
    expect(serialsOf(printer.jobs)).toEqual(range(1, 40));
  });

  test('the database drops every connection mid-job: the instance lives on, the job finishes, at most one label twice and that one reported', async () => {
    await site();
    printer.setFault({ readDelayMs: 10 });
    const a = await instance('A');
    const asked = print(a, 40);
    await eventually(() => printer.jobs.length >= 15);
    // The driver's next write waits on a lock, so the cut lands inside one of its statements; then every
    // connection but this one is terminated.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE print_labels IN EXCLUSIVE MODE');
    await eventually(async () => {
      const waiting = await admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return (waiting.rowCount ?? 0) > 0;
    });
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    await admin.query('ROLLBACK');
    await admin.end();
    expect((await asked).status).toBe(200);
    const received = serialsOf(printer.jobs);
    expect([...new Set(received)].sort((x, y) => x - y)).toEqual(range(1, 40));
    const twice = received.filter((n, i) => received.indexOf(n) !== i);
    expect(twice.length).toBeLessThanOrEqual(1);
    const [job] = await rows<{ state: string; possible_duplicates: number[] }>(
      'SELECT state, possible_duplicates FROM print_jobs',
    );
    expect(job?.state).toBe('done');
    expect(job?.possible_duplicates.length).toBeLessThanOrEqual(1);
    for (const n of twice) expect(job?.possible_duplicates).toContain(n);
    // The fault was the driver's: it stopped, and was started again at the next poll.
    expect(a.logs.join('')).toContain('print queue: driver stopped');
    // And it goes on serving.
    expect((await print(a, 2)).status).toBe(200);
  });

  test('a request waits at most waitMs: then its job is cancelled and it answers 500 saying what was confirmed', async () => {
    await site();
    // Another instance holds the printer and never prints.
    await rows(`INSERT INTO printer_leases (printer_id, holder, epoch, expires_at)
                VALUES (7, 'stuck', nextval('printer_lease_epochs'), now() + interval '1 hour')`);
    const a = await instance('A', { ...FAST, waitMs: 1_000 });
    const answer = await print(a, 3);
    expect(answer.status).toBe(500);
    expect(answer.json.message).toMatch(
      /printer 7 \("Dock 7".*not delivered within 1 s.*no label was confirmed of 3/,
    );
    expect(answer.json.field).toBe('printer_id');
    await rows('DELETE FROM printer_leases');
    const [job] = await rows<{ state: string }>('SELECT state FROM print_jobs');
    expect(job?.state).toBe('failed');
    // Released, the printer gets nothing of it.
    await new Promise((r) => setTimeout(r, 500));
    expect(printer.jobs).toEqual([]);
  });

  test('a printer that drops every connection: the job fails and the request answers 500 as the embedded relay does', async () => {
    await site();
    printer.setFault({ dropAfterBytes: { bytes: 200, every: true } });
    const a = await instance('A', { ...FAST, retries: 1 });
    const answer = await print(a, 2);
    expect(answer.status).toBe(500);
    expect(answer.json.message).toMatch(/printer 7 \("Dock 7".*label 1 of 2 was not confirmed after 1 retry/);
    const [job] = await rows<{ state: string; error: string }>('SELECT state, error FROM print_jobs');
    expect(job?.state).toBe('failed');
    expect(job?.error).toMatch(/label 1 of 2 was not confirmed/);
  });
});

describe('Idempotency-Key: a print-relay request sent again is delivered once', () => {
  async function send(
    at: Instance,
    key: string | undefined,
    body: Record<string, unknown>,
    signal?: AbortSignal,
  ) {
    const response = await fetch(`${at.server.url}/custom-labels/print-relay`, {
      method: 'POST',
      headers: { ...headers, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ label_name: 'serial-tag', apiData: {}, printer_id: 7, ...body }),
      ...(signal ? { signal } : {}),
    });
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      json: (await response.json()) as Record<string, unknown>,
    };
  }

  test('the client lost its connection while the job printed and sends it again, to another instance: one job, every label once, the same answer', async () => {
    await site();
    const a = await instance('A');
    const b = await instance('B');
    // A slow printer, so the job is still printing when the client gives up on its answer.
    printer.setFault({ readDelayMs: 10 });
    const lost = new AbortController();
    const first = send(a, 'order-4711', { amount: 40 }, lost.signal).catch((e: unknown) => e);
    await eventually(() => printer.jobs.length >= 3);
    lost.abort();
    expect(await first).toBeInstanceOf(Error);
    const again = await send(b, 'order-4711', { amount: 40 });
    expect(again).toEqual({
      status: 200,
      replayed: 'true',
      json: { status: 'sent_to_printer', printer_dpi: 203 },
    });
    expect(serialsOf(printer.jobs)).toEqual(range(1, 40));
    expect(await rows('SELECT id FROM print_jobs')).toHaveLength(1);
    // The repeat reserved no counter numbers: the next job starts at 41.
    expect((await send(a, 'order-4712', { amount: 2 })).status).toBe(200);
    expect(serialsOf(printer.jobs).slice(40)).toEqual([41, 42]);
    // …and the history has the one request, not a second one for the repeat.
    expect(await rows("SELECT id FROM jobs WHERE route = 'print-relay'")).toHaveLength(2);
  });

  test('sent twice at once to two instances: one job is printed, both answer 200', async () => {
    await site();
    const a = await instance('A');
    const b = await instance('B');
    const answers = await Promise.all([send(a, 'twice', { amount: 5 }), send(b, 'twice', { amount: 5 })]);
    expect(answers.map((x) => x.status)).toEqual([200, 200]);
    expect(serialsOf(printer.jobs)).toHaveLength(5);
    expect(await rows('SELECT id FROM print_jobs')).toHaveLength(1);
  });

  test('a key used for another printer or format → 422 naming the header; without the header each request prints', async () => {
    await site();
    const a = await instance('A');
    expect((await send(a, 'k-1', { amount: 1 })).status).toBe(200);
    const other = await send(a, 'k-1', { amount: 1, printer_id: 8 });
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ field: 'Idempotency-Key' });
    expect(other.json.message).toMatch(
      /^Idempotency-Key: already used by this API key for a print-relay job to printer 7/,
    );
    for (const bad of ['', ' '.repeat(3), 'x'.repeat(201), 'naïve']) {
      const answer = await send(a, bad, { amount: 1 });
      expect([bad, answer.status, answer.json.field]).toEqual([bad, 422, 'Idempotency-Key']);
    }
    expect((await send(a, undefined, { amount: 1 })).status).toBe(200);
    expect((await send(a, undefined, { amount: 1 })).status).toBe(200);
    expect(serialsOf(printer.jobs)).toEqual([1, 2, 3]);
  });
});
