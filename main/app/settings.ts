/**
 * The app's settings (`<data dir>/app-settings.json`): hosted API URL and key, backend mode, default printer,
 * recent templates, the folder "print to file" printers may write into, the site server's URL and key id. The
 * secrets are not here: each lives in its SecretStore (the hosted API's, the site's), encrypted (or in memory
 * for the session), and only whether and how it is kept reaches the renderer.
 */
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BACKEND_MODES,
  TemplateRefSchema,
  type SettingsPatch,
  type SettingsView,
  type TemplateRef,
} from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { jsonFile } from '../../src/node/files/json-file';
import { SecretNotProtectedError, type SecretStore } from './secret-store';

const RECENT_MAX = 8;
/** A print of more copies than this asks first (a typo of 500 for 50 costs a roll). */
const DEFAULT_CONFIRM_COPIES_ABOVE = 50;

export const StoredSettingsSchema = z.object({
  version: z.literal(1),
  apiBaseUrl: z.string().nullable().default(null),
  apiKey: z.string().nullable().default(null),
  mode: z.enum(BACKEND_MODES).default('local'),
  defaultPrinter: z.string().nullable().default(null),
  lastPrinter: z.string().nullable().default(null),
  confirmCopiesAbove: z.number().int().min(0).max(1000).default(DEFAULT_CONFIRM_COPIES_ABOVE),
  keepCopiesAfterPrint: z.boolean().default(false),
  recentTemplates: z.array(TemplateRefSchema).max(RECENT_MAX).default([]),
  pinnedTemplates: z.array(TemplateRefSchema).max(20).default([]),
  /** Absolute and real (symlinks resolved) when it was chosen. */
  filePrinterFolder: z.string().nullable().default(null),
  siteUrl: z.string().nullable().default(null),
  siteKey: z.string().nullable().default(null),
});
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;

const EMPTY: StoredSettings = {
  version: 1,
  apiBaseUrl: null,
  apiKey: null,
  mode: 'local',
  defaultPrinter: null,
  lastPrinter: null,
  confirmCopiesAbove: DEFAULT_CONFIRM_COPIES_ABOVE,
  keepCopiesAfterPrint: false,
  recentTemplates: [],
  pinnedTemplates: [],
  filePrinterFolder: null,
  siteUrl: null,
  siteKey: null,
};

export interface AppSettings {
  get(): Promise<SettingsView>;
  update(patch: SettingsPatch): Promise<SettingsView>;
  /** Moves a template to the front of the recent list. */
  touchTemplate(ref: TemplateRef): Promise<void>;
  /**
   * Sets the folder file printers may write into: only from main (a folder dialog, a command-line option),
   * never from a renderer's payload. Stored as its real path; a folder that does not exist is refused.
   */
  setFilePrinterFolder(folder: string): Promise<SettingsView>;
}

/** Keeps (or forgets, with '' or null) a secret; where the cipher cannot protect it, a sentence at `field`. */
async function keepSecret(
  store: SecretStore,
  value: string | null,
  sessionOnly: boolean | undefined,
  field: string,
): Promise<void> {
  try {
    await store.set(value === '' ? null : value, sessionOnly ? 'session' : 'stored');
  } catch (e) {
    if (!(e instanceof SecretNotProtectedError)) throw e;
    throw new IpcError('invalid', e.message, field, 'settings');
  }
}

export function appSettings(dataDir: string, secret: SecretStore, siteSecret: SecretStore): AppSettings {
  const file = jsonFile(join(dataDir, 'app-settings.json'), StoredSettingsSchema, EMPTY);
  const view = async (s: StoredSettings): Promise<SettingsView> => {
    const kept = await secret.kept();
    const siteKept = await siteSecret.kept();
    return {
      apiBaseUrl: s.apiBaseUrl,
      apiKey: s.apiKey,
      hasSecret: kept !== null,
      secretKept: kept,
      secretStorageProblem: secret.storageProblem(),
      filePrinterFolder: s.filePrinterFolder,
      siteUrl: s.siteUrl,
      siteKey: s.siteKey,
      hasSiteSecret: siteKept !== null,
      siteSecretKept: siteKept,
      mode: s.mode,
      defaultPrinter: s.defaultPrinter,
      lastPrinter: s.lastPrinter,
      confirmCopiesAbove: s.confirmCopiesAbove,
      keepCopiesAfterPrint: s.keepCopiesAfterPrint,
      recentTemplates: s.recentTemplates,
      pinnedTemplates: s.pinnedTemplates,
    };
  };
  return {
    get: async () => view(await file.read()),
    async update(patch) {
      const { apiSecret, secretForSessionOnly, siteSecret: site, siteSecretForSessionOnly, ...rest } = patch;
      if (apiSecret !== undefined) await keepSecret(secret, apiSecret, secretForSessionOnly, 'apiSecret');
      if (site !== undefined) await keepSecret(siteSecret, site, siteSecretForSessionOnly, 'siteSecret');
      const next = await file.update((s) => {
        const out = { ...s };
        for (const [k, v] of Object.entries(rest))
          if (v !== undefined) (out as Record<string, unknown>)[k] = v === '' ? null : v;
        return out;
      });
      return view(next);
    },
    async setFilePrinterFolder(folder) {
      let real: string;
      try {
        real = await realpath(folder);
        if (!(await stat(real)).isDirectory()) throw new Error('not a folder');
      } catch {
        throw new IpcError(
          'invalid',
          `Folder for file printers: ${folder} is not a folder that exists: pick another.`,
          'filePrinterFolder',
          'settings',
        );
      }
      return view(await file.update((s) => ({ ...s, filePrinterFolder: real })));
    },
    async touchTemplate(ref) {
      await file.update((s) => ({
        ...s,
        recentTemplates: [
          ref,
          ...s.recentTemplates.filter((r) => r.source !== ref.source || r.name !== ref.name),
        ].slice(0, RECENT_MAX),
      }));
    },
  };
}
