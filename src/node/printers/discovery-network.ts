/**
 * Finding network printers: raw TCP port 9100 on a range of IPv4 addresses, each host that accepts asked its
 * model (`~HI`) and resolution (SGD `head.resolution.in_dpi`, else `~HI`). Only on request, and bounded: at most
 * a /24 (254 hosts) unless a wider range is named, a cap on connections at once, a short connect timeout, a
 * wait for each answer, a time budget for the whole scan, and a cancel (AbortSignal) that ends it at once.
 *
 * A host that accepts but never answers, answers something that is not a Zebra's answer, or resets the
 * connection is not a printer found: it is skipped, never a hang or a crash.
 *
 * Where: `localScanRanges()` — the /24 around each private IPv4 address of this computer's own interfaces
 * (10/8, 172.16/12, 192.168/16); never anything else unless the caller names a range (`parseScanRange`).
 */
import { networkInterfaces } from 'node:os';
import { queryDpi, queryIdentity } from '../../printers/query';
import { dpiFromDotsPerMm } from '../../printers/status';
import { DEFAULT_TCP_PORT, formatPrinterUri } from '../../printers/uri';
import { TcpTransport } from './tcp';

/** The most hosts an explicitly named range may hold (a /22). */
export const MAX_SCAN_HOSTS = 1024;

export const SCAN_DEFAULTS = {
  port: DEFAULT_TCP_PORT,
  concurrency: 32,
  connectTimeoutMs: 500,
  answerTimeoutMs: 1500,
  budgetMs: 30_000,
} as const;

export interface NetworkScanOptions {
  /** IPv4 addresses to probe (`parseScanRange`, `localScanRanges`). */
  hosts: readonly string[];
  port?: number;
  /** Connections at once. */
  concurrency?: number;
  connectTimeoutMs?: number;
  /** Longest wait for each answer of a host that accepted. */
  answerTimeoutMs?: number;
  /** The whole scan: hosts not probed by then are left, hosts being asked are dropped. */
  budgetMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
}

export interface ScanProgress {
  probed: number;
  total: number;
  found: number;
}

export interface NetworkPrinterScanned {
  uri: string;
  host: string;
  port: number;
  /** From `~HI`, e.g. `ZD421-203dpi`. */
  model: string;
  firmware: string;
  dpi: number;
}

export interface NetworkScanResult {
  printers: NetworkPrinterScanned[];
  probed: number;
  total: number;
  /** Why it ended before every host was probed: a cancel, or the time budget. */
  stopped: 'cancelled' | 'budget' | null;
}

/** A range the user named that cannot be scanned; the message says why. */
export class ScanRangeError extends Error {
  override name = 'ScanRangeError';
}

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function toNumber(address: string): number | undefined {
  const m = ipv4.exec(address);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

const toAddress = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/**
 * The hosts of `a.b.c.d/n` (without the network and broadcast addresses when n < 31), or one address. Throws
 * ScanRangeError for a malformed range or one of more than `MAX_SCAN_HOSTS` hosts.
 */
export function parseScanRange(text: string): string[] {
  const m = /^([\d.]+)(?:\/(\d{1,2}))?$/.exec(text.trim());
  const base = m ? toNumber(m[1] ?? '') : undefined;
  const bits = m?.[2] === undefined ? 32 : Number(m[2]);
  if (!m || base === undefined || bits > 32) {
    throw new ScanRangeError(`"${text}" is not an IPv4 range: expected such as 192.168.1.0/24 or 10.0.0.5`);
  }
  const size = 2 ** (32 - bits);
  if (size > MAX_SCAN_HOSTS + 2) {
    throw new ScanRangeError(
      `${text} holds ${size} addresses: scan at most ${MAX_SCAN_HOSTS} at once (a /22), such as 192.168.1.0/24`,
    );
  }
  const network = base - (base % size);
  if (size <= 2) return Array.from({ length: size }, (_, i) => toAddress(network + i));
  return Array.from({ length: size - 2 }, (_, i) => toAddress(network + 1 + i));
}

/** Whether an IPv4 address is in a private range (RFC 1918). */
export function isPrivateIpv4(address: string): boolean {
  const n = toNumber(address);
  if (n === undefined) return false;
  const a = n >>> 24;
  const b = (n >>> 16) & 255;
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * The ranges to scan when none is named: the /24 around each private IPv4 address of this computer's own
 * interfaces (smaller when the interface's own netmask is), nothing else.
 */
export function localScanRanges(interfaces = networkInterfaces()): string[] {
  const ranges = new Set<string>();
  for (const list of Object.values(interfaces)) {
    for (const i of list ?? []) {
      if (i.family !== 'IPv4' || i.internal || !isPrivateIpv4(i.address)) continue;
      const bits = Math.max(24, Number(/\/(\d+)$/.exec(i.cidr ?? '')?.[1] ?? 24));
      const n = toNumber(i.address)!;
      const size = 2 ** (32 - bits);
      ranges.add(`${toAddress(n - (n % size))}/${bits}`);
    }
  }
  return [...ranges];
}

/** Probes every host (see the module comment). Never throws for what a host does. */
export async function scanNetwork(options: NetworkScanOptions): Promise<NetworkScanResult> {
  const port = options.port ?? SCAN_DEFAULTS.port;
  const concurrency = Math.max(1, options.concurrency ?? SCAN_DEFAULTS.concurrency);
  const connectTimeoutMs = options.connectTimeoutMs ?? SCAN_DEFAULTS.connectTimeoutMs;
  const answerTimeoutMs = options.answerTimeoutMs ?? SCAN_DEFAULTS.answerTimeoutMs;
  const hosts = [...new Set(options.hosts)];
  const total = hosts.length;
  const printers: NetworkPrinterScanned[] = [];
  const open = new Set<TcpTransport>();
  let probed = 0;
  let next = 0;
  let stopped: NetworkScanResult['stopped'] = null;

  let wake: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (wake = resolve));
  const stop = (why: 'cancelled' | 'budget') => {
    stopped ??= why;
    for (const t of open) void t.abort();
    wake();
  };
  const onAbort = () => stop('cancelled');
  if (options.signal?.aborted) stopped = 'cancelled';
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const budget = setTimeout(() => stop('budget'), options.budgetMs ?? SCAN_DEFAULTS.budgetMs);

  const probe = async (host: string): Promise<void> => {
    const transport = new TcpTransport({ scheme: 'tcp', host, port });
    open.add(transport);
    try {
      await transport.open({ timeoutMs: connectTimeoutMs });
      if (stopped) return;
      const identity = await queryIdentity(transport, { timeoutMs: answerTimeoutMs });
      if (stopped) return;
      let dpi: number;
      try {
        dpi = (await queryDpi(transport, { timeoutMs: answerTimeoutMs })).dpi;
      } catch {
        dpi = dpiFromDotsPerMm(identity.dotsPerMm);
      }
      if (stopped) return;
      printers.push({
        uri: formatPrinterUri({ scheme: 'tcp', host, port }),
        host,
        port,
        model: identity.model,
        firmware: identity.firmware,
        dpi,
      });
    } catch {
      // Nothing listening, silence, garbage or a reset: not a printer.
    } finally {
      open.delete(transport);
      await transport.abort().catch(() => undefined);
    }
  };

  const worker = async (): Promise<void> => {
    while (!stopped && next < hosts.length) {
      const host = hosts[next++]!;
      await probe(host);
      if (stopped) return;
      probed++;
      options.onProgress?.({ probed, total, found: printers.length });
    }
  };

  try {
    const workers = Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
    await Promise.race([workers, ended]);
  } finally {
    clearTimeout(budget);
    options.signal?.removeEventListener('abort', onAbort);
  }
  const byAddress = (p: NetworkPrinterScanned) => toNumber(p.host) ?? 0;
  return {
    printers: [...printers].sort((a, b) => byAddress(a) - byAddress(b)),
    probed,
    total,
    stopped: probed === total ? null : stopped,
  };
}
