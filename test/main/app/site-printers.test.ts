/**
 * The site server's printers in the app (main/app/site-printers.ts): main's services through their handlers
 * against a real `labeldesk serve --database` server on a real PostgreSQL whose printer 7 is the Zebra emulator
 * (a site printer, saved as `labeldesk site-printers add` saves it). In site mode `site.printers` lists it
 * (no address), a print to it goes to the site's print relay — the site numbers the serials and its print queue
 * delivers them (scanned back from the printed dots) — and the failures are sentences: a printer that cannot be
 * reached is named without its address, a site whose database is away says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import { relayPrinterGateway } from '../../../src/node/serve/file-printer-gateway';
import { createTransport } from '../../../src/node/printers/open-transport';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { sitePrinterLookup, sitePrinters } from '../../../src/node/site/site-printers';
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
let stub: Server;
let stubUrl: string;
let zebra: ZebraEmulator;
let services: AppServices;
let work: string;
let closedPort: number;

const TEMPLATE = SITE_SERIALS;
const ref = { source: 'site', name: TEMPLATE } as const;

const serialTemplate = () => siteSerialsTemplate({ title: false, note: false });

const { call, refused } = ipcCalls(() => services);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ld-app-site-printers-'));
  pg = await startPostgres();
  db = await openSiteDb(await pg.createDatabase(), { max: 4 });
  const key = await siteKeys(db).create();
  await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(serialTemplate()), 'test');
  zebra = await startZebraEmulator({ dpi: 203 });
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  const printers = sitePrinters(db, { actor: 'test' });
  await printers.save({ id: 7, uri: zebra.uri, name: 'Dock 7' });
  await printers.save({ id: 8, uri: `tcp://127.0.0.1:${closedPort}`, name: 'Dock 8' });
  site = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: join(work, 'site'),
    limits: { renderWorkers: 0 },
    printers: relayPrinterGateway({
      lookup: sitePrinterLookup(printers),
      openTransport: (uri, job) =>
        createTransport(uri, { cups: { contentType: job.format === 'pdf' ? 'pdf' : 'raw', title: 'test' } }),
      retries: 0,
    }),
    site: { db, instance: 'site-a' },
  });
  stub = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' });
    res.end(JSON.stringify({ message: 'the site database is unavailable; retry in 5 s' }));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  services = await createAppServices({
    dataDir: join(work, 'app'),
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
  });
  await call('settings.update', { siteUrl: site.url, siteKey: key.key, siteSecret: key.secret });
}, 60_000);

afterAll(async () => {
  await services?.close();
  await site?.close();
  await zebra?.close();
  await new Promise((r) => stub?.close(r));
  await db?.close();
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("the site's printers in the app", () => {
  it('are offered only in site mode, without their addresses', async () => {
    expect(await call('site.printers', {})).toEqual([]);
    await call('settings.update', { mode: 'site' });
    const listed = await call('site.printers', {});
    expect(listed.map((p) => [p.id, p.name, p.language, p.site])).toEqual([
      ['site:7', 'Dock 7', 'zpl', true],
      ['site:8', 'Dock 8', 'zpl', true],
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/tcp:|127\.0\.0\.1/);
    // This computer's printers are its own.
    expect(await call('printers.list', {})).toEqual([]);
    expect((await call('printers.status', { printer: 'site:7' })).state).toBe('no-status');
  });

  it('a print of 2 copies goes through the site: numbered by the site, both delivered by its print queue', async () => {
    const from = zebra.jobs.length;
    const sent = await call('print.submit', { ref, values: {}, copies: 2, printer: 'site:7' });
    expect(sent).toEqual({ job: null, message: 'Printed 2 labels on Dock 7 (through the site server).' });
    // The answer means delivered: both labels are at the printer already.
    const printed = zebra.jobs.slice(from);
    expect(printed.flatMap((j, i) => scanZplJob(j.zpl, work, `site-${i}`))).toEqual([
      'SN-000001',
      'SN-000002',
    ]);
    // Not a job of this computer's queue; a job of the site's, under this workstation's key.
    expect(await call('jobs.list', {})).toEqual([]);
    const { rows } = await db.query<{ printer_id: number; labels: number; state: string }>(
      'SELECT printer_id, labels, state FROM print_jobs',
    );
    expect(rows).toEqual([{ printer_id: 7, labels: 2, state: 'done' }]);
  });

  it('failures are sentences: the printer named without its address, the site database away, a local template', async () => {
    const down = await refused('print.submit', { ref, values: {}, copies: 1, printer: 'site:8' });
    expect(down).toMatchObject({ code: 'printer', field: 'printer' });
    expect(down.message).toMatch(/^The site server could not print on Dock 8: /);
    expect(down.message).not.toContain(String(closedPort));
    expect(down.message).not.toContain('tcp:');

    const gone = await refused('print.submit', { ref, values: {}, copies: 1, printer: 'site:9' });
    expect(gone).toMatchObject({ code: 'not-found', message: expect.stringContaining('has no printer 9') });

    const local = await refused('print.submit', {
      ref: { source: 'user', name: 'mine' },
      values: {},
      copies: 1,
      printer: 'site:7',
    });
    expect(local.message).toContain("a site printer prints the site's templates");

    // Elsewhere only this computer's printers print.
    const batch = await refused('site.reprint', { id: 1, printer: 'site:7' });
    expect(batch.message).toContain('prints from the Print screen only');

    await call('settings.update', { siteUrl: stubUrl });
    const noDatabase = await refused('print.submit', { ref, values: {}, copies: 1, printer: 'site:7' });
    expect(noDatabase).toMatchObject({ code: 'unreachable' });
    expect(noDatabase.message).toMatch(/database is unavailable \(503\)/);
    expect(await call('site.printers', {})).toEqual([]);
    await call('settings.update', { siteUrl: site.url });
  });

  it('an answer lost on the way back: the app asks again with the same Idempotency-Key, and the labels print once', async () => {
    // Between the app and the site: the first print-relay answer is dropped (the connection cut once the site
    // answered), as a proxy restarting or a Wi-Fi hand-over does; everything else passes through.
    const keys: string[] = [];
    let dropped = 0;
    const lossy = createServer((req, res) => {
      const upstream = request(
        `${site.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          if (req.url?.includes('print-relay') && dropped++ === 0) {
            answer.resume();
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      if (req.url?.includes('print-relay')) keys.push(String(req.headers['idempotency-key']));
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((r) => lossy.listen(0, '127.0.0.1', r));
    try {
      await call('settings.update', {
        siteUrl: `http://127.0.0.1:${(lossy.address() as { port: number }).port}`,
      });
      const from = zebra.jobs.length;
      const jobsBefore = (await db.query('SELECT id FROM print_jobs')).rowCount ?? 0;
      const sent = await call('print.submit', { ref, values: {}, copies: 2, printer: 'site:7' });
      expect(sent.message).toBe('Printed 2 labels on Dock 7 (through the site server).');
      expect(dropped).toBe(2);
      // Both attempts carried one key; the site made one job, and the printer got each label once.
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^labeldesk-app-[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect((await db.query('SELECT id FROM print_jobs')).rowCount).toBe(jobsBefore + 1);
      const printed = zebra.jobs.slice(from);
      expect(printed).toHaveLength(2);
      const serials = printed.flatMap((j, i) => scanZplJob(j.zpl, work, `lossy-${i}`));
      expect(new Set(serials).size).toBe(2);
    } finally {
      await call('settings.update', { siteUrl: site.url });
      await new Promise((r) => lossy.close(r));
    }
  });
});
