/**
 * The app's import takes Markup JSON (fetch-markups output) as well as template files (issue #19): the file
 * becomes a template with fixed values in the user's folder, listed with the others, and prints the same
 * label — its barcode scans from the ZPL at 300 dpi.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTemplates, type AppTemplates } from '../../../main/app/templates';
import { renderZplLabels } from '../../../src/outputs/render';
import { nodeRenderPorts } from '../../../src/node/render-ports';
import { resolve } from '../../../src/resolve/resolve';
import { SAMPLE_DATA, bundledTemplate } from '../../support/templates';
import { zbarValues } from '../../support/zbar';
import { decodeZplToPgm } from '../../support/zpl-decode';

let dir: string;
let templates: AppTemplates;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-import-markup-'));
  templates = appTemplates(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('templates.import of a Markup JSON file', () => {
  it('saves a template of fixed values in the user folder that prints the same label', async () => {
    const markups = resolve(bundledTemplate('shipping-4x6'), SAMPLE_DATA['shipping-4x6']!, 2);
    const summary = await templates.importFile('from-hosted.json', JSON.stringify(markups));
    expect(summary).toMatchObject({ ref: { source: 'user', name: 'from-hosted' }, fieldCount: 0 });
    const { templates: listed } = await templates.list([]);
    expect(listed.map((t) => t.ref)).toContainEqual({ source: 'user', name: 'from-hosted' });

    const { template } = await templates.get(summary.ref);
    const [zpl] = (
      await renderZplLabels(resolve(template, {}, 1), { dpi: 300, maxWidthDots: 1200 }, nodeRenderPorts())
    ).labels;
    const pgm = join(dir, 'imported.pgm');
    expect(decodeZplToPgm(zpl!, pgm).printWidth).toBe(1200);
    expect(zbarValues(pgm)).toContain('1Z999AA10123456784');
  });

  it('a template file still imports as a template; a broken markup file names its problem', async () => {
    const template = bundledTemplate('product-2x1');
    const summary = await templates.importFile('p.json', JSON.stringify({ ...template, name: 'my-product' }));
    expect(summary.ref).toEqual({ source: 'user', name: 'my-product' });
    await expect(
      templates.importFile(
        'bad.json',
        JSON.stringify([{ stage: { width: 1, height: 1, unit: 'in' }, elements: [{ type: 'star' }] }]),
      ),
    ).rejects.toThrow(/bad\.json[\s\S]*\[0\]\.elements\[0\]/);
  });
});
