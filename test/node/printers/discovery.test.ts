import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discoverPrinters,
  discoverSerial,
  listSystemSerialPorts,
  parseLpstatDetails,
} from '../../../src/node/printers/discovery';
import { listSysfsSerialPorts } from '../../../src/node/printers/sysfs-serial';
import { pathWithout } from '../../support/path-without';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-discovery-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('discovery', () => {
  it('lists the configured network printers of a printers file', async () => {
    const file = join(dir, 'printers.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 7, uri: 'tcp://10.0.0.5', name: 'Dock 7' },
        { id: 8, uri: 'cups://Office', name: 'Office' },
      ]),
    );
    const result = await discoverPrinters({ sources: ['network'], printersFile: file });
    expect(result).toEqual({
      printers: [
        { kind: 'network', uri: 'tcp://10.0.0.5:9100', name: 'Dock 7', id: 7, zpl: true },
        { kind: 'network', uri: 'cups://Office', name: 'Office', id: 8, zpl: null },
      ],
      problems: [],
    });
  });

  it('a failing source is a problem, not a failure of the others', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[{"id":1,"uri":"tcp://a:0","name":"A"}]');
    const result = await discoverPrinters({
      sources: ['network', 'serial', 'usb'],
      printersFile: bad,
      listSerialPorts: async () => [
        { path: '/dev/ttyUSB0', manufacturer: 'FTDI', vendorId: '0403', productId: '6001' },
      ],
      listUsbDevices: async () => {
        throw new Error('LIBUSB_ERROR_ACCESS');
      },
    });
    expect(result.printers.map((p) => p.uri)).toEqual(['serial:///dev/ttyUSB0']);
    expect(result.problems).toEqual([
      {
        source: 'usb',
        message:
          'USB printers could not be listed: this user may not read the USB devices (LIBUSB_ERROR_ACCESS).',
      },
      { source: 'network', message: `${bad}: [0].uri: "tcp://a:0": port must be 1..65535, got "0"` },
    ]);
  });

  it('serial ports become serial:// URIs at 9600 8N1', async () => {
    expect(
      await discoverSerial(async () => [{ path: '/dev/ttyS0' }, { path: 'COM3', manufacturer: 'Prolific' }]),
    ).toEqual([
      { kind: 'serial', uri: 'serial:///dev/ttyS0', name: '/dev/ttyS0', zpl: null, path: '/dev/ttyS0' },
      {
        kind: 'serial',
        uri: 'serial://COM3',
        name: 'Prolific (COM3)',
        zpl: null,
        path: 'COM3',
        manufacturer: 'Prolific',
      },
    ]);
  });

  it('reads queue state and raw-ness from lpstat -l -p', () => {
    const text = [
      'printer LabelQ is idle.  enabled since Mon Nov 23 11:10:35 2026',
      '\tForm mounted:',
      '\tConnection: direct',
      'printer Office now printing Office-3.  enabled since Mon Nov 23 11:10:36 2026',
      '\tInterface: /etc/cups/ppd/Office.ppd',
      'printer Old disabled since Mon Nov 23 11:10:36 2026 -',
      '\tpaused',
    ].join('\n');
    expect(Object.fromEntries(parseLpstatDetails(text))).toEqual({
      LabelQ: { state: 'idle', hasPpd: false },
      Office: { state: 'printing', hasPpd: true },
      Old: { state: 'disabled', hasPpd: false },
    });
  });
});

/**
 * A sysfs and /dev in a folder, shaped like a PC's: a USB serial adapter (ttyUSB0, its USB ids two folders
 * up), a USB modem (ttyACM0, one up), the built-in COM1 (ttyS0) and an empty 8250 slot (ttyS1, type 0), a
 * virtual console (tty1, no device), and an adapter sysfs shows but /dev lacks (ttyUSB1, as in a container).
 * Device nodes are links to /dev/null, a character device any user can stat.
 */
function fakeMachine(root: string): { ttyClass: string; dev: string } {
  const ttyClass = join(root, 'sys/class/tty');
  const dev = join(root, 'dev');
  const devices = join(root, 'sys/devices');
  mkdirSync(dev, { recursive: true });
  const attrs = (dir: string, values: Record<string, string>): void => {
    mkdirSync(dir, { recursive: true });
    for (const [k, v] of Object.entries(values)) writeFileSync(join(dir, k), `${v}\n`);
  };
  const tty = (name: string, device: string | null, type?: string, node = true): void => {
    mkdirSync(join(ttyClass, name), { recursive: true });
    if (device) {
      mkdirSync(device, { recursive: true });
      symlinkSync(device, join(ttyClass, name, 'device'));
    }
    if (type !== undefined) writeFileSync(join(ttyClass, name, 'type'), `${type}\n`);
    if (node) symlinkSync('/dev/null', join(dev, name));
  };
  const ftdi = join(devices, 'pci0000:00/usb1/1-2');
  attrs(ftdi, { idVendor: '0403', idProduct: '6001', manufacturer: 'FTDI', serial: 'A10K5XYZ' });
  tty('ttyUSB0', join(ftdi, '1-2:1.0/ttyUSB0'));
  const acm = join(devices, 'pci0000:00/usb1/1-3');
  attrs(acm, { idVendor: '0a5f', idProduct: '0181', manufacturer: 'Zebra Technologies' });
  tty('ttyACM0', join(acm, '1-3:1.0'));
  tty('ttyS0', join(devices, 'pnp0/00:01'), '4');
  tty('ttyS1', join(devices, 'platform/serial8250/serial8250:0.1'), '0');
  tty('tty1', null);
  tty('ttyUSB1', join(devices, 'pci0000:00/usb1/1-4/1-4:1.0/ttyUSB1'), undefined, false);
  return { ttyClass, dev };
}

describe('serial ports without udev', () => {
  it('sysfs lists the ports with hardware and a /dev node, with USB ids where there are some', async () => {
    const { ttyClass, dev } = fakeMachine(join(dir, 'machine-1'));
    expect(await listSysfsSerialPorts(ttyClass, dev)).toEqual([
      {
        path: join(dev, 'ttyACM0'),
        vendorId: '0a5f',
        productId: '0181',
        manufacturer: 'Zebra Technologies',
      },
      { path: join(dev, 'ttyS0') },
      {
        path: join(dev, 'ttyUSB0'),
        vendorId: '0403',
        productId: '6001',
        manufacturer: 'FTDI',
        serialNumber: 'A10K5XYZ',
      },
    ]);
  });

  it('with udevadm missing from PATH, the system listing falls back to sysfs', async () => {
    const { ttyClass, dev } = fakeMachine(join(dir, 'machine-2'));
    const noUdev = pathWithout(['udevadm']);
    const path = process.env.PATH;
    process.env.PATH = noUdev.path;
    try {
      const ports = await listSystemSerialPorts(() => listSysfsSerialPorts(ttyClass, dev));
      expect(ports.map((p) => p.path)).toEqual(['ttyACM0', 'ttyS0', 'ttyUSB0'].map((n) => join(dev, n)));
      // And the real machine's ports, whatever they are, list without an error.
      await expect(listSystemSerialPorts()).resolves.toBeInstanceOf(Array);
    } finally {
      process.env.PATH = path;
      noUdev.remove();
    }
  });

  it('when neither udev nor sysfs can list, discovery has one sentence for it and lists the rest', async () => {
    const noUdev = pathWithout(['udevadm']);
    const path = process.env.PATH;
    process.env.PATH = noUdev.path;
    try {
      const missing = join(dir, 'no-sys/class/tty');
      const result = await discoverPrinters({
        sources: ['serial', 'usb'],
        listUsbDevices: async () => [],
        listSerialPorts: () => listSystemSerialPorts(() => listSysfsSerialPorts(missing)),
      });
      expect(result).toEqual({
        printers: [],
        problems: [
          {
            source: 'serial',
            message:
              `Serial ports could not be listed (udevadm is not installed, and ${missing} could not be read ` +
              '(ENOENT)); print to a port by its path instead, such as serial:///dev/ttyUSB0.',
          },
        ],
      });
    } finally {
      process.env.PATH = path;
      noUdev.remove();
    }
  });
});

describe('CUPS problems are sentences', () => {
  it('a scheduler that is not running', async () => {
    const result = await discoverPrinters({
      sources: ['cups'],
      env: { ...process.env, CUPS_SERVER: join(dir, 'no-cupsd.sock') },
    });
    expect(result).toEqual({
      printers: [],
      problems: [
        {
          source: 'cups',
          message: 'CUPS is not running on this computer, so its queues could not be listed.',
        },
      ],
    });
  });

  it('no CUPS client installed', async () => {
    const noLpstat = pathWithout(['lpstat']);
    try {
      const result = await discoverPrinters({ sources: ['cups'], env: { PATH: noLpstat.path } });
      expect(result.problems).toEqual([
        {
          source: 'cups',
          message: 'CUPS is not installed on this computer (no lpstat), so its queues could not be listed.',
        },
      ]);
    } finally {
      noLpstat.remove();
    }
  });
});
