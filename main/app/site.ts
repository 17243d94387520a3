/**
 * The app with a site server as its backend (issue #24, Settings → Site server): what may print when the site
 * cannot be reached, the refusal of any counter this computer would number, and "Test connection".
 *
 * The rule: while the site server is the backend, every counter number comes from the site (route 01 reserves
 * them in its database for the whole site). A label with counter fields is never numbered here — not when the
 * site is unreachable, not in a batch (numbered by the local job queue), not for a user template — because two
 * workstations would then print the same serial (for an SSCC, a compliance failure). Only the bundled templates
 * without counter fields print with the bundled engine while the site is unreachable.
 */
import type { ConnectionStatus } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import type { Template } from '../../src/model/schema';
import type { TemplateStore } from '../../src/model/store';
import { counterFields } from '../../src/resolve/counters';
import { ApiError, AuthError, UnreachableError } from '../../src/backends/errors';
import { NotSiteServerError, type SiteClient } from '../../src/backends/site-client';

/** How a label would be numbered on this computer: a print or file of the Print screen, or a CSV batch. */
export type LocalNumbering = 'print' | 'batch';

/** A counter template asked for while the site server does not answer: refused, never numbered here. */
export class SiteCountersOffline extends UnreachableError {
  constructor(templateName: string) {
    super('network', 'counter template');
    this.message = `The site server cannot be reached, and "${templateName}" has counter fields: their numbers come only from the site, so it is not printed with numbers of this computer (another workstation could print the same serial). Print it when the site server answers again.`;
    this.name = 'SiteCountersOffline';
  }
}

const hasCounters = (template: Template) => counterFields(template).length > 0;

/**
 * What prints while the site server is unreachable: the bundled templates without counter fields. A bundled one
 * with counters is refused with SiteCountersOffline; any other name is not found (the fallback then reports the
 * site unreachable).
 */
export function siteFallbackStore(bundled: TemplateStore): TemplateStore {
  return {
    async list() {
      const listing = await bundled.list();
      return { ...listing, templates: listing.templates.filter((e) => !hasCounters(e.template)) };
    },
    async get(name) {
      const entry = await bundled.get(name);
      if (hasCounters(entry.template)) throw new SiteCountersOffline(name);
      return entry;
    },
  };
}

/**
 * Why `template` may not be numbered on this computer in site mode (undefined when it has no counter fields).
 * `configured`: the site server is set up (URL, key id, secret).
 */
export function localCountersRefusal(
  template: Template,
  how: LocalNumbering,
  configured: boolean,
): IpcError | undefined {
  if (!hasCounters(template)) return undefined;
  const name = template.name;
  if (!configured)
    return new IpcError(
      'invalid',
      `"${name}" has counter fields, and the site server is chosen but not set up (URL, key id and secret in Settings): only the site hands out counter numbers, so it is not printed with numbers of this computer.`,
      null,
      'settings',
    );
  if (how === 'batch')
    return new IpcError(
      'invalid',
      `"${name}" has counter fields: with the site server as the backend their numbers come from the site, and a batch would number them on this computer (another workstation could print the same serials). Print these labels from the Print screen.`,
    );
  return new IpcError(
    'invalid',
    `"${name}" has counter fields, and only the site server hands out counter numbers: a template of this computer would print numbers of its own (another workstation could print the same serial). Save it on the site server to print it, or choose another backend in Settings.`,
    null,
    'settings',
  );
}

export interface SiteTestResult {
  ok: boolean;
  message: string;
  state: ConnectionStatus['hosted'];
}

/** One sentence per way a site server can fail a test (the message of the error is not shown alone). */
function explain(client: SiteClient, e: ApiError): SiteTestResult {
  const at = client.baseUrl;
  if (e instanceof AuthError)
    return {
      ok: false,
      state: 'refused',
      message: `The site server at ${at} refused the key id or secret (401): check both (a key is made with labeldesk keys create --database …).`,
    };
  if (e instanceof NotSiteServerError || e.kind === 'wrong-host')
    return {
      ok: false,
      state: 'offline',
      message: `The server at ${at} answers, but it is not a site server (it has no /site/ routes): the site URL must be a labeldesk serve --database postgres://… server.`,
    };
  if (e instanceof UnreachableError && e.status === 503)
    return {
      ok: false,
      state: 'offline',
      message: `The site server at ${at} answers, but its database is unavailable (503): try again in a moment, or ask whoever runs it to check PostgreSQL.`,
    };
  if (e instanceof UnreachableError)
    return {
      ok: false,
      state: 'offline',
      message: `The site server at ${at} cannot be reached (${e.message.replace(/^the site server is unreachable: /, '')}): check the URL and that it runs.`,
    };
  return {
    ok: false,
    state: 'offline',
    message: `The site server at ${at} did not answer as expected: ${e.message}.`,
  };
}

/** "Test connection": GET /ready, then one call with the key (GET /site/templates). Never throws for an answer. */
export async function testSite(client: SiteClient): Promise<SiteTestResult> {
  let instance: string | null;
  let count: number;
  try {
    ({ instance } = await client.ready());
    count = (await client.templates()).templates.length;
  } catch (e) {
    if (e instanceof ApiError) return explain(client, e);
    throw e;
  }
  return {
    ok: true,
    state: 'online',
    message: `Connected to the site server${instance ? ` (instance ${instance})` : ''}: the key is accepted, ${count} template${count === 1 ? '' : 's'} on the site.`,
  };
}
