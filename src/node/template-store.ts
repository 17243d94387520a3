/**
 * Node-only: template stores over folders of `*.json` files (bundled assets/templates, the user's folder).
 * Every lookup re-reads a user folder's listing; files are re-parsed only when their mtime, size or inode
 * changed, so a template edited on disk applies to the very next request at the cost of one stat per file. The
 * bundled folder, which changes only with the program, is read once.
 */
import { readdirSync, statSync, type Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TemplateValidationError } from '../model/errors';
import { parseTemplateText } from '../model/parse';
import type { Template } from '../model/schema';
import {
  findTemplate,
  mergeListings,
  type TemplateListing,
  type TemplateOrigin,
  type TemplateStore,
} from '../model/store';
import { bundledTemplatesDir } from './assets';

interface CacheEntry {
  mtimeMs: number;
  size: number;
  /** An atomic replace (a save from the designer) is a new inode even within the file system's mtime tick. */
  ino: number;
  result: { template: Template } | { error: TemplateValidationError };
}

/** Reads and validates one template file. Throws TemplateValidationError (also for unreadable files). */
export async function readTemplateFile(file: string): Promise<Template> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (e as Error).message;
    throw new TemplateValidationError([{ path: '', message: `cannot read the file: ${why}` }], file);
  }
  return parseTemplateText(text, file);
}

export interface FolderStoreOptions {
  /**
   * How the folder is listed and its files stat'ed on each lookup. `async` (default): through libuv's thread
   * pool, nine round trips for the bundled folder and an empty user folder. `sync`: on the calling thread, for
   * `labeldesk serve`, where those round trips cost ~10 % of a core under load and a local folder's readdir
   * and stats take ~40 µs in all. A changed file is still read asynchronously.
   */
  io?: 'async' | 'sync';
  /**
   * The folder ships with the program (assets/templates) and changes only with it: listed and read once, then
   * never looked at again — under `serve` the bundled folder's listing and stats were ~5 % of a core. A user's
   * folder is never `fixed`: a file saved there applies to the very next request (the spec's rule 2).
   */
  fixed?: boolean;
}

const statOrNothing = (file: string): Stats | undefined => {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
};

/** A store over one folder. A missing folder is an empty store (the user folder may not exist yet). */
export function folderStore(
  dir: string,
  origin: TemplateOrigin,
  options: FolderStoreOptions = {},
): TemplateStore {
  const cache = new Map<string, CacheEntry>();
  const sync = options.io === 'sync';

  async function list(): Promise<TemplateListing> {
    let names: string[];
    try {
      names = (sync ? readdirSync(dir) : await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { templates: [], broken: [] };
      throw e;
    }
    const listing: TemplateListing = { templates: [], broken: [] };
    const files = names.map((name) => join(dir, name));
    // undefined: removed between readdir and stat. All at once when async (one turn, not one per file).
    const infos = sync
      ? files.map(statOrNothing)
      : await Promise.all(files.map((file) => stat(file).catch(() => undefined)));
    for (const [i, file] of files.entries()) {
      const info = infos[i];
      if (!info?.isFile()) continue;
      let entry = cache.get(file);
      if (!entry || entry.mtimeMs !== info.mtimeMs || entry.size !== info.size || entry.ino !== info.ino) {
        let result: CacheEntry['result'];
        try {
          result = { template: await readTemplateFile(file) };
        } catch (e) {
          if (!(e instanceof TemplateValidationError)) throw e;
          result = { error: e };
        }
        entry = { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino, result };
        cache.set(file, entry);
      }
      if ('template' in entry.result)
        listing.templates.push({ template: entry.result.template, origin, file });
      else listing.broken.push({ file, origin, problems: entry.result.error.problems });
    }
    return mergeListings([listing]);
  }

  if (options.fixed) {
    let once: Promise<TemplateListing> | undefined;
    const listOnce = (): Promise<TemplateListing> => {
      once ??= list().catch((e: unknown) => {
        once = undefined; // a failed listing is not kept: the next lookup tries again
        throw e;
      });
      return once;
    };
    return { list: listOnce, get: async (name) => findTemplate(await listOnce(), name) };
  }
  return { list, get: async (name) => findTemplate(await list(), name) };
}

/** Several stores in precedence order (later overrides earlier by name). */
export function layeredStore(stores: readonly TemplateStore[]): TemplateStore {
  const list = async () => mergeListings(await Promise.all(stores.map((s) => s.list())));
  return { list, get: async (name) => findTemplate(await list(), name) };
}

/**
 * The bundled templates (read once: they change only with the program), then the user's folder (if given,
 * looked at on every lookup), which may override them by name.
 */
export function defaultTemplateStore(userDir?: string, options: FolderStoreOptions = {}): TemplateStore {
  const stores = [folderStore(bundledTemplatesDir(), 'bundled', { ...options, fixed: true })];
  if (userDir) stores.push(folderStore(userDir, 'user', options));
  return layeredStore(stores);
}
