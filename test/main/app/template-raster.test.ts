/**
 * The designer's printer view through the IPC contract (#22): `preview.templateRaster` draws a template that
 * is not saved yet, 1-bit at the dpi the designer targets — the same dots as the printer view of the saved
 * template at that dpi — and refuses an invalid one with the schema's problems, as a save does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import type { Template } from '../../../src/model/schema';
import { ipcCalls } from '../../support/ipc-calls';

let dir: string;
let services: AppServices;

const { call } = ipcCalls(() => services);

const shelf: Template = {
  schemaVersion: 1,
  name: 'shelf-raster',
  stage: { width: 2, height: 1, unit: 'in', background: '#ffffff' },
  fields: [{ name: 'sku', label: 'SKU', placeholder: 'SKU-12345', type: 'text', required: false }],
  elements: [
    { type: 'rect', x: 4, y: 4, width: 100, height: 40, stroke: '#000000', strokeWidth: 2 },
    { type: 'barcode', format: 'code128', x: 4, y: 50, width: 180, height: 40, text: '{sku}' },
  ] as Template['elements'],
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-template-raster-'));
  services = await createAppServices({ dataDir: dir, shell: 'web', version: 'test', cipher: plainCipher });
});
afterAll(async () => {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('preview.templateRaster', () => {
  it('draws the unsaved template at each dpi the designer targets', async () => {
    for (const dpi of [203, 300, 600] as const) {
      const view = await call('preview.templateRaster', { template: shelf, values: {}, dpi });
      expect(view).toMatchObject({ dpi, dpiAssumed: false, widthDots: 2 * dpi, heightDots: dpi });
      expect(view.dataUrl).toMatch(/^data:image\/png;base64,/);
    }
  });

  it('is the printer view of the same template saved, dot for dot', async () => {
    const values = { sku: 'ABC-42' };
    const unsaved = await call('preview.templateRaster', { template: shelf, values, dpi: 203 });
    const saved = await call('templates.save', { template: shelf, overwrite: true });
    expect(saved.problems).toEqual([]);
    // Without a printer the printer view is drawn at 203 dpi.
    const view = await call('preview.raster', { ref: { source: 'user', name: shelf.name }, values });
    expect(view.dataUrl).toBe(unsaved.dataUrl);
    const placeholder = await call('preview.templateRaster', { template: shelf, values: {}, dpi: 203 });
    expect(placeholder.dataUrl).not.toBe(unsaved.dataUrl);
  });

  it('refuses an invalid template naming the element and attribute', async () => {
    const broken = {
      ...shelf,
      elements: [{ ...shelf.elements[0], stroke: 'not a colour' }],
    };
    await expect(
      call('preview.templateRaster', { template: broken as Template, values: {}, dpi: 203 }),
    ).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('elements[0].stroke') });
  });

  it('refuses a dpi the designer does not offer', async () => {
    await expect(
      call('preview.templateRaster', { template: shelf, values: {}, dpi: 150 as 203 }),
    ).rejects.toMatchObject({ code: 'bad-request' });
  });
});
