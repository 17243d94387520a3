/**
 * The app's Discover (main/app/printers.ts): what it finds, and one sentence for each source that could not
 * be listed — never a raw error such as "spawn udevadm ENOENT" or "lpstat: Scheduler is not running.".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPrinters } from '../../../main/app/printers';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-discover-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noCups = () => ({ ...process.env, CUPS_SERVER: join(dir, 'no-cupsd.sock') });

describe('Discover in the app', () => {
  it('lists what it finds; a source that cannot list is one sentence naming it', async () => {
    const printers = appPrinters(dir, {
      discovery: {
        env: noCups(),
        listUsbDevices: async () => {
          throw new Error('LIBUSB_ERROR_ACCESS');
        },
        listSerialPorts: async () => [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI' }],
      },
    });
    expect(await printers.discover()).toEqual({
      found: [{ uri: 'serial:///dev/ttyUSB0', name: 'FTDI (/dev/ttyUSB0)', source: 'serial' }],
      problems: [
        'USB printers could not be listed: this user may not read the USB devices (LIBUSB_ERROR_ACCESS).',
        'CUPS is not running on this computer, so its queues could not be listed.',
      ],
    });
  });

  it('nothing found: an empty list, and the sentence for the source that could not look', async () => {
    const printers = appPrinters(dir, {
      discovery: {
        env: { ...process.env, PATH: join(dir, 'empty-path') },
        listUsbDevices: async () => [],
        listSerialPorts: async () => [],
      },
    });
    const result = await printers.discover();
    expect(result.found).toEqual([]);
    // Without lpstat on PATH, CUPS is the only source with something to say.
    expect(result.problems).toEqual([
      'CUPS is not installed on this computer (no lpstat), so its queues could not be listed.',
    ]);
  });
});
