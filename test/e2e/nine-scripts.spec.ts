/**
 * Issue #23's acceptance point: a 4 × 6 label with an address in each of nine scripts (Japanese, Simplified
 * Chinese, Korean, Arabic, Hebrew, Thai, Hindi, Greek, Russian — test/outputs/render-scripts.test.ts's) is
 * previewed on the Print screen with no empty box and no "drawn as empty boxes" warning, its screenshot is
 * docs/screenshots/print-nine-scripts-*.png, and the label the printer receives is the engine's own rendering of
 * it with the fallback fonts, dot for dot. The page loads DejaVu alone, so this preview is main's (the hand-over
 * of src/layout/notdef.ts). A character no font has, typed into the note, shows both signals, so they can fail.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { drawsNotdef } from '../../src/layout/notdef';
import { layout } from '../../src/layout/layout';
import { parseTemplate } from '../../src/model/parse';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { renderZplLabels } from '../../src/outputs/render';
import { resolveOne } from '../../src/resolve/resolve';
import { expect, SCREENSHOTS, test } from './fixtures';

const DOCS = resolve(import.meta.dirname, '../../docs/screenshots');

const ADDRESSES = [
  '〒530-0001 大阪府大阪市北区梅田三丁目一番一号',
  '上海市浦东新区世纪大道一百号',
  '서울특별시 중구 세종대로 110',
  'دبي، شارع الشيخ زايد، برج الإمارات',
  'תל אביב, רחוב דיזנגוף 50',
  'กรุงเทพมหานคร ถนนสุขุมวิท',
  'नई दिल्ली, कनॉट प्लेस, राजीव चौक',
  'Αθήνα, Οδός Ερμού 25',
  'Москва, Тверская улица, дом 7',
];

/** 4 × 6 in = 384 × 576 px: one address per 60 px band, 16 px text, and a note field under them. */
const NINE_SCRIPTS = {
  schemaVersion: 1,
  name: 'nine-scripts-4x6',
  title: 'Nine scripts 4×6',
  stage: { width: 4, height: 6, unit: 'in' },
  fields: [{ name: 'note', label: 'Note', placeholder: '' }],
  elements: [
    ...ADDRESSES.map((text, i) => ({
      type: 'text',
      x: 12,
      y: 12 + i * 58,
      width: 360,
      height: 54,
      text,
      font: { family: 'Arial', size: 16 },
    })),
    {
      type: 'text',
      x: 12,
      y: 538,
      width: 360,
      height: 30,
      text: '{note}',
      font: { family: 'Arial', size: 16 },
    },
  ],
};

async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  mkdirSync(DOCS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  copyFileSync(file, join(DOCS, `${name}.png`));
}

const gfa = (zpl: string): string[] => zpl.match(/\^GFA,[^^]*/g) ?? [];

test('nine scripts on a 4×6 label: previewed and printed with no .notdef', async ({ page, app }) => {
  mkdirSync(join(app.dataDir, 'templates'), { recursive: true });
  writeFileSync(join(app.dataDir, 'templates', 'nine-scripts-4x6.json'), JSON.stringify(NINE_SCRIPTS));
  await page.reload();
  await page
    .getByRole('listbox', { name: 'Template' })
    .getByRole('option', { name: /Nine scripts/ })
    .click();

  const preview = page.getByTestId('preview');
  // Every address is in the scene the page draws, each line with glyphs of some font (no glyph 0).
  for (const address of [
    '大阪府',
    '浦东新区',
    '세종대로',
    'الشيخ',
    'דיזנגוף',
    'สุขุมวิท',
    'दिल्ली',
    'Ερμού',
    'Тверская',
  ]) {
    await expect(preview).toHaveAttribute('data-lines', new RegExp(address), { timeout: 30_000 });
  }
  await expect(preview).toHaveAttribute('data-notdef', '0');
  await expect(page.getByText(/drawn as empty boxes/)).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Konva's chunk loaded (not "Loading preview…") and a frame drawn before the screenshot.
  await expect(preview.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await saveScreenshot(page, 'print-nine-scripts-1280x800');

  // The control: U+0378 is unassigned, no font has it — the same signals say so.
  const note = page.getByRole('textbox', { name: 'Note' });
  await note.fill('x\u0378');
  await expect(preview).toHaveAttribute('data-notdef', '1', { timeout: 30_000 });
  await expect(page.getByText(/drawn as empty boxes/)).toBeVisible();
  await note.fill('');
  await expect(preview).toHaveAttribute('data-notdef', '0', { timeout: 30_000 });
  await expect(page.getByText(/drawn as empty boxes/)).toHaveCount(0);

  // Printed: the very dots of the engine's rendering with the bundled fallback chain, which draws no .notdef.
  await expect(page.getByRole('combobox', { name: 'Printer' })).toContainText('Dock Zebra');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  const template = parseTemplate(NINE_SCRIPTS, 'nine-scripts-4x6');
  const markup = resolveOne(template, {});
  const ports = nodeRenderPorts();
  expect(
    drawsNotdef(
      layout(markup, { fonts: ports.fonts, images: new Map(), target: { unit: 'dots', dpi: 203 } }).nodes,
    ),
  ).toBe(false);
  const [expected] = (await renderZplLabels([markup], { dpi: 203 }, ports)).labels;
  expect(gfa(app.zebra.jobs[0]!.zpl)).toEqual(gfa(expected!));
  expect(gfa(expected!).length).toBeGreaterThan(0);
  await expect(page.getByTestId('job-toast')).toContainText(/done/i, { timeout: 30_000 });

  // The designer's canvas draws it too: the page's engine has DejaVu only, so main draws the scene for it.
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'Open a template…' }).click();
  const open = page.getByRole('dialog', { name: 'Open a template' });
  const choice = open.getByRole('combobox', { name: 'Template' });
  const mine = await choice.getByRole('option', { name: /^nine-scripts-4x6/ }).textContent();
  await choice.selectOption({ label: mine! });
  await open.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(open).toBeHidden();
  const canvas = page.getByRole('group', { name: /^Label canvas/ });
  for (const address of ['大阪府', '세종대로', 'الشيخ', 'สุขุมวิท', 'दिल्ली', 'Тверская']) {
    await expect(canvas).toHaveAttribute('data-lines', new RegExp(address), { timeout: 30_000 });
  }
  await expect(canvas).toHaveAttribute('data-notdef', '0');
  await expect(page.getByText(/cannot be drawn/)).toHaveCount(0);
});
