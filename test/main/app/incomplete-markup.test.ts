/**
 * The incomplete-markup policy in the app (issue #19): a label whose image cannot be loaded is previewed and
 * saved and printed without it, and the preview names what was left out (the warnings list under the preview), instead of
 * the preview and the file failing. Through the IPC dispatch both shells use.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainCipher } from '../../../main/app/secret-store';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { scanZplJob } from '../../support/barcode-label';
import { SAMPLE_DATA, rawTemplate } from '../../support/templates';
import { zbarValues } from '../../support/zbar';
import { ipcCalls } from '../../support/ipc-calls';

let dir: string;
let services: AppServices;
let zebra: ZebraEmulator;

const { call } = ipcCalls(() => services);

const TRACKING = '1Z999AA10123456784';
const values = SAMPLE_DATA['shipping-4x6']!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-app-incomplete-'));
  zebra = await startZebraEmulator({ dpi: 203 });
  services = await createAppServices({
    dataDir: dir,
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    filePrinterFolder: dir,
    printers: [{ id: 1, uri: zebra.uri, name: 'Dock Zebra' }],
  });
  const template = rawTemplate('shipping-4x6') as { elements: Record<string, unknown>[] };
  await call('templates.import', {
    fileName: 'unreachable-logo.json',
    text: JSON.stringify({
      ...template,
      name: 'unreachable-logo',
      elements: template.elements.map((el) =>
        el.type === 'image' ? { ...el, url: 'http://127.0.0.1:1/logo.png' } : el,
      ),
    }),
  });
});

afterAll(async () => {
  await services?.close();
  await zebra?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an image that cannot be loaded, in the app', () => {
  const ref = { source: 'user', name: 'unreachable-logo' } as const;

  it('the preview draws the rest and lists the image as left out', async () => {
    const preview = await call('preview.scene', { ref, values });
    expect(preview.scene.warnings).toEqual([
      expect.stringMatching(/^The image http:\/\/127\.0\.0\.1:1\/logo\.png: .*; left out\.$/),
    ]);
    expect(JSON.stringify(preview.scene)).toContain(TRACKING);
  });

  it('the printer view and a saved PDF are made without it, and the barcode scans', async () => {
    const raster = await call('preview.raster', { ref, values });
    expect(raster.widthDots).toBe(812);
    const pdf = await call('output.export', {
      ref,
      values,
      copies: 1,
      format: 'pdf',
    });
    const file = join(dir, 'saved.pdf');
    writeFileSync(file, Buffer.from(pdf.base64, 'base64'));
    execFileSync('pdftoppm', ['-r', '200', '-gray', '-singlefile', file, join(dir, 'saved')]);
    expect(zbarValues(join(dir, 'saved.pgm'))).toContain(TRACKING);
  });

  it('a print job prints the label without it, and the barcode scans', async () => {
    const before = zebra.jobs.length;
    const sent = await call('print.submit', { ref, values, copies: 1, printer: '1' });
    expect(sent.message).toBe('Printing 1 label on Dock Zebra.');
    await expect.poll(() => zebra.jobs.length - before, { timeout: 20_000 }).toBe(1);
    expect(scanZplJob(zebra.jobs[before]!.zpl, dir, 'job')).toContain(TRACKING);
  });
});
