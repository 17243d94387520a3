/**
 * A site server whose database goes away — the cable pulled between it and PostgreSQL, connections reset in the
 * middle of requests — keeps running: requests that need the database answer 503 with Retry-After and a message
 * that names no host; /ready says 503 so a load balancer sends work elsewhere; /health still answers; nothing
 * is left unhandled (vitest fails the file on any stray rejection). When the database is back, the next requests
 * succeed without a restart, and no counter value was handed out twice.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteTemplates } from '../../../src/node/site/site-stores';
import { defaultTemplateStore } from '../../../src/node/template-store';
import { startPostgres, type TestPostgres } from '../../support/postgres';
import { startHarness, type Harness } from '../serve/harness';

/** A TCP relay to PostgreSQL that can be cut (every connection reset, new ones refused) and restored. */
interface Cable {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

async function cable(targetPort: number): Promise<Cable> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        port = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  await listen();
  const cut = async () => {
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    for (const s of sockets) s.resetAndDestroy();
    await closed;
  };
  return { port, cut, restore: listen, close: cut };
}

const COUNTER = {
  schemaVersion: 1,
  name: 'outage-serials',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [
    {
      name: 'serial',
      label: 'Serial',
      placeholder: 'S?????',
      type: 'counter',
      counter: { start: 1, step: 1, width: 6, prefix: 'S', suffix: '' },
    },
  ],
  elements: [{ type: 'text', x: 10, y: 10, width: 180, height: 30, text: '{serial}' }],
};

let pg: TestPostgres;
let wire: Cable;
let db: SiteDb;
let h: Harness;

beforeAll(async () => {
  pg = await startPostgres();
  const direct = await pg.createDatabase();
  wire = await cable(pg.port);
  const viaCable = new URL(direct);
  viaCable.port = String(wire.port);
  db = await openSiteDb(viaCable.toString(), { max: 4, onError: () => undefined });
  await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(COUNTER), 'test');
  h = await startHarness({ site: { db, instance: 'outage' } });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await wire?.close();
  await db?.close();
  await pg?.stop();
});

const body = { label_name: 'outage-serials', amount: 2, apiData: {} };
const serials = (a: { json: { elements: { text?: string }[] }[] }) =>
  a.json.map((m) => Number(/S(\d{6})/.exec(m.elements[0]?.text ?? '')?.[1]));

describe('the site database goes away and comes back', () => {
  test('503 with Retry-After while it is gone, /ready 503, /health 200; served again once it is back', async () => {
    // The harness's key is in the database of this server: make one here (the harness's store is its own).
    const { siteKeys } = await import('../../../src/node/site/site-stores');
    const key = await siteKeys(db).create();
    const headers = { 'content-type': 'application/json', 'x-api-key': key.key, 'x-api-secret': key.secret };
    const before = await h.post('fetch-markups', body, headers);
    expect(before.status).toBe(200);
    const seen = serials(before);

    // Requests in flight while the cable is cut: each gets an answer (200 if it got through, else 503).
    const inFlight = Array.from({ length: 20 }, () => h.post('fetch-markups', body, headers));
    await wire.cut();
    const during = await Promise.all(inFlight);
    for (const a of during) {
      expect([200, 503]).toContain(a.status);
      if (a.status === 200) seen.push(...serials(a));
    }

    for (const route of ['fetch-markups', 'render-zpl', 'export-svg']) {
      const a = await h.post(route, body, headers);
      expect(a.status).toBe(503);
      expect(a.headers.get('retry-after')).toBe('5');
      expect(a.json.message).toBe('the site database is unavailable; retry in 5 s');
      expect(a.text).not.toContain(String(pg.port));
      expect(a.text).not.toContain(String(wire.port));
    }
    const ready = await fetch(`${h.url}/ready`);
    expect(ready.status).toBe(503);
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
    expect(h.logs.join('')).toContain('site database unavailable');

    await wire.restore();
    let after = await h.post('fetch-markups', body, headers);
    // The pool may hand out one connection cut before it noticed; the next request gets a fresh one.
    for (let i = 0; i < 5 && after.status === 503; i++) after = await h.post('fetch-markups', body, headers);
    expect(after.status).toBe(200);
    seen.push(...serials(after));
    expect((await fetch(`${h.url}/ready`)).status).toBe(200);
    // Whatever was cut mid-reservation, no value was handed out twice.
    expect(new Set(seen).size).toBe(seen.length);
  });
});
