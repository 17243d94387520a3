/**
 * Finding printers: USB printers (Zebra's vendor id or printer class), serial ports, CUPS queues and the
 * configured network printers of a printers file. Each source that fails (no CUPS, no permission on USB)
 * becomes a problem in the result — one sentence that names the source — never an exception: the other
 * sources still list.
 */
export * from './discovered';
import { readFile } from 'node:fs/promises';
import { listSysfsSerialPorts } from './sysfs-serial';
import { parsePrintersFile, PrintersFileError } from '../../printers/printers-file';
import { formatPrinterUri } from '../../printers/uri';
import { assertNever } from '../../base/assert-never';
import { CommandNotFound, runCommand } from './run-command';
import { discoverWindowsQueues } from './windows-queues';
import {
  DiscoverySourceError,
  type CupsQueueFound,
  type DiscoveredPrinter,
  type DiscoveryProblem,
  type DiscoveryResult,
  type DiscoverySource,
  type NetworkPrinterFound,
  type SerialPortFound,
  type SerialPortInfo,
  type UsbPrinterFound,
} from './discovered';
import {
  describeUsbPrinter,
  isUsbPrinter,
  listSystemUsbDevices,
  ZEBRA_VENDOR_ID,
  type ListUsbDevices,
} from './usb-device';

export interface DiscoveryOptions {
  /** Default: all four. */
  sources?: readonly DiscoverySource[];
  /** A printers file (JSON array of { id, uri, name }) for the network source. */
  printersFile?: string;
  /** Environment for lpstat (CUPS_SERVER, PATH). Default: process.env. */
  env?: Record<string, string | undefined>;
  listUsbDevices?: ListUsbDevices;
  listSerialPorts?: () => Promise<SerialPortInfo[]>;
}

/** Lists every printer the sources can see, each with a URI to print with. */
export async function discoverPrinters(options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const sources = options.sources ?? ['usb', 'serial', 'cups', 'network'];
  const problems: DiscoveryProblem[] = [];
  const run = async <T extends DiscoveredPrinter>(
    source: DiscoverySource,
    list: () => Promise<T[]>,
  ): Promise<T[]> => {
    if (!sources.includes(source)) return [];
    try {
      return await list();
    } catch (e) {
      problems.push({ source, message: problemSentence(source, e) });
      return [];
    }
  };
  const found = await Promise.all([
    run('usb', () => discoverUsb(options.listUsbDevices ?? listSystemUsbDevices)),
    run('serial', () => discoverSerial(options.listSerialPorts ?? listSystemSerialPorts)),
    // On Windows the OS queues are the spooler's (src/node/printers/windows-queues.ts).
    run('cups', () => (process.platform === 'win32' ? discoverWindowsQueues() : discoverCups(options.env))),
    run('network', () =>
      options.printersFile ? discoverNetwork(options.printersFile) : Promise.resolve([]),
    ),
  ]);
  return { printers: found.flat(), problems };
}

function problemSentence(source: DiscoverySource, e: unknown): string {
  if (e instanceof DiscoverySourceError) return e.message;
  const reason = e instanceof Error ? e.message : String(e);
  switch (source) {
    case 'usb':
      return /LIBUSB_ERROR_ACCESS/.test(reason)
        ? 'USB printers could not be listed: this user may not read the USB devices (LIBUSB_ERROR_ACCESS).'
        : `USB printers could not be listed (${reason}).`;
    case 'serial':
      return `Serial ports could not be listed (${reason}).`;
    case 'cups':
      return `${process.platform === 'win32' ? 'Windows print queues' : 'CUPS queues'} could not be listed (${reason}).`;
    case 'network':
      // The printers file: its own messages name the file, the entry and the problem.
      return reason;
    default:
      return assertNever(source, 'discovery source');
  }
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/** USB printers: Zebra's vendor id, or printer class on the device or one of its interfaces. */
export async function discoverUsb(listDevices: ListUsbDevices): Promise<UsbPrinterFound[]> {
  const devices = await listDevices();
  const printers: UsbPrinterFound[] = [];
  for (const device of devices.filter(isUsbPrinter)) {
    const info = await describeUsbPrinter(device);
    const uri = formatPrinterUri({
      scheme: 'usb',
      vendorId: info.vendorId,
      productId: info.productId,
      ...(info.serial ? { serial: info.serial } : {}),
    });
    const found: UsbPrinterFound = {
      kind: 'usb',
      uri,
      name:
        [info.manufacturer, info.product].filter(Boolean).join(' ') ||
        `USB printer ${hex4(info.vendorId)}:${hex4(info.productId)}`,
      // Zebra printers speak ZPL; another printer-class device might (a ZPL emulation) or might not.
      zpl: info.vendorId === ZEBRA_VENDOR_ID ? true : null,
      vendorId: hex4(info.vendorId),
      productId: hex4(info.productId),
    };
    if (info.manufacturer) found.manufacturer = info.manufacturer;
    if (info.product) found.product = info.product;
    if (info.serial) found.serial = info.serial;
    printers.push(found);
  }
  return printers;
}

/**
 * The computer's serial ports. serialport asks udev on Linux (`udevadm info -e`), which containers and
 * minimal installs lack; then sysfs lists them (src/node/printers/sysfs-serial.ts). Only when both fail is there
 * a problem, and it says how to print anyway.
 */
export async function listSystemSerialPorts(
  sysfs: () => Promise<SerialPortInfo[]> = listSysfsSerialPorts,
): Promise<SerialPortInfo[]> {
  let udevFailure: unknown;
  try {
    const { SerialPort } = await import('serialport');
    return await SerialPort.list();
  } catch (e) {
    if (process.platform !== 'linux') throw e;
    udevFailure = e;
  }
  try {
    return await sysfs();
  } catch (e) {
    const udev =
      (udevFailure as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'udevadm is not installed'
        : `udev failed: ${(udevFailure as Error).message}`;
    throw new DiscoverySourceError(
      `Serial ports could not be listed (${udev}, and ${(e as Error).message}); ` +
        'print to a port by its path instead, such as serial:///dev/ttyUSB0.',
      { cause: e },
    );
  }
}

/** Serial ports, each as a `serial://` URI with the default 9600 8N1 settings. */
export async function discoverSerial(listPorts: () => Promise<SerialPortInfo[]>): Promise<SerialPortFound[]> {
  const ports = await listPorts();
  return ports.map((p) => {
    const found: SerialPortFound = {
      kind: 'serial',
      uri: formatPrinterUri({
        scheme: 'serial',
        path: p.path,
        baudRate: 9600,
        parity: 'none',
        dataBits: 8,
        stopBits: 1,
        flow: 'none',
      }),
      name: p.manufacturer ? `${p.manufacturer} (${p.path})` : p.path,
      zpl: null,
      path: p.path,
    };
    if (p.manufacturer) found.manufacturer = p.manufacturer;
    if (p.vendorId) found.vendorId = p.vendorId;
    if (p.productId) found.productId = p.productId;
    if (p.serialNumber) found.serialNumber = p.serialNumber;
    return found;
  });
}

/**
 * CUPS queues from `lpstat -v` (device URIs) and `lpstat -l -p` (state; an `Interface:` line means the queue
 * has a PPD, none means raw). Raw queues and queues on a socket:// (port 9100) or Zebra device take ZPL with
 * `lp -o raw`.
 */
export async function discoverCups(env?: Record<string, string | undefined>): Promise<CupsQueueFound[]> {
  const lpstat = async (args: string[]): Promise<string> => {
    let result;
    try {
      result = await runCommand('lpstat', args, { env, timeoutMs: LPSTAT_TIMEOUT_MS });
    } catch (e) {
      if (e instanceof CommandNotFound)
        throw new DiscoverySourceError(
          'CUPS is not installed on this computer (no lpstat), so its queues could not be listed.',
          { cause: e },
        );
      throw e;
    }
    const said = (result.stderr || result.stdout).trim().split('\n')[0] ?? '';
    // "No destinations added." exits non-zero on some versions: that is an empty list, not a failure.
    if (result.code !== 0 && !/No destinations added/i.test(result.stderr + result.stdout)) {
      throw new DiscoverySourceError(lpstatFailure(result.code, said));
    }
    return result.stdout;
  };
  const [devices, details] = await Promise.all([lpstat(['-v']), lpstat(['-l', '-p'])]);
  const info = parseLpstatDetails(details);
  const queues: CupsQueueFound[] = [];
  for (const line of devices.split('\n')) {
    const m = /^device for (.+?): (.*)$/.exec(line.trim());
    if (!m) continue;
    const queue = m[1] ?? '';
    const deviceUri = (m[2] ?? '').trim();
    const detail = info.get(queue);
    const raw = detail ? !detail.hasPpd : false;
    queues.push({
      kind: 'cups',
      uri: formatPrinterUri({ scheme: 'cups', queue }),
      name: queue,
      zpl: raw || /^socket:\/\//i.test(deviceUri) || /zebra/i.test(deviceUri),
      queue,
      deviceUri,
      raw,
      state: detail?.state ?? 'unknown',
    });
  }
  return queues;
}

const LPSTAT_TIMEOUT_MS = 10_000;

function lpstatFailure(code: number | null, said: string): string {
  if (code === null)
    return `CUPS did not answer within ${LPSTAT_TIMEOUT_MS / 1000} s, so its queues could not be listed.`;
  if (/scheduler is not running/i.test(said))
    return 'CUPS is not running on this computer, so its queues could not be listed.';
  const what = said.replace(/^lpstat:\s*/, '').replace(/\.$/, '') || `lpstat exited with status ${code}`;
  return `CUPS queues could not be listed: ${what}.`;
}

/** `lpstat -l -p` blocks: "printer Q is idle. ..." then tab-indented details. */
export function parseLpstatDetails(
  text: string,
): Map<string, { state: CupsQueueFound['state']; hasPpd: boolean }> {
  const queues = new Map<string, { state: CupsQueueFound['state']; hasPpd: boolean }>();
  let current: { state: CupsQueueFound['state']; hasPpd: boolean } | undefined;
  for (const line of text.split('\n')) {
    const head = /^printer (\S+) (.*)$/.exec(line);
    if (head) {
      const rest = head[2] ?? '';
      const state = /disabled/i.test(rest)
        ? 'disabled'
        : /now printing/i.test(rest)
          ? 'printing'
          : /is idle/i.test(rest)
            ? 'idle'
            : 'unknown';
      current = { state, hasPpd: false };
      queues.set(head[1] ?? '', current);
    } else if (current && /^\s+Interface:\s*\S/.test(line)) {
      current.hasPpd = true;
    }
  }
  return queues;
}

/** The configured network printers of a printers file. */
export async function discoverNetwork(file: string): Promise<NetworkPrinterFound[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  try {
    return parsePrintersFile(json, file).map((p) => ({
      kind: 'network',
      uri: p.uri,
      name: p.name,
      id: p.id,
      // Configured printers are there to print ZPL (tcp 9100, serial, usb); an OS queue or file is whatever it is.
      zpl: p.uri.startsWith('tcp:') ? true : null,
    }));
  } catch (e) {
    if (e instanceof PrintersFileError) throw new Error(e.message.replace(/\n/g, '; '), { cause: e });
    throw e;
  }
}
