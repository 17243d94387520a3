/**
 * The libusb transport against an emulated printer at node-usb's API boundary (test/emulator/usb-device.ts):
 * kernel-driver detach and reattach, claim, bulk OUT in 16 KiB transfers, short writes, status over bulk IN,
 * unplug mid-job.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverUsb } from '../../../src/node/printers/discovery';
import { createUsbTransport, USB_CHUNK_BYTES } from '../../../src/node/printers/usb';
import { LIBUSB } from '../../../src/node/printers/usb-device';
import { queryDpi, queryStatus } from '../../../src/printers/query';
import {
  PrinterDisconnected,
  PrinterNotFound,
  PrinterRefused,
  PrinterUnsupported,
} from '../../../src/printers/transport';
import { parsePrinterUri, type UsbUri } from '../../../src/printers/uri';
import { buildZplJob } from '../../../src/zpl/job';
import { EmulatedUsbDevice, type EmulatedUsbOptions } from '../../emulator/usb-device';
import { ZebraPrinterModel } from '../../emulator/zebra-core';
import { code128Label, scanZplJob } from '../../support/barcode-label';

const VALUE = 'LD-USB-0181';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-usb-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An uncompressed (hex) job: large enough to take several 16 KiB transfers. */
const bigLabelJob = (): string =>
  buildZplJob({ bitmap: code128Label(VALUE, { width: 832 }), compression: 'hex' });

function zebra(options: EmulatedUsbOptions = {}) {
  const printer = new ZebraPrinterModel({ dpi: 203 });
  const device = new EmulatedUsbDevice({
    printer,
    manufacturer: 'Zebra Technologies',
    product: 'ZTC ZD421-203dpi ZPL',
    serial: 'D4J2000001',
    ...options,
  });
  return { printer, device };
}

function transportFor(uri: string, ...devices: EmulatedUsbDevice[]) {
  return createUsbTransport(parsePrinterUri(uri) as UsbUri, {
    listDevices: async () => devices,
    detachKernelDriver: true,
  });
}

describe('USB transport', () => {
  it('detaches usblp, claims, sends the job in 16 KiB transfers, gives the driver back; the barcode scans', async () => {
    const { printer, device } = zebra();
    const t = transportFor('usb://0a5f:0181', device);
    await t.open();
    const job = bigLabelJob();
    expect(job.length).toBeGreaterThan(2 * USB_CHUNK_BYTES);
    await t.write(job);
    await t.close();
    expect(device.calls).toEqual([
      'open',
      'isKernelDriverActive',
      'detachKernelDriver',
      'claim',
      'release',
      'attachKernelDriver',
      'close',
    ]);
    expect(Math.max(...device.outTransfers)).toBe(USB_CHUNK_BYTES);
    expect(printer.jobs.map((j) => j.zpl)).toEqual([job.replace(/\n$/, '')]);
    expect(scanZplJob(printer.jobs[0]?.zpl ?? '', dir)).toEqual([VALUE]);
  });

  it('does not detach a driver that is not bound (and does not reattach one)', async () => {
    const { device } = zebra({ kernelDriverActive: false });
    const t = transportFor('usb://0a5f:0181', device);
    await t.open();
    await t.close();
    expect(device.calls).toEqual(['open', 'isKernelDriverActive', 'claim', 'release', 'close']);
  });

  it('reads status and dpi over bulk IN', async () => {
    const { printer, device } = zebra();
    const t = transportFor('usb://0a5f:0181', device);
    await t.open();
    try {
      expect((await queryStatus(t)).state).toBe('ready');
      printer.setFault({ paperOut: true });
      expect(await queryStatus(t)).toMatchObject({ state: 'paper-out', reasons: ['out of paper (media)'] });
      expect(await queryDpi(t)).toEqual({ dpi: 203, source: 'sgd', printWidthDots: 832 });
    } finally {
      await t.close();
    }
  });

  it('continues after short writes until every byte is taken', async () => {
    const { printer, device } = zebra({ maxBytesPerTransfer: 1000 });
    const t = transportFor('usb://0a5f:0181', device);
    await t.open();
    const job = bigLabelJob();
    await t.write(job);
    await t.close();
    expect(device.taken).toBe(job.length);
    expect(printer.jobs[0]?.zpl).toBe(job.replace(/\n$/, ''));
  });

  it('unplugged mid-job: PrinterDisconnected with exactly the bytes the device took; nothing printed; close still works', async () => {
    const { printer, device } = zebra({ unplugAfterBytes: 20_000 });
    const t = transportFor('usb://0a5f:0181', device);
    await t.open();
    const job = bigLabelJob();
    const error = await t.write(job).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterDisconnected);
    expect(error).toMatchObject({ bytesWritten: 20_000, totalBytes: job.length });
    expect((error as Error).message).toBe(
      `usb://0a5f:0181: device unplugged or failed after 20000 of ${job.length} bytes`,
    );
    expect(printer.jobs).toHaveLength(0);
    await t.close();
    expect(device.calls.slice(-3)).toEqual(['release', 'attachKernelDriver', 'close']);
    // Opening it again finds it gone.
    const again = transportFor('usb://0a5f:0181', device);
    await expect(again.open()).rejects.toBeInstanceOf(PrinterNotFound);
  });

  it('picks the printer by serial number among identical ones', async () => {
    const a = zebra({ serial: 'AAA' });
    const b = zebra({ serial: 'BBB' });
    const t = transportFor('usb://0a5f:0181?serial=BBB', a.device, b.device);
    await t.open();
    await t.write('^XA^FDb^FS^XZ');
    await t.close();
    expect([a.printer.jobs.length, b.printer.jobs.length]).toEqual([0, 1]);
    const none = transportFor('usb://0a5f:0181?serial=CCC', a.device, b.device);
    await expect(none.open()).rejects.toThrow(
      'usb://0a5f:0181?serial=CCC: no USB device 0a5f:0181 with serial CCC is connected (found 2 with other serial numbers)',
    );
    await expect(transportFor('usb://0a5f:0181').open()).rejects.toBeInstanceOf(PrinterNotFound);
  });

  it('a claimed-by-the-kernel device without permission to detach is PrinterRefused', async () => {
    const { device } = zebra();
    const t = createUsbTransport(parsePrinterUri('usb://0a5f:0181') as UsbUri, {
      listDevices: async () => [device],
      detachKernelDriver: false,
    });
    await expect(t.open()).rejects.toThrow(
      new PrinterRefused(
        'usb://0a5f:0181: the printer is in use by another program or driver',
        'usb://0a5f:0181',
      ),
    );
    expect(device.calls).toEqual(['open', 'claim', 'close']);
  });

  it('a claim that fails after the driver was detached gives the driver back (PrinterRefused for no permission)', async () => {
    const { device } = zebra({ claimError: LIBUSB.ERROR_ACCESS });
    const t = transportFor('usb://0a5f:0181', device);
    await expect(t.open()).rejects.toThrow(/^usb:\/\/0a5f:0181: permission denied/);
    expect(device.calls).toEqual([
      'open',
      'isKernelDriverActive',
      'detachKernelDriver',
      'claim',
      'attachKernelDriver',
      'close',
    ]);
  });

  it('a one-way printer (no bulk IN) prints but cannot be asked', async () => {
    const { device } = zebra({ noInEndpoint: true });
    const t = transportFor('usb://0a5f:0181', device);
    await t.open();
    await expect(t.request('~HS', { isComplete: () => true })).rejects.toBeInstanceOf(PrinterUnsupported);
    await t.close();
  });
});

describe('USB discovery', () => {
  it('lists Zebra and printer-class devices with their URIs, skips the rest', async () => {
    const devices = [
      zebra({ serial: 'D4J2000001' }).device,
      new EmulatedUsbDevice({
        vendorId: 0x03f0,
        productId: 0x1234,
        manufacturer: 'HP',
        product: 'LaserJet',
        interfaceClass: 7,
      }),
      new EmulatedUsbDevice({ vendorId: 0x046d, productId: 0xc31c, product: 'Keyboard', interfaceClass: 3 }),
    ];
    const found = await discoverUsb(async () => devices);
    expect(found).toEqual([
      {
        kind: 'usb',
        uri: 'usb://0a5f:0181?serial=D4J2000001',
        name: 'Zebra Technologies ZTC ZD421-203dpi ZPL',
        zpl: true,
        vendorId: '0a5f',
        productId: '0181',
        manufacturer: 'Zebra Technologies',
        product: 'ZTC ZD421-203dpi ZPL',
        serial: 'D4J2000001',
      },
      {
        kind: 'usb',
        uri: 'usb://03f0:1234',
        name: 'HP LaserJet',
        zpl: null,
        vendorId: '03f0',
        productId: '1234',
        manufacturer: 'HP',
        product: 'LaserJet',
      },
    ]);
  });
});
