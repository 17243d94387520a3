/**
 * Issue #23: a font the user put in `<data dir>/fonts` is the one the Print screen's preview draws when a template
 * names its family. The page loads DejaVu alone, so it hands such a label to main: the font here is DejaVu Serif
 * renamed "Acme Label X" in its name table, so the preview must look exactly as the same label in "Times" (the
 * bundled DejaVu Serif) does, and not as in "Arial", which the page would have drawn by itself.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { fontsDir } from '../../src/node/assets';
import { decodePngToGrey } from '../support/grey-image';
import { expect, test } from './fixtures';

const ACME = 'Acme Label X'; // as long as "DejaVu Serif": the name table's records keep their lengths

function renamedSerif(): Buffer {
  const bytes = Buffer.from(readFileSync(join(fontsDir(), 'DejaVuSerif.ttf')));
  const replaceAll = (from: Buffer, to: Buffer): void => {
    for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + to.length)) to.copy(bytes, at);
  };
  replaceAll(Buffer.from('DejaVu Serif', 'latin1'), Buffer.from(ACME, 'latin1'));
  replaceAll(Buffer.from('DejaVu Serif', 'utf16le').swap16(), Buffer.from(ACME, 'utf16le').swap16());
  return bytes;
}

const template = (name: string, title: string, family: string) => ({
  schemaVersion: 1,
  name,
  title,
  stage: { width: 3, height: 1, unit: 'in' },
  fields: [],
  elements: [
    { type: 'text', x: 10, y: 10, width: 270, height: 70, text: 'Hamburg 20457', font: { family, size: 30 } },
  ],
});

/** The mean absolute difference of two same-sized screenshots' grey levels (0–255). */
function meanDifference(a: Buffer, b: Buffer): number {
  const [ga, gb] = [decodePngToGrey(a), decodePngToGrey(b)];
  expect([ga.width, ga.height]).toEqual([gb.width, gb.height]);
  let sum = 0;
  for (let i = 0; i < ga.grey.length; i++) sum += Math.abs(ga.grey[i]! - gb.grey[i]!);
  return sum / ga.grey.length;
}

async function previewOf(page: Page, title: string): Promise<Buffer> {
  await page.getByRole('listbox', { name: 'Template' }).getByRole('option', { name: title }).click();
  const preview = page.getByTestId('preview');
  await expect(preview).toHaveAttribute('data-lines', /Hamburg 20457/, { timeout: 30_000 });
  await expect(preview).toHaveAttribute('data-notdef', '0');
  // Two frames for Konva to draw the scene just received.
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
  const times = await previewOf(page, 'Times font');
  const arial = await previewOf(page, 'Arial font');
  const acme = await previewOf(page, 'Acme font');
  // Konva's anti-aliasing of the same outlines may differ by a shade where a scene arrives differently; a
  // different font differs by whole strokes.
  const fontChange = meanDifference(times, arial);
  expect(fontChange).toBeGreaterThan(2);
  expect(meanDifference(acme, times)).toBeLessThan(fontChange / 10);
});
