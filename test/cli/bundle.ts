/**
 * Test support for test/cli: the `labeldesk` binary as a user runs it — the CLI bundled from the current
 * sources (as `npm run build:cli` makes dist/labeldesk.mjs) and spawned with node, with real pipes, PATH and
 * exit codes. Each test file bundles to its own file inside the package (node_modules/.cache, so the bundle
 * finds its dependencies and assets as dist/ does), so a concurrent build never swaps it out mid-test.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

export interface Bundle {
  file: string;
  run(args: string[], options?: RunOptions): Promise<Exit>;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Standard input; default: none (closed). */
  stdin?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Bundles src/cli/labeldesk.ts for the test file `name`. */
export async function buildBundle(name: string): Promise<Bundle> {
  const file = join(ROOT, 'node_modules/.cache', `labeldesk-${name}`, 'labeldesk.mjs');
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [join(ROOT, 'scripts/build-cli.mjs'), file], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    build.on('error', reject);
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build-cli exited ${code}`))));
  });
  return { file, run: (args, options) => runNode([file, ...args], options) };
}

/** Runs node with `args` to its end. */
export function runNode(args: string[], options: RunOptions = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  });
}
