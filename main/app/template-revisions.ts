/**
 * The kept versions of user templates (issue #22: "a bad save is never a lost template"): before a save
 * replaces `<user dir>/<name>.json`, the version it replaces is copied to `<user dir>/.revisions/<name>/<id>.json`,
 * the id being when that version had been saved (its file's modification time: `20261124T235630123Z`). The last
 * `keep` versions of each template stay; older ones are removed. The folder starts with a dot, so the template
 * folder's listing (`*.json` files only) never reads it.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { REVISION_ID, type TemplateRevisionView } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { writeFileAtomic } from '../../src/node/files/atomic-file';

export const REVISIONS_KEPT = 10;

/** `2026-11-24T23:56:30.123Z` → `20261124T235630123Z`. */
const stampOf = (ms: number): string => new Date(ms).toISOString().replace(/[-:.]/g, '');

/** `20261124T235630123Z-2` → `2026-11-24T23:56:30.123Z`. */
function savedAtOf(id: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z` : '';
}

/** Newest first: by time, then by the number of a second version saved in the same millisecond. */
function newestFirst(a: string, b: string): number {
  const [sa = '', na = '1'] = a.split('-');
  const [sb = '', nb = '1'] = b.split('-');
  return sb.localeCompare(sa) || Number(nb) - Number(na);
}

export interface TemplateRevisions {
  /** Keeps the current file of `name` (its text given) as a revision; returns the revision's id. */
  keep(name: string, currentFile: string, text: string): Promise<string>;
  /** Removes a revision (one kept for a save that then failed). */
  remove(name: string, id: string): Promise<void>;
  /** Removes all but the last `keep` revisions of `name`. */
  trim(name: string): Promise<void>;
  list(name: string): Promise<TemplateRevisionView[]>;
  /** A revision's text. Throws IpcError `not-found` for an id that names none. */
  read(name: string, id: string): Promise<string>;
}

/** Revisions under `<userDir>/.revisions`. Names must already be checked file names (template-name.ts). */
export function templateRevisions(userDir: string, keep = REVISIONS_KEPT): TemplateRevisions {
  const folderOf = (name: string) => join(userDir, '.revisions', name);

  const ids = async (name: string): Promise<string[]> => {
    try {
      return (await readdir(folderOf(name)))
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -'.json'.length))
        .filter((id) => REVISION_ID.test(id))
        .sort(newestFirst);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  };

  return {
    async keep(name, currentFile, text) {
      const existing = new Set(await ids(name));
      const stamp = stampOf((await stat(currentFile)).mtimeMs);
      let id = stamp;
      for (let n = 2; existing.has(id); n++) id = `${stamp}-${n}`;
      await writeFileAtomic(join(folderOf(name), `${id}.json`), text, 0o644);
      return id;
    },
    remove: (name, id) => rm(join(folderOf(name), `${id}.json`), { force: true }),
    async trim(name) {
      for (const old of (await ids(name)).slice(keep))
        await rm(join(folderOf(name), `${old}.json`), { force: true });
    },
    async list(name) {
      const out: TemplateRevisionView[] = [];
      for (const id of await ids(name)) {
        const info = await stat(join(folderOf(name), `${id}.json`)).catch(() => undefined);
        if (info?.isFile()) out.push({ id, savedAt: savedAtOf(id), bytes: info.size });
      }
      return out;
    },
    async read(name, id) {
      if (!REVISION_ID.test(id)) throw new IpcError('bad-request', `"${id}" is not a revision id.`);
      try {
        return await readFile(join(folderOf(name), `${id}.json`), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        throw new IpcError('not-found', `"${name}" has no revision ${id} (only the last ${keep} are kept).`);
      }
    },
  };
}
