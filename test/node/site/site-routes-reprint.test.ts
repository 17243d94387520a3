/**
 * A reprint of a print-relay job on a site server (src/node/site/site-routes.ts) with real parts: PostgreSQL, the
 * site's print queue, two Zebra emulators as printers 7 and 8. A damaged label is printed again with its own
 * serial — on another printer if asked — and the history can say which printer printed which serial.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteKeys } from '../../../src/node/site/site-stores';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import { filePrinterGateway } from '../../../src/node/serve/file-printer-gateway';
import { createTransport } from '../../../src/node/printers/open-transport';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { startPostgres, type TestPostgres } from '../../support/postgres';
import { SERIAL_TAG, serialsOf } from './print-queue-labels';

let pg: TestPostgres;
let work: string;
let db: SiteDb;
let server: ApiServer;
let dock7: ZebraEmulator;
let dock8: ZebraEmulator;
let headers: Record<string, string>;

beforeAll(async () => {
  pg = await startPostgres();
  work = mkdtempSync(join(tmpdir(), 'ld-reprint-'));
  const templatesDir = join(work, 'templates');
  mkdirSync(templatesDir);
  writeFileSync(join(templatesDir, 'serial-tag.json'), JSON.stringify(SERIAL_TAG));
  dock7 = await startZebraEmulator({ dpi: 203, port: 0 });
  dock8 = await startZebraEmulator({ dpi: 203, port: 0 });
  const printersFile = join(work, 'printers.json');
  writeFileSync(
    printersFile,
    JSON.stringify([
      { id: 7, uri: dock7.uri, name: 'Dock 7' },
      { id: 8, uri: dock8.uri, name: 'Dock 8' },
    ]),
  );
  db = await openSiteDb(await pg.createDatabase(), { max: 4 });
  const { key, secret } = await siteKeys(db).create();
  headers = { 'content-type': 'application/json', 'x-api-key': key, 'x-api-secret': secret };
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: join(work, 'data'),
    templatesDir,
    rateLimitPerMinute: 1_000_000,
    printers: filePrinterGateway({ file: printersFile, openTransport: (uri) => createTransport(uri) }),
    site: { db, instance: 'dock-office', printQueue: { leaseMs: 1_500, pollMs: 100 } },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await db?.close();
  await dock7?.close();
  await dock8?.close();
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: response.status,
    job: response.headers.get('x-labeldesk-job'),
    json: (await response.json()) as any,
  };
}

test('a print-relay job reprinted: label 2 again, on printer 8, with serial 2; the history says where each was printed', async () => {
  const printed = await call('POST', '/custom-labels/print-relay', {
    label_name: 'serial-tag',
    amount: 3,
    apiData: {},
    printer_id: 7,
  });
  expect(printed.status).toBe(200);
  expect(serialsOf(dock7.jobs)).toEqual([1, 2, 3]);

  const again = await call('POST', `/site/jobs/${printed.job}/reprint`, { labels: [2], printer_id: 8 });
  expect(again.status).toBe(200);
  expect(again.json).toMatchObject({ status: 'sent_to_printer' });
  expect(serialsOf(dock8.jobs)).toEqual([2]);
  // The same label, byte for byte, on the other printer of the same dpi.
  expect(dock8.jobs[0]?.zpl).toBe(dock7.jobs[1]?.zpl);

  const found = await call(
    'GET',
    `/site/labels?template=serial-tag&counter=serial&value=${'2'.padStart(24, '0')}`,
  );
  expect(
    found.json.labels.map(
      (l: { job: { id: number; printer: string; reprint_of: number | null }; label: number }) => [
        l.job.printer,
        l.job.reprint_of,
        l.label,
      ],
    ),
  ).toEqual([
    ['7', null, 2],
    ['8', Number(printed.job), 1],
  ]);
  // The reprint reserved no number: the next job starts at 4.
  await call('POST', '/custom-labels/print-relay', {
    label_name: 'serial-tag',
    amount: 1,
    apiData: {},
    printer_id: 7,
  });
  expect(serialsOf(dock7.jobs)).toEqual([1, 2, 3, 4]);

  const jobs = await call('GET', '/site/jobs?printer=8');
  expect(jobs.json.jobs).toEqual([
    expect.objectContaining({
      id: Number(again.job),
      route: 'print-relay',
      instance: 'dock-office',
      labels: 1,
    }),
  ]);
});
