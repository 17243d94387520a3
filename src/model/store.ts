/**
 * Where templates come from. Lookup is by exact, case-sensitive name (spec §2.1) and happens on every
 * request (spec §1 rule 2: a change applies to the very next request). A broken template file is reported
 * with its problems and never takes the others down.
 */
import { TemplateNotFound, type Problem } from './errors';
import type { Template } from './schema';

/** Bundled with the app (read-only), made by the user, or captured from the hosted service. */
export const TEMPLATE_ORIGINS = ['bundled', 'user', 'captured'] as const;
export type TemplateOrigin = (typeof TEMPLATE_ORIGINS)[number];

export interface TemplateEntry {
  template: Template;
  origin: TemplateOrigin;
  /** File it was read from, when there is one. */
  file?: string;
}

/** A template file that could not be used. */
export interface BrokenTemplate {
  file: string;
  origin: TemplateOrigin;
  problems: Problem[];
}

export interface TemplateListing {
  templates: TemplateEntry[];
  broken: BrokenTemplate[];
}

export interface TemplateStore {
  /** All usable templates (later sources override earlier ones of the same name) and the broken files. */
  list(): Promise<TemplateListing>;
  /** The template with exactly this name. Throws TemplateNotFound. */
  get(name: string): Promise<TemplateEntry>;
}

/** Lookup by exact name over a listing; suggests names that differ only in case. */
export function findTemplate(listing: TemplateListing, name: string): TemplateEntry {
  const entry = listing.templates.find((e) => e.template.name === name);
  if (entry) return entry;
  const lower = name.toLowerCase();
  throw new TemplateNotFound(
    name,
    listing.templates.filter((e) => e.template.name.toLowerCase() === lower).map((e) => e.template.name),
  );
}

/**
 * Merges listings in precedence order (later wins: bundled < user < captured), reporting names that appear
 * twice within one source as broken.
 */
export function mergeListings(listings: readonly TemplateListing[]): TemplateListing {
  const byName = new Map<string, TemplateEntry>();
  const broken: BrokenTemplate[] = [];
  for (const listing of listings) {
    const seen = new Map<string, TemplateEntry>();
    for (const entry of listing.templates) {
      const name = entry.template.name;
      const earlier = seen.get(name);
      if (earlier) {
        broken.push({
          file: entry.file ?? name,
          origin: entry.origin,
          problems: [
            {
              path: 'name',
              message: `"${name}" is already defined in ${earlier.file ?? 'another template'}`,
            },
          ],
        });
        continue;
      }
      seen.set(name, entry);
      byName.set(name, entry);
    }
    broken.push(...listing.broken);
  }
  const templates = [...byName.values()].sort((a, b) => a.template.name.localeCompare(b.template.name));
  return { templates, broken };
}

/** A store over templates held in memory (tests, captured templates in the app). */
export function memoryStore(entries: TemplateEntry[]): TemplateStore {
  const listing = (): TemplateListing => mergeListings([{ templates: entries, broken: [] }]);
  return {
    list: async () => listing(),
    get: async (name) => findTemplate(listing(), name),
  };
}
