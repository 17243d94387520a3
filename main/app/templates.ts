/**
 * The app's templates: bundled with the app, the user's folder (`<data dir>/templates`, where imported files
 * go) and captured from the hosted API (`<data dir>/captured`, the same folder `labeldesk capture` and the
 * CLI's offline fallback use). Every lookup re-reads the folders, so a file edited outside the app applies to
 * the next preview. With the site server as the backend (issue #24) the list is the site's templates
 * (./site-templates.ts) and the user's own; when the site cannot be asked, the local ones as without it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serialQueue } from '../../src/base/serial-queue';
import { FileWriteError, writeFileAtomic } from '../../src/node/files/atomic-file';
import { bundledTemplatesDir } from '../../src/node/assets';
import { folderStore, layeredStore } from '../../src/node/template-store';
import { looksLikeMarkup, templatesFromMarkup } from '../../src/model/from-markup';
import { TemplateNotFound, TemplateValidationError, type Problem } from '../../src/model/errors';
import { parseJsonText, parseTemplate, parseTemplateText } from '../../src/model/parse';
import { templateFileNameProblem } from '../../src/model/template-name';
import { IpcError } from '../../src/ipc/errors';
import { ApiError } from '../../src/backends/errors';
import { templateRevisions } from './template-revisions';
import type { SiteTemplateSource } from './site-templates';
import type { Template } from '../../src/model/schema';
import { elementFields } from '../../src/ipc/preview-label';
import {
  findTemplate,
  TEMPLATE_ORIGINS,
  type TemplateEntry,
  type TemplateOrigin,
  type TemplateStore,
} from '../../src/model/store';
import type {
  BrokenTemplateView,
  ExportedFile,
  TemplateDetail,
  TemplateProblemView,
  TemplateRef,
  TemplateRevisionView,
  TemplateSaveResult,
  TemplateSource,
  TemplateSummary,
} from '../../src/ipc/contract';

export interface AppTemplates {
  /** All three sources, later ones overriding earlier by name (what the local engine and fallback use). */
  readonly store: TemplateStore;
  /** The templates bundled with the app alone. */
  readonly bundled: TemplateStore;
  list(
    recent: readonly TemplateRef[],
  ): Promise<{ templates: TemplateSummary[]; broken: BrokenTemplateView[] }>;
  /** `cached`: a site template as fetched last, when there is one (previews: no request per keystroke). */
  get(ref: TemplateRef, cached?: boolean): Promise<Pick<TemplateEntry, 'template' | 'file'>>;
  detail(ref: TemplateRef): Promise<TemplateDetail>;
  /** Checks a template file's text and saves it in the user's folder under its name. */
  importFile(fileName: string, text: string): Promise<TemplateSummary>;
  /** Saves a captured template (replacing an older capture of the same name). */
  saveCaptured(template: Template): Promise<TemplateSummary>;
  /**
   * The designer's save into the user's folder (src/ipc/contract.ts, `templates.save`): checked, written
   * atomically, the version it replaces kept as a revision.
   */
  save(value: unknown, overwrite: boolean): Promise<TemplateSaveResult>;
  revisions(name: string): Promise<TemplateRevisionView[]>;
  restoreRevision(name: string, revision: string): Promise<TemplateSummary>;
  /** Copies a template into the user's folder under a new name; the original is only read. */
  duplicate(ref: TemplateRef, name: string): Promise<TemplateSummary>;
  exportFile(ref: TemplateRef): Promise<ExportedFile>;
}

/** `elements[3].text` → the element and field indices a problem is about, for the designer to show it there. */
export function problemView(p: Problem): TemplateProblemView {
  const element = /^elements\[(\d+)\]/.exec(p.path);
  const field = /^fields\[(\d+)\]/.exec(p.path);
  return {
    path: p.path,
    element: element ? Number(element[1]) : null,
    field: field ? Number(field[1]) : null,
    message: p.message,
  };
}

/** A name a file can have, else a TemplateValidationError at `name` (the sentence of template-name.ts). */
function checkFileName(name: string, source?: string): void {
  const problem = templateFileNameProblem(name);
  if (problem) throw new TemplateValidationError([{ path: 'name', message: problem }], source);
}

/**
 * Runs a write of the template `name`; a file system that refuses it (full, read-only, no permission) is a
 * sentence the user can act on, not LabelDesk's own failure (which `internal` would say, and log as a bug).
 */
async function writing<T>(name: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (e) {
    if (e instanceof FileWriteError) throw new IpcError('invalid', `"${name}" was not saved: ${e.message}.`);
    throw e;
  }
}

const templateText = (template: Template): string => `${JSON.stringify(template, null, 2)}\n`;

async function readIfThere(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export function templateFolders(dataDir: string) {
  return { user: join(dataDir, 'templates'), captured: join(dataDir, 'captured') };
}

const sameRef = (a: TemplateRef, b: TemplateRef) => a.source === b.source && a.name === b.name;

export function summarize(
  entry: TemplateEntry,
  recent: readonly TemplateRef[] = [],
  source: TemplateSource = entry.origin,
): TemplateSummary {
  const { template } = entry;
  const ref = { source, name: template.name };
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

export function appTemplates(dataDir: string, site?: SiteTemplateSource): AppTemplates {
  const folders = templateFolders(dataDir);
  const stores: Record<TemplateOrigin, TemplateStore> = {
    bundled: folderStore(bundledTemplatesDir(), 'bundled', { fixed: true }),
    user: folderStore(folders.user, 'user'),
    captured: folderStore(folders.captured, 'captured'),
  };
  const store = layeredStore([stores.bundled, stores.captured, stores.user]);

  const get = async (ref: TemplateRef, cached = false): Promise<Pick<TemplateEntry, 'template' | 'file'>> => {
    if (ref.source !== 'site') return findTemplate(await stores[ref.source].list(), ref.name);
    if (!site) throw new TemplateNotFound(ref.name);
    return { template: await site.get(ref.name, cached) };
  };

  /** The site's templates when it is the backend and answers; undefined otherwise (then the local ones list). */
  const siteListing = async () => {
    try {
      return await site?.list();
    } catch (e) {
      // Unreachable, refused, not a site server: the top bar says so; the local templates are listed meanwhile.
      if (e instanceof ApiError) return undefined;
      throw e;
    }
  };

  const save = async (
    folder: string,
    template: Template,
    origin: TemplateOrigin,
  ): Promise<TemplateSummary> => {
    await writeFileAtomic(join(folder, `${template.name}.json`), templateText(template), 0o644);
    return summarize({ template, origin });
  };

  const revisions = templateRevisions(folders.user);
  /** Writes to the user's folder one at a time: a save's check of what exists holds until it has written. */
  const writes = serialQueue();
  const userFile = (name: string) => join(folders.user, `${name}.json`);

  /** Which read-only source (bundled, captured) has a template of this name, if one has. */
  const readOnlyOwner = async (name: string): Promise<TemplateSource | null> => {
    for (const source of ['bundled', 'captured'] as const) {
      const { templates } = await stores[source].list();
      if (templates.some((e) => e.template.name === name)) return source;
    }
    return null;
  };

  /** Writes a checked template over the user's file of its name, keeping the version it replaces. */
  const replaceUserFile = (template: Template): Promise<TemplateSummary> =>
    writing(template.name, () => replaceUserFileNow(template));
  const replaceUserFileNow = async (template: Template): Promise<TemplateSummary> => {
    const file = userFile(template.name);
    const text = templateText(template);
    const before = await readIfThere(file);
    if (before === text) return summarize({ template, origin: 'user', file });
    const kept = before === null ? null : await revisions.keep(template.name, file, before);
    try {
      await writeFileAtomic(file, text, 0o644);
    } catch (e) {
      // The file is as it was: a revision of it would only repeat it.
      if (kept) await revisions.remove(template.name, kept).catch(() => undefined);
      throw e;
    }
    await revisions.trim(template.name);
    return summarize({ template, origin: 'user', file });
  };

  return {
    store,
    bundled: stores.bundled,
    get,
    async list(recent) {
      const fromSite = await siteListing();
      // With the site: its templates and the user's own (bundled ones come through the site, captured ones are
      // the hosted API's).
      const origins: readonly TemplateOrigin[] = fromSite ? ['user'] : TEMPLATE_ORIGINS;
      const listings = await Promise.all(
        origins.map(async (source) => ({
          source,
          listing: await stores[source].list(),
        })),
      );
      const templates = [
        ...(fromSite?.templates ?? []).map((template) =>
          summarize({ template, origin: 'bundled' }, recent, 'site'),
        ),
        ...listings.flatMap(({ listing }) => listing.templates.map((e) => summarize(e, recent))),
      ];
      const broken = [
        ...(fromSite?.broken ?? []),
        ...listings.flatMap(({ source, listing }) =>
          listing.broken.map((b) => ({
            file: b.file,
            source,
            problems: b.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)),
          })),
        ),
      ];
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
      // Markup JSON (fetch-markups output): a template with fixed values, one per distinct copy.
      const templates = looksLikeMarkup(value)
        ? templatesFromMarkup(value, fileName)
        : [parseTemplate(value, fileName)];
      for (const template of templates) checkFileName(template.name, fileName);
      const [first, ...others] = templates;
      // A user template of the same name is replaced as a save replaces it: its version is kept as a revision
      // (restorable from the designer), never lost to an import.
      return writes.run(async () => {
        for (const template of others) await replaceUserFile(template);
        return replaceUserFile(first as Template);
      });
    },
    saveCaptured: (template) => save(folders.captured, template, 'captured'),

    save: (value, overwrite) =>
      writes.run(async () => {
        let template: Template;
        try {
          template = parseTemplate(value);
        } catch (e) {
          if (!(e instanceof TemplateValidationError)) throw e;
          return { saved: null, problems: e.problems.map(problemView) };
        }
        const nameProblem = templateFileNameProblem(template.name);
        if (nameProblem)
          return { saved: null, problems: [problemView({ path: 'name', message: nameProblem })] };
        const exists = (await readIfThere(userFile(template.name))) !== null;
        if (exists && !overwrite) {
          throw new IpcError('conflict', `Your templates already have one named "${template.name}".`, 'name');
        }
        // A user template that already shares its name with a bundled one (imported) may be saved again.
        const owner = exists ? null : await readOnlyOwner(template.name);
        if (owner) {
          const message = `"${template.name}" is the name of a ${owner} template, which stays as it is: save under another name`;
          return { saved: null, problems: [problemView({ path: 'name', message })] };
        }
        return { saved: await replaceUserFile(template), problems: [] };
      }),
    async revisions(name) {
      checkFileName(name);
      return revisions.list(name);
    },
    restoreRevision: (name, revision) =>
      writes.run(async () => {
        checkFileName(name);
        const template = parseTemplateText(
          await revisions.read(name, revision),
          `${name} revision ${revision}`,
        );
        // A revision is the file's own earlier version: it keeps the file's name whatever it said then.
        return replaceUserFile({ ...template, name });
      }),
    duplicate: (ref, name) =>
      writes.run(async () => {
        checkFileName(name);
        const { template } = await get(ref);
        const owner =
          (await readOnlyOwner(name)) ?? ((await readIfThere(userFile(name))) !== null ? 'user' : null);
        if (owner)
          throw new IpcError('conflict', `There is already a ${owner} template named "${name}".`, 'name');
        const copy: Template = { ...template, name };
        if (template.title) copy.title = `${template.title} (copy)`.slice(0, 120);
        await writing(name, () => writeFileAtomic(userFile(name), templateText(copy), 0o644));
        return summarize({ template: copy, origin: 'user' });
      }),
    async exportFile(ref) {
      const entry = await get(ref);
      const text = entry.file ? await readFile(entry.file) : Buffer.from(templateText(entry.template));
      return {
        fileName: `${entry.template.name}.json`,
        mime: 'application/json',
        base64: text.toString('base64'),
      };
    },
  };
}
