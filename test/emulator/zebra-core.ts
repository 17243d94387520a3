/**
 * The Zebra printer emulator's core: a printer model (buffer, faults, counters) and a byte-stream session that
 * parses what a host sends. Independent of TCP: zebra-emulator.ts serves it on a socket, serial.ts on a PTY.
 *
 * How it models a real Zebra (ZPL II guide, ~HS / ~HI / SGD):
 * - Every complete `^XA ... ^XZ` format is recorded exactly as received (bytes from `^XA` through `^XZ`) and
 *   goes into the receive buffer. The printer prints buffered formats in order, at once, unless it is blocked:
 *   paused, out of paper, out of ribbon, or head open. Blocked, formats stay in the buffer ("held") and print
 *   when the last block clears, as a Zebra resumes after media is reloaded and PAUSE pressed (this emulator
 *   does not need the button: clearing the fault resumes, unless it was paused on its own).
 * - `~HS` answers three `<STX>...<ETX><CR><LF>` strings with honest counters: formats in the buffer (held),
 *   labels remaining in the batch (the `^PQ` quantity of the next held format), the partial-format flag while a
 *   session is inside an unfinished format, the label length of the last `^LL`.
 * - Tilde commands act at once, even inside a format (as on the printer): `~HS`, `~HI`, `~PP` pause, `~PS`
 *   resume, `~JA` cancel every held format, `~JC` calibrate the media sensor (counted in `calibrations`; no
 *   answer, as on the printer: the host asks `~HS` afterwards). They stay in the recorded job's text.
 * - `^MM` (print mode) in a format sets the print mode `~HS` reports (string 2, field r).
 * - SGD lines outside a format: `! U1 getvar "name"` answers `"value"` (no line break, as the printer does), or
 *   `"?"` for a name it does not know; `! U1 setvar "name" "value"` answers nothing.
 * - `silentWhileFaulted`: like newer firmware, no answer to `~HS` while paper/ribbon is out or the head is
 *   open. `silent`: answers nothing at all (a hung printer, or not a Zebra).
 * - A session that ends inside a format (connection dropped) discards the partial format. A real printer keeps
 *   it and glues the next host's data onto it; either way the label is lost, which is what tests check.
 */

export interface EmulatorFaults {
  paperOut: boolean;
  headOpen: boolean;
  paused: boolean;
  ribbonOut: boolean;
  /** No answer to `~HS` while paper out, ribbon out or head open. */
  silentWhileFaulted: boolean;
  /** No answer to anything. */
  silent: boolean;
  /**
   * Stream faults (applied by the TCP/serial adapters): drop the connection after this many bytes of one
   * connection; `every: false` clears the fault after the first drop.
   */
  dropAfterBytes: { bytes: number; every: boolean } | null;
  /** Slow reader: after each chunk read, stop reading for this many ms. */
  readDelayMs: number;
  /** Stop reading altogether until cleared (the host's writes back up). */
  stalled: boolean;
}

export const NO_FAULTS: EmulatorFaults = {
  paperOut: false,
  headOpen: false,
  paused: false,
  ribbonOut: false,
  silentWhileFaulted: false,
  silent: false,
  dropAfterBytes: null,
  readDelayMs: 0,
  stalled: false,
};

export interface EmulatorOptions {
  /** Print resolution; ~HI reports round(dpi / 25.4) dots/mm and SGD head.resolution.in_dpi this value. */
  dpi: number;
  model?: string;
  firmware?: string;
  /** Thermal transfer (ribbon) rather than direct thermal; reported in ~HS. Default false. */
  thermalTransfer?: boolean;
  /** The receive buffer is full at this many held formats. Default 100. */
  bufferFormats?: number;
  /** Whether it speaks SGD (`! U1 getvar`); older firmware ignores those lines. Default true. */
  sgd?: boolean;
  /**
   * The loaded labels' length in dots, as `~JC` measures it: after a calibration `~HS` reports it as the label
   * length (until a format's `^LL` sets another). Default: 6 in.
   */
  mediaLengthDots?: number;
  /** The width it prints, in dots (SGD `ezpl.print_width`). Default: a 4.1 in head at its dpi (832 at 203). */
  printWidthDots?: number;
}

export interface ReceivedJob {
  /** The format as text (UTF-8 decoded), `^XA` through `^XZ`. */
  zpl: string;
  /** Exactly the bytes received, `^XA` through `^XZ`. */
  bytes: Uint8Array;
  /** `^PQ` quantity (1 when absent). */
  quantity: number;
  state: 'held' | 'printed' | 'cancelled';
}

const STX = '\u0002';
const ETX = '\u0003';
const CRLF = '\r\n';

/** One emulated printer: shared by all its sessions (connections). */
export class ZebraPrinterModel {
  /** Every complete format received, in order. */
  readonly jobs: ReceivedJob[] = [];
  private faultState: EmulatorFaults = { ...NO_FAULTS };
  private readonly sgd = new Map<string, string>();
  private labelLengthDots: number;
  /** `~HS` print mode digit (string 2, field r): 0 rewind, 1 peel-off, 2 tear-off, 3 cutter. */
  private printModeDigit = '2';
  /** `~JC` calibrations asked for. */
  calibrations = 0;
  private openFormats = 0;
  private readonly listeners = new Set<() => void>();
  private readonly jobListeners = new Set<(job: ReceivedJob) => void>();

  constructor(readonly options: EmulatorOptions) {
    this.labelLengthDots = Math.round(options.dpi * 6);
    this.sgd.set('head.resolution.in_dpi', String(options.dpi));
    this.sgd.set(
      'ezpl.print_width',
      String(options.printWidthDots ?? Math.round((options.dpi * 4.1) / 8) * 8),
    );
    this.sgd.set('device.languages', 'zpl');
    this.sgd.set('appl.name', this.firmware);
  }

  get model(): string {
    return this.options.model ?? `ZD421-${this.options.dpi}dpi`;
  }
  get firmware(): string {
    return this.options.firmware ?? 'V84.20.21Z';
  }
  get faults(): Readonly<EmulatorFaults> {
    return this.faultState;
  }
  get printed(): ReceivedJob[] {
    return this.jobs.filter((j) => j.state === 'printed');
  }
  get held(): ReceivedJob[] {
    return this.jobs.filter((j) => j.state === 'held');
  }

  /** Sets fault switches at run time; held formats print as soon as nothing blocks. */
  setFault(change: Partial<EmulatorFaults>): void {
    this.faultState = { ...this.faultState, ...change };
    this.pump();
    for (const listener of this.listeners) listener();
  }

  /** Called after every fault change (adapters resume stalled readers). */
  onFaultChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called for every complete format received (the CLI prints them). */
  onJob(listener: (job: ReceivedJob) => void): () => void {
    this.jobListeners.add(listener);
    return () => this.jobListeners.delete(listener);
  }

  /** Paper out, ribbon out or head open: the printer cannot print. */
  get faulted(): boolean {
    const f = this.faultState;
    return f.paperOut || f.ribbonOut || f.headOpen;
  }

  get blocked(): boolean {
    return this.faulted || this.faultState.paused;
  }

  /** A new byte-stream session (one connection); `send` carries answers back to the host. */
  openSession(send: (bytes: Uint8Array) => void): ZebraSession {
    return new ZebraSession(this, send);
  }

  /** @internal a session completed a format. */
  acceptFormat(bytes: Uint8Array): void {
    const zpl = new TextDecoder().decode(bytes);
    const quantity = /\^PQ(\d+)/i.exec(zpl);
    const length = /\^LL(\d+)/i.exec(zpl);
    if (length) this.labelLengthDots = Number(length[1]);
    const mode = /\^MM([TPRC])/i.exec(zpl);
    if (mode) this.printModeDigit = { R: '0', P: '1', T: '2', C: '3' }[mode[1]!.toUpperCase()] ?? '2';
    const job: ReceivedJob = {
      zpl,
      bytes,
      quantity: quantity ? Math.max(1, Number(quantity[1])) : 1,
      state: 'held',
    };
    this.jobs.push(job);
    this.pump();
    for (const listener of this.jobListeners) listener(job);
  }

  /** @internal sessions report when they are inside an unfinished format (the ~HS partial-format flag). */
  formatOpened(delta: 1 | -1): void {
    this.openFormats += delta;
  }

  /** @internal a tilde command or SGD line; returns the answer, or null for none. */
  command(name: string): string | null {
    const f = this.faultState;
    switch (name) {
      case '~HS':
        if (f.silent || (f.silentWhileFaulted && this.faulted)) return null;
        return this.hostStatus();
      case '~HI':
        return f.silent
          ? null
          : `${STX}${this.model},${this.firmware},${Math.round(this.options.dpi / 25.4)},8192KB,${ETX}${CRLF}`;
      case '~PP':
        this.setFault({ paused: true });
        return null;
      case '~PS':
        this.setFault({ paused: false });
        return null;
      case '~JA':
        for (const job of this.held) job.state = 'cancelled';
        return null;
      case '~JC':
        // Feeds labels to measure them: nothing to measure while out of paper or with the head open.
        if (!f.silent) {
          this.calibrations++;
          this.labelLengthDots = this.options.mediaLengthDots ?? Math.round(this.options.dpi * 6);
        }
        return null;
      default:
        return null;
    }
  }

  /** @internal an SGD line (`! U1 getvar "x"`). */
  sgdLine(line: string): string | null {
    if (this.options.sgd === false) return null;
    const get = /^!\s*U1\s+getvar\s+"([^"]*)"\s*$/i.exec(line);
    if (get) {
      if (this.faultState.silent) return null;
      return `"${this.sgd.get((get[1] ?? '').toLowerCase()) ?? '?'}"`;
    }
    const set = /^!\s*U1\s+setvar\s+"([^"]*)"\s+"([^"]*)"\s*$/i.exec(line);
    if (set) this.sgd.set((set[1] ?? '').toLowerCase(), set[2] ?? '');
    return null;
  }

  /** The three ~HS strings for the current state. */
  hostStatus(): string {
    const f = this.faultState;
    const held = this.held;
    const bit = (b: boolean): string => (b ? '1' : '0');
    const pad = (n: number, width: number): string =>
      String(Math.min(n, 10 ** width - 1)).padStart(width, '0');
    const bufferFull = held.length >= (this.options.bufferFormats ?? 100);
    // String 1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l — 030 = 9600 baud 8N1 (the serial settings field).
    const one = [
      '030',
      bit(f.paperOut),
      bit(f.paused),
      pad(this.labelLengthDots, 4),
      pad(held.length, 3),
      bit(bufferFull),
      '0',
      bit(this.openFormats > 0),
      '000',
      '0',
      '0',
      '0',
    ];
    // String 2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www — r: print mode (the last ^MM; 2 = tear-off).
    const two = [
      '001',
      '0',
      bit(f.headOpen),
      bit(f.ribbonOut),
      bit(this.options.thermalTransfer ?? false),
      this.printModeDigit,
      '6',
      '0',
      pad(held[0]?.quantity ?? 0, 8),
      '1',
      '000',
    ];
    return `${STX}${one.join(',')}${ETX}${CRLF}${STX}${two.join(',')}${ETX}${CRLF}${STX}1234,0${ETX}${CRLF}`;
  }

  private pump(): void {
    if (this.blocked) return;
    for (const job of this.jobs) if (job.state === 'held') job.state = 'printed';
  }
}

/** Tilde commands acted on inside a format too. */
const IMMEDIATE = /~(?:HS|HI|PP|PS|JA|JC)/gi;
const FORMAT_TOKENS = /\^XZ|~(?:HS|HI|PP|PS|JA|JC)/gi;

/**
 * One host connection's parser. Text is handled as latin1 (one char per byte) so byte offsets and recorded
 * bytes are exact whatever the encoding of the job.
 */
export class ZebraSession {
  private pending = '';
  private format: string[] | undefined;
  /** Last two chars of the format so far: a token split across chunks is found in tail + next chunk. */
  private tail = '';
  private ended = false;

  constructor(
    private readonly printer: ZebraPrinterModel,
    private readonly send: (bytes: Uint8Array) => void,
  ) {}

  /** Bytes from the host. */
  receive(chunk: Uint8Array): void {
    if (this.ended) return;
    let text = '';
    for (let i = 0; i < chunk.length; i += 8192) {
      text += String.fromCharCode(...chunk.subarray(i, i + 8192));
    }
    if (this.format) text = this.continueFormat(text);
    this.pending += text;
    this.parseOutside();
  }

  /** The connection ended: a partial format is discarded (see the file comment). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.format) this.printer.formatOpened(-1);
    this.format = undefined;
    this.pending = '';
  }

  private reply(answer: string | null): void {
    if (answer === null) return;
    const bytes = new Uint8Array(answer.length);
    for (let i = 0; i < answer.length; i++) bytes[i] = answer.charCodeAt(i) & 0xff;
    this.send(bytes);
  }

  /** Inside a format: consumes text up to and including `^XZ`, returns the rest. */
  private continueFormat(text: string): string {
    const format = this.format;
    if (!format) return text;
    const window = this.tail + text;
    FORMAT_TOKENS.lastIndex = 0;
    for (let m = FORMAT_TOKENS.exec(window); m; m = FORMAT_TOKENS.exec(window)) {
      const token = m[0].toUpperCase();
      if (token === '^XZ') {
        const end = m.index + 3 - this.tail.length;
        format.push(text.slice(0, end));
        this.finishFormat(format.join(''));
        return text.slice(end);
      }
      this.reply(this.printer.command(token));
    }
    format.push(text);
    this.tail = window.slice(-2);
    return '';
  }

  private finishFormat(latin1: string): void {
    this.format = undefined;
    this.tail = '';
    this.printer.formatOpened(-1);
    const bytes = new Uint8Array(latin1.length);
    for (let i = 0; i < latin1.length; i++) bytes[i] = latin1.charCodeAt(i);
    this.printer.acceptFormat(bytes);
  }

  /** Outside a format: formats, tilde commands and SGD lines; anything else is skipped like a printer does. */
  private parseOutside(): void {
    for (;;) {
      // eslint-disable-next-line no-control-regex -- NUL padding between commands is skipped like whitespace
      const text = this.pending.replace(/^[\s\u0000]+/, '');
      this.pending = text;
      if (!text) return;
      const first = text[0];
      if (first === '^' || first === '~') {
        if (text.length < 3) return; // wait for the rest of the command name
        const token = text.slice(0, 3).toUpperCase();
        if (token === '^XA') {
          this.format = [text.slice(0, 3)];
          this.tail = text.slice(1, 3);
          this.printer.formatOpened(1);
          this.pending = '';
          this.pending = this.continueFormat(text.slice(3));
          continue;
        }
        IMMEDIATE.lastIndex = 0;
        if (first === '~' && IMMEDIATE.test(token)) this.reply(this.printer.command(token));
        this.pending = text.slice(first === '~' ? 3 : 1);
        continue;
      }
      if (first === '!') {
        const nl = text.indexOf('\n');
        if (nl < 0) {
          // SGD lines are short; a huge unterminated one is noise.
          if (text.length > 4096) this.pending = text.slice(1);
          return;
        }
        this.reply(this.printer.sgdLine(text.slice(0, nl).replace(/\r$/, '')));
        this.pending = text.slice(nl + 1);
        continue;
      }
      // Parameters of a command outside a format, or noise: skip to the next command character.
      const next = text.search(/[\^~!]/);
      this.pending = next < 0 ? '' : text.slice(next);
    }
  }
}
