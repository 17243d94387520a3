/**
 * The `labeldesk` binary where the environment is hostile, as a user meets it (the bundled CLI in its own
 * process): a reader that goes away (`| head`), --out onto a file, into /proc or a read-only folder, a port or
 * host that cannot be, a damaged jobs.sqlite. Each is one sentence and a non-zero exit that is not 70 (ours to
 * fix), or a quiet exit 0 for the closed pipe; nothing hangs. Label data is kept 0600 in a 0700 folder.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteJobStore } from '../../src/node/jobs/sqlite-job-store';
import { buildBundle, ROOT, runNode, type Bundle, type Exit } from './bundle';

let cli: Bundle;
let dir: string;
beforeAll(async () => {
  cli = await buildBundle('robustness-test');
  dir = mkdtempSync(join(tmpdir(), 'ld-cli-robust-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;
const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
const PRODUCT = '{"sku":"SKU-1","product_name":"Thing","ean13":"4006381333931"}';

/** Runs the CLI and closes its standard output after the first bytes, as `| head -c 1` would. */
function runIntoClosedPipe(args: string[]): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.file, ...args], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.once('data', (d: Buffer) => {
      stdout += d.toString();
      child.stdout.destroy();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The one line a user error prints, with its exit status: not 70 (internal), no stack trace. */
function expectUserError(r: Exit, code: number, line: string): void {
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code, stderr: `labeldesk: ${line}\n` });
}

describe('a reader that goes away (EPIPE)', () => {
  it('labeldesk usage | head: the rest is dropped quietly, exit 0', async () => {
    const data = join(dir, 'usage-data');
    mkdirSync(data);
    // About 200 kB of table, one write per row: far more than a pipe holds, so writes meet the closed pipe.
    const keys: Record<string, Record<string, { requests: number; copies: number }>> = {};
    for (let i = 0; i < 4000; i++) keys[`key-${i}`] = { 'render-zpl': { requests: i, copies: 2 * i } };
    writeFileSync(join(data, 'usage.json'), JSON.stringify({ version: 1, keys }));
    const r = await runIntoClosedPipe(['usage', '--data-dir', data]);
    expect(r.stdout).toMatch(/^KEY\s+ROUTE\s+REQUESTS\s+COPIES\n/);
    expect({ code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
  });

  it('labeldesk jobs labels ID --json | head: exit 0, no stack trace', async () => {
    const data = join(dir, 'jobs-data');
    const added = await cli.run(
      [
        'jobs',
        'add',
        '--printer',
        `file://${join(dir, 'printed.zpl')}`,
        '--template',
        'product-2x1',
        '--data',
        PRODUCT,
        '--amount',
        '200',
        '--data-dir',
        data,
      ],
      { cwd: dir },
    );
    expect(added.stdout).toContain('job 1 done: 200/200 confirmed');
    const r = await runIntoClosedPipe(['jobs', 'labels', '1', '--json', '--data-dir', data]);
    expect(r.stdout.startsWith('[')).toBe(true);
    expect({ code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
  });
});

describe('--out where it cannot write', () => {
  const render = (out: string): Promise<Exit> =>
    cli.run(['render', '--template', 'product-2x1', '--data', PRODUCT, '--format', 'zpl', '--out', out], {
      cwd: dir,
    });

  it('onto an existing file: --out takes a folder; the file is left as it was', async () => {
    writeFileSync(join(dir, 'label.zpl'), 'mine');
    const r = await render('label.zpl');
    expectUserError(
      r,
      1,
      `--out label.zpl: ${join(dir, 'label.zpl')} is a file, not a folder; --out takes a folder, one file per copy`,
    );
    expect(statSync(join(dir, 'label.zpl')).size).toBe(4);
  });

  it('below a file', async () => {
    writeFileSync(join(dir, 'plain'), '');
    expectUserError(
      await render('plain/labels'),
      1,
      `--out plain/labels: ${join(dir, 'plain')} is a file, not a folder`,
    );
  });

  it.skipIf(!existsSync('/proc/self'))(
    'a folder that cannot be created (/proc/x) fails at once, no hang',
    async () => {
      expectUserError(
        await render('/proc/x'),
        1,
        '--out /proc/x: cannot create the folder /proc/x: /proc does not take new folders',
      );
    },
  );

  it.skipIf(!existsSync('/proc/self'))('a folder that takes no files (/proc)', async () => {
    expectUserError(
      await render('/proc'),
      1,
      '--out /proc: cannot write /proc/product-2x1-001.zpl: /proc does not take new files',
    );
  });

  it.skipIf(isRoot)('a read-only folder: permission denied, and no half-written file left', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    try {
      expectUserError(
        await render('locked'),
        1,
        `--out locked: cannot write ${join(locked, 'product-2x1-001.zpl')}: permission denied`,
      );
      expect(readdirSync(locked)).toEqual([]);
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  it('a folder where a label file goes: the write fails, and no temporary file is left (#20)', async () => {
    const taken = join(dir, 'taken');
    mkdirSync(join(taken, 'product-2x1-001.zpl', 'inside'), { recursive: true });
    expectUserError(
      await render('taken'),
      1,
      `--out taken: cannot write ${join(taken, 'product-2x1-001.zpl')}: it is a folder`,
    );
    expect(readdirSync(taken)).toEqual(['product-2x1-001.zpl']);
  });

  it('what it writes is 0600 in a folder it creates 0700 (labels hold names and addresses)', async () => {
    const r = await render('exported/labels');
    expect(r.code).toBe(0);
    expect(mode(join(dir, 'exported/labels'))).toBe('0700');
    expect(mode(join(dir, 'exported/labels/product-2x1-001.zpl'))).toBe('0600');
  });
});

describe('labeldesk serve: a port or host that cannot be', () => {
  it('--port 99999 is wrong usage (exit 2)', async () => {
    expectUserError(
      await cli.run(['serve', '--port', '99999', '--data-dir', join(dir, 'serve-data')]),
      2,
      '--port: expected a port number from 0 to 65535, got "99999"',
    );
  });

  it('a --host that names nothing is one sentence (exit 1)', async () => {
    expectUserError(
      await cli.run([
        'serve',
        '--host',
        'no-such-host.invalid',
        '--port',
        '0',
        '--data-dir',
        join(dir, 'serve-data'),
      ]),
      1,
      '--host no-such-host.invalid: no such address or host name (give an IP address)',
    );
  });

  it('a --host that is not this computer is one sentence (exit 1)', async () => {
    // TEST-NET-1 (RFC 5737): never assigned to a machine.
    expectUserError(
      await cli.run(['serve', '--host', '192.0.2.1', '--port', '0', '--data-dir', join(dir, 'serve-data')]),
      1,
      '--host 192.0.2.1: not an address of this computer, so serve cannot listen on it',
    );
  });
});

describe('the job database and the data folder', () => {
  it('a damaged jobs.sqlite is one sentence that says what to do (exit 1)', async () => {
    const data = join(dir, 'damaged');
    mkdirSync(data, { mode: 0o700 });
    writeFileSync(join(data, 'jobs.sqlite'), 'these are not the pages of a database'.repeat(200));
    expectUserError(
      await cli.run(['jobs', 'list', '--data-dir', data]),
      1,
      `${join(data, 'jobs.sqlite')} is not a LabelDesk job database (damaged, or another kind of file); ` +
        'move it aside to start without jobs, or restore it from a backup',
    );
  });

  it('a data folder that is a file is one sentence (exit 1)', async () => {
    writeFileSync(join(dir, 'data-file'), '');
    expectUserError(
      await cli.run(['jobs', 'list', '--data-dir', join(dir, 'data-file')]),
      1,
      `the data folder cannot be used: ${join(dir, 'data-file')} is a file, not a folder (choose another with --data-dir)`,
    );
  });

  it('a new data folder is 0700 and jobs.sqlite 0600', async () => {
    const data = join(dir, 'fresh/data');
    const r = await cli.run(['jobs', 'list', '--data-dir', data]);
    expect(r.code).toBe(0);
    expect(mode(data)).toBe('0700');
    expect(mode(join(data, 'jobs.sqlite'))).toBe('0600');
  });

  it('an existing folder and database open to others are tightened, and the CLI says so', async () => {
    const data = join(dir, 'wide');
    openSqliteJobStore(data).close();
    // As LabelDesk before 0.1 left them (mkdir and SQLite's defaults under umask 022).
    chmodSync(data, 0o755);
    chmodSync(join(data, 'jobs.sqlite'), 0o644);
    const r = await cli.run(['jobs', 'list', '--data-dir', data]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `note: ${data} was open to other users (mode 0755); it holds label data, so it is now 0700\n`,
    );
    expect(mode(data)).toBe('0700');
    expect(mode(join(data, 'jobs.sqlite'))).toBe('0600');
  });

  it("SQLite's -wal and -shm files are 0600 too, whatever the umask", () => {
    const data = join(dir, 'wal');
    const umask = process.umask(0o002);
    try {
      const store = openSqliteJobStore(data);
      try {
        expect(['jobs.sqlite', 'jobs.sqlite-wal', 'jobs.sqlite-shm'].map((f) => mode(join(data, f)))).toEqual(
          ['0600', '0600', '0600'],
        );
      } finally {
        store.close();
      }
    } finally {
      process.umask(umask);
    }
  });
});

describe('the emulator', () => {
  it('npm run emulator -- --help prints its usage and exits 0', async () => {
    const r = await runNode([join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'test/emulator/cli.ts', '--help']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run emulator -- \[--port 9100\]/);
  });
});
