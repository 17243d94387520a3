/**
 * The app's templates: bundled with the app, the user's folder (`<data dir>/templates`, where imported files
 * go) and captured from the hosted API (`<data dir>/captured`, the same folder `labeldesk capture` and the
 * CLI's offline fallback use). Every lookup re-reads the folders, so a file edited outside the app applies to
 * the next preview.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../../src/node/files/atomic-file';
import { bundledTemplatesDir } from '../../src/node/assets';
import { folderStore, layeredStore } from '../../src/node/template-store';
import { looksLikeMarkup, templatesFromMarkup } from '../../src/model/from-markup';
import { parseJsonText, parseTemplate } from '../../src/model/parse';
import type { Template } from '../../src/model/schema';
import { elementFields } from '../../src/ipc/preview-label';
import {
  findTemplate,
  TEMPLATE_ORIGINS,
  type TemplateEntry,
  type TemplateStore,
} from '../../src/model/store';
import type {
  BrokenTemplateView,
  TemplateDetail,
  TemplateRef,
  TemplateSource,
  TemplateSummary,
} from '../../src/ipc/contract';

export interface AppTemplates {
  /** All three sources, later ones overriding earlier by name (what the local engine and fallback use). */
  readonly store: TemplateStore;
  list(
    recent: readonly TemplateRef[],
  ): Promise<{ templates: TemplateSummary[]; broken: BrokenTemplateView[] }>;
  get(ref: TemplateRef): Promise<TemplateEntry>;
  detail(ref: TemplateRef): Promise<TemplateDetail>;
  /** Checks a template file's text and saves it in the user's folder under its name. */
  importFile(fileName: string, text: string): Promise<TemplateSummary>;
  /** Saves a captured template (replacing an older capture of the same name). */
  saveCaptured(template: Template): Promise<TemplateSummary>;
}

export function templateFolders(dataDir: string) {
  return { user: join(dataDir, 'templates'), captured: join(dataDir, 'captured') };
}

const sameRef = (a: TemplateRef, b: TemplateRef) => a.source === b.source && a.name === b.name;

export function summarize(entry: TemplateEntry, recent: readonly TemplateRef[] = []): TemplateSummary {
  const { template } = entry;
  const ref = { source: entry.origin, name: template.name };
  return {
    ref,
    title: template.title ?? template.name,
    description: template.description ?? '',
    purpose: template.purpose ?? 'labels',
    size: `${template.stage.width} × ${template.stage.height} ${template.stage.unit}`,
    fieldCount: template.fields.length,
    recent: recent.some((r) => sameRef(r, ref)),
  };
}

export function appTemplates(dataDir: string): AppTemplates {
  const folders = templateFolders(dataDir);
  const stores: Record<TemplateSource, TemplateStore> = {
    bundled: folderStore(bundledTemplatesDir(), 'bundled'),
    user: folderStore(folders.user, 'user'),
    captured: folderStore(folders.captured, 'captured'),
  };
  const store = layeredStore([stores.bundled, stores.captured, stores.user]);

  const get = async (ref: TemplateRef): Promise<TemplateEntry> =>
    findTemplate(await stores[ref.source].list(), ref.name);

  const save = async (
    folder: string,
    template: Template,
    origin: TemplateSource,
  ): Promise<TemplateSummary> => {
    await writeFileAtomic(
      join(folder, `${template.name}.json`),
      `${JSON.stringify(template, null, 2)}\n`,
      0o644,
    );
    return summarize({ template, origin });
  };

  return {
    store,
    get,
    async list(recent) {
      const listings = await Promise.all(
        TEMPLATE_ORIGINS.map(async (source) => ({
          source,
          listing: await stores[source].list(),
        })),
      );
      const templates = listings.flatMap(({ listing }) => listing.templates.map((e) => summarize(e, recent)));
      const broken = listings.flatMap(({ source, listing }) =>
        listing.broken.map((b) => ({
          file: b.file,
          source,
          problems: b.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)),
        })),
      );
      const rank = (t: TemplateSummary) => {
        const i = recent.findIndex((r) => sameRef(r, t.ref));
        return i < 0 ? Number.MAX_SAFE_INTEGER : i;
      };
      const last = (t: TemplateSummary) => (t.purpose === 'test' ? 1 : 0);
      templates.sort((a, b) => last(a) - last(b) || rank(a) - rank(b) || a.title.localeCompare(b.title));
      return { templates, broken };
    },
    async detail(ref) {
      const entry = await get(ref);
      return { ref, template: entry.template, elementFields: elementFields(entry.template) };
    },
    async importFile(fileName, text) {
      // Throws TemplateValidationError naming the file, every path and problem (shown to the user as is).
      const value = parseJsonText(text, fileName);
      if (!looksLikeMarkup(value)) return save(folders.user, parseTemplate(value, fileName), 'user');
      // Markup JSON (fetch-markups output): a template with fixed values, one per distinct copy.
      const [first, ...others] = templatesFromMarkup(value, fileName);
      for (const template of others) await save(folders.user, template, 'user');
      return save(folders.user, first as Template, 'user');
    },
    saveCaptured: (template) => save(folders.captured, template, 'captured'),
  };
}
