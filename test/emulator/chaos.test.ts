/**
 * The chaos printer does what each fault says, at the byte level: a raw TCP socket (or the real USB and serial
 * transports) plays the host, and the test checks what the printer read and what came back.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSerialTransport } from '../../src/node/printers/serial';
import { createUsbTransport } from '../../src/node/printers/usb';
import { queryStatus } from '../../src/printers/query';
import { hasFrames, interpretHostStatusReply } from '../../src/printers/status';
import { PrinterDisconnected } from '../../src/printers/transport';
import { parsePrinterUri, type SerialUri, type UsbUri } from '../../src/printers/uri';
import { openPtyPair } from '../support/pty-pair';
import {
  ChaosPrinter,
  chaosUsb,
  randomFaults,
  serveChaosOnSerialPort,
  startChaosPrinter,
  type ChaosEmulator,
  type ChaosFault,
} from './chaos';

const format = (n: number, pad = 0): string => `^XA^FO10,10^FDlabel ${n}${'x'.repeat(pad)}^FS^XZ`;
const until = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((r) => setTimeout(r, 5));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Host {
  socket: Socket;
  received: Buffer[];
  /** Resolves with how the connection ended: the error code (ECONNRESET), 'end' (FIN), or 'open'. */
  ended: Promise<string>;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

async function chaos(faults: ChaosFault[]): Promise<ChaosEmulator> {
  const emulator = await startChaosPrinter({ dpi: 203, faults });
  cleanup.push(() => emulator.close());
  return emulator;
}

async function host(emulator: ChaosEmulator): Promise<Host> {
  const socket = connect(emulator.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const received: Buffer[] = [];
  socket.on('data', (b: Buffer) => received.push(b));
  const ended = new Promise<string>((resolve) => {
    socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    socket.on('end', () => resolve('end'));
  });
  cleanup.push(async () => {
    socket.destroy();
  });
  return { socket, received, ended };
}

describe('chaos printer on TCP', () => {
  it('reset: RST on connection 2 after exactly byte 100; connection 1 is untouched', async () => {
    const emulator = await chaos([{ kind: 'reset', connection: 2, byte: 100 }]);
    const first = await host(emulator);
    first.socket.write(format(1, 300));
    await until(() => emulator.jobs.length === 1);
    first.socket.end();
    const second = await host(emulator);
    second.socket.write(format(2, 300));
    expect(await second.ended).toBe('ECONNRESET');
    expect(emulator.injected).toEqual([
      { kind: 'reset', connection: 2, byte: 100, totalByte: 100 + format(1, 300).length },
    ]);
    expect(emulator.jobs.map((j) => j.zpl)).toEqual([format(1, 300)]);
  });

  it('reset-after-query: no answer, RST; reset-after-answer: the whole answer, then RST', async () => {
    const emulator = await chaos([{ kind: 'reset-after-query', byte: 0 }]);
    const a = await host(emulator);
    a.socket.write('~HS');
    expect(await a.ended).toBe('ECONNRESET');
    expect(Buffer.concat(a.received).length).toBe(0);

    emulator.printer.schedule({ kind: 'reset-after-answer', byte: 0 });
    const b = await host(emulator);
    b.socket.write('~HS');
    expect(await b.ended).toBe('ECONNRESET');
    expect(interpretHostStatusReply(Buffer.concat(b.received)).state).toBe('ready');
  });

  it('close: FIN, no RST, and nothing after the fault byte is read', async () => {
    const emulator = await chaos([{ kind: 'close', byte: 20 }]);
    const h = await host(emulator);
    h.socket.write(format(1));
    expect(await h.ended).toBe('end');
    expect(emulator.printer.totalBytes).toBe(20);
    expect(emulator.jobs).toEqual([]);
  });

  it('stop-reading: the printer reads nothing past the fault byte and the host’s writes back up, until it reads again', async () => {
    const emulator = await chaos([{ kind: 'stop-reading', byte: 1000, ms: 300 }]);
    const h = await host(emulator);
    const big = format(1, 8 * 1024 * 1024);
    h.socket.write(big);
    await until(() => emulator.injected.length === 1);
    await sleep(100);
    expect(emulator.printer.totalBytes).toBe(1000);
    expect(h.socket.writableLength).toBeGreaterThan(0);
    await until(() => emulator.jobs.length === 1);
    expect(emulator.jobs[0]?.zpl).toBe(big);
  });

  it('half-open: reads on, never answers, never closes, prints nothing', async () => {
    const emulator = await chaos([{ kind: 'half-open', byte: 0 }]);
    const h = await host(emulator);
    h.socket.write(`${format(1)}~HS`);
    await until(() => emulator.printer.totalBytes === format(1).length + 3);
    await sleep(200);
    expect(h.received).toEqual([]);
    expect(h.socket.destroyed).toBe(false);
    expect(emulator.jobs).toEqual([]);
  });

  it('garbage-answer and truncated-answer: ~HS answers that cannot be read, then a good one', async () => {
    const emulator = await chaos([
      { kind: 'garbage-answer', byte: 0, count: 2 },
      { kind: 'truncated-answer', byte: 0 },
    ]);
    const h = await host(emulator);
    const ask = async (): Promise<Buffer> => {
      h.received.length = 0;
      h.socket.write('~HS');
      await sleep(100);
      return Buffer.concat(h.received);
    };
    for (let i = 0; i < 3; i++) {
      const answer = await ask();
      expect(answer.length).toBeGreaterThan(0);
      expect(interpretHostStatusReply(answer).state).not.toBe('ready');
    }
    const good = await ask();
    expect(hasFrames(good, 3)).toBe(true);
    expect(interpretHostStatusReply(good).state).toBe('ready');
  });

  it('trickle-answers: the ~HS answer arrives whole, one byte at a time', async () => {
    const emulator = await chaos([{ kind: 'trickle-answers', byte: 0 }]);
    const h = await host(emulator);
    h.socket.write('~HS');
    await until(() => hasFrames(Buffer.concat(h.received), 3));
    expect(h.received.length).toBeGreaterThan(1);
    expect(interpretHostStatusReply(Buffer.concat(h.received)).state).toBe('ready');
  });

  it('slow-reader: reads 96 bytes per 100 ms (960 bytes/s) for the bytes it is told, then at full speed', async () => {
    const emulator = await chaos([{ kind: 'slow-reader', byte: 0, bytes: 400 }]);
    const h = await host(emulator);
    const job = format(1, 2000);
    h.socket.write(job);
    await until(() => emulator.printer.totalBytes > 0);
    expect(emulator.printer.totalBytes).toBe(96);
    await until(() => emulator.jobs.length === 1);
    expect(emulator.jobs[0]?.zpl).toBe(job);
  });

  it('reboot: drops the connection, forgets held formats, answers nothing for a while, then answers again', async () => {
    const emulator = await chaos([{ kind: 'reboot', byte: format(1).length + 3, ms: 400 }]);
    emulator.printer.setFault({ paused: true });
    const h = await host(emulator);
    h.socket.write(format(1));
    await until(() => emulator.jobs.length === 1);
    expect(emulator.printer.held).toHaveLength(1);
    h.socket.write('~HS');
    expect(await h.ended).toBe('ECONNRESET');
    expect(emulator.printer.held).toEqual([]);
    expect(emulator.printer.printed).toEqual([]);
    const after = await host(emulator);
    after.socket.write('~HS! U1 getvar "head.resolution.in_dpi"\r\n');
    await sleep(100);
    expect(after.received).toEqual([]);
    await until(() => !emulator.printer.rebooting);
    after.socket.write('~HS');
    await until(() => hasFrames(Buffer.concat(after.received), 3));
    expect(interpretHostStatusReply(Buffer.concat(after.received)).state).toBe('ready');
  });

  it.each([false, true])('paper-out (silent: %s) holds formats, then clears by itself', async (silent) => {
    const emulator = await chaos([{ kind: 'paper-out', byte: 0, ms: 300, silent }]);
    const h = await host(emulator);
    h.socket.write(`${format(1)}~HS`);
    await sleep(100);
    expect(emulator.printer.held).toHaveLength(1);
    const answer = Buffer.concat(h.received);
    if (silent) expect(answer.length).toBe(0);
    else expect(interpretHostStatusReply(answer).state).toBe('paper-out');
    await until(() => emulator.printer.printed.length === 1);
  });
});

describe('chaos printer on serial and USB', () => {
  it('serial: a pulled cable loses the format cut off; the line works again afterwards', async () => {
    const pty = await openPtyPair();
    const printer = new ChaosPrinter({ dpi: 203, faults: [{ kind: 'reset', byte: 10 }] });
    const served = await serveChaosOnSerialPort(printer, pty.a);
    cleanup.push(async () => {
      await served.close();
      await pty.close();
    });
    const t = createSerialTransport(parsePrinterUri(`serial://${pty.b}?baud=9600`) as SerialUri);
    await t.open();
    cleanup.push(() => t.close());
    await t.write(format(1));
    await until(() => printer.injected.length === 1);
    await sleep(400);
    await t.write(format(2));
    expect((await queryStatus(t)).state).toBe('ready');
    expect(printer.jobs.map((j) => j.zpl)).toEqual([format(2)]);
    expect(printer.sessionsOpened).toBe(2);
  });

  it('usb: reset unplugs the device mid-write (PrinterDisconnected); it is plugged back in later', async () => {
    const printer = new ChaosPrinter({ dpi: 203, faults: [{ kind: 'reset', byte: 5000 }] });
    const usb = chaosUsb(printer, { replugMs: 50 });
    const t = createUsbTransport(parsePrinterUri('usb://0a5f:0181') as UsbUri, {
      listDevices: usb.listDevices,
      detachKernelDriver: true,
    });
    await t.open();
    await expect(t.write(format(1, 40_000))).rejects.toBeInstanceOf(PrinterDisconnected);
    await t.close().catch(() => undefined);
    expect(printer.jobs).toEqual([]);
    await until(() => usb.device() !== undefined);
    const again = createUsbTransport(parsePrinterUri('usb://0a5f:0181') as UsbUri, {
      listDevices: usb.listDevices,
      detachKernelDriver: true,
    });
    await again.open();
    await again.write(format(2));
    expect((await queryStatus(again)).state).toBe('ready');
    await again.close();
    expect(printer.jobs.map((j) => j.zpl)).toEqual([format(2)]);
    printer.dispose();
  });
});

describe('randomFaults', () => {
  it('draws the same faults from the same seed (a failing seed replays), others from another', () => {
    expect(randomFaults(42, { count: 6 })).toEqual(randomFaults(42, { count: 6 }));
    expect(randomFaults(42, { count: 6 })).not.toEqual(randomFaults(43, { count: 6 }));
    const faults = randomFaults(7, { count: 20, kinds: ['reset', 'paper-out'] });
    expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(['reset', 'paper-out']));
    for (let i = 1; i < faults.length; i++) expect(faults[i]!.byte).toBeGreaterThan(faults[i - 1]!.byte);
  });
});
