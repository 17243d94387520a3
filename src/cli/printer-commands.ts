/** `labeldesk printers | status`: find printers, and ask one how it is. */
import { resolve as resolvePath } from 'node:path';
import { assertNever } from '../base/assert-never';
import { discoverPrinters, type DiscoveredPrinter } from '../node/printers/discovery';
import { createStatusTransport } from '../node/printers/open-transport';
import { queryDpi, queryIdentity, queryStatus, type DpiResult } from '../printers/query';
import type { HostIdentification, PrinterStatus } from '../printers/status';
import { notReady, StatusParseError } from '../printers/status';
import { PrinterError, type PrinterTransport } from '../printers/transport';
import { canonicalPrinterUri, PrinterUriError } from '../printers/uri';
import { CliError, UsageError, type CliIo } from './io';
import { parseOptions } from './template-commands';

/** Child processes (lp, lpstat) see the real environment plus the CLI's (CUPS_SERVER in tests). */
function childEnv(io: CliIo): Record<string, string | undefined> {
  return { ...process.env, ...io.env };
}

export const PRINTERS_HELP = `Usage: labeldesk printers [--json] [--printers FILE]

Lists USB printers, serial ports, CUPS queues and the network printers of a printers file, each with the
URI to print to. ZPL column: yes = takes raw ZPL, ? = unknown until tried. A source that cannot be listed
(CUPS not running, no permission on USB) is a warning on stderr (in "problems" with --json); the exit status
is still 0.

  --printers FILE   configured printers: [{"id":7,"uri":"tcp://10.0.0.5:9100","name":"Dock 7"}]
  --json            machine-readable output
`;

export async function printersCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { json: { type: 'boolean' }, printers: { type: 'string' } });
  if (values.help) {
    io.stdout(PRINTERS_HELP);
    return 0;
  }
  const printersFile = values.printers ? resolvePath(io.cwd, values.printers) : undefined;
  const result = await discoverPrinters({ ...(printersFile ? { printersFile } : {}), env: childEnv(io) });
  // The file was asked for by name: a broken one is the user's mistake, not a source that is missing.
  const fileProblem = result.problems.find((p) => p.source === 'network');
  if (fileProblem) throw new CliError(`--printers: ${fileProblem.message}`);
  if (values.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  if (result.printers.length === 0) io.stdout('No printers found.\n');
  else printTable(io, result.printers);
  for (const p of result.problems) io.stderr(`warning: ${p.message}\n`);
  return 0;
}

function printTable(io: CliIo, printers: readonly DiscoveredPrinter[]): void {
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
