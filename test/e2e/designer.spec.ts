/**
 * The template designer as a user meets it (#22), by roles and labels only: a 4 × 2 in template made from
 * scratch — a text bound to a new field `name`, a Code 128 bound to `sku`, a rectangle and a line —, one
 * element moved with an arrow key by exactly one dot (checked in the saved file), undone and redone, saved;
 * then printed from the Print screen with values typed into the form it generates, to the Zebra emulator:
 * the label decodes to the typed sku and is, dot for dot, the designer's printer view. Also: unsaved changes
 * asked about; a bundled template duplicated, test-printed and a version restored; a drag and a marquee; the
 * bundled shipping-4x6 duplicated with a new sender address and logo (image files refused first), saved and
 * printed; a template file imported and exported. (Editing: designer-editing.spec.ts.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseTemplate } from '../../src/model/parse';
import { getDot } from '../../src/render/bitmap';
import { scanZplJob } from '../support/barcode-label';
import { decodeZpl } from '../support/zpl-decode';
import {
  addField,
  bind,
  checkerLogo,
  decodeMonoPng,
  docsScreenshot,
  elementsList,
  pngHeaderOnly,
  violations,
} from './designer-support';
import { expect, screenshot, test } from './fixtures';

const NAME = 'Ada Lovelace';
const SKU = 'SKU-12345';
const TEMPLATE = 'shelf-4x2';
interface SavedTemplate {
  name: string;
  stage: { width: number; height: number; unit: string };
  fields: { name: string; label: string; placeholder: string }[];
  elements: { type: string; x: number; y: number; text?: string; format?: string }[];
}

const savedFile = (dataDir: string): SavedTemplate =>
  JSON.parse(readFileSync(join(dataDir, 'templates', `${TEMPLATE}.json`), 'utf8')) as SavedTemplate;

test('designer: a 4×2 in template from scratch, moved one dot, undone, redone, saved and printed', async ({
  page,
  app,
}) => {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'New…' }).click();
  const create = page.getByRole('dialog', { name: 'New template' });
  await create.getByRole('textbox', { name: 'Name' }).fill(TEMPLATE);
  await create.getByRole('combobox', { name: 'Label size' }).selectOption({ label: '4 × 2 in' });
  await expect(create.getByRole('combobox', { name: 'Unit' })).toHaveValue('in');
  await expect(create.getByRole('combobox', { name: 'Printer resolution' })).toHaveValue('203');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();

  await addField(page, 1, 'name', 'Name', NAME);
  await addField(page, 2, 'sku', 'SKU', SKU);
  // Neither is on the label yet.
  await expect(page.getByText('Not on the label')).toHaveCount(2);

  await page.getByRole('button', { name: 'Add text' }).click();
  await page.getByRole('textbox', { name: 'Content' }).fill('');
  await bind(page, 'name');
  await expect(page.getByRole('textbox', { name: 'Content' })).toHaveValue('{name}');

  await page.getByRole('button', { name: 'Add barcode' }).click();
  await expect(page.getByRole('combobox', { name: 'Symbology' })).toHaveValue('code128');
  await bind(page, 'sku');
  await expect(page.getByRole('textbox', { name: 'Value' })).toHaveValue('{sku}');
  await expect(page.getByText('Not on the label')).toHaveCount(0);

  await page.getByRole('button', { name: 'Add rectangle' }).click();
  await page.getByRole('button', { name: 'Add line' }).click();
  await expect(elementsList(page).getByRole('button')).toHaveCount(4);

  const save = page
    .getByRole('toolbar', { name: 'Designer' })
    .getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: `Saved as “${TEMPLATE}”` })).toBeVisible();
  const before = savedFile(app.dataDir);
  expect(before.stage).toMatchObject({ width: 4, height: 2, unit: 'in' });
  expect(before.elements.map((e) => e.type)).toEqual(['text', 'barcode', 'rect', 'line']);
  expect(before.elements[0]!.text).toBe('{name}');
  expect(before.elements[1]).toMatchObject({ format: 'code128', text: '{sku}' });
  const rect = before.elements[2]!;

  // One dot to the right with the arrow key, undone, redone.
  const rectButton = elementsList(page).getByRole('button', { name: /^Rectangle 3/ });
  await rectButton.click();
  await expect(rectButton).toHaveAttribute('aria-pressed', 'true');
  const x = page.getByRole('textbox', { name: /^X/ });
  const x0 = await x.inputValue();
  await page.keyboard.press('ArrowRight');
  await expect(x).not.toHaveValue(x0);
  await page.keyboard.press('Control+z');
  await expect(x).toHaveValue(x0);
  await page.keyboard.press('Control+Shift+z');
  await expect(x).not.toHaveValue(x0);
  await save.click();
  await expect.poll(() => savedFile(app.dataDir).elements[2]!.x).not.toBe(rect.x);
  const after = savedFile(app.dataDir);
  // Exactly one dot at 203 dpi (positions are px at 96 per inch): 96 / 203 px, and nothing else moved.
  expect(after.elements[2]!.x - rect.x).toBeCloseTo(96 / 203, 9);
  expect(after.elements[2]!.y).toBe(rect.y);
  expect(after.elements.filter((_, i) => i !== 2)).toEqual(before.elements.filter((_, i) => i !== 2));
  expect(await violations(page), 'the Design screen').toEqual([]);
  await docsScreenshot(page, 'designer');
  // At the sizes front-desk PCs run: still no violation, nothing scrolls sideways.
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    expect(await violations(page), `the Design screen at ${size.width}×${size.height}`).toEqual([]);
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways, `the Design screen at ${size.width}×${size.height} scrolls sideways`).toBe(0);
    await screenshot(page, `designer-${size.width}x${size.height}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // The printer view: the dots a print of the placeholders burns at 203 dpi.
  await page.getByRole('switch', { name: 'Printer view' }).check();
  const view = page.getByRole('img', { name: /^Printer view: 812 × 406 dots at 203 dpi/ });
  await expect(view).toBeVisible({ timeout: 20_000 });
  const designerDots = decodeMonoPng((await view.getAttribute('src'))!);
  await docsScreenshot(page, 'designer-printer-view');

  // The Print screen has it at once, with a form of its fields.
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: 'Print', exact: true })
    .click();
  await page
    .getByRole('listbox', { name: 'Template' })
    .getByRole('option', { name: new RegExp(TEMPLATE) })
    .click();
  await page.getByRole('textbox', { name: /^Name/ }).fill(NAME);
  await page.getByRole('textbox', { name: /^SKU/ }).fill(SKU);
  await expect(page.getByRole('combobox', { name: 'Printer' })).toContainText('Dock Zebra');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  const zpl = app.zebra.jobs[0]!.zpl;
  expect(scanZplJob(zpl, mkdtempSync(join(tmpdir(), 'ld-e2e-designer-')), 'designer')).toContain(SKU);

  const printed = decodeZpl(zpl).bitmap;
  expect([printed.width, printed.height]).toEqual([designerDots.width, designerDots.height]);
  let differing = 0;
  let black = 0;
  for (let y = 0; y < printed.height; y++) {
    for (let x = 0; x < printed.width; x++) {
      const dot = getDot(printed, x, y);
      if (dot) black++;
      if (dot !== designerDots.black(x, y)) differing++;
    }
  }
  expect(black, 'the printed label has ink').toBeGreaterThan(1000);
  expect(differing, 'dots that differ between the print and the designer’s printer view').toBe(0);
});

test('designer: leaving with unsaved changes asks first, from the keyboard', async ({ page }) => {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'New template…' }).click();
  const create = page.getByRole('dialog', { name: 'New template' });
  await create.getByRole('textbox', { name: 'Name' }).fill('unsaved-2x1');
  await create.getByRole('combobox', { name: 'Label size' }).selectOption({ label: '2 × 1 in (product)' });
  await create.getByRole('textbox', { name: 'Name' }).press('Enter');
  await expect(create).toBeHidden();
  await page.getByRole('button', { name: 'Add rectangle' }).click();

  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: 'Print', exact: true })
    .click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(ask).toBeVisible();
  expect(await violations(page), 'the unsaved-changes dialog').toEqual([]);
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(/#\/design$/);
  await expect(elementsList(page).getByRole('button')).toHaveCount(1);

  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: 'Print', exact: true })
    .click();
  await ask.getByRole('button', { name: 'Discard changes' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/print$/);
});

test('designer: a bundled template is duplicated to be edited, the original stays as it is', async ({
  page,
  app,
}) => {
  const original = resolve(import.meta.dirname, '../../assets/templates/product-2x1.json');
  const originalBytes = readFileSync(original);
  const bundledTemplate = JSON.parse(originalBytes.toString('utf8')) as SavedTemplate;
  const barcodeField = /\{(\w+)\}/.exec(
    bundledTemplate.elements.find((e) => e.type === 'barcode')!.text!,
  )![1];
  const barcodePlaceholder = bundledTemplate.fields.find((f) => f.name === barcodeField)!.placeholder;
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'Open a template…' }).click();
  const open = page.getByRole('dialog', { name: 'Open a template' });
  const choice = open.getByRole('combobox', { name: 'Template' });
  const bundled = await choice.getByRole('option', { name: /^product-2x1 \(bundled/ }).textContent();
  await choice.selectOption({ label: bundled! });
  await open.getByRole('button', { name: 'Open a copy…' }).click();
  const naming = page.getByRole('dialog', { name: 'Name the copy' });
  await expect(naming.getByRole('textbox', { name: 'Name of the copy' })).toHaveValue('product-2x1-copy');
  await naming.getByRole('button', { name: 'Copy and open' }).click();
  await expect(naming).toBeHidden();
  await expect(open).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Template name' })).toHaveValue('product-2x1-copy');
  await expect(elementsList(page).getByRole('button').first()).toBeVisible();

  // Selected and moved ten dots down with Shift: the copy changes, not the bundled one.
  await elementsList(page).getByRole('button').first().click();
  const y = page.getByRole('textbox', { name: /^Y/ });
  const y0 = Number(await y.inputValue());
  await page.keyboard.press('Shift+ArrowDown');
  // Ten dots at 203 dpi (an element placed between dots lands on the nearest one).
  await expect.poll(async () => Math.round((Number(await y.inputValue()) - y0) * 203)).toBe(10);
  await page
    .getByRole('toolbar', { name: 'Designer' })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “product-2x1-copy”' })).toBeVisible();
  // One test label of it, its placeholders typed in, to the printer.
  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Test print' }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  expect(
    scanZplJob(app.zebra.jobs[0]!.zpl, mkdtempSync(join(tmpdir(), 'ld-e2e-designer-')), 'test'),
  ).toContain(barcodePlaceholder);

  // The version the save replaced is kept: restoring it puts the element back.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Earlier versions' }).click();
  const versions = page.getByRole('list', { name: 'Earlier versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(1);
  await versions.getByRole('button', { name: /^Restore the version saved/ }).click();
  // Selected again until the restore has landed (opening the restored version selects nothing).
  await expect
    .poll(async () => {
      await elementsList(page).getByRole('button').first().click();
      return Number(await y.inputValue({ timeout: 1000 }));
    })
    .toBe(y0);

  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: 'Print', exact: true })
    .click();
  const list = page.getByRole('listbox', { name: 'Template' });
  await expect(list.getByRole('option', { name: /product-2x1-copy/ })).toBeVisible();
  expect(readFileSync(original).equals(originalBytes), 'the bundled file is as it was').toBe(true);
});

test('designer: drag moves on whole dots as one undo step; a marquee selects', async ({ page, app }) => {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'New template…' }).click();
  const create = page.getByRole('dialog', { name: 'New template' });
  await create.getByRole('textbox', { name: 'Name' }).fill('drag-4x2');
  await create.getByRole('combobox', { name: 'Label size' }).selectOption({ label: '4 × 2 in' });
  await create.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: 'Add rectangle' }).click();
  const rectButton = elementsList(page).getByRole('button', { name: /^Rectangle 1/ });
  await expect(rectButton).toHaveAttribute('aria-pressed', 'true');
  const x = page.getByRole('textbox', { name: /^X/ });
  const y = page.getByRole('textbox', { name: /^Y/ });
  const width = page.getByRole('textbox', { name: /^Width/ });
  const [x0, y0, w] = [
    Number(await x.inputValue()),
    Number(await y.inputValue()),
    Number(await width.inputValue()),
  ];

  // Where the rectangle is on screen: the canvas's rulers (24 px), then inches at the zoom shown.
  const canvas = page.getByRole('group', { name: /^Label canvas/ });
  const box = (await canvas.boundingBox())!;
  const zoom =
    Number((await page.getByRole('group', { name: 'Zoom' }).textContent())!.match(/(\d+)%/)![1]) / 100;
  const at = (inches: number) => 24 + inches * 96 * zoom;
  const grab = { x: box.x + at(x0 + w / 2), y: box.y + at(y0 + 0.05) };
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(grab.x + 40, grab.y + 25, { steps: 8 });
  await page.mouse.up();
  await expect(x).not.toHaveValue(String(x0));
  const [x1, y1] = [Number(await x.inputValue()), Number(await y.inputValue())];
  expect(x1).toBeGreaterThan(x0);
  expect(y1).toBeGreaterThan(y0);
  await page
    .getByRole('toolbar', { name: 'Designer' })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “drag-4x2”' })).toBeVisible();
  const saved = JSON.parse(
    readFileSync(join(app.dataDir, 'templates', 'drag-4x2.json'), 'utf8'),
  ) as SavedTemplate;
  const rect = saved.elements[0]!;
  // On whole dots at 203 dpi.
  for (const v of [rect.x, rect.y])
    expect(Math.abs(v * (203 / 96) - Math.round(v * (203 / 96)))).toBeLessThan(1e-6);
  // The whole drag is one step back.
  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Undo' }).click();
  await expect(x).toHaveValue(String(x0));
  await expect(y).toHaveValue(String(y0));

  // A position typed in the unit, undone with the cursor still in it: the input shows the value undone to.
  await x.fill('1');
  await expect(x).toHaveValue('1');
  await page.keyboard.press('Control+z');
  await expect(x).toHaveValue(String(x0));
  await x.fill('1x');
  await expect(page.getByText('X: type a number.')).toBeVisible();
  await expect(x).toHaveAttribute('aria-invalid', 'true');
  await x.fill(String(x0));
  await expect(x).not.toHaveAttribute('aria-invalid');

  // A marquee from an empty corner of the label over the rectangle selects it; Escape on the canvas selects
  // nothing.
  await canvas.focus();
  await page.keyboard.press('Escape');
  await expect(rectButton).toHaveAttribute('aria-pressed', 'false');
  await page.mouse.move(box.x + at(3.9), box.y + at(1.9));
  await page.mouse.down();
  await page.mouse.move(box.x + at(x0 + w / 2), box.y + at(y0 + 0.02), { steps: 8 });
  await page.mouse.up();
  await expect(rectButton).toHaveAttribute('aria-pressed', 'true');
});

test('designer: shipping-4x6 duplicated, its sender address and logo changed, saved and printed', async ({
  page,
  app,
}) => {
  const COPY = 'shipping-4x6-acme';
  const SENDER = 'FROM: Acme Parts Ltd\n9 Quay Street\nLeeds LS1 4AB, United Kingdom';
  const original = resolve(import.meta.dirname, '../../assets/templates/shipping-4x6.json');
  const originalBytes = readFileSync(original);
  interface Placed {
    id?: string;
    type: string;
    x: number;
    y: number;
    width: number;
    height: number;
    text?: string;
    url?: string;
  }
  const bundled = JSON.parse(originalBytes.toString('utf8')) as { elements: Placed[] };
  const senderAt = bundled.elements.findIndex((e) => e.id === 'sender');
  const logoAt = bundled.elements.findIndex((e) => e.id === 'logo');
  const sender = bundled.elements[senderAt]!;
  const logo = bundled.elements[logoAt]!;
  const newLogo = checkerLogo();
  const newLogoUrl = `data:image/png;base64,${newLogo.toString('base64')}`;

  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  await page.getByRole('button', { name: 'Open a template…' }).click();
  const open = page.getByRole('dialog', { name: 'Open a template' });
  const choice = open.getByRole('combobox', { name: 'Template' });
  const option = await choice.getByRole('option', { name: /^shipping-4x6 \(bundled/ }).textContent();
  await choice.selectOption({ label: option! });
  await open.getByRole('button', { name: 'Open a copy…' }).click();
  const naming = page.getByRole('dialog', { name: 'Name the copy' });
  await naming.getByRole('textbox', { name: 'Name of the copy' }).fill(COPY);
  await naming.getByRole('button', { name: 'Copy and open' }).click();
  await expect(naming).toBeHidden();
  await expect(open).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Template name' })).toHaveValue(COPY);

  // The label as bundled, in the printer view: what the copy printed before any change.
  const printerView = page.getByRole('switch', { name: 'Printer view' });
  const view = page.getByRole('img', { name: /^Printer view: 812 × 1218 dots at 203 dpi/ });
  await printerView.check();
  await expect(view).toBeVisible({ timeout: 20_000 });
  const beforeSrc = (await view.getAttribute('src'))!;
  const before = decodeMonoPng(beforeSrc);
  await printerView.uncheck();

  // The sender's address.
  await elementsList(page)
    .getByRole('button', { name: new RegExp(`^Text ${senderAt + 1}: FROM:`) })
    .click();
  await page.getByRole('textbox', { name: 'Content' }).fill(SENDER);

  // The logo: files that are not an image this template can carry are refused, naming the file and why: empty,
  // text named .png, too large a file, a header declaring 40000 × 40000 in 1 KB, a header with no image after.
  await elementsList(page)
    .getByRole('button', { name: new RegExp(`^Image ${logoAt + 1}`) })
    .click();
  const file = page.getByLabel('Image file');
  const address = page.getByRole('textbox', { name: 'Image address' });
  await expect(address).toHaveValue(logo.url!);
  const refused = page.getByRole('alert').filter({ hasText: /^“/ });
  await file.setInputFiles({ name: 'empty.png', mimeType: 'image/png', buffer: Buffer.alloc(0) });
  await expect(refused).toHaveText('“empty.png” is empty (0 bytes): choose a PNG, JPEG or SVG image.');
  await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('a text file\n') });
  await expect(refused).toHaveText('“logo.png” is not a PNG, JPEG or SVG image.');
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  await file.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: pngHeaderOnly(40000, 40000, 100 * 1024),
  });
  await expect(refused).toContainText(
    '“huge.png” is 100 KB; an image kept in a template may be at most 73.2 KB',
  );
  await file.setInputFiles({
    name: 'bomb.png',
    mimeType: 'image/png',
    buffer: pngHeaderOnly(40000, 40000, 1024),
  });
  await expect(refused).toHaveText(
    '“bomb.png” declares 40000 × 40000 pixels (1,600,000,000); the limit for any image is 16,000,000 pixels, so scale the image down.',
  );
  await file.setInputFiles({ name: 'cut.png', mimeType: 'image/png', buffer: pngHeaderOnly(200, 200, 1024) });
  await expect(refused).toHaveText('“cut.png” has a PNG header but its image data cannot be read.');
  expect(await violations(page), 'the image properties with a refused file').toEqual([]);
  await expect(address).toHaveValue(logo.url!);
  // The new logo: taken, one undo step.
  await file.setInputFiles({ name: 'acme-logo.png', mimeType: 'image/png', buffer: newLogo });
  await expect(page.getByText('“acme-logo.png”: PNG, 128 × 128 pixels.')).toBeVisible();
  await expect(refused).toHaveCount(0);
  await expect(address).toHaveValue(newLogoUrl);
  const toolbar = page.getByRole('toolbar', { name: 'Designer' });
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect(address).toHaveValue(logo.url!);
  await toolbar.getByRole('button', { name: 'Redo' }).click();
  await expect(address).toHaveValue(newLogoUrl);

  await toolbar.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved as “${COPY}”` })).toBeVisible();
  const saved = JSON.parse(
    readFileSync(join(app.dataDir, 'templates', `${COPY}.json`), 'utf8'),
  ) as typeof bundled;
  expect(saved.elements[senderAt]!.text).toBe(SENDER);
  expect(saved.elements[logoAt]!.url).toBe(newLogoUrl);
  // Nothing else changed.
  const others = (elements: readonly unknown[]) => elements.filter((_, i) => i !== senderAt && i !== logoAt);
  // (A save writes the template as the schema reads it: its defaults spelled out.)
  expect(others(saved.elements)).toEqual(others(parseTemplate(bundled).elements));

  // The printer view of the changed copy, then one label of it to the printer.
  await printerView.check();
  await expect(view).not.toHaveAttribute('src', beforeSrc, { timeout: 20_000 });
  const after = decodeMonoPng((await view.getAttribute('src'))!);
  await printerView.uncheck();
  await toolbar.getByRole('button', { name: 'Test print' }).click();
  await expect.poll(() => app.zebra.jobs.length, { timeout: 30_000 }).toBe(1);
  const printed = decodeZpl(app.zebra.jobs[0]!.zpl).bitmap;
  expect([printed.width, printed.height]).toEqual([before.width, before.height]);

  // Dots of a template box (px at 96 dpi) at 203 dpi, `grow` dots wider each side.
  const dotBox = (b: { x: number; y: number; width: number; height: number }, grow = 0) => ({
    x0: Math.floor((b.x * 203) / 96) - grow,
    y0: Math.floor((b.y * 203) / 96) - grow,
    x1: Math.ceil(((b.x + b.width) * 203) / 96) + grow,
    y1: Math.ceil(((b.y + b.height) * 203) / 96) + grow,
  });
  const inBox = (x: number, y: number, b: ReturnType<typeof dotBox>) =>
    x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
  const logoBox = dotBox(logo, 2);
  const senderBox = dotBox(sender, 2);
  let changedOutside = 0;
  let changedLogo = 0;
  let changedSender = 0;
  let unlikeView = 0;
  for (let y = 0; y < printed.height; y++) {
    for (let x = 0; x < printed.width; x++) {
      const dot = getDot(printed, x, y);
      if (dot !== after.black(x, y)) unlikeView++;
      if (dot === before.black(x, y)) continue;
      if (inBox(x, y, logoBox)) changedLogo++;
      else if (inBox(x, y, senderBox)) changedSender++;
      else changedOutside++;
    }
  }
  expect(unlikeView, 'dots that differ between the print and the designer’s printer view').toBe(0);
  expect(changedOutside, 'dots changed outside the logo and the sender').toBe(0);
  expect(changedSender, 'dots changed in the sender’s address').toBeGreaterThan(200);
  expect(changedLogo, 'dots changed in the logo').toBeGreaterThan(500);
  // The new logo printed: each of its 16 squares black or white at its centre (the logo fills its box).
  const cell = logo.width / 4;
  const squares: string[] = [];
  for (let r = 0; r < 4; r++) {
    let row = '';
    for (let c = 0; c < 4; c++) {
      const cx = Math.round(((logo.x + (c + 0.5) * cell) * 203) / 96);
      const cy = Math.round(((logo.y + (r + 0.5) * (logo.height / 4)) * 203) / 96);
      let black = 0;
      for (let dy = -3; dy <= 3; dy++)
        for (let dx = -3; dx <= 3; dx++) if (getDot(printed, cx + dx, cy + dy)) black++;
      row += black > 40 ? '#' : black < 9 ? '.' : '?';
    }
    squares.push(row);
  }
  expect(squares, 'the printed logo, square by square').toEqual(['#.#.', '.#.#', '#.#.', '.#.#']);
  expect(readFileSync(original).equals(originalBytes), 'the bundled shipping-4x6 is as it was').toBe(true);
});

test('designer: a template file imported (problems listed, a taken name asked about) and exported', async ({
  page,
  app,
}) => {
  const shippingFile = resolve(import.meta.dirname, '../../assets/templates/shipping-4x6.json');
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Design' }).click();
  const toolbar = page.getByRole('toolbar', { name: 'Designer' });
  await toolbar.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a template' });
  const file = dialog.getByLabel('Template file');
  const importButton = dialog.getByRole('button', { name: 'Import and open' });

  await file.setInputFiles({ name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) });
  await expect(dialog.getByRole('alert')).toHaveText('“empty.json” is empty (0 bytes).');
  await expect(importButton).toBeDisabled();

  const broken = {
    schemaVersion: 1,
    name: 'broken',
    stage: { width: 2, height: 1, unit: 'in' },
    elements: [{ type: 'barcode', x: 0, y: 0, width: 100, height: 40, format: 'code12', text: '{sku}' }],
  };
  await file.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(broken)),
  });
  const problems = dialog.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem');
  await expect(
    problems.filter({ hasText: /^elements\[0\]\.format: unknown barcode format "code12"/ }),
  ).toHaveCount(1);
  await expect(
    problems.filter({
      hasText: 'elements[0].text: refers to field "sku", which is not declared in "fields"',
    }),
  ).toHaveCount(1);
  await expect(
    dialog.getByText('“broken.json” is not a template LabelDesk can use: 2 problems.'),
  ).toBeVisible();
  expect(await violations(page), 'the import dialog with problems').toEqual([]);
  await file.setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"name": '),
  });
  await expect(problems).toHaveCount(1);
  await expect(problems).toHaveText(/^not valid JSON/);
  await expect(importButton).toBeDisabled();

  // The bundled shipping-4x6's own file: its name is taken, so another is asked for.
  await file.setInputFiles(shippingFile);
  const name = dialog.getByRole('textbox', { name: 'Name of the imported template' });
  await expect(name).toHaveValue('shipping-4x6');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(
    dialog.getByText('A template is already called “shipping-4x6”: choose another name.'),
  ).toBeVisible();
  await expect(importButton).toBeDisabled();
  await name.fill('shipping-imported');
  await expect(name).not.toHaveAttribute('aria-invalid');
  await importButton.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Template name' })).toHaveValue('shipping-imported');
  await expect(page.getByText('Imported as “shipping-imported” in your templates.')).toBeVisible();
  const importedPath = join(app.dataDir, 'templates', 'shipping-imported.json');
  const imported = JSON.parse(readFileSync(importedPath, 'utf8')) as { name: string; elements: unknown[] };
  const bundled = parseTemplate(JSON.parse(readFileSync(shippingFile, 'utf8')));
  expect(imported).toEqual({ ...bundled, name: 'shipping-imported' });

  // Export: the file as saved.
  const exportButton = toolbar.getByRole('button', { name: 'Export' });
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toBe('shipping-imported.json');
  const exported = join(mkdtempSync(join(tmpdir(), 'ld-e2e-export-')), 'exported.json');
  await download.saveAs(exported);
  expect(
    readFileSync(exported).equals(readFileSync(importedPath)),
    'the exported file is the saved one',
  ).toBe(true);
  // Unsaved changes are not what Export writes: it waits for a save.
  await page.getByRole('button', { name: 'Add rectangle' }).click();
  await expect(exportButton).toBeDisabled();
});
