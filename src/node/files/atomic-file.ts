/**
 * Node-only: replace a file atomically (write a temporary file next to it, then rename), so a reader — the
 * running server re-reading keys.json, `labeldesk usage` reading usage.json — never sees half a file, and a
 * failed write leaves no half-written file behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * A file or folder that could not be written, with the reason in words: "permission denied", "/a/b is a
 * file, not a folder". `code` is the system's (EACCES, ENOTDIR, ...), so callers that test `code` still can.
 */
export class FileWriteError extends Error {
  override name = 'FileWriteError';
  constructor(
    /** The file or folder the problem is about. */
    readonly path: string,
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the name is too long',
  EISDIR: 'it is a folder',
  EINVAL: 'the file system does not allow that name',
};

/** A system error of a failed write as a FileWriteError, its reason in words where known; else itself. */
function explain(e: unknown, path: string, doing: string): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined || !/^E[A-Z0-9]+$/.test(code)) return e;
  const reason = REASONS[code];
  return new FileWriteError(path, code, `cannot ${doing} ${path}${reason ? `: ${reason}` : ` (${code})`}`, {
    cause: e,
  });
}

/**
 * Creates `dir` and the folders above it that are missing (each with `mode`), like `mkdir -p`. Node's
 * recursive mkdir spins forever where a folder exists but refuses new entries with ENOENT (`/proc/x`), so the
 * walk is done here, one folder at a time. Returns whether `dir` was created. Throws a FileWriteError when a
 * part of the path is a file or a folder cannot be created. Synchronous, for stores that open synchronously;
 * it costs one stat when the folder exists.
 */
export function makeDirectorySync(dir: string, mode = 0o700): boolean {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a folder above is a file; the walk up finds which.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(at) !== at) {
        missing.push(at);
        continue;
      }
      throw explain(e, at, 'use the folder');
    }
    if (!isDirectory) throw new FileWriteError(at, 'ENOTDIR', `${at} is a file, not a folder`);
    break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(folder).isDirectory()) continue; // made meanwhile
      if (code === 'ENOENT' || code === 'EEXIST')
        throw new FileWriteError(
          folder,
          code,
          `cannot create the folder ${folder}: ${dirname(folder)} does not take new folders`,
          { cause: e },
        );
      throw explain(e, folder, 'create the folder');
    }
  }
  return missing.length > 0;
}

/** makeDirectorySync for async callers (the same few system calls). */
export const makeDirectory = (dir: string, mode = 0o700): Promise<boolean> =>
  new Promise((resolvePromise) => resolvePromise(makeDirectorySync(dir, mode)));

/**
 * Writes `data` to `file` through a temporary file in the same folder (created with its missing parents,
 * 0700), renamed over `file` once complete and synced. `mode` is the new file's (default 0600: owner only).
 * Rejects with a FileWriteError for a reason a person can act on (permission, read-only, disk full).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = dirname(file);
  await makeDirectory(dir, 0o700);
  const tmp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle;
  try {
    handle = await open(tmp, 'wx', mode);
  } catch (e) {
    // The folder exists (made above) but refuses a new file in it: /proc, /sys.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new FileWriteError(file, 'ENOENT', `cannot write ${file}: ${dir} does not take new files`, {
        cause: e,
      });
    throw explain(e, file, 'write');
  }
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw explain(e, file, 'write');
  }
}

/**
 * A string that changes whenever the file is replaced or edited (mtime, size and inode: an atomic replace
 * within the same millisecond still gets a new inode); `missing` when there is no file. One stat: cheap
 * enough to check on every request.
 */
export async function fileVersion(file: string): Promise<string> {
  try {
    const info = await stat(file);
    return `${info.mtimeMs}:${info.size}:${info.ino}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
}

/**
 * fileVersion with a synchronous stat, for a file checked on every request of `labeldesk serve` (the keys file
 * in its data folder): a local stat takes microseconds, a round trip through the thread pool ~0.1 ms of the
 * server's one core.
 */
export function fileVersionSync(file: string): string {
  try {
    const info = statSync(file);
    return `${info.mtimeMs}:${info.size}:${info.ino}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
}
