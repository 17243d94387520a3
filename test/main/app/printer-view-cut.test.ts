/**
 * #42 item 1: the Print screen's printer view is what the head burns — for every bundled template on a 4-inch
 * 203-dpi printer (the Zebra emulator), its size and every dot equal the ZPL the printer received; the A4
 * packing slip is shown cut to the head's 832 dots, with what is cut named. Printing a label wider than the
 * head is refused until the user chooses (`print.fit` says so first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { ipcCalls } from '../../support/ipc-calls';
import { bundledTemplate, bundledTemplateNames, SAMPLE_DATA } from '../../support/templates';
import { decodeZpl } from '../../support/zpl-decode';
import { monoPngToBitmap } from '../../support/mono-png';
import { getDot } from '../../../src/render/bitmap';

let dir: string;
let services: AppServices;
let zebra: ZebraEmulator;
const { call, refused } = ipcCalls(() => services);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-view-cut-'));
  zebra = await startZebraEmulator({ dpi: 203 });
  services = await createAppServices({
    dataDir: dir,
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    printers: [{ id: 1, uri: zebra.uri, name: 'Dock Zebra' }],
  });
  // The status poll asks the printer its dpi once and keeps it in its profile, as the app does on start.
  expect((await call('printers.status', { printer: '1' })).state).toBe('ready');
});

afterAll(async () => {
  await services.close();
  await zebra.close();
  rmSync(dir, { recursive: true, force: true });
});

const printed = async (count: number) => {
  await expect.poll(() => zebra.printer.printed.length, { timeout: 60_000 }).toBe(count);
  return zebra.printer.printed[count - 1]!.zpl;
};

describe('the printer view is the printed ZPL, dot for dot, on a 4-inch 203-dpi printer', () => {
  it.each(bundledTemplateNames())('%s', async (name) => {
    const ref = { source: 'bundled', name } as const;
    const values = SAMPLE_DATA[name] ?? {};
    const view = await call('preview.raster', { ref, values, printer: '1' });
    expect(view).toMatchObject({ dpi: 203, dpiAssumed: false });
    const fit = await call('print.fit', { ref, values, printer: '1' });
    if (name === 'packing-slip-a4') {
      // The whole A4 at 203 dpi, of which the head burns 832 dots: the view says so, and what is cut.
      expect([view.labelWidthDots, view.labelHeightDots]).toEqual([1678, 2374]);
      expect([view.widthDots, view.heightDots]).toEqual([832, 2374]);
      expect(view.cut).toBe('the right 106 mm (846 dots)');
      expect(fit).toMatchObject({
        fits: false,
        problem:
          'packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi',
        rotates: false,
      });
      // Not printed without a choice.
      const before = zebra.jobs.length;
      const no = await refused('print.submit', { ref, values, copies: 1, printer: '1' });
      expect(no.message).toMatch(/^packing-slip-a4 is 210 mm \(1678 dots\) wide/);
      expect(zebra.jobs.length).toBe(before);
    } else {
      expect(view.cut).toBeNull();
      expect(fit.fits).toBe(true);
      expect([view.widthDots, view.heightDots]).toEqual([view.labelWidthDots, view.labelHeightDots]);
    }
    const count = zebra.printer.printed.length + 1;
    await call('print.submit', {
      ref,
      values,
      copies: 1,
      printer: '1',
      ...(fit.fits ? {} : { oversize: 'cut' as const }),
    });
    const zpl = decodeZpl(await printed(count));
    expect([view.widthDots, view.heightDots]).toEqual([zpl.printWidth, zpl.labelLength]);
    // A counter (the GS1 label's SSCC) is numbered by the job, while the view shows its placeholder: only the
    // rows of the elements that print it may differ; every other dot is the same.
    const dots = monoPngToBitmap(view.dataUrl);
    const template = bundledTemplate(name);
    const counters = template.fields.filter((f) => f.type === 'counter').map((f) => `{${f.name}`);
    const k = 203 / 96;
    const bands = template.elements
      .filter((e) => counters.some((c) => JSON.stringify(e).includes(c)))
      .map((e) => [Math.floor(e.y * k) - 12, Math.ceil((e.y + (e.height ?? 0)) * k) + 12] as const);
    const numbered = (y: number) => bands.some(([from, to]) => y >= from && y <= to);
    let differing = 0;
    for (let y = 0; y < dots.height; y++)
      for (let x = 0; !numbered(y) && x < dots.width; x++)
        if (getDot(dots, x, y) !== getDot(zpl.bitmap, x, y)) differing++;
    expect(differing, 'dots that differ between the printer view and the printed label').toBe(0);
  });
});
