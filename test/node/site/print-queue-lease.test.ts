/**
 * The print queue's lease fencing (src/node/site/print-queue.ts), on the queue itself with a private PostgreSQL
 * and a fake printer connection: a holder whose renewals stop getting through (the lease row locked here, as a
 * database that stopped answering would leave it) must abort its printer connection at its local deadline — 90 %
 * of the lease after its last renewal — so that it has stopped writing before the database lets another
 * instance take the printer.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { PrinterGateway, RelayPrinter } from '../../../src/engine/printer-gateway';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { sitePrintQueue } from '../../../src/node/site/print-queue';
import type { PrinterTransport } from '../../../src/printers/transport';
import { startPostgres, type TestPostgres } from '../../support/postgres';

const LEASE_MS = 3_000;

let postgres: TestPostgres;
let url: string;
let db: SiteDb;

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase();
  db = await openSiteDb(url, { max: 4 });
});

afterAll(async () => {
  await db?.close();
  await postgres?.stop();
});

const printer: RelayPrinter = { id: 7, name: 'Dock 7', uri: 'tcp://printer.invalid:9100' };

test('a holder that cannot renew its lease aborts its printer connection before the lease expires', async () => {
  let writing!: () => void;
  const written = new Promise<void>((resolve) => (writing = resolve));
  let aborted!: (at: number) => void;
  const abortedAt = new Promise<number>((resolve) => (aborted = resolve));
  let first = true;
  /** The first connection's write never ends (a slow printer) until the connection is aborted. */
  const openTransport = (): PrinterTransport => {
    const mine = first;
    first = false;
    let fail: (e: Error) => void = () => undefined;
    return {
      capabilities: { status: true },
      open: async () => undefined,
      write: () => {
        if (!mine) return Promise.reject(new Error('not this test'));
        writing();
        return new Promise<void>((_, reject) => (fail = reject));
      },
      request: () => Promise.reject(new Error('no status in this test')),
      close: async () => undefined,
      abort: async () => {
        if (mine) aborted(Date.now());
        fail(new Error('aborted'));
      },
    } as unknown as PrinterTransport;
  };
  const gateway: PrinterGateway = {
    find: async (id) => (id === printer.id ? printer : undefined),
    accepts: () => true,
    resolution: async () => ({ dpi: 203, source: 'printer' }) as never,
    send: () => Promise.reject(new Error('not used')),
  };
  const queue = sitePrintQueue({
    db,
    instance: 'holder',
    printers: gateway,
    openTransport,
    settings: { leaseMs: LEASE_MS, pollMs: 100, waitMs: 60_000, stopWaitMs: 0 },
    log: () => undefined,
  });
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    const request = queue.gateway
      .send(printer, { format: 'zpl', labels: ['^XA^FDone^FS^XZ'], apiKey: 'k' })
      .catch((e: unknown) => e);
    await written;
    // Renewals wait behind this lock from now on; what they last wrote is when the database frees the printer.
    await locker.query('BEGIN');
    const { rows } = await locker.query<{ expires_at: Date }>(
      'SELECT expires_at FROM printer_leases WHERE printer_id = $1 FOR UPDATE',
      [printer.id],
    );
    const expiresAt = rows[0]?.expires_at.getTime() ?? Number.NaN;
    const at = await abortedAt;
    // The local deadline is 10 % of the lease before the expiry; half of that is left for timers running late.
    expect(expiresAt - at).toBeGreaterThanOrEqual(LEASE_MS * 0.05);
    await locker.query('ROLLBACK');
    await queue.close();
    await request;
  } finally {
    await locker.end();
  }
});
