/**
 * Test support: `labeldesk serve` as users run it — the bundled CLI (scripts/build-cli.mjs) in its own process,
 * on 127.0.0.1 and a free port — for the tests that need real processes: several instances on one site
 * database, `kill -9` of one. Every process started here is killed when the test process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/**
 * Builds the CLI bundle into node_modules/.cache/<name>/ (inside the package, so it finds its dependencies and
 * assets as dist/ does) and returns its path. One name per test file: files run in parallel.
 */
export async function buildServeBundle(name: string): Promise<string> {
  const bundle = join(ROOT, 'node_modules/.cache', name, 'labeldesk.mjs');
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [join(ROOT, 'scripts/build-cli.mjs'), bundle], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    build.on('error', reject);
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build-cli exited ${code}`))));
  });
  return bundle;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** What it wrote to stderr so far (its JSON log lines and messages). */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exit: Promise<number | null>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `labeldesk serve --port 0 …args` from `bundle` and waits for the line with its URL. */
export async function startServeProcess(
  bundle: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bundle, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, LABELDESK_DATA_DIR: '', LABELDESK_DATABASE_URL: '', ...env },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exit };
}
