/**
 * Printer profiles on disk: one JSON file (`printer-profiles.json`) in the app's data directory, validated on
 * every read, written atomically (temp file in the same directory + rename) so a crash mid-write never leaves
 * a half-written file. Writes within a process are serialised.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../src/engine/server/atomic-file';
import { join } from 'node:path';
import {
  parsePrinterProfile,
  parseProfilesFile,
  type PrinterProfile,
  type PrinterProfileInput,
  type ProfilesFile,
} from '../../src/printers/profiles';
import { canonicalPrinterUri } from '../../src/printers/uri';

export const PROFILES_FILE_NAME = 'printer-profiles.json';

export interface ProfileStore {
  /** The profile for a printer URI (any spelling of it), or undefined. */
  get(uri: string): Promise<PrinterProfile | undefined>;
  list(): Promise<PrinterProfile[]>;
  /** Validates and saves (replacing the profile for the same printer). Returns the stored profile. */
  put(profile: PrinterProfileInput): Promise<PrinterProfile>;
  /** True when there was one to remove. */
  remove(uri: string): Promise<boolean>;
  /** The file's path. */
  readonly path: string;
}

/** A store in `dataDir` (created on first write). */
export function createProfileStore(dataDir: string): ProfileStore {
  const path = join(dataDir, PROFILES_FILE_NAME);
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<ProfilesFile> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, profiles: [] };
      throw e;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new SyntaxError(`${path}: not valid JSON (${(e as Error).message})`);
    }
    return parseProfilesFile(json, path);
  };

  // 0600 in a 0700 folder: the data folder holds label data.
  const save = (file: ProfilesFile): Promise<void> =>
    writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);

  /** Read-modify-write steps run one after another. */
  const exclusive = <T>(step: () => Promise<T>): Promise<T> => {
    const run = queue.then(step, step);
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    path,
    get: async (uri) => {
      const key = canonicalPrinterUri(uri);
      return (await load()).profiles.find((p) => p.uri === key);
    },
    list: async () => (await load()).profiles,
    put: (input) =>
      exclusive(async () => {
        const profile = parsePrinterProfile(input);
        const file = await load();
        const others = file.profiles.filter((p) => p.uri !== profile.uri);
        await save({ version: 1, profiles: [...others, profile] });
        return profile;
      }),
    remove: (uri) =>
      exclusive(async () => {
        const key = canonicalPrinterUri(uri);
        const file = await load();
        const kept = file.profiles.filter((p) => p.uri !== key);
        if (kept.length === file.profiles.length) return false;
        await save({ version: 1, profiles: kept });
        return true;
      }),
  };
}
