/**
 * #42 item 1, the other way a label is cut: longer than the labels loaded. Calibrate makes the printer measure
 * its labels (`~JC`); the length it then reports (`~HS`) is kept in its profile, so a 4×6 in label on a roll of
 * 4×4 in labels is asked about before it runs across two, and the printer view shows it cut at the label's end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { ipcCalls } from '../../support/ipc-calls';
import { SAMPLE_DATA } from '../../support/templates';
import { decodeZpl } from '../../support/zpl-decode';
import { scanZplJob } from '../../support/barcode-label';

let dir: string;
let services: AppServices;
let zebra: ZebraEmulator;
/** A 2-inch printer (its head 448 dots at 203 dpi), as it reports over SGD. */
let narrow: ZebraEmulator;
const { call, refused } = ipcCalls(() => services);
/** 4×4 in die-cut labels at 203 dpi. */
const LOADED = 812;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-label-length-'));
  zebra = await startZebraEmulator({ dpi: 203, mediaLengthDots: LOADED });
  narrow = await startZebraEmulator({ dpi: 203, printWidthDots: 448 });
  services = await createAppServices({
    dataDir: dir,
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    printers: [
      { id: 1, uri: zebra.uri, name: 'Dock Zebra' },
      { id: 2, uri: narrow.uri, name: 'Desk Zebra' },
    ],
  });
  // The status poll learns the dpi, as the app does on start.
  expect((await call('printers.status', { printer: '1' })).state).toBe('ready');
});

afterAll(async () => {
  await services.close();
  await zebra.close();
  await narrow.close();
  rmSync(dir, { recursive: true, force: true });
});

const shipping = { source: 'bundled', name: 'shipping-4x6' } as const;
const values = SAMPLE_DATA['shipping-4x6'] ?? {};

it('before a calibration the length is unknown: a 4×6 label is not questioned', async () => {
  const fit = await call('print.fit', { ref: shipping, values, printer: '1' });
  expect(fit.fits).toBe(true);
});

it('Calibrate says the measured length; a longer label is then asked about, shown cut, and fitted when chosen', async () => {
  const result = await call('printers.calibrate', { id: '1' });
  expect(result.ok).toBe(true);
  expect(result.message).toBe(
    'Dock Zebra measured its labels and is ready. Its labels are 102 mm (812 dots) long.',
  );
  expect(zebra.printer.calibrations).toBe(1);

  const fit = await call('print.fit', { ref: shipping, values, printer: '1' });
  expect(fit).toMatchObject({
    fits: false,
    problem: 'shipping-4x6 is 152 mm (1218 dots) long but the loaded labels are 102 mm (812 dots) at 203 dpi',
  });
  const view = await call('preview.raster', { ref: shipping, values, printer: '1' });
  expect([view.labelWidthDots, view.labelHeightDots]).toEqual([812, 1218]);
  expect(view.heightDots).toBe(LOADED);
  expect(view.cut).toBe('the bottom 51 mm (406 dots)');

  // Not printed without a choice; scaled to fit when asked: the whole label on one 4-inch label, still read.
  const before = zebra.jobs.length;
  const no = await refused('print.submit', { ref: shipping, values, copies: 1, printer: '1' });
  expect(no.message).toMatch(/long but the loaded labels are 102 mm \(812 dots\)/);
  expect(zebra.jobs.length).toBe(before);
  await call('print.submit', { ref: shipping, values, copies: 1, printer: '1', oversize: 'fit' });
  await expect.poll(() => zebra.printer.printed.length, { timeout: 60_000 }).toBe(1);
  const zpl = zebra.printer.printed[0]!.zpl;
  expect(decodeZpl(zpl).labelLength).toBeLessThanOrEqual(LOADED);
  expect(scanZplJob(zpl, dir).join(' ')).toContain('1Z999AA10123456784');
});

it('another media type forgets the measured length until the printer is calibrated again', async () => {
  await call('printers.save', { id: '1', name: 'Dock Zebra', uri: zebra.uri, mediaType: 'mark' });
  expect((await call('print.fit', { ref: shipping, values, printer: '1' })).fits).toBe(true);
  // Calibrated on the new labels: measured again.
  await call('printers.calibrate', { id: '1' });
  expect((await call('print.fit', { ref: shipping, values, printer: '1' })).fits).toBe(false);
  // Continuous media has no label length: any length prints.
  await call('printers.save', { id: '1', name: 'Dock Zebra', uri: zebra.uri, mediaType: 'continuous' });
  await call('printers.calibrate', { id: '1' });
  expect((await call('print.fit', { ref: shipping, values, printer: '1' })).fits).toBe(true);
});

it('a 2-inch printer is known by the width it reports: a 4-inch label is asked about, a 2-inch one prints', async () => {
  expect((await call('printers.status', { printer: '2' })).state).toBe('ready');
  const fit = await call('print.fit', { ref: shipping, values, printer: '2' });
  expect(fit).toMatchObject({
    fits: false,
    problem: 'shipping-4x6 is 102 mm (812 dots) wide but the printer prints 56 mm (448 dots) at 203 dpi',
  });
  const product = { source: 'bundled', name: 'product-2x1' } as const;
  const small = await call('print.fit', {
    ref: product,
    values: SAMPLE_DATA['product-2x1'] ?? {},
    printer: '2',
  });
  expect(small.fits).toBe(true);
});
