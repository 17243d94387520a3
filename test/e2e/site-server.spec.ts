/**
 * The app with a site server as its backend (issue #24), in Chromium against web mode: a real `labeldesk serve
 * --database` on a real PostgreSQL, the Zebra emulator as this workstation's printer. Settings → Site server →
 * Test site connection; the site's template with a counter field listed as `site`; two prints of 2 copies with
 * another workstation printing in between: four labels with four distinct serials, consecutive for each print,
 * none repeated, that the site's history shows under this workstation's key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/node/serve/server';
import { openSiteDb } from '../../src/node/site/db';
import { siteKeys, siteTemplates } from '../../src/node/site/site-stores';
import { defaultTemplateStore } from '../../src/node/template-store';
import { startPostgres } from '../support/postgres';
import { scanZplJob } from '../support/barcode-label';
import { SITE_SERIALS, siteSerialsTemplate } from '../support/site-serials';
import { expect, screenshot, test } from './fixtures';

const TEMPLATE = SITE_SERIALS;

/** A label whose Code 128 carries its serial (SN-000001, …): a scan of the printed dots reads it back. */
const serialTemplate = siteSerialsTemplate();

test('site server: its template, its serials, printed here, never repeated by another workstation', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000);
  const work = mkdtempSync(join(tmpdir(), 'ld-e2e-site-'));
  const pg = await startPostgres();
  const db = await openSiteDb(await pg.createDatabase(), { max: 4 });
  const logs: string[] = [];
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: work,
    limits: { renderWorkers: 0 },
    logStream: { write: (line) => void logs.push(line) },
    site: { db, instance: 'site-e2e' },
  });
  // Whatever the page receives from LabelDesk, the site secret is never in it.
  const bodies: Promise<string>[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/ipc/')) bodies.push(r.text().catch(() => ''));
  });
  try {
    const mine = await siteKeys(db).create();
    const other = await siteKeys(db).create();
    await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(serialTemplate, null, 2), 'e2e');

    await page.getByRole('link', { name: /Printers & Settings/ }).click();
    await page.getByLabel('Site URL').fill(server.url);
    await page.getByLabel('Site key id').fill(mine.key);
    await page.getByLabel('Site key secret').fill(mine.secret);
    await page.getByLabel(/Print through the site server/).check();
    // Testing tests what is typed without saving it (a wrong secret first: refused, nothing kept).
    await page.getByLabel('Site key secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Test site connection' }).click();
    await expect(page.getByTestId('site-connection-test')).toContainText(/refused|not accepted|401/i);
    await page.getByLabel('Site key secret').fill(mine.secret);
    await page.getByRole('button', { name: 'Test site connection' }).click();
    await expect(page.getByTestId('site-connection-test')).toContainText(
      'Connected to the site server (instance site-e2e): the key is accepted',
    );
    await expect(page.getByTestId('site-connection-test')).toContainText('Save to use these settings.');
    await expect(page.getByTestId('connection')).not.toContainText('Site server');
    // Saved, the site prints.
    await page.getByRole('button', { name: 'Save site server' }).click();
    await expect(page.getByTestId('connection')).toContainText('Site server online');
    expect(app.stderr()).not.toContain('not-the-secret');
    await screenshot(page, '15-settings-site-server');

    await page.getByRole('link', { name: 'Print', exact: true }).click();
    const option = page
      .getByRole('listbox', { name: 'Template' })
      .getByRole('option', { name: /Site serials/ });
    await expect(option).toContainText(/site/i);
    await option.click();
    const note = page.getByRole('textbox', { name: /Note/ });
    await expect(note).toBeVisible();
    const copies = page.getByRole('textbox', { name: 'Copies' });
    const print = page.getByRole('button', { name: 'Print', exact: true });

    await note.fill('first');
    await copies.fill('2');
    await print.click();
    await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(2);

    // Another workstation (another key) prints a label of the same template meanwhile.
    const response = await fetch(`${server.url}/custom-labels/fetch-markups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': other.key, 'x-api-secret': other.secret },
      body: JSON.stringify({ label_name: TEMPLATE, amount: 1, apiData: { note: 'elsewhere' } }),
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('SN-000003');

    await note.fill('second');
    await copies.fill('2');
    await print.click();
    await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(4);
    await expect(page.getByTestId('job-toast').last()).toContainText(/done/i);

    const serials = app.zebra.jobs.flatMap((j, i) => scanZplJob(j.zpl, work, `site-${i}`));
    expect(serials).toEqual(['SN-000001', 'SN-000002', 'SN-000004', 'SN-000005']);
    expect(new Set([...serials, 'SN-000003']).size).toBe(5);

    // The site's history: both prints under this workstation's key, the other one's in between.
    const history = await fetch(`${server.url}/site/jobs?template=${TEMPLATE}`, {
      headers: { 'x-api-key': mine.key, 'x-api-secret': mine.secret },
    });
    const { jobs } = (await history.json()) as {
      jobs: { api_key: string; labels: number; counters: { serial: number }; instance: string }[];
    };
    expect(jobs.map((j) => [j.api_key, j.labels, j.counters.serial, j.instance])).toEqual([
      [mine.key, 2, 4, 'site-e2e'],
      [other.key, 1, 3, 'site-e2e'],
      [mine.key, 2, 1, 'site-e2e'],
    ]);
    // The History screen shows the site's history: who, where, when, the first serial of each request.
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Site history' }).getByTestId('site-job');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText(mine.key);
    await expect(rows.nth(0)).toContainText('serial 4');
    await expect(rows.nth(1)).toContainText(other.key);
    await expect(rows.nth(2)).toContainText('serial 1');
    await expect(rows.nth(2)).toContainText('site-e2e');
    await screenshot(page, '16-history-site');
    for (const body of await Promise.all(bodies)) expect(body).not.toContain(mine.secret);
    expect(app.stderr()).not.toContain(mine.secret);
    expect(logs.join('\n')).not.toContain(mine.secret);
  } finally {
    await server.close();
    await db.close();
    await pg.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
