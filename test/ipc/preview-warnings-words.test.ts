/**
 * The preview's warnings in people's words (#42 items 3 and 13): never the engine's `elements[1] (barcode
 * code128): …` — the element named by what it is and the field it shows, and a problem the form already flags
 * at its field not said a second time under the preview.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewLabel } from '../../src/ipc/preview-label';
import { BUNDLED_FONT_FILES, createFontSet } from '../../src/layout/fonts';
import { parseTemplate } from '../../src/model/parse';
import { fontsDir } from '../../src/node/assets';

const fonts = createFontSet(
  Object.fromEntries(
    Object.entries(BUNDLED_FONT_FILES).map(([key, file]) => [
      key,
      new Uint8Array(readFileSync(join(fontsDir(), file))),
    ]),
  ),
);
const ports = { fonts, loadImages: () => Promise.resolve(new Map()) };

const template = parseTemplate({
  schemaVersion: 1,
  name: 'shelf',
  title: 'Shelf label',
  stage: { width: 4, height: 2, unit: 'in' },
  fields: [
    { name: 'sku', label: 'SKU', placeholder: '' },
    { name: 'ean', label: 'EAN', placeholder: '5901234123457' },
    { name: 'photo', label: 'Photo', placeholder: 'shelf' },
  ],
  elements: [
    { type: 'text', x: 10, y: 10, width: 300, height: 30, text: 'Shelf' },
    { type: 'barcode', format: 'code128', x: 10, y: 50, width: 300, height: 60, text: '{sku}' },
    { type: 'barcode', format: 'ean13', x: 10, y: 120, width: 300, height: 60, text: '{ean}' },
    { type: 'barcode', format: 'ean13', x: 320, y: 120, width: 60, height: 60, text: '12345' },
    { type: 'image', x: 320, y: 10, width: 60, height: 60, url: 'https://images.invalid/{photo}.png' },
  ],
});

describe('the preview warnings', () => {
  it('name the element by what it is and the field it shows, never by index', async () => {
    const { scene, problems } = await previewLabel(template, { sku: '', ean: '5901234123458' }, ports);
    const text = scene.warnings.join('\n');
    expect(text).not.toMatch(/elements\[/);
    // The empty SKU and the EAN's wrong check digit are the form's to say, at the field; not repeated here.
    expect(problems.map((p) => p.field).sort()).toEqual(['ean', 'sku']);
    expect(text).not.toMatch(/SKU|Code 128|should be 7/);
    // The template's own fixed value: the barcode named by its symbology, the symbology not said twice.
    expect(scene.warnings).toContain(
      'The EAN-13 barcode: EAN-13 takes 12 digits, or 13 with the check digit; this value has 5.',
    );
    // An element showing a field, with no problem of the field: named with the field's label.
    expect(
      scene.warnings.some((w) => /^The image of Photo https:\/\/images\.invalid\/shelf\.png: .+\.$/.test(w)),
    ).toBe(true);
  });
});
