/**
 * The designer e2e tests' helpers: screenshots for the README, axe's findings, the printer view's PNG as dots,
 * fields and bindings made by roles and labels, and image files made to be imported (a logo, bare headers).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { monoToPng } from '../../src/node/mono-png';
import { createMonoBitmap, setDot } from '../../src/render/bitmap';
import { SCREENSHOTS, expect, screenshot } from './fixtures';

const DOCS = resolve(import.meta.dirname, '../../docs/screenshots');

/** A screenshot for the record, copied into docs/screenshots/ for the README. */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  mkdirSync(DOCS, { recursive: true });
  copyFileSync(join(SCREENSHOTS, `${name}.png`), join(DOCS, `${name}.png`));
}

/** axe's findings as "rule: selector" lines (none expected). */
export async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}`));
}

/** A 1-bit greyscale PNG (the printer view) as dots: 1 where the head burns. */
export function decodeMonoPng(dataUrl: string): {
  width: number;
  height: number;
  black(x: number, y: number): boolean;
} {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  for (let o = 8; o + 8 <= png.length;) {
    const len = png.readUInt32BE(o);
    const type = png.toString('latin1', o + 4, o + 8);
    const body = png.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([body[8], body[9], body[12]], 'a 1-bit grey PNG, not interlaced').toEqual([1, 0, 0]);
    } else if (type === 'IDAT') idat.push(body);
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = Math.ceil(width / 8);
  for (let y = 0; y < height; y++) expect(raw[y * (stride + 1)], `row ${y}'s filter`).toBe(0);
  return {
    width,
    height,
    // PNG grey 0 is black.
    black: (x, y) => ((raw[y * (stride + 1) + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0,
  };
}

export async function addField(page: Page, n: number, name: string, label: string, placeholder: string) {
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: `Field ${n} name` }).fill(name);
  await page.getByRole('textbox', { name: `Field ${n} label` }).fill(label);
  await page.getByRole('textbox', { name: `Field ${n} placeholder` }).fill(placeholder);
}

export async function bind(page: Page, field: string) {
  await page.getByRole('combobox', { name: 'Field to insert' }).selectOption(field);
  await page.getByRole('button', { name: 'Insert field' }).click();
}

export const elementsList = (page: Page): Locator => page.getByRole('list', { name: 'Elements' });

/** A 128 × 128 logo of 4 × 4 black and white squares (top left black), as a 1-bit PNG. */
export function checkerLogo(): Buffer {
  const bitmap = createMonoBitmap(128, 128);
  for (let y = 0; y < 128; y++)
    for (let x = 0; x < 128; x++) setDot(bitmap, x, y, ((x >> 5) + (y >> 5)) % 2 === 0);
  return Buffer.from(monoToPng(bitmap, 96));
}

/** A PNG signature and header declaring `w × h` pixels, padded with zeros to `bytes` (no image data). */
export function pngHeaderOnly(w: number, h: number, bytes: number): Buffer {
  const d = Buffer.alloc(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(d);
  d.writeUInt32BE(w, 16);
  d.writeUInt32BE(h, 20);
  return d;
}

/** Design → New template…: a template of that name and preset size, open in the designer. */
export async function newTemplate(page: Page, name: string, size: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'New template…' }).click();
  const create = page.getByRole('dialog', { name: 'New template' });
  await create.getByRole('textbox', { name: 'Name' }).fill(name);
  await create.getByRole('combobox', { name: 'Label size' }).selectOption({ label: size });
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
}
