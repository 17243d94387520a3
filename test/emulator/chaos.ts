/**
 * The chaos printer: the Zebra emulator (zebra-core.ts still does the ZPL, `~HS` and SGD work) behind a link
 * that misbehaves the way real printers and networks do, at scheduled points or at random from a seed.
 *
 *   const printer = await startChaosPrinter({ dpi: 203, faults: [{ kind: 'reset', connection: 3, byte: 1234 }] });
 *   const printer = await startChaosPrinter({ dpi: 203, faults: randomFaults(seed, { count: 4 }) });
 *   printer.injected   // what was injected, where (for the summary and for replaying a failing seed)
 *
 * A fault fires when the printer has read `byte` bytes: on connection `connection` (1-based, as accepted) when
 * that is given, else counting every connection together. Bytes before that point reach the printer; what
 * happens to the rest is the fault. Fault kinds (`ChaosFaultKind`):
 *
 * - `reset`: RST in the middle of the host's write (TCP resetAndDestroy; USB: the device is unplugged and
 *   plugged back 300 ms later; serial: the cable is pulled — the line is dead for 300 ms, then a new session
 *   starts, since a PTY cannot RST).
 * - `reset-after-query` / `reset-after-answer`: at the next `~HS` read, RST before answering it, or right after.
 * - `close`: FIN, no RST (TCP `end()`; USB and serial as `reset`).
 * - `stop-reading`: the printer stops reading (the host's writes stall on a full socket/PTY) for `ms`, or for
 *   good when `ms` is absent (the partial format is discarded then, as nothing more will arrive).
 * - `half-open`: keeps reading (and discards) but never answers and never closes.
 * - `garbage-answer` / `truncated-answer`: the next `count` answers (any: ~HS, ~HI, SGD) are noise / cut short.
 * - `trickle-answers`: the next `count` answers arrive one byte at a time.
 * - `slow-reader`: reads at `bytesPerSecond` (default 960 ≈ 9600 baud) for the next `bytes` bytes (default 2000).
 * - `reboot`: drops every connection, forgets the formats in its buffer, answers nothing (no ~HS, no dpi/SGD)
 *   and ignores what it is sent for `ms`.
 * - `paper-out` / `head-open` / `pause`: the printer fault for `ms`; with `silent`, no ~HS answer meanwhile.
 *
 * `count: Infinity` keeps an answer fault for good (a printer that always answers garbage).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { SerialPort } from 'serialport';
import { seededRandom } from '../support/random';
import { EmulatedUsbDevice, type EmulatedUsbOptions } from './usb-device';
import { ZebraPrinterModel, ZebraSession, type EmulatorOptions, type ReceivedJob } from './zebra-core';

export const CHAOS_FAULT_KINDS = [
  'reset',
  'reset-after-query',
  'reset-after-answer',
  'close',
  'stop-reading',
  'half-open',
  'garbage-answer',
  'truncated-answer',
  'trickle-answers',
  'slow-reader',
  'reboot',
  'paper-out',
  'head-open',
  'pause',
] as const;
export type ChaosFaultKind = (typeof CHAOS_FAULT_KINDS)[number];

export interface ChaosFault {
  kind: ChaosFaultKind;
  /** Fires once this many bytes have been read (on `connection`, else on all connections together). */
  byte: number;
  /** 1-based connection (in accept order; serial: session) the byte count is on. */
  connection?: number;
  /** Answers affected by garbage/truncated/trickle (default 1; Infinity: for good). */
  count?: number;
  /** How long, in ms: printer faults, reboot, `stop-reading` (absent: for good). */
  ms?: number;
  /** Printer faults: no answer to ~HS while the fault lasts. */
  silent?: boolean;
  /** slow-reader: bytes read slowly (default 2000) and the rate (default 960/s, 9600 baud 8N1). */
  bytes?: number;
  bytesPerSecond?: number;
}

/** One fault as it happened. */
export interface InjectedFault {
  kind: ChaosFaultKind;
  connection: number;
  /** Bytes read on that connection when it fired. */
  byte: number;
  /** Bytes read on all connections when it fired. */
  totalByte: number;
}

/** What the transport adapter does for a fault on the link. */
export interface ChaosLink {
  /** RST (or its closest equivalent on this link). */
  reset(): void;
  /** FIN (or its closest equivalent). */
  close(): void;
  /** Stop / go on reading from the host (no-op where the link cannot push back). */
  pause(): void;
  resume(): void;
  /** Bytes to the host. */
  write(bytes: Uint8Array): void;
}

const STX = 0x02;
const HS_FRAMES = 3;

type AnswerKind = 'status' | 'other';

function answerKind(bytes: Uint8Array): AnswerKind {
  let frames = 0;
  for (const b of bytes) if (b === STX) frames++;
  return frames === HS_FRAMES ? 'status' : 'other';
}

/** A Zebra printer model whose sessions inject the scheduled faults. */
export class ChaosPrinter extends ZebraPrinterModel {
  readonly injected: InjectedFault[] = [];
  /** Bytes read on all connections. */
  totalBytes = 0;
  /** Sessions opened so far (TCP connections, serial sessions, USB claims). */
  sessionsOpened = 0;
  /** Link for sessions opened without one (the emulated USB device calls `openSession(send)`). */
  defaultLink: ChaosLink | undefined;
  private pending: ChaosFault[];
  private readonly live = new Set<ChaosSession>();
  /** Answer faults in force: printer-wide, so they outlive a reconnect. */
  readonly answerFaults: { kind: 'garbage-answer' | 'truncated-answer' | 'trickle-answers'; left: number }[] =
    [];
  /** `reset-after-query`/`reset-after-answer` waiting for the next ~HS. */
  queryReset: 'before' | 'after' | undefined;
  private rebootingUntil = 0;
  private silentFault = false;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly noise: (min: number, max: number) => number;

  constructor(options: EmulatorOptions & { faults?: readonly ChaosFault[]; seed?: number }) {
    super(options);
    this.pending = [...(options.faults ?? [])];
    this.noise = seededRandom(options.seed ?? 1);
  }

  /** Schedules more faults at run time. */
  schedule(...faults: ChaosFault[]): void {
    this.pending.push(...faults);
  }

  /** Faults scheduled that have not fired. */
  get notFired(): readonly ChaosFault[] {
    return this.pending;
  }

  get rebooting(): boolean {
    return Date.now() < this.rebootingUntil;
  }

  /** Injected faults per kind. */
  countsByKind(): Partial<Record<ChaosFaultKind, number>> {
    const counts: Partial<Record<ChaosFaultKind, number>> = {};
    for (const f of this.injected) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    return counts;
  }

  override openSession(send: (bytes: Uint8Array) => void, link?: ChaosLink): ZebraSession {
    const via: ChaosLink = link ?? {
      reset: () => this.defaultLink?.reset(),
      close: () => this.defaultLink?.close(),
      pause: () => this.defaultLink?.pause(),
      resume: () => this.defaultLink?.resume(),
      write: send,
    };
    this.sessionsOpened++;
    const session = new ChaosSession(this, via, this.sessionsOpened);
    this.live.add(session);
    return session;
  }

  override command(name: string): string | null {
    if (this.rebooting || (this.silentFault && name === '~HS')) return null;
    return super.command(name);
  }

  override sgdLine(line: string): string | null {
    return this.rebooting ? null : super.sgdLine(line);
  }

  /** Stops the timers of faults still running (call from the adapter's close). */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** @internal */
  forget(session: ChaosSession): void {
    this.live.delete(session);
  }

  /** @internal bytes until the next fault due on `session` (0: due now), Infinity when none. */
  bytesUntilFault(session: ChaosSession): number {
    let next = Number.POSITIVE_INFINITY;
    for (const f of this.pending) {
      if (f.connection !== undefined && f.connection !== session.connection) continue;
      const read = f.connection === undefined ? this.totalBytes : session.bytesRead;
      next = Math.min(next, Math.max(0, f.byte - read));
    }
    return next;
  }

  /** @internal fires the faults due on `session`. */
  fireDue(session: ChaosSession): void {
    const due = this.pending.filter(
      (f) =>
        (f.connection === undefined || f.connection === session.connection) &&
        f.byte <= (f.connection === undefined ? this.totalBytes : session.bytesRead),
    );
    this.pending = this.pending.filter((f) => !due.includes(f));
    for (const f of due) this.fire(f, session);
  }

  /** @internal after `ms`, unless disposed. */
  later(ms: number, f: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      f();
    }, ms);
    this.timers.add(timer);
  }

  /** @internal an answer's bytes, transformed by the answer faults in force; null when it is dropped. */
  transformAnswer(bytes: Uint8Array): { bytes: Uint8Array; trickle: boolean } {
    const fault = this.answerFaults[0];
    if (!fault) return { bytes, trickle: false };
    fault.left--;
    if (fault.left <= 0) this.answerFaults.shift();
    switch (fault.kind) {
      case 'garbage-answer':
        return { bytes: this.garbage(bytes), trickle: false };
      case 'truncated-answer':
        return { bytes: bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), trickle: false };
      case 'trickle-answers':
        return { bytes, trickle: true };
    }
  }

  /**
   * Noise the length of the real answer: either three well-framed strings of nonsense (a parser has to
   * reject them) or unframed bytes (the answer never completes).
   */
  private garbage(real: Uint8Array): Uint8Array {
    const framed = this.noise(0, 1) === 1;
    const text = Array.from({ length: Math.max(8, real.length) }, () =>
      String.fromCharCode(this.noise(0x21, 0x7e)),
    ).join('');
    const answer = framed ? `\u0002${text.slice(0, 8)}\u0003\r\n`.repeat(3) : text.replace(/"/g, '#');
    return new TextEncoder().encode(answer);
  }

  private fire(fault: ChaosFault, session: ChaosSession): void {
    this.injected.push({
      kind: fault.kind,
      connection: session.connection,
      byte: session.bytesRead,
      totalByte: this.totalBytes,
    });
    switch (fault.kind) {
      case 'reset':
        return session.kill('reset');
      case 'close':
        return session.kill('close');
      case 'reset-after-query':
        this.queryReset = 'before';
        return;
      case 'reset-after-answer':
        this.queryReset = 'after';
        return;
      case 'stop-reading':
        return session.stopReading(fault.ms);
      case 'half-open':
        return session.goHalfOpen();
      case 'garbage-answer':
      case 'truncated-answer':
      case 'trickle-answers':
        this.answerFaults.push({ kind: fault.kind, left: fault.count ?? 1 });
        return;
      case 'slow-reader':
        return session.readSlowly(fault.bytes ?? 2000, fault.bytesPerSecond ?? 960);
      case 'reboot': {
        const ms = fault.ms ?? 2000;
        this.rebootingUntil = Date.now() + ms;
        for (const job of this.held) job.state = 'cancelled';
        this.setFault({ paused: false, paperOut: false, headOpen: false, ribbonOut: false });
        for (const s of [...this.live]) s.kill('reset');
        return;
      }
      case 'paper-out':
      case 'head-open':
      case 'pause': {
        const on =
          fault.kind === 'paper-out'
            ? { paperOut: true }
            : fault.kind === 'head-open'
              ? { headOpen: true }
              : { paused: true };
        const off =
          fault.kind === 'paper-out'
            ? { paperOut: false }
            : fault.kind === 'head-open'
              ? { headOpen: false }
              : { paused: false };
        this.silentFault = fault.silent ?? false;
        this.setFault(on);
        this.later(fault.ms ?? 1000, () => {
          this.silentFault = false;
          this.setFault(off);
        });
        return;
      }
    }
  }
}

/**
 * One host session on the chaos printer: counts the bytes it reads, fires the faults due, and holds back what
 * the printer does not read yet (a stop or a slow reader), pausing the link so the host's writes back up.
 */
export class ChaosSession extends ZebraSession {
  bytesRead = 0;
  private backlog: Uint8Array[] = [];
  private blocked = false;
  private dead = false;
  private halfOpen = false;
  private slowLeft = 0;
  private slowRate = 960;
  private answers: Promise<void> = Promise.resolve();

  constructor(
    private readonly chaos: ChaosPrinter,
    private readonly link: ChaosLink,
    readonly connection: number,
  ) {
    const self: { session?: ChaosSession } = {};
    super(chaos, (bytes) => self.session?.answer(bytes));
    self.session = this;
  }

  /** Whether the link is gone for this session (reset, closed, rebooted). */
  get killed(): boolean {
    return this.dead;
  }

  override receive(chunk: Uint8Array): void {
    if (this.dead || chunk.length === 0) return;
    this.backlog.push(chunk);
    this.pump();
  }

  override end(): void {
    this.dead = true;
    this.backlog = [];
    this.chaos.forget(this);
    super.end();
  }

  /** @internal the link drops: RST or FIN; on links that cannot, the session just ends. */
  kill(how: 'reset' | 'close'): void {
    if (this.dead) return;
    this.end();
    if (how === 'reset') this.link.reset();
    else this.link.close();
  }

  /** @internal */
  stopReading(ms: number | undefined): void {
    this.blocked = true;
    this.link.pause();
    if (ms === undefined) {
      // Nothing more will be read on this session: the partial format is gone (ZebraSession.end discards it).
      super.end();
      return;
    }
    this.chaos.later(ms, () => {
      this.blocked = false;
      this.pump();
    });
  }

  /** @internal */
  goHalfOpen(): void {
    this.halfOpen = true;
    super.end();
  }

  /** @internal */
  readSlowly(bytes: number, bytesPerSecond: number): void {
    this.slowLeft = bytes;
    this.slowRate = bytesPerSecond;
  }

  private pump(): void {
    while (!this.dead && !this.blocked && this.backlog.length > 0) {
      const chunk = this.backlog.shift();
      if (!chunk) break;
      const until = this.chaos.bytesUntilFault(this);
      if (until === 0) {
        this.backlog.unshift(chunk);
        this.chaos.fireDue(this);
        continue;
      }
      // 100 ms worth of bytes at a time while reading slowly.
      const tick = this.slowLeft > 0 ? Math.max(1, Math.round(this.slowRate / 10)) : chunk.length;
      const take = Math.min(chunk.length, until, tick, this.slowLeft > 0 ? this.slowLeft : chunk.length);
      const bytes = chunk.subarray(0, take);
      if (take < chunk.length) this.backlog.unshift(chunk.subarray(take));
      this.bytesRead += take;
      this.chaos.totalBytes += take;
      if (!this.halfOpen && !this.chaos.rebooting) super.receive(bytes);
      if (this.slowLeft > 0) {
        this.slowLeft -= take;
        this.blocked = true;
        this.chaos.later(Math.round((take / this.slowRate) * 1000), () => {
          this.blocked = false;
          this.pump();
        });
      }
    }
    if (this.dead) return;
    if (this.chaos.bytesUntilFault(this) === 0) this.chaos.fireDue(this);
    if (this.blocked || this.backlog.length > 0) this.link.pause();
    else this.link.resume();
  }

  /** An answer from the printer model, through the answer faults. */
  private answer(raw: Uint8Array): void {
    if (this.dead || this.halfOpen || this.chaos.rebooting) return;
    if (this.chaos.queryReset && answerKind(raw) === 'status') {
      const when = this.chaos.queryReset;
      this.chaos.queryReset = undefined;
      if (when === 'before') return this.kill('reset');
      this.link.write(raw);
      this.end();
      // Let the answer reach the host before the RST (a reset can discard data the peer has not read).
      this.chaos.later(20, () => this.link.reset());
      return;
    }
    const { bytes, trickle } = this.chaos.transformAnswer(raw);
    if (!trickle) {
      this.answers = this.answers.then(() => {
        if (!this.dead) this.link.write(bytes);
      });
      return;
    }
    for (const byte of bytes) {
      this.answers = this.answers.then(
        () =>
          new Promise<void>((resolve) =>
            this.chaos.later(1, () => {
              if (!this.dead) this.link.write(Uint8Array.of(byte));
              resolve();
            }),
          ),
      );
    }
  }
}

/** Options of a chaos printer: the emulator's, plus the faults (scheduled, or `randomFaults(seed)`). */
export interface ChaosOptions extends EmulatorOptions {
  faults?: readonly ChaosFault[];
  /** Seeds the garbage answers (the faults themselves come from `randomFaults`). */
  seed?: number;
  /** TCP: 0 (default) picks a free port; 127.0.0.1 by default. */
  port?: number;
  host?: string;
}

export interface ChaosEmulator {
  port: number;
  uri: string;
  printer: ChaosPrinter;
  jobs: ReceivedJob[];
  injected: InjectedFault[];
  connections(): number;
  close(): Promise<void>;
}

/** The chaos printer on TCP, 127.0.0.1, a free port. Close it in afterEach/afterAll. */
export async function startChaosPrinter(options: ChaosOptions): Promise<ChaosEmulator> {
  const printer = new ChaosPrinter(options);
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    // Each answer (and each trickled byte) leaves at once, as a printer's network card sends it.
    socket.setNoDelay(true);
    const link: ChaosLink = {
      reset: () => {
        if (!socket.destroyed) socket.resetAndDestroy();
      },
      close: () => {
        socket.end();
      },
      pause: () => socket.pause(),
      resume: () => socket.resume(),
      write: (bytes) => {
        if (!socket.destroyed && socket.writable) socket.write(bytes);
      },
    };
    const session = printer.openSession(link.write, link);
    socket.on('data', (chunk: Buffer) => session.receive(chunk));
    socket.on('end', () => {
      session.end();
      if (!socket.destroyed) socket.end();
    });
    socket.on('error', () => session.end());
    socket.on('close', () => {
      sockets.delete(socket);
      session.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    uri: `tcp://${options.host ?? '127.0.0.1'}:${port}`,
    printer,
    jobs: printer.jobs,
    injected: printer.injected,
    connections: () => accepted,
    close: async () => {
      printer.dispose();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The chaos printer on a serial line (one end of a socat PTY pair). A serial line has no connections: a
 * `reset`/`close` pulls the cable (bytes and answers are lost for `ms`, default 300), then a new session starts,
 * counted as the next connection.
 */
export async function serveChaosOnSerialPort(
  printer: ChaosPrinter,
  path: string,
): Promise<{ close(): Promise<void> }> {
  const port = new SerialPort({ path, baudRate: 9600, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  return serveChaosStream(printer, port, async () => {
    if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  });
}

/** Serves the chaos printer on a duplex stream that has no connections of its own (a tty). */
export function serveChaosStream(
  printer: ChaosPrinter,
  stream: Duplex,
  closeStream: () => Promise<void>,
): { close(): Promise<void> } {
  let session: ZebraSession;
  let closed = false;
  const open = (): void => {
    session = printer.openSession(link.write, link);
  };
  const pullCable = (): void => {
    // Plugged back in after a while: a fresh session (what was cut off is lost).
    printer.later(300, () => {
      if (!closed) open();
    });
  };
  const link: ChaosLink = {
    reset: pullCable,
    close: pullCable,
    pause: () => stream.pause(),
    resume: () => stream.resume(),
    write: (bytes) => {
      if (!stream.destroyed) stream.write(bytes);
    },
  };
  open();
  stream.on('data', (chunk: Buffer) => session.receive(chunk));
  stream.on('error', () => undefined);
  return {
    close: async () => {
      closed = true;
      printer.dispose();
      session.end();
      await closeStream();
    },
  };
}

/**
 * The chaos printer behind an emulated USB device. A `reset`/`close` unplugs it; after `replugMs` (default 300)
 * a new device (same printer, next address) is plugged in. `listDevices` is what src/node/printers/usb.ts takes.
 */
export interface ChaosUsb {
  /** The devices plugged in now (none while unplugged). */
  listDevices: () => Promise<EmulatedUsbDevice[]>;
  device(): EmulatedUsbDevice | undefined;
}

export function chaosUsb(
  printer: ChaosPrinter,
  options: Omit<EmulatedUsbOptions, 'printer'> & { replugMs?: number } = {},
): ChaosUsb {
  let current: EmulatedUsbDevice | undefined = new EmulatedUsbDevice({ ...options, printer });
  const unplug = (): void => {
    const device = current;
    if (!device) return;
    current = undefined;
    device.unplug();
    printer.later(options.replugMs ?? 300, () => {
      current = new EmulatedUsbDevice({ ...options, printer });
    });
  };
  // A USB device cannot hold the host back in this emulation (transfers complete as submitted).
  printer.defaultLink = {
    reset: unplug,
    close: unplug,
    pause: () => undefined,
    resume: () => undefined,
    write: () => undefined,
  };
  return {
    listDevices: async () => (current ? [current] : []),
    device: () => current,
  };
}

/** Which faults a link can carry (see the file comment): USB cannot push back, a PTY cannot RST. */
export const FAULTS_BY_LINK: Record<'tcp' | 'serial' | 'usb', readonly ChaosFaultKind[]> = {
  tcp: CHAOS_FAULT_KINDS,
  serial: CHAOS_FAULT_KINDS,
  usb: CHAOS_FAULT_KINDS.filter((k) => k !== 'stop-reading' && k !== 'slow-reader'),
};

export interface RandomFaultOptions {
  /** Fault kinds to draw from (default: all). */
  kinds?: readonly ChaosFaultKind[];
  count: number;
  /** First fault after this many bytes (default 1). */
  firstByte?: number;
  /** Bytes between faults, drawn from [min, max] (default 2000–12000). */
  spacing?: [number, number];
  /** Longest printer fault / reboot, in ms (default 1200). */
  maxMs?: number;
}

/**
 * `count` faults drawn from `seed` at printer-wide byte offsets: the same seed gives the same faults, so a
 * failing run is replayed by its seed.
 */
export function randomFaults(seed: number, options: RandomFaultOptions): ChaosFault[] {
  const rnd = seededRandom(seed);
  const kinds = options.kinds ?? CHAOS_FAULT_KINDS;
  const [min, max] = options.spacing ?? [2000, 12000];
  const maxMs = options.maxMs ?? 1200;
  const faults: ChaosFault[] = [];
  let byte = options.firstByte ?? 1;
  for (let i = 0; i < options.count; i++) {
    const kind = kinds[rnd(0, kinds.length - 1)] ?? 'reset';
    const fault: ChaosFault = { kind, byte };
    if (kind === 'garbage-answer' || kind === 'truncated-answer' || kind === 'trickle-answers')
      fault.count = rnd(1, 3);
    if (kind === 'reboot' || kind === 'paper-out' || kind === 'head-open' || kind === 'pause')
      fault.ms = rnd(200, maxMs);
    if (kind === 'paper-out' || kind === 'head-open' || kind === 'pause') fault.silent = rnd(0, 1) === 1;
    if (kind === 'stop-reading') fault.ms = rnd(200, maxMs);
    if (kind === 'slow-reader') fault.bytes = rnd(500, 2000);
    faults.push(fault);
    byte += rnd(min, max);
  }
  return faults;
}
