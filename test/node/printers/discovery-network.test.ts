/**
 * The network scan (#42 item 7) against real sockets on loopback only: two Zebra emulators, a listener that
 * never answers, one that answers garbage and one that resets, each on its own 127.0.0.x address at one port.
 * No traffic leaves 127.0.0.0/8.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localScanRanges,
  parseScanRange,
  scanNetwork,
  ScanRangeError,
} from '../../../src/node/printers/discovery-network';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';

type Behaviour = 'silent' | 'garbage' | 'reset';

let port = 0;
const emulators: ZebraEmulator[] = [];
const servers: Server[] = [];
const sockets = new Set<Socket>();
let silentOpen = 0;
let silentMostAtOnce = 0;

async function listen(host: string, behaviour: Behaviour): Promise<void> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (behaviour === 'silent') {
      silentOpen++;
      silentMostAtOnce = Math.max(silentMostAtOnce, silentOpen);
      socket.on('close', () => silentOpen--);
    }
    if (behaviour === 'garbage')
      socket.on('data', () => socket.write('\u0002HELLO?,,\u0003\r\nnot a printer\r\n'));
    if (behaviour === 'reset') socket.resetAndDestroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  servers.push(server);
}

beforeAll(async () => {
  const first = await startZebraEmulator({ dpi: 203, host: '127.0.0.2', model: 'ZD421-203dpi' });
  port = first.port;
  emulators.push(
    first,
    await startZebraEmulator({ dpi: 300, host: '127.0.0.3', port, model: 'ZT411-300dpi' }),
  );
  await listen('127.0.0.4', 'silent');
  await listen('127.0.0.5', 'garbage');
  await listen('127.0.0.6', 'reset');
  for (const host of ['127.0.0.9', '127.0.0.10', '127.0.0.11']) await listen(host, 'silent');
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await Promise.all(emulators.map((e) => e.close()));
});

describe('scanNetwork', () => {
  it('finds the two printers of 127.0.0.0/29 with model and dpi, and skips the silent, garbage and resetting hosts', async () => {
    const progress: number[] = [];
    const hosts = parseScanRange('127.0.0.0/29');
    expect(hosts).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6']);
    const result = await scanNetwork({
      hosts,
      port,
      answerTimeoutMs: 300,
      onProgress: (p) => progress.push(p.probed),
    });
    expect(result.printers).toEqual([
      {
        uri: `tcp://127.0.0.2:${port}`,
        host: '127.0.0.2',
        port,
        model: 'ZD421-203dpi',
        firmware: 'V84.20.21Z',
        dpi: 203,
      },
      {
        uri: `tcp://127.0.0.3:${port}`,
        host: '127.0.0.3',
        port,
        model: 'ZT411-300dpi',
        firmware: 'V84.20.21Z',
        dpi: 300,
      },
    ]);
    expect(result).toMatchObject({ probed: 6, total: 6, stopped: null });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    // The printers were asked, never sent a label.
    expect(emulators.every((e) => e.jobs.length === 0)).toBe(true);
  });

  it('keeps to its cap on connections at once', async () => {
    await expect.poll(() => silentOpen).toBe(0);
    silentMostAtOnce = 0;
    const cancel = new AbortController();
    // Four silent hosts, two at once: the first two hold their slots; no third is tried until one frees.
    const scan = scanNetwork({
      hosts: ['127.0.0.4', '127.0.0.9', '127.0.0.10', '127.0.0.11'],
      port,
      concurrency: 2,
      answerTimeoutMs: 60_000,
      signal: cancel.signal,
    });
    await expect.poll(() => silentOpen).toBe(2);
    cancel.abort();
    expect(await scan).toMatchObject({ printers: [], probed: 0, stopped: 'cancelled' });
    expect(silentMostAtOnce).toBe(2);
  });

  it('stops at its time budget, leaving the hosts not probed, and drops its connections', async () => {
    const result = await scanNetwork({
      hosts: ['127.0.0.4', '127.0.0.9', '127.0.0.10', '127.0.0.11', '127.0.0.2'],
      port,
      concurrency: 1,
      answerTimeoutMs: 60_000,
      budgetMs: 300,
    });
    expect(result.stopped).toBe('budget');
    expect(result.probed).toBe(0);
    expect(result.printers).toEqual([]);
    await expect.poll(() => silentOpen).toBe(0);
  });

  it('is cancelled at once by its signal, even while a host holds it', async () => {
    const cancel = new AbortController();
    const scan = scanNetwork({
      hosts: ['127.0.0.2', '127.0.0.4', '127.0.0.3'],
      port,
      concurrency: 1,
      answerTimeoutMs: 60_000,
      budgetMs: 120_000,
      signal: cancel.signal,
      // The first printer answered; the silent host is next and would hold the scan for a minute.
      onProgress: (p) => {
        if (p.probed === 1) setTimeout(() => cancel.abort(), 50);
      },
    });
    const result = await scan;
    expect(result.stopped).toBe('cancelled');
    expect(result.printers.map((p) => p.host)).toEqual(['127.0.0.2']);
    expect(result.probed).toBe(1);
    await expect.poll(() => silentOpen).toBe(0);
  });
});

describe('scan ranges', () => {
  it('reads a CIDR or one address, and refuses a range too wide or malformed with a sentence', () => {
    expect(parseScanRange('192.168.1.77/24')).toHaveLength(254);
    expect(parseScanRange('192.168.1.77/24')[0]).toBe('192.168.1.1');
    expect(parseScanRange('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(parseScanRange('10.0.0.4/31')).toEqual(['10.0.0.4', '10.0.0.5']);
    expect(parseScanRange('10.0.0.0/22')).toHaveLength(1022);
    expect(() => parseScanRange('10.0.0.0/16')).toThrow(
      new ScanRangeError(
        '10.0.0.0/16 holds 65536 addresses: scan at most 1024 at once (a /22), such as 192.168.1.0/24',
      ),
    );
    for (const bad of ['10.0.0.256', 'printer.local', '10.0.0.0/33', '']) {
      expect(() => parseScanRange(bad)).toThrow(ScanRangeError);
    }
  });

  it("by default, only the /24 around each private address of this computer's own interfaces", () => {
    const iface = (address: string, cidr: string, internal = false) => ({
      address,
      cidr,
      internal,
      family: 'IPv4' as const,
      netmask: '',
      mac: '',
    });
    expect(
      localScanRanges({
        lo: [iface('127.0.0.1', '127.0.0.1/8', true)],
        eth0: [iface('192.168.1.77', '192.168.1.77/16'), iface('10.1.2.3', '10.1.2.3/28')],
        wan: [iface('203.0.113.9', '203.0.113.9/24'), iface('172.32.0.1', '172.32.0.1/24')],
        docker: [iface('172.17.0.1', '172.17.0.1/16')],
      }),
    ).toEqual(['192.168.1.0/24', '10.1.2.0/28', '172.17.0.0/24']);
  });
});
