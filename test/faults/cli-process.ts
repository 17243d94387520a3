/**
 * The bundled `labeldesk` CLI as a child process, as a user runs it: its exit code, signal and output, and
 * what a user would call a crash (an exit code other than the documented ones, a stack trace, "Uncaught").
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
/** Its own bundle, so a concurrent `npm run build:cli` does not swap it out mid-suite. */
export const CLI = join(ROOT, 'dist/labeldesk-faults-test.mjs');

export function buildCli(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', CLI], { cwd: ROOT });
}

export interface Exit {
  /** Killed by the watchdog: the process did not end by itself. */
  hung: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();

/** Kills the CLI processes still running (a test that timed out), so none outlives the suite. */
export function killRunning(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Runs the CLI; a process still running after `watchdogMs` is killed and reported as hung. */
export function runCli(args: string[], watchdogMs = 40_000): { child: ChildProcess; exit: Promise<Exit> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // No terminal: plain progress lines; no colours.
    env: { ...process.env, NO_COLOR: '1', TERM: 'dumb' },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  let hung = false;
  const watchdog = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, watchdogMs);
  const exit = new Promise<Exit>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      running.delete(child);
      resolve({ hung, code, signal, stdout, stderr });
    }),
  );
  return { child, exit };
}

/**
 * Why this exit is a crash, or undefined: a signal we did not send, an exit code other than 0 (done) and 1 (a
 * user-facing failure), a stack trace, an uncaught error, or the CLI's "internal error" (exit 70).
 */
export function crashOf(exit: Exit, killedByUs = false): string | undefined {
  if (exit.hung) return 'it did not end by itself (killed by the watchdog)';
  if (exit.signal && !(killedByUs && exit.signal === 'SIGKILL')) return `killed by ${exit.signal}`;
  if (!exit.signal && exit.code !== 0 && exit.code !== 1) return `exit code ${exit.code}`;
  const text = `${exit.stdout}\n${exit.stderr}`;
  if (/\n\s+at .+[(:]\d+/.test(text)) return 'a stack trace';
  if (/Uncaught|UnhandledPromiseRejection|internal error/i.test(text)) return 'an uncaught error';
  return undefined;
}

/** The last line on stderr: the message a user reads when the command fails. */
export function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}
