/**
 * The app with a site server as its backend (issue #24): main's services through their handlers (what both
 * shells call) against a real `labeldesk serve --database` on a real PostgreSQL, the Zebra emulator as the
 * workstation's own printer. Settings → site URL, key id and secret; "Test connection" with a sentence per
 * failure; the site's templates listed as `site`; labels numbered by the site, printed by the local job queue,
 * recorded in the site's history under this workstation's key; no number reserved twice (a second click, a
 * reprint); nothing numbered on this computer (offline, a batch).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { dispatch } from '../../../main/app/dispatch';
import type { JobView, ResponseOf } from '../../../src/ipc/contract';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteKeys, siteTemplates } from '../../../src/node/site/site-stores';
import { defaultTemplateStore } from '../../../src/node/template-store';
import { startPostgres, type TestPostgres } from '../../support/postgres';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { scanZplJob } from '../../support/barcode-label';
import { SITE_SERIALS, siteSerialsTemplate } from '../../support/site-serials';
import { ipcCalls } from '../../support/ipc-calls';

let pg: TestPostgres;
let db: SiteDb;
let site: ApiServer;
let siteClosed = false;
let plain: ApiServer;
let stub: Server;
let stubUrl: string;
let zebra: ZebraEmulator;
let services: AppServices;
let work: string;
let mine: { key: string; secret: string };
let other: { key: string; secret: string };
const logs: string[] = [];

const TEMPLATE = SITE_SERIALS;
/** A label whose Code 128 carries its serial (SN-000001, …), so a scan of the printed dots reads it back. */
const serialTemplate = () => siteSerialsTemplate();

const { call, refused } = ipcCalls(() => services);

/** Waits for a job of the local queue to finish (no time asserted: the test's own timeout bounds it). */
async function done(job: JobView | null): Promise<JobView> {
  if (!job) throw new Error('no job');
  for (;;) {
    const { job: now } = await call('jobs.get', { id: job.id });
    if (now.state === 'done') return now;
    if (now.state === 'failed' || now.state === 'cancelled') throw new Error(`job ${job.id} ${now.state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Code 128 values of the emulator's jobs from `from` on, as printed. */
function scanned(from: number): string[] {
  return zebra.jobs.slice(from).flatMap((j, i) => scanZplJob(j.zpl, work, `label-${from + i}`));
}

async function siteGet(path: string, key = mine): Promise<unknown> {
  const response = await fetch(`${site.url}${path}`, {
    headers: { 'x-api-key': key.key, 'x-api-secret': key.secret },
  });
  expect(response.status).toBe(200);
  return response.json();
}

interface HistoryJob {
  id: number;
  api_key: string;
  labels: number;
  counters: Record<string, number>;
  template: string;
}
const history = async () => ((await siteGet('/site/jobs')) as { jobs: HistoryJob[] }).jobs;

let printerId: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ld-site-mode-'));
  pg = await startPostgres();
  db = await openSiteDb(await pg.createDatabase(), { max: 4 });
  mine = await siteKeys(db).create();
  other = await siteKeys(db).create();
  await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(serialTemplate(), null, 2), 'test');
  const logStream = { write: (line: string) => void logs.push(line) };
  site = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: join(work, 'site'),
    logStream,
    limits: { renderWorkers: 0 },
    site: { db, instance: 'site-a' },
  });
  plain = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(work, 'plain'), logStream });
  // What a site server answers while PostgreSQL is away (src/node/serve/server.ts, /ready).
  stub = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' });
    res.end(JSON.stringify({ status: 'database unavailable', instance: 'site-b' }));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  zebra = await startZebraEmulator({ dpi: 203 });
  services = await createAppServices({
    dataDir: join(work, 'app'),
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    printers: [{ id: 1, uri: zebra.uri, name: 'Dock Zebra' }],
  });
  printerId = (await call('printers.list', {}))[0]!.id;
}, 60_000);

afterAll(async () => {
  await services?.close();
  await zebra?.close();
  if (!siteClosed) await site?.close();
  await plain?.close();
  await new Promise((r) => stub?.close(r));
  await db?.close();
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('Settings → Site server', () => {
  it('tests the site: a sentence for each failure, then OK with the right key', async () => {
    // Nothing typed yet.
    expect((await call('connection.test', { target: 'site' })).message).toBe(
      'Enter the site URL, the key id and the secret first.',
    );

    await call('settings.update', { siteUrl: site.url, siteKey: mine.key, siteSecret: 'not-the-secret' });
    const wrong = await call('connection.test', { target: 'site' });
    expect(wrong.ok).toBe(false);
    expect(wrong.message).toMatch(/refused the key id or secret \(401\)/);

    await call('settings.update', { siteUrl: plain.url, siteSecret: mine.secret });
    const notSite = await call('connection.test', { target: 'site' });
    expect(notSite.ok).toBe(false);
    expect(notSite.message).toMatch(/answers, but it is not a site server/);

    await call('settings.update', { siteUrl: stubUrl });
    const noDb = await call('connection.test', { target: 'site' });
    expect(noDb.ok).toBe(false);
    expect(noDb.message).toMatch(/its database is unavailable \(503\)/);

    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    await call('settings.update', { siteUrl: `http://127.0.0.1:${port}` });
    const down = await call('connection.test', { target: 'site' });
    expect(down.ok).toBe(false);
    expect(down.message).toMatch(/cannot be reached \(the connection was refused\)/);

    // Over a network only https: the secret must not cross it in clear.
    const clear = await refused('settings.update', { siteUrl: 'http://10.0.0.5:8787' });
    expect(clear.code).toBe('bad-request');

    await call('settings.update', { siteUrl: site.url, mode: 'site' });
    const ok = await call('connection.test', { target: 'site' });
    expect(ok).toMatchObject({ ok: true, status: { backend: 'site', hosted: 'online' } });
    expect(ok.message).toMatch(
      /^Connected to the site server \(instance site-a\): the key is accepted, \d+ templates on the site\.$/,
    );

    // What is typed in the card is tested as typed, not saved: the site in use stays as it is.
    const typedWrong = await call('connection.test', {
      target: 'site',
      siteTyped: { siteUrl: site.url, siteKey: mine.key, siteSecret: 'typed-wrong' },
    });
    expect(typedWrong.ok).toBe(false);
    expect(typedWrong.message).toMatch(/refused the key id or secret \(401\)/);
    expect(typedWrong.status).toMatchObject({ backend: 'site', hosted: 'online' });
    const typedPlain = await call('connection.test', {
      target: 'site',
      siteTyped: { siteUrl: plain.url, siteKey: mine.key },
    });
    expect(typedPlain.message).toMatch(/answers, but it is not a site server/);
    expect(await call('settings.get', {})).toMatchObject({ siteUrl: site.url, siteKey: mine.key });

    // The secret stays in main: not in the settings the renderer reads, not in a status, not in the file.
    const view = await call('settings.get', {});
    expect(view).toMatchObject({ siteUrl: site.url, siteKey: mine.key, hasSiteSecret: true, mode: 'site' });
    expect(JSON.stringify([view, ok, await call('connection.status', {})])).not.toContain(mine.secret);
    expect(readFileSync(join(work, 'app', 'app-settings.json'), 'utf8')).not.toContain(mine.secret);
  });

  it('lists the site templates as `site` and opens one from the site', async () => {
    const { templates } = await call('templates.list', {});
    const serials = templates.find((t) => t.ref.name === TEMPLATE);
    expect(serials).toMatchObject({ ref: { source: 'site', name: TEMPLATE }, title: 'Site serials' });
    // The site's bundled templates come through the site too; captured and bundled local ones are not listed.
    expect(templates.filter((t) => t.ref.source === 'bundled')).toEqual([]);
    expect(templates.some((t) => t.ref.source === 'site' && t.ref.name === 'shipping-4x6')).toBe(true);
    const detail = await call('templates.get', { ref: { source: 'site', name: TEMPLATE } });
    expect(detail.template.fields.map((f) => f.name)).toEqual(['serial', 'note']);
  });

  it("prints with the site's numbers on the local printer, and another workstation's in between never repeats one", async () => {
    const ref = { source: 'site', name: TEMPLATE } as const;
    const before = zebra.jobs.length;
    const first = await call('print.submit', { ref, values: { note: 'a' }, copies: 2, printer: printerId });
    await done(first.job);

    // Another workstation (another key) takes the next number meanwhile.
    const response = await fetch(`${site.url}/custom-labels/fetch-markups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': other.key, 'x-api-secret': other.secret },
      body: JSON.stringify({ label_name: TEMPLATE, amount: 1, apiData: { note: 'b' } }),
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('SN-000003');

    const second = await call('print.submit', { ref, values: { note: 'c' }, copies: 2, printer: printerId });
    await done(second.job);

    expect(scanned(before)).toEqual(['SN-000001', 'SN-000002', 'SN-000004', 'SN-000005']);
    const jobs = await history();
    const ours = jobs.filter((j) => j.api_key === mine.key && j.template === TEMPLATE);
    expect(ours.map((j) => [j.labels, j.counters.serial])).toEqual([
      [2, 4],
      [2, 1],
    ]);
    expect(jobs.find((j) => j.api_key === other.key)?.counters.serial).toBe(3);
  });

  it('a second click while the first is in flight reserves no numbers; a reprint sends the same labels', async () => {
    const ref = { source: 'site', name: TEMPLATE } as const;
    const jobsBefore = (await history()).length;
    const before = zebra.jobs.length;
    const request = { ref, values: { note: 'twice' }, copies: 1, printer: printerId };
    const [a, b] = await Promise.all([
      dispatch(services, 'print.submit', request),
      dispatch(services, 'print.submit', request),
    ]);
    const answers = [a, b];
    expect(answers.filter((x) => x.ok)).toHaveLength(1);
    const conflict = answers.find((x) => !x.ok);
    expect(conflict && !conflict.ok && conflict.error.code).toBe('conflict');
    const sent = answers.find((x) => x.ok);
    const job = await done(sent && sent.ok ? (sent.result as ResponseOf<'print.submit'>).job : null);
    expect(scanned(before)).toEqual(['SN-000006']);
    expect((await history()).length).toBe(jobsBefore + 1);

    // The reprint of that job (History → Reprint) prints the same serial and asks the site for nothing.
    const again = zebra.jobs.length;
    const { job: reprint } = await call('jobs.reprint', { id: job.id });
    await done(reprint);
    expect(scanned(again)).toEqual(['SN-000006']);
    expect((await history()).length).toBe(jobsBefore + 1);
  });

  it("History: the site's jobs with who, where, when; a reprint prints the same serials and reserves none", async () => {
    const { jobs, nextBefore } = await call('site.jobs', {});
    expect(nextBefore).toBeNull();
    const first = jobs.find((j) => j.key === mine.key && j.counters.serial === 1);
    expect(first).toMatchObject({
      route: 'fetch-markups',
      template: TEMPLATE,
      labels: 2,
      instance: 'site-a',
      printer: null,
      reprintable: true,
    });
    expect(jobs.find((j) => j.key === other.key)?.counters).toEqual({ serial: 3 });
    const page = await call('site.jobs', { limit: 1 });
    expect(page.jobs).toHaveLength(1);
    expect((await call('site.jobs', { before: page.nextBefore!, limit: 1 })).jobs[0]!.id).toBeLessThan(
      page.jobs[0]!.id,
    );

    const before = zebra.jobs.length;
    const sent = await call('site.reprint', { id: first!.id, printer: printerId });
    await done(sent.job);
    expect(scanned(before)).toEqual(['SN-000001', 'SN-000002']);
    const [newest] = (await call('site.jobs', { limit: 1 })).jobs;
    expect(newest).toMatchObject({ reprintOf: first!.id, key: mine.key, labels: 2 });

    // No number was reserved by the reprint: the next print continues the sequence.
    const next = zebra.jobs.length;
    const again = await call('print.submit', {
      ref: { source: 'site', name: TEMPLATE },
      values: { note: 'after' },
      copies: 1,
      printer: printerId,
    });
    await done(again.job);
    expect(scanned(next)).toEqual(['SN-000007']);
    expect((await refused('site.reprint', { id: 999_999, printer: printerId })).message).toMatch(
      /no job 999999/,
    );
  });

  it('never numbers a counter on this computer: a batch is refused, and so is a counter label while the site is away', async () => {
    const ref = { source: 'site', name: TEMPLATE } as const;
    const batch = await refused('batch.start', {
      ref,
      csv: 'note\nx\ny\n',
      printer: printerId,
      skipInvalid: false,
    });
    expect(batch.message).toMatch(
      /has counter fields: with the site server as the backend their numbers come from the site/,
    );

    await site.close();
    siteClosed = true;
    const before = zebra.jobs.length;
    const offline = await refused('print.submit', {
      ref,
      values: { note: 'x' },
      copies: 1,
      printer: printerId,
    });
    expect(offline.code).toBe('unreachable');
    // The bundled SSCC template is bundled here too, and still refused: its numbers are the site's.
    const sscc = await refused('print.submit', {
      ref: { source: 'site', name: 'gs1-logistic-4x6' },
      values: {
        gtin: '09506000134352',
        count: '12',
        batch: 'LOT7',
        best_before: '2027-01-31',
        ship_from: 'Acme\n1 Road\nTown',
        ship_to: 'Shop\n2 Street\nCity',
      },
      copies: 1,
      printer: printerId,
    });
    expect(sscc.message).toMatch(
      /^The site server cannot be reached, and "gs1-logistic-4x6" has counter fields: their numbers come only from the site/,
    );

    // A bundled template without counters prints with the bundled engine meanwhile, and the top bar says so.
    const plainLabel = await call('print.submit', {
      ref: { source: 'site', name: 'product-2x1' },
      values: { product_name: 'Tea', ean13: '5901234123457' },
      copies: 1,
      printer: printerId,
    });
    await done(plainLabel.job);
    expect(zebra.jobs.length).toBe(before + 1);
    const status = await call('connection.status', {});
    expect(status).toMatchObject({ backend: 'site', hosted: 'offline' });
    expect(status.message).toMatch(/The site server is unreachable: printing the bundled "product-2x1"/);

    // With the site away the list is the local one; no secret ever reached a log line.
    const { templates } = await call('templates.list', {});
    expect(templates.some((t) => t.ref.source === 'bundled')).toBe(true);
    expect(logs.join('\n')).not.toContain(mine.secret);
  });
});
