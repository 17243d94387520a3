/**
 * OS print queues through CUPS's `lp` (Linux, macOS): ZPL goes as `lp -d Queue -o raw` (no filters: the bytes
 * reach the printer unchanged), PDF as plain `lp -d Queue` (the queue's driver renders it). The job streams
 * into lp's standard input, so a large job is never held in memory twice; lp is run with an argument array,
 * never a shell, so a queue name cannot inject commands. One transport session is one spooled job: it is
 * submitted when `close()` ends lp's input, and lp's exit status and message become typed errors there;
 * `abort()` kills lp before then, and nothing of the session is submitted.
 * OS queues do not pass status answers back, so `capabilities.status` is false.
 *
 * On Windows `cups://Name` is the spooler queue `Name`, printed through winspool.ts (RAW) instead.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  DEFAULT_TIMEOUTS,
  PrinterDisconnected,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterTimeout,
  PrinterUnsupported,
  toBytes,
  type OpenOptions,
  type PrinterError,
  type PrinterTransport,
  type TransportCapabilities,
  type WriteOptions,
} from '../../printers/transport';
import { formatPrinterUri, type CupsUri } from '../../printers/uri';
import { CommandNotFound, runCommand } from './run-command';

export interface CupsTransportOptions {
  /** `raw` (ZPL, default): `-o raw`; `pdf`: the queue's driver renders it. */
  contentType?: 'raw' | 'pdf';
  /** Job title shown in the queue. */
  title?: string;
  /** Environment for lp/lpstat (CUPS_SERVER, PATH). Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Longest wait for lp to spool the job after the last byte, in ms. Default 60 s. */
  submitTimeoutMs?: number;
}

export class CupsTransport implements PrinterTransport {
  readonly uri: string;
  readonly capabilities: TransportCapabilities = { status: false };
  /** The CUPS job id of the last submitted job (`Queue-42`). */
  jobId: string | undefined;
  private child: ChildProcessWithoutNullStreams | undefined;
  private exit: Promise<{ code: number | null; stdout: string; stderr: string }> | undefined;
  private written = 0;

  constructor(
    private readonly target: CupsUri,
    private readonly options: CupsTransportOptions = {},
  ) {
    this.uri = formatPrinterUri(target);
  }

  /** Checks that the queue exists and accepts jobs (`lpstat -a Queue`), so a typo fails before rendering. */
  async open(options: OpenOptions = {}): Promise<void> {
    let result;
    try {
      result = await runCommand('lpstat', ['-a', this.target.queue], {
        env: this.options.env,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUTS.openMs,
      });
    } catch (e) {
      throw this.spawnError(e);
    }
    if (result.code === null)
      throw new PrinterTimeout(`${this.uri}: lpstat did not answer`, this.uri, 'open');
    if (result.code !== 0) throw this.lpError(result.stderr || result.stdout);
    if (/not accepting/i.test(result.stdout))
      throw new PrinterRefused(`${this.uri}: queue "${this.target.queue}" is not accepting jobs`, this.uri);
  }

  async write(data: Uint8Array | string, options: WriteOptions = {}): Promise<void> {
    const bytes = toBytes(data);
    const child = this.child ?? this.spawnLp();
    const stallMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.writeStallMs;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new PrinterTimeout(`${this.uri}: lp stopped reading the job`, this.uri, 'write', this.written),
        );
      }, stallMs);
      child.stdin.write(bytes, (error) => {
        clearTimeout(timer);
        if (!error) {
          this.written += bytes.length;
          return resolve();
        }
        // lp exited early (unknown queue, scheduler down): its message says why.
        void this.finish().then(
          () =>
            reject(
              new PrinterDisconnected(
                `${this.uri}: lp closed its input after ${this.written} bytes`,
                this.uri,
                this.written,
                this.written + bytes.length,
              ),
            ),
          reject,
        );
      });
    });
  }

  request(): Promise<Uint8Array> {
    return Promise.reject(
      new PrinterUnsupported(`${this.uri}: OS print queues do not report printer status`, this.uri),
    );
  }

  /** Submits the job (ends lp's input) and waits for lp's verdict. */
  async close(): Promise<void> {
    if (!this.child) return;
    this.child.stdin.end();
    await this.finish();
  }

  private spawnLp(): ChildProcessWithoutNullStreams {
    const args = ['-d', this.target.queue];
    if ((this.options.contentType ?? 'raw') === 'raw') args.push('-o', 'raw');
    if (this.options.title) args.push('-t', this.options.title);
    const child = spawn('lp', args, {
      env: { ...(this.options.env ?? process.env), LC_ALL: 'C', LANG: 'C' },
      shell: false,
    });
    this.child = child;
    this.written = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // EPIPE on stdin when lp exits early is reported through the write callback.
    child.stdin.on('error', () => undefined);
    this.exit = new Promise((resolve, reject) => {
      child.once('error', (e) => reject(this.spawnError(e)));
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
    this.exit.catch(() => undefined);
    return child;
  }

  private async finish(): Promise<void> {
    const exit = this.exit;
    const child = this.child;
    if (!exit || !child) return;
    this.child = undefined;
    this.exit = undefined;
    const timeoutMs = this.options.submitTimeoutMs ?? 60_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new PrinterTimeout(
            `${this.uri}: lp did not finish within ${timeoutMs} ms`,
            this.uri,
            'close',
            this.written,
          ),
        );
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([exit, timedOut]);
      if (result.code !== 0) throw this.lpError(result.stderr || result.stdout);
      this.jobId = /request id is (\S+)/.exec(result.stdout)?.[1];
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Throws the session away: lp is killed before its input ends, so it never submits (a write failed
   * mid-label, or the job was stopped). Resolves once lp has exited.
   */
  async abort(): Promise<void> {
    const child = this.child;
    const exit = this.exit;
    this.child = undefined;
    this.exit = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exit?.catch(() => undefined);
  }

  private spawnError(e: unknown): PrinterError {
    if (e instanceof CommandNotFound || (e as NodeJS.ErrnoException).code === 'ENOENT') {
      return new PrinterIoError(`${this.uri}: the CUPS client (lp, lpstat) is not installed`, this.uri, {
        cause: e,
      });
    }
    return new PrinterIoError(`${this.uri}: ${(e as Error).message}`, this.uri, { cause: e });
  }

  /** lp/lpstat messages (C locale) to typed errors. */
  private lpError(message: string): PrinterError {
    const text =
      message
        .trim()
        .replace(/^(lp|lpstat):\s*(Error - )?/i, '')
        .split('\n')[0] ?? '';
    const queue = this.target.queue;
    if (/does not exist|Invalid destination|Unknown destination|not found/i.test(text)) {
      return new PrinterNotFound(`${this.uri}: no print queue named "${queue}"`, this.uri);
    }
    if (/not accepting/i.test(text))
      return new PrinterRefused(`${this.uri}: queue "${queue}" is not accepting jobs`, this.uri);
    if (/Unable to connect|scheduler is not running|Connection refused|No such file/i.test(text)) {
      return new PrinterRefused(`${this.uri}: the print system (CUPS) is not running: ${text}`, this.uri);
    }
    if (/Forbidden|not authorized|Unauthorized/i.test(text))
      return new PrinterRefused(`${this.uri}: not allowed to print to "${queue}": ${text}`, this.uri);
    return new PrinterIoError(`${this.uri}: ${text || 'lp failed'}`, this.uri);
  }
}

/** A transport for `cups://Queue` (not yet open). */
export function createCupsTransport(uri: CupsUri, options: CupsTransportOptions = {}): CupsTransport {
  return new CupsTransport(uri, options);
}
