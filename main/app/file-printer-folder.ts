/**
 * "Print to file" printers (`file://`) write label bytes to a path. Saved through the IPC contract — by a
 * compromised renderer, or by anything holding web mode's token — that would be any file the user can write
 * (a shell profile, an SSH key). So a file printer saved through the contract must write inside the one folder
 * the user chose in Settings with main's own folder dialog (never a payload), checked on real paths: `..` and
 * symbolic links are resolved before the check, so neither leads out of the folder.
 */
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { IpcError } from '../../src/ipc/errors';

const refuse = (message: string, action: 'settings' | null = null) =>
  new IpcError('invalid', `Printer address: ${message}`, 'uri', action);

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

/**
 * Resolves where a file printer at `path` would really write and refuses it (an `invalid` IpcError on `uri`,
 * one sentence) unless that is a file inside `folder`. Returns the real path.
 */
export async function checkFilePrinterPath(path: string, folder: string | null): Promise<string> {
  if (folder === null) {
    throw refuse(
      'print-to-file printers write only into a folder you choose: pick one under "Folder for file printers" in Settings first.',
      'settings',
    );
  }
  const realFolder = await realOrNull(folder);
  if (realFolder === null) {
    throw refuse(
      `the folder for file printers, ${folder}, no longer exists: choose it again in Settings.`,
      'settings',
    );
  }
  const wanted = resolve(path);
  const realParent = await realOrNull(dirname(wanted));
  if (realParent === null) throw refuse(`the folder ${dirname(wanted)} does not exist.`);
  let target = join(realParent, basename(wanted));
  const existing = await lstat(target).catch(() => null);
  if (existing?.isSymbolicLink()) {
    const linked = await realOrNull(target);
    // A dangling link would create its target wherever it points.
    if (linked === null) throw refuse(`${wanted} is a link to nothing: use a plain file name.`);
    target = linked;
  }
  if (!inside(realFolder, target)) {
    throw refuse(
      `${wanted} is outside the folder for file printers (${realFolder}): pick a file in that folder.`,
    );
  }
  const kind = existing?.isSymbolicLink() ? await lstat(target).catch(() => null) : existing;
  if (kind && !kind.isFile()) throw refuse(`${wanted} is not a file: pick a file name in ${realFolder}.`);
  return target;
}
