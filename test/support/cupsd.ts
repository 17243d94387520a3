/**
 * Test support: a private CUPS scheduler (`cupsd -f`) on 127.0.0.1 and a free port, with its own ServerRoot,
 * spool, cache, state and log directories in a temp dir. Clients reach it with `CUPS_SERVER=127.0.0.1:PORT`,
 * so the machine's own CUPS (if any) is never touched.
 *
 * cupsd refuses `User root` and runs backends and filters as `lp`, so the temp dirs are world-readable.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Cupsd {
  port: number;
  /** Environment for lp/lpstat/lpadmin: CUPS_SERVER plus the inherited PATH. */
  env: { PATH: string; CUPS_SERVER: string; LC_ALL: string; LANG: string };
  /** Runs a CUPS client (lpadmin, lpstat, ...) against this scheduler; throws with its stderr on failure. */
  run(command: string, args: string[]): string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** Why cupsd cannot run here, or null when it can (binaries present). */
export function cupsdUnavailableReason(): string | null {
  for (const tool of ['cupsd', 'lpadmin', 'lpstat', 'lp']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      return `${tool} is not installed (apt-get install cups cups-client cups-bsd)`;
  }
  return null;
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

/** Starts a private cupsd and waits until it answers. */
export async function startCupsd(): Promise<Cupsd> {
  const root = mkdtempSync(join(tmpdir(), 'ld-cupsd-'));
  chmodSync(root, 0o755);
  for (const dir of ['spool', 'spool/tmp', 'log', 'cache', 'state', 'ppd'])
    mkdirSync(join(root, dir), { recursive: true, mode: 0o755 });
  chmodSync(join(root, 'spool/tmp'), 0o1777);
  // MIME types and conversions: the system's, so raw and PDF jobs are typed as on a real install.
  for (const dir of ['/usr/share/cups/mime', '/etc/cups']) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir))
      if (/\.(types|convs)$/.test(file)) cpSync(join(dir, file), join(root, file));
  }
  const port = await freePort();
  writeFileSync(
    join(root, 'cupsd.conf'),
    [
      `Listen 127.0.0.1:${port}`,
      'LogLevel info',
      'WebInterface No',
      'Browsing No',
      'DefaultAuthType None',
      'MaxJobs 0',
      '<Location />',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '<Policy default>',
      '  <Limit All>',
      '    Order deny,allow',
      '  </Limit>',
      '</Policy>',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(root, 'cups-files.conf'),
    [
      `ServerRoot ${root}`,
      `RequestRoot ${join(root, 'spool')}`,
      `TempDir ${join(root, 'spool/tmp')}`,
      `CacheDir ${join(root, 'cache')}`,
      `StateDir ${join(root, 'state')}`,
      `ErrorLog ${join(root, 'log/error_log')}`,
      `AccessLog ${join(root, 'log/access_log')}`,
      `PageLog ${join(root, 'log/page_log')}`,
      'SystemGroup root',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    'cupsd',
    ['-f', '-c', join(root, 'cupsd.conf'), '-s', join(root, 'cups-files.conf')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin:/usr/sbin:/sbin',
    CUPS_SERVER: `127.0.0.1:${port}`,
    LC_ALL: 'C',
    LANG: 'C',
  };
  const errorLog = (): string => {
    try {
      return readFileSync(join(root, 'log/error_log'), 'utf8');
    } catch {
      return '';
    }
  };
  const run = (command: string, args: string[]): string => {
    const r = spawnSync(command, args, { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  // Wait until the scheduler answers (a bounded number of tries, not a timed assertion).
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`cupsd exited: ${stderr}\n${errorLog()}`);
    const r = spawnSync('lpstat', ['-r'], { env, encoding: 'utf8' });
    if (r.stdout.includes('scheduler is running')) break;
    if (i > 100) {
      child.kill('SIGKILL');
      throw new Error(`cupsd did not come up: ${stderr}\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    env,
    run,
    errorLog,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
