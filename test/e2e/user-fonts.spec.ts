/**
 * Issue #23: a font the user put in `<data dir>/fonts` is the one the Print screen's preview draws when a template
 * names its family. The page loads DejaVu alone, so it hands such a label to main: the font here is DejaVu Serif
 * renamed "Acme Label X" in its name table, so the preview must look exactly as the same label in "Times" (the
 * bundled DejaVu Serif) does, and not as in "Arial", which the page would have drawn by itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { decodePngToGrey } from '../support/grey-image';
import { RENAMED_SERIF_FAMILY as ACME, renamedSerif } from '../support/renamed-font';
import { expect, test } from './fixtures';

const template = (name: string, title: string, family: string) => ({
  schemaVersion: 1,
  name,
  title,
  stage: { width: 3, height: 1, unit: 'in' },
  fields: [],
  elements: [
    { type: 'text', x: 10, y: 4, width: 270, height: 44, text: 'Hamburg 20457', font: { family, size: 30 } },
    // Tells this label's scene from the one before it (same address); outside the part compared.
    { type: 'text', x: 10, y: 72, width: 270, height: 20, text: `marker ${name}`, font: { size: 12 } },
  ],
});

/** The mean absolute difference of the grey levels of two same-sized screenshots' top half (the address). */
function meanDifference(a: Buffer, b: Buffer): number {
  const [ga, gb] = [decodePngToGrey(a), decodePngToGrey(b)];
  expect([ga.width, ga.height]).toEqual([gb.width, gb.height]);
  const end = ga.width * Math.floor(ga.height / 2);
  let sum = 0;
  for (let i = 0; i < end; i++) sum += Math.abs(ga.grey[i]! - gb.grey[i]!);
  return sum / end;
}

async function previewOf(page: Page, title: string, name: string): Promise<Buffer> {
  await page.getByRole('listbox', { name: 'Template' }).getByRole('option', { name: title }).click();
  const preview = page.getByTestId('preview');
  await expect(preview).toHaveAttribute('data-lines', `Hamburg 20457\nmarker ${name}`, { timeout: 30_000 });
  await expect(preview).toHaveAttribute('data-notdef', '0');
  // Konva's chunk loaded (not "Loading preview…"), then two frames for it to draw the scene just received.
  await expect(preview.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  return preview.screenshot();
}

test('a template naming a font of <data dir>/fonts is previewed with it', async ({ page, app }) => {
  mkdirSync(join(app.dataDir, 'fonts'), { recursive: true });
  writeFileSync(join(app.dataDir, 'fonts', 'acme.ttf'), renamedSerif());
  const templates = join(app.dataDir, 'templates');
  mkdirSync(templates, { recursive: true });
  for (const [name, title, family] of [
    ['acme-3x1', 'Acme font', ACME],
    ['times-3x1', 'Times font', 'Times'],
    ['arial-3x1', 'Arial font', 'Arial'],
  ] as const) {
    writeFileSync(join(templates, `${name}.json`), JSON.stringify(template(name, title, family)));
  }
  await page.reload();
  const times = await previewOf(page, 'Times font', 'times-3x1');
  const arial = await previewOf(page, 'Arial font', 'arial-3x1');
  const acme = await previewOf(page, 'Acme font', 'acme-3x1');
  // Konva's anti-aliasing of the same outlines may differ by a shade where a scene arrives differently; a
  // different font differs by whole strokes.
  const fontChange = meanDifference(times, arial);
  expect(fontChange).toBeGreaterThan(2);
  expect(meanDifference(acme, times)).toBeLessThan(fontChange / 10);

  // The designer's Font list offers it, after the generic families; picking it is one change, saved by name.
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'New template…' }).click();
  const create = page.getByRole('dialog', { name: 'New template' });
  await create.getByRole('textbox', { name: 'Name' }).fill('acme-designed');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  await page.getByRole('button', { name: 'Add text' }).click();
  const fontList = page.getByRole('combobox', { name: 'Font', exact: true });
  await expect(fontList.getByRole('option', { name: ACME, exact: true })).toHaveCount(1);
  await fontList.selectOption({ label: ACME });
  await expect(fontList).toHaveValue(ACME);
});
