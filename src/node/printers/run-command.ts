/**
 * Runs a helper program (lp, lpstat) with an argument array — never through a shell, so queue names and file
 * names cannot inject commands — with a timeout, in the C locale so its messages are parseable.
 */
import { spawn } from 'node:child_process';

export interface CommandResult {
  /** Exit status, or null when killed (timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Environment (CUPS_SERVER etc.); LC_ALL=C is forced. Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Killed after this many ms. */
  timeoutMs?: number;
}

/** A program that is not installed. */
export class CommandNotFound extends Error {
  override name = 'CommandNotFound';
  constructor(readonly command: string) {
    super(`${command} is not installed`);
  }
}

/** Runs `command args` to completion. Rejects only with CommandNotFound or a spawn failure. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...(options.env ?? process.env), LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10_000);
    child.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? new CommandNotFound(command) : e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
