import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverPrinters, discoverSerial, parseLpstatDetails } from '../../../main/printers/discovery';

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
      { source: 'usb', message: 'cannot list USB devices: LIBUSB_ERROR_ACCESS' },
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
