/**
 * Raw TCP against the Zebra emulator over real sockets on 127.0.0.1: a label job arrives byte for byte and its
 * barcode scans; status follows every fault switch; dpi is detected; failures come back as the typed errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTcpTransport, type TcpTransport } from '../../../src/node/printers/tcp';
import { queryDpi, queryIdentity, queryStatus, queryVariable } from '../../../src/printers/query';
import { PrinterDisconnected, PrinterRefused, PrinterTimeout } from '../../../src/printers/transport';
import { parsePrinterUri, type TcpUri } from '../../../src/printers/uri';
import { buildZplJob } from '../../../src/zpl/job';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { code128Label, scanZplJob } from '../../support/barcode-label';

const VALUE = 'LD-TCP-0042';
let dir: string;
let emulator: ZebraEmulator;
const open: TcpTransport[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-tcp-'));
  emulator = await startZebraEmulator({ dpi: 203, port: 0 });
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const t of open.splice(0)) await t.close().catch(() => undefined);
  emulator.setFault({
    paperOut: false,
    headOpen: false,
    paused: false,
    ribbonOut: false,
    silent: false,
    silentWhileFaulted: false,
    dropAfterBytes: null,
    readDelayMs: 0,
    stalled: false,
  });
});

async function connect(target: ZebraEmulator | string = emulator): Promise<TcpTransport> {
  const uri = typeof target === 'string' ? target : target.uri;
  const t = createTcpTransport(parsePrinterUri(uri) as TcpUri);
  open.push(t);
  await t.open();
  return t;
}

/** A syntactically complete job of `bytes` size (a ^FX comment carries the bulk). */
function bigJob(bytes: number): string {
  return `^XA^FX${'A'.repeat(bytes - 9)}^XZ`;
}

describe('printing over TCP 9100', () => {
  it('delivers a label job exactly; what the printer received scans as the same Code 128', async () => {
    const job = buildZplJob({ bitmap: code128Label(VALUE) });
    const before = emulator.jobs.length;
    const t = await connect();
    await t.write(job);
    await t.close();
    const received = emulator.jobs.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]?.zpl).toBe(job.replace(/\n$/, '')); // ^XA through ^XZ, as sent
    expect(received[0]?.state).toBe('printed');
    expect(scanZplJob(received[0]?.zpl ?? '', dir)).toEqual([VALUE]);
  });

  it('keeps every byte of a large job through a slow reader (backpressure, not buffering)', async () => {
    emulator.setFault({ readDelayMs: 2 });
    const job = bigJob(3 * 1024 * 1024);
    const before = emulator.jobs.length;
    const t = await connect();
    await t.write(job);
    await t.close();
    expect(emulator.jobs.slice(before).map((j) => j.bytes.length)).toEqual([job.length]);
    expect(emulator.jobs.at(-1)?.zpl).toBe(job);
  });
});

describe('status over TCP', () => {
  it('is ready with empty counters when nothing is wrong', async () => {
    const t = await connect();
    expect(await queryStatus(t)).toEqual({
      state: 'ready',
      reasons: [],
      formatsInBuffer: 0,
      labelsRemaining: 0,
      labelLengthDots: 160,
    });
  });

  it.each([
    ['paperOut', 'paper-out', 'out of paper (media)'],
    ['headOpen', 'head-open', 'print head is open'],
    ['paused', 'paused', 'paused'],
    ['ribbonOut', 'ribbon-out', 'out of ribbon'],
  ] as const)('follows the %s switch', async (fault, state, reason) => {
    const t = await connect();
    emulator.setFault({ [fault]: true });
    expect(await queryStatus(t)).toMatchObject({ state, reasons: [reason] });
    emulator.setFault({ [fault]: false });
    expect((await queryStatus(t)).state).toBe('ready');
  });

  it('holds jobs while paused, counts them honestly, and prints them when resumed', async () => {
    const t = await connect();
    emulator.setFault({ paused: true });
    const before = emulator.jobs.length;
    await t.write(buildZplJob({ bitmap: code128Label(VALUE) }));
    await t.write('^XA^PQ3^FO10,10^GB100,100,100^FS^XZ\n');
    const status = await queryStatus(t);
    expect(status).toEqual({
      state: 'paused',
      reasons: ['paused'],
      formatsInBuffer: 2,
      labelsRemaining: 1,
      labelLengthDots: 160,
    });
    expect(emulator.jobs.slice(before).map((j) => j.state)).toEqual(['held', 'held']);
    emulator.setFault({ paused: false });
    expect(emulator.jobs.slice(before).map((j) => j.state)).toEqual(['printed', 'printed']);
    expect(await queryStatus(t)).toMatchObject({ state: 'ready', formatsInBuffer: 0 });
  });

  it('reports several faults at once, the most important first', async () => {
    const t = await connect();
    emulator.setFault({ paperOut: true, paused: true, headOpen: true });
    expect(await queryStatus(t)).toMatchObject({
      state: 'head-open',
      reasons: ['print head is open', 'out of paper (media)', 'paused'],
    });
  });

  it('is never ready when the printer stays silent to ~HS while faulted, or silent at all', async () => {
    const t = await connect();
    emulator.setFault({ paperOut: true, silentWhileFaulted: true });
    const faulted = await queryStatus(t, { timeoutMs: 300 });
    expect(faulted.state).toBe('offline');
    expect(faulted.reasons[0]).toMatch(/no answer to ~HS within 300 ms/);
    emulator.setFault({ paperOut: false, silentWhileFaulted: false, silent: true });
    expect((await queryStatus(t, { timeoutMs: 300 })).state).toBe('offline');
    // The late answer of neither query pollutes the next one.
    emulator.setFault({ silent: false });
    expect((await queryStatus(t)).state).toBe('ready');
  });
});

describe('identity and resolution', () => {
  let emulator300: ZebraEmulator;
  let noSgd: ZebraEmulator;
  beforeAll(async () => {
    emulator300 = await startZebraEmulator({ dpi: 300, port: 0, model: 'ZT411-300dpi' });
    noSgd = await startZebraEmulator({ dpi: 300, port: 0, sgd: false });
  });
  afterAll(async () => {
    await emulator300.close();
    await noSgd.close();
  });

  it('detects 203 and 300 dpi from head.resolution.in_dpi', async () => {
    expect(await queryDpi(await connect())).toEqual({ dpi: 203, source: 'sgd', printWidthDots: 832 });
    expect(await queryDpi(await connect(emulator300))).toEqual({
      dpi: 300,
      source: 'sgd',
      printWidthDots: 1232,
    });
  });

  it('falls back to ~HI dots/mm when the printer does not speak SGD', async () => {
    expect(await queryDpi(await connect(noSgd), { timeoutMs: 300 })).toEqual({
      dpi: 300,
      source: 'identity',
    });
  });

  it('reads model, firmware and dots/mm from ~HI; an unknown SGD name answers "?"', async () => {
    const t = await connect(emulator300);
    expect(await queryIdentity(t)).toMatchObject({
      model: 'ZT411-300dpi',
      firmware: 'V84.20.21Z',
      dotsPerMm: 12,
    });
    expect(await queryVariable(t, 'no.such.setting')).toEqual({ kind: 'unknown' });
  });
});

describe('failures', () => {
  it('a connection dropped mid-job is PrinterDisconnected with the bytes written so far; the partial job is not printed', async () => {
    emulator.setFault({ dropAfterBytes: { bytes: 10_000, every: false } });
    const job = bigJob(24 * 1024 * 1024);
    const before = emulator.jobs.length;
    const t = await connect();
    const error = await t
      .write(job)
      .then(
        () => t.close(), // all of it fit in socket buffers: the reset shows when closing
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterDisconnected);
    const d = error as PrinterDisconnected;
    expect(d.bytesWritten).toBeLessThan(job.length);
    expect(d.message).toMatch(/connection lost after \d+ of 25165824 bytes|connection reset/);
    expect(emulator.jobs.length).toBe(before);
    // "once": the next connection goes through whole.
    const again = await connect();
    await again.write(bigJob(100_000));
    await again.close();
    expect(emulator.jobs.length).toBe(before + 1);
  });

  it('a port nobody listens on is PrinterRefused', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const t = createTcpTransport({ scheme: 'tcp', host: '127.0.0.1', port });
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterRefused);
    expect((error as Error).message).toBe(
      `tcp://127.0.0.1:${port}: connection refused (nothing listening on 127.0.0.1:${port}, or the printer is busy with another host)`,
    );
  });

  it('a printer that stops reading makes the write time out (PrinterTimeout, phase write, bytes so far)', async () => {
    emulator.setFault({ stalled: true });
    const job = bigJob(24 * 1024 * 1024);
    const t = await connect();
    const error = await t.write(job, { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterTimeout);
    expect((error as PrinterTimeout).phase).toBe('write');
    expect((error as PrinterTimeout).bytesWritten).toBeLessThan(job.length);
  });

  it('a printer that does not answer a query is PrinterTimeout (phase request, nothing received)', async () => {
    emulator.setFault({ silent: true });
    const t = await connect();
    const error = await queryIdentity(t, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterTimeout);
    expect(error).toMatchObject({ phase: 'request', received: new Uint8Array(0) });
  });

  describe('connect timeout', () => {
    // A listener in a stopped process: its accept queue fills, further SYNs are dropped, connect() hangs.
    let child: ChildProcess;
    let port: number;
    const fillers: Socket[] = [];
    beforeAll(async () => {
      child = spawn(
        process.execPath,
        [
          '-e',
          "const s=require('net').createServer().listen({port:0,host:'127.0.0.1',backlog:1},()=>{process.stdout.write(String(s.address().port)+'\\n');process.kill(process.pid,'SIGSTOP')})",
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      port = await new Promise<number>((resolve) =>
        child.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
      );
      // Fill the accept queue of the stopped listener, one connection at a time, until one no longer gets in.
      for (let i = 0; i < 8; i++) {
        const s = new Socket();
        s.on('error', () => undefined);
        fillers.push(s);
        const connected = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 300);
          s.connect(port, '127.0.0.1', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        if (!connected) break;
      }
    });
    afterAll(() => {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
    });

    it('is PrinterTimeout (phase open)', async () => {
      const t = createTcpTransport({ scheme: 'tcp', host: '127.0.0.1', port });
      const error = await t.open({ timeoutMs: 500 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PrinterTimeout);
      expect((error as PrinterTimeout).phase).toBe('open');
    });
  });
});
