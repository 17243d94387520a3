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

export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stdoutBytes: (b) => process.stdout.write(b),
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
