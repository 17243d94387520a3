import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalPrinterUri,
  formatPrinterUri,
  parsePrinterUri,
  PrinterUriError,
  PrinterUriSchema,
  SERIAL_BAUD_RATES,
  type PrinterUri,
} from '../../src/printers/uri';

describe('parsePrinterUri', () => {
  it.each<[string, PrinterUri]>([
    ['tcp://10.0.0.5:9100', { scheme: 'tcp', host: '10.0.0.5', port: 9100 }],
    ['tcp://Printer-7.local', { scheme: 'tcp', host: 'printer-7.local', port: 9100 }],
    ['tcp://[fe80::1]:6101', { scheme: 'tcp', host: 'fe80::1', port: 6101 }],
    ['usb://0a5f:0181', { scheme: 'usb', vendorId: 0x0a5f, productId: 0x0181 }],
    [
      'usb://0A5F:0181?serial=D4J201400123',
      { scheme: 'usb', vendorId: 0x0a5f, productId: 0x0181, serial: 'D4J201400123' },
    ],
    [
      'serial:///dev/ttyUSB0',
      {
        scheme: 'serial',
        path: '/dev/ttyUSB0',
        baudRate: 9600,
        parity: 'none',
        dataBits: 8,
        stopBits: 1,
        flow: 'none',
      },
    ],
    [
      'serial:///dev/ttyS1?baud=115200&parity=even&databits=7&stopbits=2&flow=rtscts',
      {
        scheme: 'serial',
        path: '/dev/ttyS1',
        baudRate: 115200,
        parity: 'even',
        dataBits: 7,
        stopBits: 2,
        flow: 'rtscts',
      },
    ],
    [
      'serial://com3?flow=xonxoff',
      {
        scheme: 'serial',
        path: 'COM3',
        baudRate: 9600,
        parity: 'none',
        dataBits: 8,
        stopBits: 1,
        flow: 'xonxoff',
      },
    ],
    ['cups://LabelQ', { scheme: 'cups', queue: 'LabelQ' }],
    ['cups://Zebra%20ZD420%20(203%20dpi)', { scheme: 'cups', queue: 'Zebra ZD420 (203 dpi)' }],
    ['file:///tmp/out%20put.zpl', { scheme: 'file', path: '/tmp/out put.zpl' }],
  ])('%s', (text, expected) => {
    expect(parsePrinterUri(text)).toEqual(expected);
  });

  it.each([
    ['10.0.0.5:0', 'port must be 1..65535, got "0"'],
    [
      'printer 7',
      'expected a printer address, e.g. 10.0.0.5, 10.0.0.5:9100, tcp://10.0.0.5:9100 or usb://0a5f:0181',
    ],
    [
      '',
      "empty: type the printer's address, e.g. 10.0.0.5, 10.0.0.5:9100, tcp://10.0.0.5:9100 or usb://0a5f:0181",
    ],
    [
      '\\\\print-srv\\Zebra',
      "a Windows share (\\\\server\\queue) cannot be printed to directly: add the queue to this computer and use cups://QueueName, or the printer's own network address such as tcp://10.0.0.5:9100",
    ],
    [
      '/dev/ttyUSB0',
      'a path: use serial:///dev/ttyUSB0 for a serial port or file:///path/out.zpl for a file',
    ],
    ['lpd://host/queue', 'unknown scheme "lpd" (expected tcp, usb, serial, cups or file)'],
    ['tcp://host:0', 'port must be 1..65535, got "0"'],
    ['tcp://host:70000', 'port must be 1..65535, got "70000"'],
    ['tcp://host:', 'port must be 1..65535, got ""'],
    ['tcp://host:9100?timeout=5', 'unknown option "timeout"'],
    ['tcp://', 'expected tcp://host:port (IPv6 addresses in brackets)'],
    ['usb://zebra', 'expected usb://VID:PID with hexadecimal ids, e.g. usb://0a5f:0181'],
    ['usb://0a5f:01812', 'expected usb://VID:PID with hexadecimal ids, e.g. usb://0a5f:0181'],
    ['usb://0a5f:0181?sn=1', 'unknown option "sn" (usb takes serial=)'],
    ['serial:///dev/ttyUSB0?baud=9601', `baud must be one of ${SERIAL_BAUD_RATES.join(', ')}, got "9601"`],
    ['serial:///dev/ttyUSB0?parity=mark', 'parity must be none, even or odd, got "mark"'],
    ['serial:///dev/ttyUSB0?databits=9', 'databits must be 7 or 8, got "9"'],
    ['serial:///dev/ttyUSB0?stopbits=1.5', 'stopbits must be 1 or 2, got "1.5"'],
    ['serial:///dev/ttyUSB0?flow=dtr', 'flow must be none, rtscts or xonxoff, got "dtr"'],
    ['serial:///dev/ttyUSB0?baud=9600&baud=19200', 'option "baud" given twice'],
    [
      'serial:///dev/ttyUSB0?speed=9600',
      'unknown option "speed" (serial takes baud, parity, databits, stopbits, flow)',
    ],
    ['serial://ttyUSB0', 'expected a device path (serial:///dev/ttyUSB0) or a Windows port (serial://COM3)'],
    ['cups://', 'missing queue name (cups://QueueName)'],
    ['cups://Q%ZZ', 'bad %-escape in "Q%ZZ"'],
    ['file://relative/out.zpl', 'expected an absolute path: file:///path/out.zpl'],
    ['file:///tmp/', 'expected a file path, not a directory'],
  ])('rejects %s: %s', (text, problem) => {
    let error: unknown;
    try {
      parsePrinterUri(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrinterUriError);
    expect((error as PrinterUriError).problem).toBe(problem);
    expect((error as Error).message).toBe(`printer URI "${text}": ${problem}`);
  });
});

describe('addresses without a scheme (#42 item 6)', () => {
  it.each<[string, string]>([
    ['192.168.1.50', 'tcp://192.168.1.50:9100'],
    [' 192.168.1.50 ', 'tcp://192.168.1.50:9100'],
    ['192.168.1.50:6101', 'tcp://192.168.1.50:6101'],
    ['Zebra-Dock.local', 'tcp://zebra-dock.local:9100'],
    ['zebra-dock.local:9100', 'tcp://zebra-dock.local:9100'],
    ['[fe80::1]:6101', 'tcp://[fe80::1]:6101'],
    ['[FE80::1]', 'tcp://[fe80::1]:9100'],
    ['fe80::1', 'tcp://[fe80::1]:9100'],
    ['com3', 'serial://COM3'],
    ['COM12:', 'serial://COM12'],
  ])('%s is %s', (text, canonical) => {
    expect(canonicalPrinterUri(text)).toBe(canonical);
  });

  it('host and host:port mean the same as tcp://host and tcp://host:port, for any host and port', () => {
    const host = fc.oneof(
      fc.ipV4(),
      fc.domain(),
      fc.ipV6().map((a) => `[${a}]`),
    );
    fc.assert(
      fc.property(host, fc.option(fc.integer({ min: 1, max: 65535 })), (h, port) => {
        const bare = port === null ? h : `${h}:${port}`;
        expect(parsePrinterUri(bare)).toEqual(parsePrinterUri(`tcp://${bare}`));
      }),
    );
  });

  it('a bare address with a bad port says so, for any port out of range', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 65536, max: 10_000_000 }), (h, port) => {
        expect(() => parsePrinterUri(`${h}:${port}`)).toThrow(`port must be 1..65535, got "${port}"`);
      }),
    );
  });
});

describe('formatPrinterUri', () => {
  it.each([
    ['tcp://Printer.local', 'tcp://printer.local:9100'],
    ['tcp://[FE80::1]', 'tcp://[fe80::1]:9100'],
    ['usb://A5F:181', 'usb://0a5f:0181'],
    ['usb://0a5f:0181?serial=A%20B', 'usb://0a5f:0181?serial=A%20B'],
    ['serial:///dev/ttyUSB0?baud=9600&parity=none', 'serial:///dev/ttyUSB0'],
    ['serial:///dev/ttyUSB0?flow=rtscts&baud=19200', 'serial:///dev/ttyUSB0?baud=19200&flow=rtscts'],
    ['cups://Zebra%20ZD420', 'cups://Zebra%20ZD420'],
    ['file:///tmp/a b.zpl', 'file:///tmp/a%20b.zpl'],
  ])('canonical form of %s is %s', (text, canonical) => {
    expect(canonicalPrinterUri(text)).toBe(canonical);
  });

  it('round-trips: parse(format(uri)) is uri, and the canonical form is a fixed point', () => {
    const uri = fc.oneof(
      fc.record({
        scheme: fc.constant('tcp' as const),
        host: fc.domain().map((d) => d.toLowerCase()),
        port: fc.integer({ min: 1, max: 65535 }),
      }),
      fc.record(
        {
          scheme: fc.constant('usb' as const),
          vendorId: fc.integer({ min: 0, max: 0xffff }),
          productId: fc.integer({ min: 0, max: 0xffff }),
          serial: fc.string({ minLength: 1 }),
        },
        { requiredKeys: ['scheme', 'vendorId', 'productId'] },
      ),
      fc.record({
        scheme: fc.constant('serial' as const),
        path: fc.stringMatching(/^\/dev\/[a-zA-Z0-9._-]{1,12}$/),
        baudRate: fc.constantFrom(...SERIAL_BAUD_RATES),
        parity: fc.constantFrom('none' as const, 'even' as const, 'odd' as const),
        dataBits: fc.constantFrom(7 as const, 8 as const),
        stopBits: fc.constantFrom(1 as const, 2 as const),
        flow: fc.constantFrom('none' as const, 'rtscts' as const, 'xonxoff' as const),
      }),
      fc.record({
        scheme: fc.constant('cups' as const),
        queue: fc
          .string({ minLength: 1 })
          .filter((q) => ![...q].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)),
      }),
      fc.record({
        scheme: fc.constant('file' as const),
        path: fc.stringMatching(/^(\/[^/]{1,8}){1,3}$/).filter((p) => !p.includes(String.fromCharCode(0))),
      }),
    );
    fc.assert(
      fc.property(uri, (u) => {
        const text = formatPrinterUri(u as PrinterUri);
        expect(parsePrinterUri(text)).toEqual(u);
        expect(canonicalPrinterUri(text)).toBe(text);
      }),
    );
  });

  it('never throws anything but PrinterUriError on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `serial://${s}`),
          fc.string().map((s) => `usb://${s}`),
          fc.string().map((s) => `\\\\${s}`),
          fc.tuple(fc.ipV4(), fc.string()).map(([h, s]) => `${h}:${s}`),
          fc.tuple(fc.ipV6(), fc.string()).map(([h, s]) => `[${h}]${s}`),
          fc.stringMatching(/^[\w.:[\]\\/-]{0,30}$/),
        ),
        (text) => {
          try {
            parsePrinterUri(text);
          } catch (e) {
            expect(e).toBeInstanceOf(PrinterUriError);
          }
        },
      ),
    );
  });
});

describe('PrinterUriSchema', () => {
  it('normalises a valid URI and reports a bad one with its problem', () => {
    expect(PrinterUriSchema.parse('TCP://Host')).toBe('tcp://host:9100');
    const r = PrinterUriSchema.safeParse('tcp://host:0');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('"tcp://host:0": port must be 1..65535, got "0"');
  });
});
