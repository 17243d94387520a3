/**
 * The site's printers in the app (issue #24), in Chromium against web mode: a real `labeldesk serve --database`
 * on a real PostgreSQL whose printer 7 (`labeldesk site-printers add`) is a Zebra emulator of its own. In site
 * mode the Print screen's printer picker lists it as the site's; 2 copies printed to it go through the site (its
 * print queue delivers them) — both labels scanned from the site printer's dots, nothing on this workstation's
 * own printer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/node/serve/server';
import { relayPrinterGateway } from '../../src/node/serve/file-printer-gateway';
import { createTransport } from '../../src/node/printers/open-transport';
import { openSiteDb } from '../../src/node/site/db';
import { sitePrinterLookup, sitePrinters } from '../../src/node/site/site-printers';
import { siteKeys, siteTemplates } from '../../src/node/site/site-stores';
import { defaultTemplateStore } from '../../src/node/template-store';
import { startZebraEmulator } from '../emulator/zebra-emulator';
import { startPostgres } from '../support/postgres';
import { scanZplJob } from '../support/barcode-label';
import { siteSerialsTemplate } from '../support/site-serials';
import { cli } from '../support/cli';
import { expect, screenshot, test } from './fixtures';

const serialTemplate = siteSerialsTemplate({ note: false });

test("site printers: the site's printer in the picker, 2 copies delivered through the site", async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  const work = mkdtempSync(join(tmpdir(), 'ld-e2e-site-printers-'));
  const pg = await startPostgres();
  const url = await pg.createDatabase();
  const db = await openSiteDb(url, { max: 4 });
  const dock = await startZebraEmulator({ dpi: 203, port: 0 });
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: work,
    limits: { renderWorkers: 0 },
    // As labeldesk serve --database builds its relay: the site's printers, looked up at each request.
    printers: relayPrinterGateway({
      lookup: sitePrinterLookup(sitePrinters(db)),
      openTransport: (uri, job) =>
        createTransport(uri, { cups: { contentType: job.format === 'pdf' ? 'pdf' : 'raw', title: 'e2e' } }),
    }),
    site: { db, instance: 'site-e2e' },
  });
  const bodies: Promise<string>[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/ipc/')) bodies.push(r.text().catch(() => ''));
  });
  try {
    const mine = await siteKeys(db).create();
    await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(serialTemplate, null, 2), 'e2e');
    const added = await cli([
      'site-printers',
      'add',
      '--id',
      '7',
      '--uri',
      dock.uri,
      '--name',
      'Dock 7',
      '--database',
      url,
    ]);
    expect(added.code).toBe(0);

    await page.getByRole('link', { name: /Printers & Settings/ }).click();
    await page.getByLabel('Site URL').fill(server.url);
    await page.getByLabel('Site key id').fill(mine.key);
    await page.getByLabel('Site key secret').fill(mine.secret);
    await page.getByLabel(/Print through the site server/).check();
    await page.getByRole('button', { name: 'Test site connection' }).click();
    await expect(page.getByTestId('site-connection-test')).toContainText('Connected to the site server');
    // The test tries what is typed; Save makes the site the backend.
    await page.getByRole('button', { name: 'Save site server' }).click();
    await expect(page.getByTestId('connection')).toContainText('Site server online');

    await page.getByRole('link', { name: 'Print', exact: true }).click();
    await page
      .getByRole('listbox', { name: 'Template' })
      .getByRole('option', { name: /Site serials/ })
      .click();
    const picker = page.getByLabel('Printer', { exact: true });
    const siteOption = picker.locator('optgroup[label="Site server printers"] option');
    await expect(siteOption).toHaveText(['Dock 7 (site)']);
    await picker.selectOption({ label: 'Dock 7 (site)' });
    await expect(page.getByText('Printed by the site server: it drives this printer')).toBeVisible();
    await expect(page.getByTestId('header-printer')).toContainText('Dock 7');
    await page.getByRole('textbox', { name: 'Copies' }).fill('2');
    await screenshot(page, '17-print-site-printer');
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect(page.getByText('Printed 2 labels on Dock 7 (through the site server).')).toBeVisible({
      timeout: 30_000,
    });

    // Both labels at the site's printer when the answer came, numbered by the site; nothing on this computer's.
    expect(dock.jobs).toHaveLength(2);
    expect(dock.jobs.flatMap((j, i) => scanZplJob(j.zpl, work, `dock-${i}`))).toEqual([
      'SN-000001',
      'SN-000002',
    ]);
    expect(app.zebra.jobs).toHaveLength(0);
    // No address of the site's printer, no secret, reaches the page.
    for (const body of await Promise.all(bodies)) {
      expect(body).not.toContain(mine.secret);
      expect(body).not.toContain(`:${dock.port}`);
    }
  } finally {
    await server.close();
    await dock.close();
    await db.close();
    await pg.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
