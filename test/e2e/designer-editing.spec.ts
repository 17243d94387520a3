/**
 * Editing in the designer (#22), by roles and labels only: a field's rules checked as they are typed and saved
 * as set; several elements resized and rotated together by the transformer, each one undo step; the canvas
 * panned with Space held; elements selected from the keyboard in the list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addField, bind, elementsList, newTemplate, violations } from './designer-support';
import { expect, test } from './fixtures';

test("designer: a field's rules — pattern, default, maximum length, choices, counter — checked as typed", async ({
  page,
  app,
}) => {
  await newTemplate(page, 'rules-2x1', '2 × 1 in (product)');
  await addField(page, 1, 'code', 'Code', 'AA000');
  await page.getByRole('button', { name: 'Add text' }).click();
  await bind(page, 'code');

  const pattern = page.getByRole('textbox', { name: 'Field 1 pattern' });
  await pattern.fill('[A-Z]{2}\\d{3');
  await expect(pattern).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/^not a valid regular expression: /)).toBeVisible();
  await pattern.fill('[A-Z]{2}\\d{3}');
  await expect(pattern).not.toHaveAttribute('aria-invalid');

  const fallback = page.getByRole('textbox', { name: 'Field 1 default' });
  await fallback.fill('ab123');
  await expect(fallback).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('The default is refused: Code must be 2 capital letters, then 3 digits, got "ab123".'),
  ).toBeVisible();
  await fallback.fill('AB123');
  await expect(fallback).not.toHaveAttribute('aria-invalid');

  const longest = page.getByRole('textbox', { name: /^Field 1 maximum length/ });
  await longest.fill('4');
  await expect(
    page.getByText('The default is refused: Code is 5 characters long; the maximum is 4.'),
  ).toBeVisible();
  await longest.fill('');
  await expect(fallback).not.toHaveAttribute('aria-invalid');

  await page.getByRole('combobox', { name: 'Field 1 type' }).selectOption('choice');
  const choices = page.getByRole('textbox', { name: 'Field 1 choices' });
  await expect(choices).toHaveValue('AB123');
  await choices.fill('AB123\nCD456\nAB123');
  await expect(page.getByText('“AB123” listed more than once.')).toBeVisible();
  await choices.fill('AB123\nCD456');
  await expect(choices).not.toHaveAttribute('aria-invalid');
  expect(await violations(page), 'the fields panel').toEqual([]);

  const toolbar = page.getByRole('toolbar', { name: 'Designer' });
  // Saved with Ctrl+S pressed twice in a row: one save, not a second one asking to replace the first.
  await page.keyboard.press('Control+s');
  await page.keyboard.press('Control+s');
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “rules-2x1”' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Replace the template?' })).toBeHidden();
  const saved = JSON.parse(readFileSync(join(app.dataDir, 'templates', 'rules-2x1.json'), 'utf8')) as {
    fields: Record<string, unknown>[];
  };
  expect(saved.fields[0]).toEqual({
    name: 'code',
    label: 'Code',
    placeholder: 'AA000',
    type: 'choice',
    required: false,
    pattern: '[A-Z]{2}\\d{3}',
    choices: ['AB123', 'CD456'],
    default: 'AB123',
  });

  // A counter numbering SSCCs: the company prefix checked as typed; the switch to SSCCs is one undo step.
  await page.getByRole('combobox', { name: 'Field 1 type' }).selectOption('counter');
  await page.getByRole('textbox', { name: 'Field 1 first number' }).fill('100');
  await expect(page.getByRole('textbox', { name: 'Field 1 text before the number' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Field 1 numbers SSCCs (GS1)' }).check();
  await expect(page.getByRole('textbox', { name: 'Field 1 text before the number' })).toBeHidden();
  const prefix = page.getByRole('textbox', { name: 'Field 1 GS1 company prefix' });
  await prefix.fill('12');
  await expect(prefix).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('the GS1 company prefix is 6 to 12 digits', { exact: true })).toBeVisible();
  await prefix.fill('0614141');
  await expect(prefix).not.toHaveAttribute('aria-invalid');
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('checkbox', { name: 'Field 1 numbers SSCCs (GS1)' })).not.toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Field 1 first number' })).toHaveValue('100');
});

test('designer: two elements resized, then rotated, together with the transformer, each one undo step', async ({
  page,
}) => {
  await newTemplate(page, 'resize-4x2', '4 × 2 in');
  await page.getByRole('button', { name: 'Add rectangle' }).click();
  await page.getByRole('button', { name: 'Add rectangle' }).click();
  const list = elementsList(page);
  const boxOf = async (n: number) => {
    await list.getByRole('button', { name: new RegExp(`^Rectangle ${n}`) }).click();
    const read = async (name: RegExp) => Number(await page.getByRole('textbox', { name }).inputValue());
    return { x: await read(/^X/), y: await read(/^Y/), w: await read(/^Width/), h: await read(/^Height/) };
  };
  const [a, b] = [await boxOf(1), await boxOf(2)];

  // Both selected from the keyboard (Ctrl+A), the transformer's bottom-right handle dragged out.
  await page.getByRole('group', { name: /^Label canvas/ }).focus();
  await page.keyboard.press('Control+a');
  await expect(list.getByRole('button', { pressed: true })).toHaveCount(2);
  const canvas = page.getByRole('group', { name: /^Label canvas/ });
  const box = (await canvas.boundingBox())!;
  const zoom =
    Number((await page.getByRole('group', { name: 'Zoom' }).textContent())!.match(/(\d+)%/)![1]) / 100;
  const at = (inches: number) => 24 + inches * 96 * zoom;
  const corner = {
    x: box.x + at(Math.max(a.x + a.w, b.x + b.w)),
    y: box.y + at(Math.max(a.y + a.h, b.y + b.h)),
  };
  await page.mouse.move(corner.x, corner.y);
  await page.mouse.down();
  await page.mouse.move(corner.x + 60, corner.y + 30, { steps: 8 });
  await page.mouse.up();

  const [a1, b1] = [await boxOf(1), await boxOf(2)];
  expect(a1.w, 'the first rectangle is wider').toBeGreaterThan(a.w + 0.05);
  expect(b1.w, 'the second rectangle is wider').toBeGreaterThan(b.w + 0.05);
  expect(a1.h).toBeGreaterThan(a.h);
  expect(b1.h).toBeGreaterThan(b.h);
  // One step back undoes both.
  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Undo' }).click();
  expect([await boxOf(1), await boxOf(2)]).toEqual([a, b]);

  // Both turned a quarter clockwise by the rotation handle (18 px above the middle of their common box: on the
  // canvas though they are at the label's top).
  await page.getByRole('group', { name: /^Label canvas/ }).focus();
  await page.keyboard.press('Control+a');
  const left = Math.min(a.x, b.x);
  const top = Math.min(a.y, b.y);
  const centre = {
    x: box.x + at((left + Math.max(a.x + a.w, b.x + b.w)) / 2),
    y: box.y + at((top + Math.max(a.y + a.h, b.y + b.h)) / 2),
  };
  const handle = { x: centre.x, y: box.y + at(top) - 18 };
  const radius = centre.y - handle.y;
  await page.mouse.move(handle.x, handle.y);
  await page.mouse.down();
  for (const deg of [20, 45, 70, 90]) {
    const r = (deg * Math.PI) / 180;
    await page.mouse.move(centre.x + radius * Math.sin(r), centre.y - radius * Math.cos(r), { steps: 3 });
  }
  await page.mouse.up();
  const rotation = page.getByRole('textbox', { name: /^Rotation/ });
  await list.getByRole('button', { name: /^Rectangle 1/ }).click();
  await expect(rotation).toHaveValue('90');
  await list.getByRole('button', { name: /^Rectangle 2/ }).click();
  await expect(rotation).toHaveValue('90');
  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Undo' }).click();
  expect([await boxOf(1), await boxOf(2)]).toEqual([a, b]);
  await expect(rotation).toHaveValue('0');
});

test('designer: a drag with Space held pans the zoomed canvas, selecting and moving nothing', async ({
  page,
}) => {
  await newTemplate(page, 'pan-4x6', '4 × 6 in (shipping)');
  await page.getByRole('button', { name: 'Add rectangle' }).click();
  const x = page.getByRole('textbox', { name: /^X/ });
  const x0 = await x.inputValue();
  const canvas = page.getByRole('group', { name: /^Label canvas/ });
  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Control+=');
  const scroll = () => canvas.evaluate((el) => ({ left: el.scrollLeft, top: el.scrollTop }));
  await expect.poll(async () => (await scroll()).left === 0 && (await scroll()).top === 0).toBe(true);
  const box = (await canvas.boundingBox())!;
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

  await page.keyboard.down('Space');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x - 150, from.y - 120, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Space');
  const panned = await scroll();
  expect(panned.left, 'scrolled right by the drag').toBeGreaterThan(100);
  expect(panned.top, 'scrolled down by the drag').toBeGreaterThan(80);
  // Nothing was moved or selected by that drag: the rectangle is where it was, still the only one selected.
  await expect(x).toHaveValue(x0);
  await expect(elementsList(page).getByRole('button', { pressed: true })).toHaveCount(1);
  await expect(
    page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Undo' }),
  ).toBeEnabled();
  await page.getByRole('toolbar', { name: 'Designer' }).getByRole('button', { name: 'Undo' }).click();
  await expect(elementsList(page).getByRole('button')).toHaveCount(0);
});

test('designer: elements selected from the keyboard in the list — Shift+Space adds one, Ctrl+A all', async ({
  page,
}) => {
  await newTemplate(page, 'keys-4x2', '4 × 2 in');
  for (const kind of ['rectangle', 'circle', 'line'])
    await page.getByRole('button', { name: `Add ${kind}` }).click();
  const list = elementsList(page);
  const pressed = list.getByRole('button', { pressed: true });
  await list.getByRole('button', { name: /^Rectangle 1/ }).focus();
  await page.keyboard.press('Enter');
  await expect(pressed).toHaveText(['Rectangle 1']);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(list.getByRole('button', { name: /^Line 3/ })).toBeFocused();
  await page.keyboard.press('Shift+Space');
  await expect(pressed).toHaveText(['Rectangle 1', 'Line 3']);
  await page.keyboard.press('Shift+Enter');
  await expect(pressed).toHaveText(['Rectangle 1']);
  await page.keyboard.press('Control+a');
  await expect(pressed).toHaveCount(3);
  await expect(page.getByRole('heading', { name: '3 elements' })).toBeVisible();
});

test('designer: a barcode’s module width in whole dots — saved as the X-dimension, emptied back to fitting the box; a text’s direction and line height', async ({
  page,
  app,
}) => {
  await newTemplate(page, 'module-4x2', '4 × 2 in');
  await page.getByRole('button', { name: 'Add barcode' }).click();
  const moduleWidth = page.getByRole('textbox', { name: 'Module width (dots)' });
  await expect(moduleWidth).toHaveValue('');
  await moduleWidth.fill('0');
  await expect(moduleWidth).toHaveAttribute('aria-invalid', 'true');
  await moduleWidth.fill('4');
  await moduleWidth.press('Enter');
  await expect(page.getByText('0.500 mm at 203 dpi; empty to fit the box.')).toBeVisible();
  expect(await violations(page), 'the barcode properties').toEqual([]);

  const toolbar = page.getByRole('toolbar', { name: 'Designer' });
  const save = toolbar.getByRole('button', { name: 'Save', exact: true });
  const file = join(app.dataDir, 'templates', 'module-4x2.json');
  const barcodeOf = () =>
    (JSON.parse(readFileSync(file, 'utf8')) as { elements: Record<string, unknown>[] }).elements[0]!;
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “module-4x2”' })).toBeVisible();
  // 4 dots at 203 dpi, in the template's px (96 per inch): 4 dots wherever it prints at 203 dpi, 6 at 300.
  expect(barcodeOf().moduleWidth).toBeCloseTo((4 / 203) * 96, 9);

  await moduleWidth.fill('');
  await moduleWidth.press('Enter');
  await expect(page.getByText(/^Empty: the widest module the box holds/)).toBeVisible();
  await save.click();
  await expect.poll(() => 'moduleWidth' in barcodeOf()).toBe(false);
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect(moduleWidth).toHaveValue('4');

  // A text's direction and line height.
  await page.getByRole('button', { name: 'Add text' }).click();
  await page.getByRole('combobox', { name: 'Direction' }).selectOption({ label: 'Right to left' });
  const lineHeight = page.getByRole('textbox', { name: 'Line height (× size)' });
  await expect(lineHeight).toHaveValue('1.2');
  await lineHeight.fill('6');
  await expect(lineHeight).toHaveAttribute('aria-invalid', 'true');
  await lineHeight.fill('1.5');
  await lineHeight.press('Enter');
  await save.click();
  await expect
    .poll(() => {
      const text = (JSON.parse(readFileSync(file, 'utf8')) as { elements: Record<string, unknown>[] })
        .elements[1];
      return [text?.direction, text?.lineHeight];
    })
    .toEqual(['rtl', 1.5]);
});
