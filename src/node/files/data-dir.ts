/**
 * Node-only: where `labeldesk serve`, `labeldesk keys` and `labeldesk usage` keep their state (keys.json,
 * usage.json, svg/). `--data-dir DIR` wins, then `$LABELDESK_DATA_DIR`, then the OS's per-user data folder:
 *  - Linux and other Unix: `$XDG_DATA_HOME/labeldesk`, else `~/.local/share/labeldesk`
 *  - macOS: `~/Library/Application Support/LabelDesk/engine`
 *  - Windows: `%LOCALAPPDATA%\LabelDesk\engine` (else `%APPDATA%`)
 *
 * The folder and the files in it that hold label data are its owner's only (0700 and 0600 on Unix; Windows
 * keeps per-user folders private by default and ignores these modes).
 */
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeDirectorySync } from './atomic-file';

export function defaultDataDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.LABELDESK_DATA_DIR) return resolve(env.LABELDESK_DATA_DIR);
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'LabelDesk', 'engine');
    case 'win32':
      return join(env.LOCALAPPDATA ?? env.APPDATA ?? join(home, 'AppData', 'Local'), 'LabelDesk', 'engine');
    default:
      return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'labeldesk');
  }
}

/** The files inside a data folder. */
export const dataFiles = (dir: string) => ({
  keys: join(dir, 'keys.json'),
  usage: join(dir, 'usage.json'),
  svg: join(dir, 'svg'),
});

/** Owner only: the data folder holds names and addresses (jobs.sqlite, usage, printer profiles). */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` a folder only its owner can enter: created 0700 (with missing parents), or tightened to 0700
 * when it exists with group or other bits. Returns the mode it had when it was tightened (for the caller to
 * say so), else undefined. Throws a FileWriteError when it cannot be created; a folder of another user is
 * left as it is (chmod would fail; SQLite or the write then reports the permission problem).
 */
export function securePrivateFolder(dir: string): number | undefined {
  if (makeDirectorySync(dir, PRIVATE_FOLDER_MODE)) return undefined;
  return tighten(dir, PRIVATE_FOLDER_MODE);
}

/**
 * Makes `file` (and each `file + suffix` that exists: SQLite's `-wal`, `-shm`) readable by its owner only:
 * created empty with 0600 when missing, so whatever creates its contents later keeps that mode, and tightened
 * when wider.
 */
export function securePrivateFile(file: string, suffixes: readonly string[] = []): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    tighten(file, PRIVATE_FILE_MODE);
  }
  for (const suffix of suffixes) tighten(`${file}${suffix}`, PRIVATE_FILE_MODE);
}

/** chmod to `mode` when the current mode allows more; the old mode, or undefined when nothing changed. */
function tighten(path: string, mode: number): number | undefined {
  if (process.platform === 'win32') return undefined; // modes are not Windows' access control
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if ((current & ~mode) === 0) return undefined;
  try {
    chmodSync(path, current & mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPERM') return undefined; // not ours
    throw e;
  }
  return current;
}
