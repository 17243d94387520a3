/**
 * Printer profiles on disk: one JSON file (`printer-profiles.json`) in the app's data directory, validated on
 * every read, written atomically so a crash mid-write never leaves a half-written file, writes within a process
 * serialised (one jsonFile).
 */
import { join } from 'node:path';
import { jsonFile } from '../files/json-file';
import {
  parsePrinterProfile,
  parseProfilesFile,
  PROFILES_FILE_VERSION,
  ProfilesFileSchema,
  type PrinterProfile,
  type PrinterProfileInput,
  type ProfilesFile,
} from '../../printers/profiles';
import { canonicalPrinterUri } from '../../printers/uri';

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
  // 0600 in a 0700 folder: the data folder holds label data.
  const file = jsonFile(
    path,
    ProfilesFileSchema,
    { version: PROFILES_FILE_VERSION, profiles: [] } as ProfilesFile,
    {
      notJson: (e) => new SyntaxError(`${path}: not valid JSON (${e.message})`),
      parse: (json) => parseProfilesFile(json, path),
    },
  );
  const load = () => file.read();

  return {
    path,
    get: async (uri) => {
      const key = canonicalPrinterUri(uri);
      return (await load()).profiles.find((p) => p.uri === key);
    },
    list: async () => (await load()).profiles,
    put: async (input) => {
      const profile = parsePrinterProfile(input);
      await file.update((current) => {
        const others = current.profiles.filter((p) => p.uri !== profile.uri);
        return { version: PROFILES_FILE_VERSION, profiles: [...others, profile] };
      });
      return profile;
    },
    remove: async (uri) => {
      let removed = false;
      await file.update((current) => {
        const key = canonicalPrinterUri(uri);
        const kept = current.profiles.filter((p) => p.uri !== key);
        if (kept.length === current.profiles.length) return undefined;
        removed = true;
        return { version: PROFILES_FILE_VERSION, profiles: kept };
      });
      return removed;
    },
  };
}
