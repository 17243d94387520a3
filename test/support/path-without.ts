/**
 * Test support: a PATH on which some programs are missing, as on a fresh machine that lacks them (udevadm in
 * a container), whether or not this machine has them. Every other program of the current PATH stays
 * reachable through a symlink in one temporary folder. Remove the folder when done.
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface PathWithout {
  /** The value to give PATH. */
  path: string;
  remove(): void;
}

export function pathWithout(missing: readonly string[], from = process.env.PATH ?? ''): PathWithout {
  const dir = mkdtempSync(join(tmpdir(), 'ld-path-'));
  for (const folder of from.split(delimiter).filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (missing.includes(name)) continue;
      try {
        symlinkSync(join(folder, name), join(dir, name));
      } catch {
        // An earlier folder of PATH has this name already: it wins, as it would on the real PATH.
      }
    }
  }
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
