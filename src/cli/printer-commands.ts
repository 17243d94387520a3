/** `labeldesk printers | status`: find printers, and ask one how it is. */
import { resolve as resolvePath } from 'node:path';
import { assertNever } from '../base/assert-never';
import { discoverPrinters, type DiscoveredPrinter } from '../node/printers/discovery';
import {
  localScanRanges,
  MAX_SCAN_HOSTS,
  parseScanRange,
  SCAN_DEFAULTS,
  scanNetwork,
  ScanRangeError,
  type NetworkPrinterScanned,
  type NetworkScanResult,
} from '../node/printers/discovery-network';
import { createStatusTransport } from '../node/printers/open-transport';
import { queryDpi, queryIdentity, queryStatus, type DpiResult } from '../printers/query';
import type { HostIdentification, PrinterStatus } from '../printers/status';
import { notReady, StatusParseError } from '../printers/status';
import { PrinterError, type PrinterTransport } from '../printers/transport';
import { canonicalPrinterUri, PrinterUriError } from '../printers/uri';
import { CliError, UsageError, type CliIo } from './io';
import { printersSetCommand } from './printers-set-command';
import { parseOptions } from './template-commands';

/** Child processes (lp, lpstat) see the real environment plus the CLI's (CUPS_SERVER in tests). */
function childEnv(io: CliIo): Record<string, string | undefined> {
  return { ...process.env, ...io.env };
}

export const PRINTERS_HELP = `Usage: labeldesk printers [discover] [--json] [--printers FILE] [--network [RANGE]]
       labeldesk printers set URI --zpl-settings keep|strip [--zpl-printer-commands allow|strip]

Lists USB printers, serial ports, CUPS queues and the network printers of a printers file, each with the
URI to print to. ZPL column: yes = takes raw ZPL, ? = unknown until tried. A source that cannot be listed
(CUPS not running, no permission on USB) is a warning on stderr (in "problems" with --json); the exit status
is still 0.

  --printers FILE   configured printers: [{"id":7,"uri":"tcp://10.0.0.5:9100","name":"Dock 7"}]
  --network [RANGE] also look for printers on the network: port 9100 of every address in RANGE (such as
                    192.168.1.0/24 or 10.0.0.5; several with commas; at most ${MAX_SCAN_HOSTS} addresses), each
                    one that answers asked its model and dpi. Without RANGE: the /24 around each private address
                    of this computer. At most ${SCAN_DEFAULTS.budgetMs / 1000} s; Ctrl-C stops it and lists what it found.
  --port N          the port --network probes (default ${SCAN_DEFAULTS.port})
  --json            machine-readable output
`;

/** `--network` alone (the computer's own subnets) or `--network RANGE`: taken out of the arguments. */
function takeNetwork(args: string[]): { rest: string[]; network: string | true | undefined } {
  const rest = args[0] === 'discover' ? args.slice(1) : [...args];
  const at = rest.findIndex((a) => a === '--network' || a.startsWith('--network='));
  if (at < 0) return { rest, network: undefined };
  const arg = rest[at]!;
  if (arg.startsWith('--network=')) {
    rest.splice(at, 1);
    return { rest, network: arg.slice('--network='.length) };
  }
  const value = rest[at + 1];
  if (value !== undefined && !value.startsWith('-')) {
    rest.splice(at, 2);
    return { rest, network: value };
  }
  rest.splice(at, 1);
  return { rest, network: true };
}

function scanHosts(network: string | true): string[] {
  const ranges = network === true ? localScanRanges() : network.split(',').filter(Boolean);
  if (ranges.length === 0) {
    throw new CliError(
      network === true
        ? 'This computer has no private network address to scan around: name a range, such as --network 192.168.1.0/24.'
        : '--network: name a range, such as 192.168.1.0/24',
    );
  }
  try {
    const hosts = [...new Set(ranges.flatMap(parseScanRange))];
    if (hosts.length > MAX_SCAN_HOSTS)
      throw new ScanRangeError(`${hosts.length} addresses: scan at most ${MAX_SCAN_HOSTS} at once`);
    return hosts;
  } catch (e) {
    if (e instanceof ScanRangeError) throw new UsageError(`--network: ${e.message}`);
    throw e;
  }
}

async function scan(
  network: string | true,
  portText: string | undefined,
  io: CliIo,
): Promise<NetworkScanResult> {
  if (portText !== undefined && (!/^\d{1,5}$/.test(portText) || +portText < 1 || +portText > 65535)) {
    throw new UsageError(`--port: expected 1..65535, got "${portText}"`);
  }
  const hosts = scanHosts(network);
  const port = portText === undefined ? SCAN_DEFAULTS.port : Number(portText);
  io.stderr(`Scanning ${hosts.length} address${hosts.length === 1 ? '' : 'es'} on port ${port}…\n`);
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const result = await scanNetwork({ hosts, port, signal: cancel.signal });
    if (result.stopped) {
      io.stderr(
        `warning: the network scan ${result.stopped === 'cancelled' ? 'was stopped' : `ran out of its ${SCAN_DEFAULTS.budgetMs / 1000} s`} after ${result.probed} of ${result.total} addresses\n`,
      );
    }
    return result;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

export async function printersCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === 'set') return printersSetCommand(args.slice(1), io);
  const { rest, network } = takeNetwork(args);
  const { values } = parseOptions(rest, {
    json: { type: 'boolean' },
    printers: { type: 'string' },
    port: { type: 'string' },
  });
  if (values.help) {
    io.stdout(PRINTERS_HELP);
    return 0;
  }
  if (values.port !== undefined && network === undefined) throw new UsageError('--port goes with --network');
  const printersFile = values.printers ? resolvePath(io.cwd, values.printers) : undefined;
  const [result, scanned] = await Promise.all([
    discoverPrinters({ ...(printersFile ? { printersFile } : {}), env: childEnv(io) }),
    network === undefined ? undefined : scan(network, values.port, io),
  ]);
  // The file was asked for by name: a broken one is the user's mistake, not a source that is missing.
  const fileProblem = result.problems.find((p) => p.source === 'network');
  if (fileProblem) throw new CliError(`--printers: ${fileProblem.message}`);
  if (values.json) {
    io.stdout(`${JSON.stringify(scanned ? { ...result, scanned } : result, null, 2)}\n`);
    return 0;
  }
  const found = scanned?.printers ?? [];
  if (result.printers.length === 0 && found.length === 0) io.stdout('No printers found.\n');
  else printTable(io, result.printers, found);
  for (const p of result.problems) io.stderr(`warning: ${p.message}\n`);
  return 0;
}

function printTable(
  io: CliIo,
  printers: readonly DiscoveredPrinter[],
  scanned: readonly NetworkPrinterScanned[] = [],
): void {
  const detail = (p: DiscoveredPrinter): string => {
    switch (p.kind) {
      case 'cups':
        // On Windows deviceUri is the queue's port (USB001, IP_10.0.0.5) and the driver is named.
        return `${p.raw ? 'raw' : 'driver'} queue, ${p.state}, ${p.deviceUri}${p.driver ? `, ${p.driver}` : ''}`;
      case 'usb':
        return [p.manufacturer, p.product, p.serial && `serial ${p.serial}`].filter(Boolean).join(', ');
      case 'serial':
        return p.manufacturer ?? '';
      case 'network':
        return `id ${p.id}`;
      default:
        return assertNever(p, 'printer kind');
    }
  };
  const rows = printers.map((p) => [
    p.uri,
    p.kind,
    p.zpl === null ? '?' : p.zpl ? 'yes' : 'no',
    p.name,
    detail(p),
  ]);
  for (const p of scanned) {
    rows.push([p.uri, 'network', 'yes', p.model, `${p.dpi} dpi, firmware ${p.firmware}, found by --network`]);
  }
  const header = ['URI', 'KIND', 'ZPL', 'NAME', 'DETAILS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows]) {
    io.stdout(
      `${row
        .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
}

export const STATUS_HELP = `Usage: labeldesk status --printer URI [--json] [--timeout MS]

Asks a printer for its status (~HS), model and firmware (~HI) and resolution (SGD, else ~HI).
Exit status: 0 ready, 1 not ready or unreachable, 2 wrong usage.

  --printer URI   tcp://host:9100, usb://0a5f:0181, serial:///dev/ttyUSB0?baud=9600, cups://Queue
  --timeout MS    longest wait for each answer (default 2000)
  --json          machine-readable output
`;

interface StatusReport extends PrinterStatus {
  uri: string;
  model: string | null;
  firmware: string | null;
  dpi: number | null;
  dpiSource: DpiResult['source'] | null;
}

export async function statusCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    printer: { type: 'string' },
    json: { type: 'boolean' },
    timeout: { type: 'string' },
  });
  if (values.help) {
    io.stdout(STATUS_HELP);
    return 0;
  }
  if (!values.printer) throw new UsageError('--printer URI is required (see labeldesk printers)');
  if (values.timeout !== undefined && (!/^\d+$/.test(values.timeout) || Number(values.timeout) < 1)) {
    throw new UsageError(`--timeout: expected milliseconds, got "${values.timeout}"`);
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  let uri: string;
  try {
    uri = canonicalPrinterUri(values.printer);
  } catch (e) {
    if (e instanceof PrinterUriError) throw new CliError(e.message);
    throw e;
  }
  const report = await askPrinter(uri, io, timeoutMs);
  if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const lines: [string, string][] = [
      ['printer', report.uri],
      ['state', report.state],
      ...report.reasons.map((r): [string, string] => ['reason', r]),
      ['model', report.model ?? '(unknown)'],
      ['firmware', report.firmware ?? '(unknown)'],
      [
        'dpi',
        report.dpi === null
          ? '(unknown)'
          : `${report.dpi} (${report.dpiSource === 'sgd' ? 'head.resolution.in_dpi' : '~HI dots/mm'})`,
      ],
    ];
    if (report.formatsInBuffer !== null)
      lines.push([
        'buffer',
        `${report.formatsInBuffer} formats waiting, ${report.labelsRemaining ?? 0} labels remaining`,
      ]);
    for (const [key, value] of lines) io.stdout(`${key.padEnd(9)} ${value}\n`);
  }
  return report.state === 'ready' ? 0 : 1;
}

async function askPrinter(uri: string, io: CliIo, timeoutMs: number | undefined): Promise<StatusReport> {
  const report: StatusReport = {
    uri,
    ...notReady('offline', ''),
    model: null,
    firmware: null,
    dpi: null,
    dpiSource: null,
  };
  let transport: PrinterTransport | undefined;
  try {
    // A Windows queue on a TCP port is asked at its printer; other OS queues have no status.
    transport = await createStatusTransport(uri, { cups: { env: childEnv(io) } });
    await transport.open({ timeoutMs });
    Object.assign(report, await queryStatus(transport, { timeoutMs }));
    if (!transport.capabilities.status) return report;
    // Identity and dpi are extras: a printer that is silent on them still has a status.
    const identity = await optional(queryIdentity(transport, { timeoutMs }));
    if (identity) Object.assign(report, identityFields(identity));
    const dpi = await optional(queryDpi(transport, { timeoutMs }));
    if (dpi) Object.assign(report, { dpi: dpi.dpi, dpiSource: dpi.source });
    return report;
  } catch (e) {
    if (e instanceof PrinterError) return { ...report, ...notReady('offline', e.message) };
    throw e;
  } finally {
    await transport?.close().catch(() => undefined);
  }
}

function identityFields(identity: HostIdentification): Pick<StatusReport, 'model' | 'firmware'> {
  return { model: identity.model, firmware: identity.firmware };
}

async function optional<T>(query: Promise<T>): Promise<T | undefined> {
  try {
    return await query;
  } catch (e) {
    if (e instanceof PrinterError || e instanceof StatusParseError) return undefined;
    throw e;
  }
}
