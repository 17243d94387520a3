/**
 * The app's settings (`<data dir>/app-settings.json`): hosted API URL and key, backend mode, default printer,
 * recent templates. The secret is not here: it lives in the SecretStore, encrypted, and only `hasSecret`
 * reaches the renderer.
 */
import { join } from 'node:path';
import { z } from 'zod';
import {
  BACKEND_MODES,
  TemplateRefSchema,
  type SettingsPatch,
  type SettingsView,
  type TemplateRef,
} from '../../src/ipc/contract';
import { jsonFile } from './json-file';
import type { SecretStore } from './secret-store';

const RECENT_MAX = 8;

export const StoredSettingsSchema = z.object({
  version: z.literal(1),
  apiBaseUrl: z.string().nullable().default(null),
  apiKey: z.string().nullable().default(null),
  mode: z.enum(BACKEND_MODES).default('local'),
  defaultPrinter: z.string().nullable().default(null),
  recentTemplates: z.array(TemplateRefSchema).max(RECENT_MAX).default([]),
});
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;

const EMPTY: StoredSettings = {
  version: 1,
  apiBaseUrl: null,
  apiKey: null,
  mode: 'local',
  defaultPrinter: null,
  recentTemplates: [],
};

export interface AppSettings {
  get(): Promise<SettingsView>;
  update(patch: SettingsPatch): Promise<SettingsView>;
  /** Moves a template to the front of the recent list. */
  touchTemplate(ref: TemplateRef): Promise<void>;
}

export function appSettings(dataDir: string, secret: SecretStore): AppSettings {
  const file = jsonFile(join(dataDir, 'app-settings.json'), StoredSettingsSchema, EMPTY);
  const view = async (s: StoredSettings): Promise<SettingsView> => ({
    apiBaseUrl: s.apiBaseUrl,
    apiKey: s.apiKey,
    hasSecret: (await secret.get()) !== null,
    mode: s.mode,
    defaultPrinter: s.defaultPrinter,
    recentTemplates: s.recentTemplates,
  });
  return {
    get: async () => view(await file.read()),
    async update(patch) {
      const { apiSecret, ...rest } = patch;
      if (apiSecret !== undefined) await secret.set(apiSecret === '' ? null : apiSecret);
      const next = await file.update((s) => {
        const out = { ...s };
        for (const [k, v] of Object.entries(rest))
          if (v !== undefined) (out as Record<string, unknown>)[k] = v === '' ? null : v;
        return out;
      });
      return view(next);
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
