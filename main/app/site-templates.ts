/**
 * The site server's templates in the app (issue #24): listed from GET /site/templates, each one's JSON from GET
 * /site/templates/{name}, parsed once per revision. Every print and every opening of a template asks the site
 * for it as it is now (spec §1 rule 2; the site renders it anyway); the live preview and the printer view use the
 * copy fetched last, so typing costs no request (the site's rate limit counts every call of the key).
 *
 * A template the site lists as bundled is summarised from the app's own bundled copy (no request) until it is
 * opened; the site's own and those of its --templates folder are fetched once and again when their revision
 * changes (folder templates have none: fetched again when opened). While the site does not answer, a template
 * the app also bundles is its bundled copy (the offline fallback prints it only without counter fields).
 */
import { IpcError } from '../../src/ipc/errors';
import type { BrokenTemplateView } from '../../src/ipc/contract';
import { TemplateNotFound, TemplateValidationError } from '../../src/model/errors';
import { parseTemplate } from '../../src/model/parse';
import type { Template } from '../../src/model/schema';
import type { TemplateStore } from '../../src/model/store';
import type { SiteClient } from '../../src/backends/site-client';
import { UnreachableError } from '../../src/backends/errors';

export interface SiteTemplateSource {
  /**
   * The site's templates, or undefined when the site server is not the backend (or not set up). Throws the
   * backends' errors when the site cannot be asked.
   */
  list(): Promise<{ templates: Template[]; broken: BrokenTemplateView[] } | undefined>;
  /** One site template as it is now; `cached`: the copy fetched last, when there is one (previews). */
  get(name: string, cached?: boolean): Promise<Template>;
}

interface Cached {
  revision: number | null;
  template: Template;
  /** Summarised from the app's bundled copy: fetched from the site when it is opened. */
  local: boolean;
}

export function siteTemplates(deps: {
  /** Connection.withSite, resolved when called (the connection is made after the templates). */
  withSite: <T>(call: (client: SiteClient) => Promise<T>) => Promise<{ value: T } | undefined>;
  bundled: TemplateStore;
}): SiteTemplateSource {
  const cache = new Map<string, Cached>();

  const fetchOne = async (name: string): Promise<Template> => {
    const answer = await deps.withSite((client) => client.template(name));
    if (!answer)
      throw new IpcError(
        'not-found',
        `"${name}" is a template of the site server, which is not the backend now: choose it in Settings to print it.`,
        null,
        'settings',
      );
    const { revision, template: body } = answer.value;
    const template = parseTemplate(body, `the site's ${name}`);
    cache.set(name, { revision, template, local: false });
    return template;
  };

  return {
    async list() {
      const answer = await deps.withSite((client) => client.templates());
      if (!answer) return undefined;
      const infos = answer.value.templates;
      const broken: BrokenTemplateView[] = [];
      await Promise.all(
        infos.map(async (info) => {
          const have = cache.get(info.name);
          if (have && have.revision === info.revision) return;
          if (info.origin === 'bundled' && !have) {
            try {
              const { template } = await deps.bundled.get(info.name);
              cache.set(info.name, { revision: null, template, local: true });
              return;
            } catch (e) {
              if (!(e instanceof TemplateNotFound)) throw e;
            }
          }
          try {
            await fetchOne(info.name);
          } catch (e) {
            if (!(e instanceof TemplateValidationError)) throw e;
            cache.delete(info.name);
            broken.push({
              file: info.name,
              source: 'site',
              problems: e.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)),
            });
          }
        }),
      );
      const templates = infos.flatMap((info) => {
        const entry = cache.get(info.name);
        return entry ? [entry.template] : [];
      });
      return { templates, broken };
    },
    async get(name, cached = false) {
      const have = cache.get(name);
      if (cached && have && !have.local) return have.template;
      try {
        return await fetchOne(name);
      } catch (e) {
        // The site does not answer: the app's bundled copy, if it has one, for the offline fallback to decide
        // on (it prints only those without counter fields: ./site.ts).
        if (!(e instanceof UnreachableError)) throw e;
        try {
          return (await deps.bundled.get(name)).template;
        } catch (notBundled) {
          if (notBundled instanceof TemplateNotFound) throw e;
          throw notBundled;
        }
      }
    },
  };
}
