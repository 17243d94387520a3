/**
 * Issue #33 items 3 and 4 in the app: a carrier's ZPL file opened on the Print screen (button or drop), its
 * three labels shown, the printer view equal dot for dot to `labeldesk render --zpl … --format png`, printed to
 * the Zebra emulator through the job queue (each label once, the file's settings taken out), in History, and
 * reprinted after a question.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cli } from '../support/cli';
import { monoPngToBitmap } from '../support/mono-png';
import { zbarValues } from '../support/zbar';
import { expect, test } from './fixtures';

const TRACKING = ['1Z999AA10123456784', '1Z999AA10123456791', '1Z999AA10123456802'];

/** A 4 × 6 in carrier-like label: a frame, the sender, a Code 128 tracking number, its text. */
const LABEL = (tracking: string, n: number) =>
  [
    '^XA^PR4^PW812^LL1218',
    '^FO20,20^GB772,1178,4^FS',
    `^FO50,50^A0N,40,40^FDPARCEL ${n} OF 3^FS`,
    '^FO50,110^A0N,30,30^FDACME WAREHOUSE, DOCK 4^FS',
    `^FO60,300^BY3^BCN,200,N,N,N^FD${tracking}^FS`,
    `^FO60,540^A0N,36,36^FD${tracking}^FS`,
    '^XZ',
  ].join('\n');

/** The file's darkness and speed: printer settings, taken out unless kept. */
const CARRIER_FILE = `~SD25\n${TRACKING.map((t, i) => LABEL(t, i + 1)).join('\n')}\n`;

async function openZpl(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel('ZPL file')
    .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
}

test('a carrier ZPL file: three labels, the printer view as the CLI draws it, printed once each, reprinted', async ({
  page,
  app,
}) => {
  await expect(page.getByRole('button', { name: 'Open ZPL…' })).toBeVisible();
  await openZpl(page, 'carrier.zpl', CARRIER_FILE);

  // The file's settings are named, in words.
  const about = page.getByRole('list', { name: 'About this file' });
  await expect(about).toContainText('darkness');
  await expect(about).toContainText('print speed');

  // Three labels, each with its number; the first shown large.
  const labels = page.getByRole('list', { name: 'Labels in the file' }).getByRole('button');
  await expect(labels).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await expect(labels.nth(i)).toContainText(`Label ${i + 1}`);
    await expect(labels.nth(i)).toContainText('4 × 6 in');
    await expect(labels.nth(i)).toContainText(`PARCEL ${i + 1} OF 3`);
  }

  // The printer view, dot for dot what `labeldesk render --zpl FILE --format png` writes at the same dpi.
  const work = mkdtempSync(join(tmpdir(), 'ld-zpl-open-'));
  try {
    const file = join(work, 'carrier.zpl');
    writeFileSync(file, CARRIER_FILE);
    const out = join(work, 'png');
    const r = await cli(['render', '--zpl', file, '--format', 'png', '--dpi', '203', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const pngs = readdirSync(out).sort();
    expect(pngs).toHaveLength(3);
    for (let n = 1; n <= 3; n++) {
      await labels.nth(n - 1).click();
      await expect(labels.nth(n - 1)).toHaveAttribute('aria-pressed', 'true');
      const view = page.getByRole('img', { name: `Printer view of label ${n}: the dots at 203 dpi` });
      const src = (await view.getAttribute('src')) ?? '';
      const shown = monoPngToBitmap(src);
      const cliPng = readFileSync(join(out, pngs[n - 1]!));
      const written = monoPngToBitmap(`data:image/png;base64,${cliPng.toString('base64')}`);
      expect([shown.width, shown.height]).toEqual([812, 1218]);
      expect([shown.width, shown.height]).toEqual([written.width, written.height]);
      expect(Buffer.from(shown.data).equals(Buffer.from(written.data)), `label ${n}: dot for dot`).toBe(true);
      // And what the view shows scans as the label's tracking number.
      const viewFile = join(work, `view-${n}.png`);
      writeFileSync(viewFile, Buffer.from(src.replace(/^data:image\/png;base64,/, ''), 'base64'));
      expect(zbarValues(viewFile)).toEqual([TRACKING[n - 1]]);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  // Printed: a double click is one print; the settings are taken out (the checkbox is off by default). Ticked,
  // the choice may be remembered for the printer; unticked again, there is nothing to remember.
  const keep = page.getByRole('checkbox', { name: /Keep the file's printer settings/ });
  await expect(keep).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Remember for Dock Zebra' })).toHaveCount(0);
  await keep.check();
  await expect(page.getByRole('checkbox', { name: 'Remember for Dock Zebra' })).not.toBeChecked();
  await keep.uncheck();
  await expect(page.getByRole('checkbox', { name: 'Remember for Dock Zebra' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Print 3 labels' }).dblclick();
  await expect(page.getByRole('status').filter({ hasText: 'carrier.zpl' })).toContainText(
    '3 labels of carrier.zpl sent to Dock Zebra',
  );
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(3);

  await page.getByRole('link', { name: 'History' }).click();
  const jobs = page.getByRole('table', { name: 'Jobs' });
  await expect(jobs.getByRole('row').filter({ hasText: 'carrier.zpl' })).toHaveCount(1);
  await jobs
    .getByRole('button', { name: /^Job \d+$/ })
    .first()
    .click();
  const labelTable = page.getByRole('table', { name: /Labels of job/ });
  await expect(labelTable.getByRole('row').filter({ hasText: /confirmed/i })).toHaveCount(3);
  // Each label received once, as its own bytes; no darkness, no speed sent.
  const received = app.zebra.jobs.map((j) => j.zpl);
  for (const t of TRACKING) expect(received.filter((z) => z.includes(`^FD${t}^FS`))).toHaveLength(1);
  for (const z of received) expect(z).not.toMatch(/~SD|\^PR/);

  await page.getByRole('button', { name: 'Reprint job' }).click();
  await page
    .getByRole('dialog', { name: /^Reprint job \d+\?$/ })
    .getByRole('button', { name: 'Reprint 3 labels on Dock Zebra' })
    .click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(6);
  expect(app.zebra.jobs.slice(3).map((j) => j.zpl)).toEqual(received);
});

test('a ZPL file dropped on the Print screen opens; one without a label says so', async ({ page }) => {
  const dropped = await page.evaluateHandle(
    (text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'dropped.prn', { type: 'text/plain' }));
      return data;
    },
    LABEL(TRACKING[0]!, 1),
  );
  await page.getByRole('listbox', { name: 'Template' }).dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByRole('heading', { name: 'dropped.prn' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Labels in the file' }).getByRole('button')).toHaveCount(1);
  await expect(page.getByRole('img', { name: /Printer view of label 1/ })).toBeVisible();

  await page.getByRole('button', { name: 'Close file' }).click();
  await openZpl(page, 'notes.txt', 'hello, this is not a label\n');
  await expect(page.getByRole('alert')).toContainText('notes.txt has no label in it (no ^XA…^XZ)');
  // The Print screen is still there: the template's form, not a crash.
  await expect(page.getByRole('button', { name: 'Open ZPL…' })).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Template' })).toBeVisible();
});
