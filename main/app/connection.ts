/**
 * Which engine renders, and how the hosted API is doing. Settings say `hosted` or `local`; with `hosted` and
 * a complete configuration (URL, key, secret) labels come from the hosted API, and from the bundled engine
 * when it is unreachable (OfflineFallbackBackend: only for templates that exist locally). The user's own
 * template files always render locally: the hosted service does not know them.
 *
 * The status shown in the top bar follows every hosted call: `online` after an answer, `offline` after a
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
import { TemplateNotFound } from '../../src/model/errors';
import type {
  ConnectionStatus,
  ConnectionTestResult,
  SettingsView,
  TemplateSource,
} from '../../src/ipc/contract';
import { toIpcErrorBody } from './ipc-error-body';
import type { SecretStore } from './secret-store';

export interface ConnectionOptions {
  dataDir: string;
  store: TemplateStore;
  ports: () => RenderPorts;
  settings: () => Promise<SettingsView>;
  secret: SecretStore;
  fetch?: typeof fetch;
  onChange?: (status: ConnectionStatus) => void;
  warn?: (message: string) => void;
}

export interface Connection {
  /** The backend for a template from `source`, and whether it is the hosted API. */
  backendFor(source: TemplateSource): Promise<LabelBackend>;
  /** The hosted API alone (no fallback), when configured and selected: capture needs the real answer. */
  hostedOnly(): Promise<HostedApiBackend | undefined>;
  /** Runs a hosted call and updates the status from its outcome (errors still thrown). */
  track<T>(call: () => Promise<T>): Promise<T>;
  status(): Promise<ConnectionStatus>;
  test(): Promise<ConnectionTestResult>;
  close(): Promise<void>;
}

interface HostedSetup {
  key: string;
  hosted: HostedApiBackend;
  backend: OfflineFallbackBackend;
}

export async function createConnection(options: ConnectionOptions): Promise<Connection> {
  const warn = options.warn ?? (() => undefined);
  const tally = await UsageTally.open(jsonFileUsageStorage(join(options.dataDir, 'hosted-usage.json')), warn);
  const local = new LocalEngineBackend({ store: options.store, ports: options.ports });
  let hostedState: ConnectionStatus['hosted'] = 'unknown';
  let message: string | null = null;
  let cached: HostedSetup | undefined;

  const setup = async (): Promise<HostedSetup | undefined> => {
    const s = await options.settings();
    if (s.mode !== 'hosted' || !s.apiBaseUrl || !s.apiKey) return undefined;
    const secret = await options.secret.get();
    if (!secret) return undefined;
    const key = JSON.stringify([s.apiBaseUrl, s.apiKey, secret]);
    if (cached?.key === key) return cached;
    const hosted = new HostedApiBackend({
      baseUrl: s.apiBaseUrl,
      apiKey: s.apiKey,
      apiSecret: secret,
      fetch: options.fetch ?? globalThis.fetch,
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
    cached = { key, hosted, backend };
    return cached;
  };

  const status = async (): Promise<ConnectionStatus> => {
    const s = await options.settings();
    const current = await setup();
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

  /** Tells the top bar; never rejects (it runs in the background after each call). */
  const notify = async (): Promise<void> => {
    try {
      options.onChange?.(await status());
    } catch {
      // The next call tells it again; a status that cannot be read now must not fail a print.
    }
  };

  // Every hosted call may change what the top bar shows (state, message, prints used): tell it after each.
  const track = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      const result = await call();
      if (cached && cached.backend.lastSource === 'hosted') {
        hostedState = 'online';
        message = null;
      }
      return result;
    } catch (e) {
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
    hostedOnly: async () => (await setup())?.hosted,
    track,
    status,
    async test() {
      const current = await setup();
      if (!current) {
        return {
          ok: false,
          message: 'Enter the API base URL, key and secret first.',
          status: await status(),
        };
      }
      // A name no account has: the answer proves host and credentials (401 comes before 404) without
      // rendering anything, so the test costs no print from the allowance.
      const probe = `labeldesk-connection-test-${Date.now().toString(36)}`;
      let ok = false;
      let text: string;
      try {
        await track(() => current.hosted.fetchMarkups({ label_name: probe, amount: 1, apiData: {} }));
        ok = true;
        text = 'Connected to the hosted API.';
      } catch (e) {
        if (e instanceof TemplateNotFound) {
          ok = true;
          hostedState = 'online';
          message = null;
          text = 'Connected: the hosted API accepted the key and secret.';
          void notify();
        } else if (e instanceof ApiError) {
          text = toIpcErrorBody(e).message;
        } else throw e;
      }
      return { ok, message: text, status: await status() };
    },
    close: () => tally.flush(),
  };
}
