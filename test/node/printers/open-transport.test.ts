/** URI → transport, and the Linux /dev/usb/lp* fallback when libusb cannot claim the printer. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CupsTransport } from '../../../src/node/printers/cups';
import { FileTransport } from '../../../src/node/printers/file';
import { createTransport, openTransport } from '../../../src/node/printers/open-transport';
import { SerialTransport } from '../../../src/node/printers/serial';
import { TcpTransport } from '../../../src/node/printers/tcp';
import { findUsbLpDevice } from '../../../src/node/printers/usb-lp';
import { LIBUSB } from '../../../src/node/printers/usb-device';
import { PrinterRefused, PrinterTimeout } from '../../../src/printers/transport';
import { PrinterUriError } from '../../../src/printers/uri';
import { EmulatedUsbDevice } from '../../emulator/usb-device';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-open-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake sysfs with usbmisc/lpN → a USB device directory holding idVendor/idProduct/serial, and a /dev root. */
function fakeSysfs(entries: { lp: string; vid: string; pid: string; serial?: string }[]): {
  sys: string;
  dev: string;
} {
  const sys = join(dir, `sys-${Math.random().toString(36).slice(2)}`);
  const dev = join(sys, 'dev');
  mkdirSync(join(dev, 'usb'), { recursive: true });
  entries.forEach((e, i) => {
    const usbDevice = join(sys, 'devices', `1-${i}`);
    mkdirSync(join(usbDevice, `1-${i}:1.0`), { recursive: true });
    writeFileSync(join(usbDevice, 'idVendor'), `${e.vid}\n`);
    writeFileSync(join(usbDevice, 'idProduct'), `${e.pid}\n`);
    if (e.serial) writeFileSync(join(usbDevice, 'serial'), `${e.serial}\n`);
    mkdirSync(join(sys, 'class/usbmisc', e.lp), { recursive: true });
    symlinkSync(join(usbDevice, `1-${i}:1.0`), join(sys, 'class/usbmisc', e.lp, 'device'));
    writeFileSync(join(dev, 'usb', e.lp), ''); // stands in for the character device
  });
  return { sys, dev };
}

describe('createTransport', () => {
  it.each([
    ['tcp://10.0.0.5', TcpTransport, 'tcp://10.0.0.5:9100', true],
    ['serial:///dev/ttyUSB0?baud=19200', SerialTransport, 'serial:///dev/ttyUSB0?baud=19200', true],
    ['cups://LabelQ', CupsTransport, 'cups://LabelQ', false],
    ['file:///tmp/x.zpl', FileTransport, 'file:///tmp/x.zpl', false],
  ] as const)('%s', (uri, kind, canonical, status) => {
    const t = createTransport(uri);
    expect(t).toBeInstanceOf(kind);
    expect(t.uri).toBe(canonical);
    expect(t.capabilities.status).toBe(status);
  });

  it('a bad URI is a PrinterUriError', () => {
    expect(() => createTransport('tcp://host:99999')).toThrow(PrinterUriError);
  });
});

describe('USB with the /dev/usb/lp fallback', () => {
  it('finds lpN by vendor, product and serial through sysfs', async () => {
    const roots = fakeSysfs([
      { lp: 'lp0', vid: '03f0', pid: '1234' },
      { lp: 'lp1', vid: '0a5f', pid: '0181', serial: 'AAA' },
      { lp: 'lp2', vid: '0a5f', pid: '0181', serial: 'BBB' },
    ]);
    expect(await findUsbLpDevice(0x0a5f, 0x0181, undefined, roots)).toBe(join(roots.dev, 'usb', 'lp1'));
    expect(await findUsbLpDevice(0x0a5f, 0x0181, 'BBB', roots)).toBe(join(roots.dev, 'usb', 'lp2'));
    expect(await findUsbLpDevice(0x0a5f, 0x9999, undefined, roots)).toBeUndefined();
    expect(await findUsbLpDevice(0x0a5f, 0x0181, undefined, { sys: join(dir, 'nope') })).toBeUndefined();
  });

  it('writes to /dev/usb/lpN when libusb may not claim the device', async () => {
    const roots = fakeSysfs([{ lp: 'lp0', vid: '0a5f', pid: '0181' }]);
    const device = new EmulatedUsbDevice({ claimError: LIBUSB.ERROR_ACCESS });
    const t = await openTransport('usb://0a5f:0181', {
      usb: { listDevices: async () => [device], detachKernelDriver: true, lpFallback: true, roots },
    });
    await t.write('^XA^FDfallback^FS^XZ\n');
    // A plain file never answers: the request times out rather than inventing a status.
    await expect(t.request('~HS', { timeoutMs: 50, isComplete: () => false })).rejects.toBeInstanceOf(
      PrinterTimeout,
    );
    await t.close();
    expect(readFileSync(join(roots.dev, 'usb', 'lp0'), 'utf8')).toBe('^XA^FDfallback^FS^XZ\n~HS');
  });

  it('reports the libusb error when there is no lpN to fall back to', async () => {
    const roots = fakeSysfs([]);
    const device = new EmulatedUsbDevice({ claimError: LIBUSB.ERROR_ACCESS });
    await expect(
      openTransport('usb://0a5f:0181', {
        usb: { listDevices: async () => [device], lpFallback: true, roots },
      }),
    ).rejects.toBeInstanceOf(PrinterRefused);
  });
});
