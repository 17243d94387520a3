/**
 * Test support: a real PostgreSQL server (Debian's `postgresql`, which .ci/run installs) initialised into a temp
 * folder, on 127.0.0.1 and a free port, with its socket in that folder, stopped by `stop()` — or by itself when
 * the test process is gone (a watchdog shell polls its parent), so a killed test run leaves no server behind.
 *
 * As root (CI, this VM) initdb and postgres refuse to run; they run as the `postgres` user the package creates.
 * fsync is off: the tests check what the site server does, not the disk's durability.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  port: number;
  /** A URL of the server's own `labeldesk` database (superuser, trust authentication on loopback). */
  url: string;
  /** Creates a fresh empty database and returns its URL (one per test file or test, so they never meet). */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or undefined. */
export function postgresBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** The command line to run `bin` as the user PostgreSQL accepts: ourselves, or `postgres` when we are root. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

let databases = 0;

/**
 * Creates a fresh empty database on the server of `adminUrl` (a URL of one of its databases) and returns its
 * URL. Names carry the process id and a count, so parallel test files never meet.
 */
export async function createDatabaseAt(adminUrl: string, name?: string): Promise<string> {
  const db = name ?? `t${process.pid}_${++databases}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`not a database name: ${db}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${db}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${db}`;
  return url.toString();
}

/** Initialises and starts a private PostgreSQL; throws with the reason when it cannot (not installed, say). */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      'PostgreSQL is not installed (apt-get install postgresql; .ci/run does) — needed by #24 tests',
    );
  const root = mkdtempSync(join(tmpdir(), 'ld-pg-'));
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    if (!Number.isInteger(uid)) throw new Error('running as root and there is no postgres user');
    chownSync(root, uid, gid);
  }
  const data = join(root, 'data');
  const [initCmd, initArgs] = asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'labeldesk',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale',
    'C',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr}`);
  }
  const port = await freePort();
  const [cmd, args] = asServerUser(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    root,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  // The watchdog: postgres in the background of a shell that stops it (pg_ctl's fast shutdown; a background
  // job of a shell ignores SIGINT, and runuser forwards only some signals) once our process is gone or the
  // shell is told to stop (SIGTERM).
  const [ctl, ctlArgs] = asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  const q = (list: string[]) => list.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const stopCmd = `${q([ctl, ...ctlArgs])} >/dev/null 2>&1; wait $pg`;
  const script =
    `${q([cmd, ...args])} & pg=$!; trap '${stopCmd.replaceAll("'", "'\\''")}; exit 0' TERM; ` +
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 $pg 2>/dev/null; do sleep 1 & wait $!; done; ` +
    `${stopCmd}; rm -rf ${q([root])}`;
  const child: ChildProcess = spawn('sh', ['-c', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://labeldesk@127.0.0.1:${port}/postgres`;
  // Wait until it accepts connections (a bounded number of tries, not a timed assertion).
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`postgres exited: ${stderr}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (e) {
      await client.end().catch(() => undefined);
      if (i > 200) {
        child.kill('SIGTERM');
        throw new Error(`postgres did not come up: ${(e as Error).message}\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    url,
    createDatabase: (name) => createDatabaseAt(url, name),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
