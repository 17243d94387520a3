/**
 * Which engine renders, and how the hosted API (or the site server) is doing. Settings say `hosted`, `local`
 * or `site`; with `hosted` and a complete configuration (URL, key, secret) labels come from the hosted API, and
 * from the bundled engine when it is unreachable (OfflineFallbackBackend: only for templates that exist
 * locally). The user's own template files always render locally: the hosted service does not know them.
 *
 * `site` (issue #24): the site server (`labeldesk serve --database`) speaks the hosted API's seven routes, so it
 * is a HostedApiBackend at the site's URL with the site key; it numbers counters for the whole site and records
 * every request in the site's history. When it is unreachable only the bundled templates without counter fields
 * print locally (./site.ts): a counter printed with this computer's numbers could repeat another workstation's
 * serial, so such a label is refused instead, and so is any local numbering while the site is the backend.
 *
 * The status shown in the top bar follows every hosted (site) call: `online` after an answer, `offline` after a
 * fallback, and a sentence when the key or secret is refused.
 */
import { join } from 'node:path';
import { HostedApiBackend, type LabelBackend } from '../../src/backends/backend';
import { OfflineFallbackBackend } from '../../src/backends/fallback';
import { LocalEngineBackend } from '../../src/backends/local-backend';
import { ApiError, AuthError, UnreachableError } from '../../src/backends/errors';
import { UsageTally } from '../../src/backends/usage';
import { jsonFileUsageStorage } from '../../src/node/usage-store';
import type { RenderPorts } from '../../src/outputs/render';
import type { TemplateStore } from '../../src/model/store';
import type { Template } from '../../src/model/schema';
import { TemplateNotFound } from '../../src/model/errors';
import { SiteClient, siteWorded } from '../../src/backends/site-client';
import type {
  ConnectionStatus,
  ConnectionTestResult,
  HostedTyped,
  SiteTyped,
  SettingsView,
  TemplateSource,
} from '../../src/ipc/contract';
import { toIpcErrorBody } from './ipc-error-body';
import type { SecretStore } from './secret-store';
import { localCountersRefusal, siteFallbackStore, testSite, type LocalNumbering } from './site';

export interface ConnectionOptions {
  dataDir: string;
  store: TemplateStore;
  /** The templates bundled with the app: what prints when the site server is unreachable (without counters). */
  bundled: TemplateStore;
  ports: () => RenderPorts;
  settings: () => Promise<SettingsView>;
  secret: SecretStore;
  siteSecret: SecretStore;
  fetch?: typeof fetch;
  onChange?: (status: ConnectionStatus) => void;
  warn?: (message: string) => void;
}

export interface Connection {
  /** The backend for a template from `source`, and whether it is the hosted API. */
  backendFor(source: TemplateSource): Promise<LabelBackend>;
  /** The hosted API alone (no fallback), when configured and selected: capture needs the real answer. */
  hostedOnly(): Promise<HostedApiBackend | undefined>;
  /** Runs a hosted (or site) call and updates the status from its outcome (errors still thrown). */
  track<T>(call: () => Promise<T>): Promise<T>;
  /**
   * In site mode with URL, key id and secret: runs `call` with the client of the site's own routes (templates,
   * history), the status following its outcome. Undefined when the site server is not the backend.
   */
  withSite<T>(call: (client: SiteClient) => Promise<T>): Promise<{ value: T } | undefined>;
  /** Whether the site server is the backend (site mode), set up or not. */
  siteMode(): Promise<boolean>;
  /**
   * Throws (a sentence saying why) when this computer would number `template`'s counters while the site server
   * is the backend: those numbers are the site's to hand out. Does nothing outside site mode.
   */
  refuseLocalCounters(template: Template, how: LocalNumbering): Promise<void>;
  status(): Promise<ConnectionStatus>;
  /**
   * Tests the hosted API (default) or the site server as Settings has them; the hosted API with `typed`: the
   * URL, key and secret as typed in the form, not saved (an absent secret: the one kept).
   */
  test(target?: 'hosted' | 'site', typed?: HostedTyped, siteTyped?: SiteTyped): Promise<ConnectionTestResult>;
  close(): Promise<void>;
}

interface HostedSetup {
  key: string;
  kind: 'hosted' | 'site';
  hosted: HostedApiBackend;
  backend: OfflineFallbackBackend;
  site?: SiteClient;
}

interface SiteConfig {
  url: string;
  key: string;
  secret: string;
}

/** "a", "a and b", "a, b and c". */
const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

export async function createConnection(options: ConnectionOptions): Promise<Connection> {
  const warn = options.warn ?? (() => undefined);
  const tally = await UsageTally.open(jsonFileUsageStorage(join(options.dataDir, 'hosted-usage.json')), warn);
  const local = new LocalEngineBackend({ store: options.store, ports: options.ports });
  let hostedState: ConnectionStatus['hosted'] = 'unknown';
  let message: string | null = null;
  let cached: HostedSetup | undefined;
  const fetcher = options.fetch ?? globalThis.fetch;

  /** The site server as Settings have it, whatever the mode, when URL, key id and secret are all there. */
  const siteConfig = async (s: SettingsView): Promise<SiteConfig | undefined> => {
    if (!s.siteUrl || !s.siteKey) return undefined;
    const secret = await options.siteSecret.get();
    return secret ? { url: s.siteUrl, key: s.siteKey, secret } : undefined;
  };
  const siteClient = (c: SiteConfig) =>
    new SiteClient({ baseUrl: c.url, apiKey: c.key, apiSecret: c.secret, fetch: fetcher, timeoutMs: 8000 });

  const siteSetup = async (s: SettingsView): Promise<HostedSetup | undefined> => {
    const config = await siteConfig(s);
    if (!config) return undefined;
    const key = JSON.stringify(['site', config.url, config.key, config.secret]);
    if (cached?.key === key) return cached;
    const hosted = new HostedApiBackend({
      baseUrl: config.url,
      apiKey: config.key,
      apiSecret: config.secret,
      fetch: fetcher,
      // The site's prints are the site's to count (its usage and history): no hosted tally.
      timeoutMs: 8000,
    });
    const bundledOnly = siteFallbackStore(options.bundled);
    const backend = new OfflineFallbackBackend({
      hosted,
      local: new LocalEngineBackend({ store: bundledOnly, ports: options.ports }),
      store: bundledOnly,
      onFallback: (event) => {
        hostedState = 'offline';
        message = `The site server is unreachable: printing the bundled "${event.templateName}" with the bundled engine (${siteWorded(event.reason).message}).`;
      },
    });
    if (cached) {
      hostedState = 'unknown';
      message = null;
    }
    cached = { key, kind: 'site', hosted, backend, site: siteClient(config) };
    return cached;
  };

  const setup = async (): Promise<HostedSetup | undefined> => {
    const s = await options.settings();
    if (s.mode === 'site') return siteSetup(s);
    if (s.mode !== 'hosted' || !s.apiBaseUrl || !s.apiKey) return undefined;
    const secret = await options.secret.get();
    if (!secret) return undefined;
    const key = JSON.stringify([s.apiBaseUrl, s.apiKey, secret]);
    if (cached?.key === key) return cached;
    const hosted = new HostedApiBackend({
      baseUrl: s.apiBaseUrl,
      apiKey: s.apiKey,
      apiSecret: secret,
      fetch: fetcher,
      tally,
      // An interactive app waits seconds, not the batch default of half a minute, before falling back.
      timeoutMs: 8000,
    });
    const backend = new OfflineFallbackBackend({
      hosted,
      local,
      store: options.store,
      onFallback: (event) => {
        hostedState = 'offline';
        message = `The hosted API is unreachable: printing with the bundled engine (${event.reason.message}).`;
      },
    });
    if (cached) {
      hostedState = 'unknown';
      message = null;
    }
    cached = { key, kind: 'hosted', hosted, backend };
    return cached;
  };

  const status = async (): Promise<ConnectionStatus> => {
    const s = await options.settings();
    const current = await setup();
    if (s.mode === 'site') {
      if (!current)
        return {
          backend: 'site',
          hosted: 'unconfigured',
          message:
            'The site server is not set up (URL, key id and secret in Settings): only bundled templates without counter fields print, with the bundled engine.',
          printsUsed: null,
        };
      return { backend: 'site', hosted: hostedState, message, printsUsed: null };
    }
    if (!current) {
      const unconfigured = s.mode === 'hosted';
      return {
        backend: 'local',
        hosted: unconfigured ? 'unconfigured' : 'unknown',
        message: unconfigured
          ? 'The hosted API is not set up (URL, key and secret in Settings): the bundled engine prints.'
          : null,
        printsUsed: null,
      };
    }
    const used = tally.usage(s.apiKey ?? '').total;
    return {
      backend: 'hosted',
      hosted: hostedState,
      message,
      printsUsed: { labels: used.labels, requests: used.requests },
    };
  };

  /**
   * Tells the top bar; never rejects (it runs in the background after each call). Only the newest one asked is
   * told: two in flight can finish out of order, and a status read before a settings change must not arrive after
   * the one read after it (the top bar would show the old backend until the next call).
   */
  let notifying = 0;
  const notify = async (): Promise<void> => {
    const mine = ++notifying;
    try {
      const now = await status();
      if (mine === notifying) options.onChange?.(now);
    } catch {
      // The next call tells it again; a status that cannot be read now must not fail a print.
    }
  };

  // Every hosted call may change what the top bar shows (state, message, prints used): tell it after each.
  const track = async <T>(call: () => Promise<T>): Promise<T> => {
    const site = cached?.kind === 'site';
    try {
      const result = await call();
      if (cached && cached.backend.lastSource === 'hosted') {
        hostedState = 'online';
        message = null;
      }
      return result;
    } catch (e) {
      if (site) siteWorded(e);
      if (e instanceof UnreachableError) {
        hostedState = 'offline';
        message = toIpcErrorBody(e).message;
      } else if (e instanceof AuthError) {
        hostedState = 'refused';
        message = toIpcErrorBody(e).message;
      }
      throw e;
    } finally {
      void notify();
    }
  };

  return {
    async backendFor(source) {
      if (source === 'user') return local;
      return (await setup())?.backend ?? local;
    },
    hostedOnly: async () => {
      const current = await setup();
      return current?.kind === 'hosted' ? current.hosted : undefined;
    },
    track,
    async withSite(call) {
      const current = await setup();
      const client = current?.site;
      if (!client) return undefined;
      const value = await track(async () => {
        const answer = await call(client);
        hostedState = 'online';
        message = null;
        return answer;
      });
      return { value };
    },
    siteMode: async () => (await options.settings()).mode === 'site',
    async refuseLocalCounters(template, how) {
      const s = await options.settings();
      if (s.mode !== 'site') return;
      const refusal = localCountersRefusal(template, how, (await setup()) !== undefined);
      if (refusal) throw refusal;
    },
    status,
    async test(target = 'hosted', typed, siteTyped) {
      if (target === 'site') {
        const s = await options.settings();
        // What the card holds (typed, not saved), else what Settings have.
        const url = siteTyped ? siteTyped.siteUrl : s.siteUrl;
        const key = siteTyped ? siteTyped.siteKey : s.siteKey;
        const secret = siteTyped?.siteSecret || (await options.siteSecret.get());
        const missing = [
          url ? null : 'the site URL',
          key ? null : 'the key id',
          secret ? null : 'the secret',
        ].filter((m): m is string => m !== null);
        if (!url || !key || !secret) {
          return { ok: false, message: `Enter ${listed(missing)} first.`, status: await status() };
        }
        const config = { url, key, secret };
        const result = await testSite(siteClient(config));
        // The site the app prints with, when that is what is tested: its status follows the answer.
        const saved = await siteConfig(s);
        const inUse =
          s.mode === 'site' && cached?.kind === 'site' && JSON.stringify(saved) === JSON.stringify(config);
        if (inUse) {
          hostedState = result.state;
          message = result.ok ? null : result.message;
          void notify();
        }
        const text =
          result.ok && siteTyped && !inUse ? `${result.message} Save to use these settings.` : result.message;
        return { ok: result.ok, message: text, status: await status() };
      }
      const s = await options.settings();
      // What the form holds (typed, not saved), else what Settings have.
      const url = typed ? typed.apiBaseUrl : s.apiBaseUrl;
      const key = typed ? typed.apiKey : s.apiKey;
      const secret = typed?.apiSecret || (await options.secret.get());
      const missing = [
        url ? null : 'the API base URL',
        key ? null : 'the API key',
        secret ? null : 'the API secret',
      ].filter((m): m is string => m !== null);
      if (!url || !key || !secret) {
        return { ok: false, message: `Enter ${listed(missing)} first.`, status: await status() };
      }
      // The hosted API the app prints with, when that is what is tested: its status follows the answer.
      const current = await setup();
      const inUse =
        current?.kind === 'hosted' && current.key === JSON.stringify([url, key, secret])
          ? current
          : undefined;
      const hosted =
        inUse?.hosted ??
        new HostedApiBackend({
          baseUrl: url,
          apiKey: key,
          apiSecret: secret,
          fetch: fetcher,
          timeoutMs: 8000,
        });
      // A name no account has: the answer proves host and credentials (401 comes before 404) without
      // rendering anything, so the test costs no print from the allowance.
      const probe = `labeldesk-connection-test-${Date.now().toString(36)}`;
      const ask = () => hosted.fetchMarkups({ label_name: probe, amount: 1, apiData: {} });
      let ok = false;
      let text: string;
      try {
        await (inUse ? track(ask) : ask());
        ok = true;
        text = 'Connected to the hosted API.';
      } catch (e) {
        if (e instanceof TemplateNotFound) {
          ok = true;
          text = 'Connected: the hosted API accepted the key and secret.';
          if (inUse) {
            hostedState = 'online';
            message = null;
            void notify();
          }
        } else if (e instanceof ApiError) {
          text = toIpcErrorBody(e).message;
        } else throw e;
      }
      if (ok && typed && !inUse) text += ' Save to use these settings.';
      return { ok, message: text, status: await status() };
    },
    close: () => tally.flush(),
  };
}
