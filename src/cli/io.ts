/** The CLI's environment, injected so commands run in-process in tests exactly as from a shell. */
import { readFile } from 'node:fs/promises';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Binary output (PDF, PNG on stdout). */
  stdoutBytes: (bytes: Uint8Array) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  readStdin: () => Promise<string>;
}

/** The process's own streams, for `bin`. */
export interface ProcessIo extends CliIo {
  /**
   * Why writing the output failed, when it failed for another reason than a reader that went away (a full
   * disk behind `> file`): the run then fails with this sentence. Undefined otherwise.
   */
  outputFailure(): string | undefined;
}

/**
 * A writer to a process stream that a closed pipe ends quietly: `labeldesk usage | head` closes standard
 * output after ten lines, and the rest of the output is dropped (EPIPE), as with any Unix tool, instead of an
 * unhandled 'error' event and a stack trace. Any other write error is kept for `outputFailure`.
 */
function quietOnClosedPipe(
  stream: NodeJS.WriteStream,
  name: string,
  onFailure: (reason: string) => void,
): (chunk: string | Uint8Array) => void {
  let open = true;
  const failed = (e: NodeJS.ErrnoException): void => {
    open = false;
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED')
      onFailure(`cannot write to ${name} (${e.code ?? e.message})`);
  };
  // Pipes and sockets report the error as an event; a file (`> out.zpl`) is written synchronously and throws.
  stream.on('error', failed);
  return (chunk) => {
    if (!open || stream.destroyed) return;
    try {
      stream.write(chunk);
    } catch (e) {
      failed(e as NodeJS.ErrnoException);
    }
  };
}

export function processIo(): ProcessIo {
  let failure: string | undefined;
  const fail = (reason: string): void => {
    failure ??= reason;
  };
  const stdout = quietOnClosedPipe(process.stdout, 'standard output', fail);
  const stderr = quietOnClosedPipe(process.stderr, 'standard error', fail);
  return {
    stdout,
    stderr,
    stdoutBytes: stdout,
    outputFailure: () => failure,
    env: process.env,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Wrong usage: unknown command or option, missing argument. Exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A user mistake or a failed operation with a message that says what to do. Exit code 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * `--data` accepts inline JSON, `@file.json`, or `@-` for standard input. The result must be a JSON object;
 * its values are checked later by resolution (which names the offending key).
 */
export async function readJsonArg(option: string, raw: string, io: CliIo): Promise<unknown> {
  let text = raw;
  let from = `${option}`;
  if (raw.startsWith('@')) {
    const file = raw.slice(1);
    from = `${option} ${raw}`;
    try {
      text =
        file === '-'
          ? await io.readStdin()
          : await readFile(file.startsWith('/') ? file : `${io.cwd}/${file}`, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(
        `${from}: cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      );
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new CliError(`${from}: not valid JSON (${(e as Error).message})`);
  }
}
