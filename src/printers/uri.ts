/**
 * Printer URIs: one string names any target (ARCHITECTURE.md, "Printer addressing").
 *
 *   tcp://host[:port]                     raw TCP, port 9100 by default (IPv6 hosts in brackets)
 *   usb://VID:PID[?serial=SN]             hex ids, e.g. usb://0a5f:0181
 *   serial:///dev/ttyUSB0[?options]       or serial://COM3 on Windows; options below
 *   cups://Queue                          an OS queue (CUPS; the Windows spooler on Windows), %-encoded
 *   file:///path/out.zpl                  write the job to a file
 *
 * Without a scheme, a network printer's address as people type it: `host`, `host:port`, `[v6]:port` (or a bare
 * IPv6 address) mean `tcp://…`, port 9100 by default; `COM3` means `serial://COM3`. A Windows share
 * (`\\server\queue`) or a device path is refused with the form to use instead.
 *
 * Serial options: baud (default 9600, Zebra's factory setting), parity none|even|odd (none), databits 7|8 (8),
 * stopbits 1|2 (1), flow none|rtscts|xonxoff (none).
 *
 * `formatPrinterUri(parsePrinterUri(s))` is the canonical form (lowercase host and hex ids, explicit TCP port,
 * default serial options left out) under which profiles are stored.
 */
import { z } from 'zod';
import { assertNever } from '../base/assert-never';

export type Parity = 'none' | 'even' | 'odd';
export type FlowControl = 'none' | 'rtscts' | 'xonxoff';

export interface TcpUri {
  scheme: 'tcp';
  /** Host name or IP address (IPv6 without brackets). */
  host: string;
  port: number;
}
export interface UsbUri {
  scheme: 'usb';
  vendorId: number;
  productId: number;
  /** The device's iSerialNumber string, to pick one of several identical printers. */
  serial?: string;
}
export interface SerialUri {
  scheme: 'serial';
  /** Device path (`/dev/ttyUSB0`) or Windows port name (`COM3`). */
  path: string;
  baudRate: number;
  parity: Parity;
  dataBits: 7 | 8;
  stopBits: 1 | 2;
  flow: FlowControl;
}
export interface CupsUri {
  scheme: 'cups';
  queue: string;
}
export interface FileUri {
  scheme: 'file';
  /** Absolute path. */
  path: string;
}

/** Every printer address. Closed: adding a scheme makes the compiler list each place to update. */
export type PrinterUri = TcpUri | UsbUri | SerialUri | CupsUri | FileUri;
export type PrinterScheme = PrinterUri['scheme'];

export const DEFAULT_TCP_PORT = 9100;
/** Rates a Zebra serial port (and every USB-serial adapter) offers. */
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 14400, 19200, 28800, 38400, 57600, 115200] as const;
export const SERIAL_DEFAULTS = {
  baudRate: 9600,
  parity: 'none',
  dataBits: 8,
  stopBits: 1,
  flow: 'none',
} as const;

/** A URI that cannot name a printer; the message says what is wrong with it. */
export class PrinterUriError extends Error {
  override name = 'PrinterUriError';
  constructor(
    readonly uri: string,
    readonly problem: string,
  ) {
    super(`printer URI "${uri}": ${problem}`);
  }
}

/** Parses a printer URI. Throws PrinterUriError naming the problem. */
export function parsePrinterUri(text: string): PrinterUri {
  const fail = (problem: string): never => {
    throw new PrinterUriError(text, problem);
  };
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s.exec(text.trim());
  if (!match) return parseBare(text.trim(), fail);
  const scheme = (match[1] ?? '').toLowerCase();
  const rest = match[2] ?? '';
  const queryAt = rest.indexOf('?');
  const body = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = parseQuery(queryAt < 0 ? '' : rest.slice(queryAt + 1), fail);
  switch (scheme) {
    case 'tcp':
      noQuery(query, fail);
      return parseTcp(body, fail);
    case 'usb':
      return parseUsb(body, query, fail);
    case 'serial':
      return parseSerial(body, query, fail);
    case 'cups': {
      noQuery(query, fail);
      const queue = decode(body.replace(/\/$/, ''), fail);
      if (!queue) return fail('missing queue name (cups://QueueName)');
      if ([...queue].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
        return fail('queue name has control characters');
      }
      return { scheme: 'cups', queue };
    }
    case 'file': {
      noQuery(query, fail);
      // file:///abs/path has an empty host; file://host/path is not a local file.
      if (!body.startsWith('/')) return fail('expected an absolute path: file:///path/out.zpl');
      const path = decode(body, fail);
      if (path.length < 2 || path.endsWith('/')) return fail('expected a file path, not a directory');
      return { scheme: 'file', path };
    }
    default:
      return fail(`unknown scheme "${scheme}" (expected tcp, usb, serial, cups or file)`);
  }
}

/** The canonical text of a URI (see the file comment). */
export function formatPrinterUri(uri: PrinterUri): string {
  switch (uri.scheme) {
    case 'tcp':
      return `tcp://${uri.host.includes(':') ? `[${uri.host}]` : uri.host}:${uri.port}`;
    case 'usb':
      return `usb://${hex4(uri.vendorId)}:${hex4(uri.productId)}${uri.serial ? `?serial=${encodeURIComponent(uri.serial)}` : ''}`;
    case 'serial': {
      const options: string[] = [];
      if (uri.baudRate !== SERIAL_DEFAULTS.baudRate) options.push(`baud=${uri.baudRate}`);
      if (uri.parity !== SERIAL_DEFAULTS.parity) options.push(`parity=${uri.parity}`);
      if (uri.dataBits !== SERIAL_DEFAULTS.dataBits) options.push(`databits=${uri.dataBits}`);
      if (uri.stopBits !== SERIAL_DEFAULTS.stopBits) options.push(`stopbits=${uri.stopBits}`);
      if (uri.flow !== SERIAL_DEFAULTS.flow) options.push(`flow=${uri.flow}`);
      const where = uri.path.startsWith('/') ? uri.path : uri.path.toUpperCase();
      return `serial://${encodePath(where)}${options.length ? `?${options.join('&')}` : ''}`;
    }
    case 'cups':
      return `cups://${encodeURIComponent(uri.queue)}`;
    case 'file':
      return `file://${encodePath(uri.path)}`;
    default:
      return assertNever(uri, 'printer URI');
  }
}

/** `parsePrinterUri` then `formatPrinterUri`: the key profiles and printer lists use. */
export function canonicalPrinterUri(text: string): string {
  return formatPrinterUri(parsePrinterUri(text));
}

type Fail = (problem: string) => never;

const EXAMPLES = 'e.g. 10.0.0.5, 10.0.0.5:9100, tcp://10.0.0.5:9100 or usb://0a5f:0181';

/** An address without `scheme://` (see the file comment). */
function parseBare(text: string, fail: Fail): PrinterUri {
  if (!text) return fail(`empty: type the printer's address, ${EXAMPLES}`);
  if (/^(?:\\\\|\/\/)[^\\/]+[\\/]/.test(text)) {
    return fail(
      'a Windows share (\\\\server\\queue) cannot be printed to directly: add the queue to this computer and ' +
        "use cups://QueueName, or the printer's own network address such as tcp://10.0.0.5:9100",
    );
  }
  const com = /^(COM\d{1,3}):?$/i.exec(text);
  if (com) return parseSerial(com[1] ?? '', new Map(), fail);
  if (text.startsWith('/')) {
    return fail('a path: use serial:///dev/ttyUSB0 for a serial port or file:///path/out.zpl for a file');
  }
  // A bare IPv6 address (two or more colons, no brackets): the whole text is the host.
  if (/^[0-9A-Fa-f]*:[0-9A-Fa-f]*:[0-9A-Fa-f:.]*$/.test(text)) return parseTcp(`[${text}]`, fail);
  if (/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::\d+)?$/.test(text)) return parseTcp(text, fail);
  return fail(`expected a printer address, ${EXAMPLES}`);
}

function parseTcp(body: string, fail: Fail): TcpUri {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+))(?::(\d*))?\/?$/.exec(body);
  if (!m) return fail('expected tcp://host:port (IPv6 addresses in brackets)');
  const host = (m[1] ?? m[2] ?? '').toLowerCase();
  if (!host) return fail('missing host');
  let port: number = DEFAULT_TCP_PORT;
  if (m[3] !== undefined) {
    port = Number(m[3]);
    if (m[3] === '' || !Number.isInteger(port) || port < 1 || port > 65535) {
      return fail(`port must be 1..65535, got "${m[3]}"`);
    }
  }
  return { scheme: 'tcp', host, port };
}

function parseUsb(body: string, query: Map<string, string>, fail: Fail): UsbUri {
  const m = /^([0-9A-Fa-f]{1,4}):([0-9A-Fa-f]{1,4})\/?$/.exec(body);
  if (!m) return fail('expected usb://VID:PID with hexadecimal ids, e.g. usb://0a5f:0181');
  for (const key of query.keys()) if (key !== 'serial') fail(`unknown option "${key}" (usb takes serial=)`);
  const serial = query.get('serial');
  if (serial === '') fail('serial= is empty');
  const uri: UsbUri = {
    scheme: 'usb',
    vendorId: parseInt(m[1] ?? '', 16),
    productId: parseInt(m[2] ?? '', 16),
  };
  if (serial !== undefined) uri.serial = serial;
  return uri;
}

function parseSerial(body: string, query: Map<string, string>, fail: Fail): SerialUri {
  const raw = decode(body, fail);
  // serial:///dev/ttyUSB0 (body starts with "/") or serial://COM3.
  const path = raw.startsWith('/') ? raw : raw.replace(/\/$/, '').toUpperCase();
  if (path.startsWith('/') ? path.length < 2 || path.endsWith('/') : !/^COM\d{1,3}$/.test(path)) {
    return fail('expected a device path (serial:///dev/ttyUSB0) or a Windows port (serial://COM3)');
  }
  const uri: SerialUri = { scheme: 'serial', path, ...SERIAL_DEFAULTS };
  for (const [key, value] of query) {
    switch (key) {
      case 'baud': {
        const baud = Number(value);
        if (!(SERIAL_BAUD_RATES as readonly number[]).includes(baud) || !/^\d+$/.test(value)) {
          fail(`baud must be one of ${SERIAL_BAUD_RATES.join(', ')}, got "${value}"`);
        }
        uri.baudRate = baud;
        break;
      }
      case 'parity':
        if (value !== 'none' && value !== 'even' && value !== 'odd') {
          fail(`parity must be none, even or odd, got "${value}"`);
        }
        uri.parity = value as Parity;
        break;
      case 'databits':
        if (value !== '7' && value !== '8') fail(`databits must be 7 or 8, got "${value}"`);
        uri.dataBits = Number(value) as 7 | 8;
        break;
      case 'stopbits':
        if (value !== '1' && value !== '2') fail(`stopbits must be 1 or 2, got "${value}"`);
        uri.stopBits = Number(value) as 1 | 2;
        break;
      case 'flow':
        if (value !== 'none' && value !== 'rtscts' && value !== 'xonxoff') {
          fail(`flow must be none, rtscts or xonxoff, got "${value}"`);
        }
        uri.flow = value as FlowControl;
        break;
      default:
        fail(`unknown option "${key}" (serial takes baud, parity, databits, stopbits, flow)`);
    }
  }
  return uri;
}

function parseQuery(text: string, fail: Fail): Map<string, string> {
  const query = new Map<string, string>();
  if (!text) return query;
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) fail(`option "${part}" is not name=value`);
    const key = decode(part.slice(0, eq), fail).toLowerCase();
    if (query.has(key)) fail(`option "${key}" given twice`);
    query.set(key, decode(part.slice(eq + 1), fail));
  }
  return query;
}

function noQuery(query: Map<string, string>, fail: Fail): void {
  const first = query.keys().next();
  if (!first.done) fail(`unknown option "${first.value}"`);
}

function decode(text: string, fail: Fail): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return fail(`bad %-escape in "${text}"`);
  }
}

/** Percent-encodes each path segment, keeping the slashes. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/**
 * Zod schema for a printer URI in persisted or received documents: checks it and normalises it to the
 * canonical form, reporting the URI's problem as the issue message.
 */
export const PrinterUriSchema = z.string().transform((text, ctx) => {
  try {
    return canonicalPrinterUri(text);
  } catch (e) {
    if (!(e instanceof PrinterUriError)) throw e;
    ctx.addIssue({ code: 'custom', message: `"${text}": ${e.problem}` });
    return z.NEVER;
  }
});
