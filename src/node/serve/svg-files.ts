/**
 * Node-only: SVG files of export-svg (spec §2.5, §3, §4.5) under `svg/` of the data folder.
 *
 * A file's name is its public token: `<expiry, Unix ms>-<128 random bits, hex>.svg`. The random part makes
 * URLs unguessable; the expiry in the name lets a request or the sweeper decide without an index. Nobody can
 * extend a file's life by editing the URL: a changed name is a different (missing) file. Expired files answer
 * 404 and are deleted on access and by `sweep()`. Identical copies are hard links to one file.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SvgFileStore } from '../../engine/operations';
import { writeFileAtomic } from '../files/atomic-file';

const TOKEN = /^(\d{1,15})-([0-9a-f]{32})\.svg$/;

export interface SvgFiles extends SvgFileStore {
  /** The SVG behind a token while it lives; undefined when unknown or expired (then it is deleted). */
  read(token: string): Promise<{ svg: Buffer; expiresAt: Date } | undefined>;
  /**
   * The token of a storage path as export-svg answers it in `files[].path` (`svg/<token>`), or undefined for
   * any other string: no other path (`../keys.json`, an absolute path, a folder) reaches the file system.
   */
  tokenOfPath(path: string): string | undefined;
  /** Deletes every expired file. Returns how many went. */
  sweep(): Promise<number>;
}

/** `dir` holds the files; `storagePrefix` is how `path` names them relative to the data folder. */
export function svgFiles(dir: string, now: () => Date, storagePrefix = 'svg'): SvgFiles {
  const expiryOf = (token: string): number | undefined => {
    const m = TOKEN.exec(token);
    return m ? Number(m[1]) : undefined;
  };

  async function remove(token: string): Promise<void> {
    await rm(join(dir, token), { force: true });
  }

  return {
    tokenOfPath(path) {
      const prefix = `${storagePrefix}/`;
      if (!path.startsWith(prefix)) return undefined;
      const token = path.slice(prefix.length);
      return TOKEN.test(token) ? token : undefined;
    },

    async save(svgs, expiresAt) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const written = new Map<string, string>();
      const out: { token: string; path: string }[] = [];
      for (const svg of svgs) {
        const token = `${expiresAt.getTime()}-${randomBytes(16).toString('hex')}.svg`;
        const file = join(dir, token);
        const first = written.get(svg);
        if (first) {
          try {
            await link(first, file);
          } catch {
            await writeFileAtomic(file, svg, 0o644);
          }
        } else {
          await writeFileAtomic(file, svg, 0o644);
          written.set(svg, file);
        }
        out.push({ token, path: `${storagePrefix}/${token}` });
      }
      return out;
    },

    async read(token) {
      const expiry = expiryOf(token);
      if (expiry === undefined) return undefined;
      if (now().getTime() >= expiry) {
        await remove(token);
        return undefined;
      }
      try {
        return { svg: await readFile(join(dir, token)), expiresAt: new Date(expiry) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },

    async sweep() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw e;
      }
      const t = now().getTime();
      const expired = names.filter((n) => {
        const expiry = expiryOf(n);
        return expiry !== undefined && t >= expiry;
      });
      for (const name of expired) await remove(name);
      return expired.length;
    },
  };
}
