/**
 * The hosted-API options shared by `render`, `markup` and `capture`: `--api-url --api-key --api-secret`, or
 * LABELDESK_API_URL, LABELDESK_API_KEY, LABELDESK_API_SECRET. With a URL the command uses the hosted API
 * (falling back to the local engine when it is unreachable and the template exists locally); without one,
 * the local engine. The data folder is the one `labeldesk serve` uses ($LABELDESK_DATA_DIR, else the per-user
 * folder): the hosted print tally is <data dir>/hosted-usage.json; templates saved in <data dir>/captured/
 * are available to the fallback.
 */
import { join } from 'node:path';
import { HostedApiBackend } from '../backends/backend';
import { OfflineFallbackBackend } from '../backends/fallback';
import { LocalEngineBackend } from '../backends/local-backend';
import { UsageTally } from '../backends/usage';
import { cliFonts } from './cli-fonts';
import { nodeRenderPorts } from '../node/render-ports';
import { defaultTemplateStore, folderStore, layeredStore } from '../node/template-store';
import { defaultDataDir } from '../node/files/data-dir';
import { jsonFileUsageStorage } from '../node/usage-store';
import { UsageError, type CliIo } from './io';
import { userDir } from './user-templates';

export const hostedApiOptions = {
  'api-url': { type: 'string' },
  'api-key': { type: 'string' },
  'api-secret': { type: 'string' },
} as const;

export const HOSTED_HELP = `
Hosted API (otherwise the bundled engine renders):
  --api-url URL           the API's base URL; default $LABELDESK_API_URL
  --api-key KEY           default $LABELDESK_API_KEY
  --api-secret SECRET     default $LABELDESK_API_SECRET (prefer the variable: arguments are visible to
                          other users of this computer)
  When the hosted API is unreachable and the template exists locally, it is rendered locally and a line on
  stderr says so.
`;

interface HostedValues {
  'api-url'?: string | undefined;
  'api-key'?: string | undefined;
  'api-secret'?: string | undefined;
  templates?: string | undefined;
}

export interface HostedSetup {
  /** The hosted API, falling back to the local engine when unreachable. */
  backend: OfflineFallbackBackend;
  /** The hosted API alone (capture: a local template is no answer). */
  hosted: HostedApiBackend;
  /** Saves the print tally; call before returning. */
  close(): Promise<void>;
}

/** The hosted setup when an API URL is given (flag or environment), else undefined (local engine). */
export async function hostedSetup(values: HostedValues, io: CliIo): Promise<HostedSetup | undefined> {
  const url = values['api-url'] ?? io.env.LABELDESK_API_URL;
  if (!url) {
    if (values['api-key'] !== undefined || values['api-secret'] !== undefined) {
      throw new UsageError('--api-key and --api-secret need --api-url (or LABELDESK_API_URL)');
    }
    return undefined;
  }
  const apiKey = values['api-key'] ?? io.env.LABELDESK_API_KEY;
  const apiSecret = values['api-secret'] ?? io.env.LABELDESK_API_SECRET;
  if (!apiKey) throw new UsageError('the hosted API needs --api-key (or LABELDESK_API_KEY)');
  if (!apiSecret) throw new UsageError('the hosted API needs --api-secret (or LABELDESK_API_SECRET)');
  if (!/^https?:\/\/[^/]/i.test(url))
    throw new UsageError(`--api-url: expected an http:// or https:// URL, got "${url}"`);

  const data = defaultDataDir(io.env);
  const warn = (message: string) => io.stderr(`labeldesk: warning: ${message}\n`);
  const tally = await UsageTally.open(jsonFileUsageStorage(join(data, 'hosted-usage.json')), warn);
  const hosted = new HostedApiBackend({ baseUrl: url, apiKey, apiSecret, fetch: globalThis.fetch, tally });
  const user = userDir(values, io);
  const store = layeredStore([defaultTemplateStore(user), folderStore(join(data, 'captured'), 'captured')]);
  const local = new LocalEngineBackend({
    store,
    ports: () => nodeRenderPorts({ baseDir: io.cwd }, cliFonts({}, io)),
  });
  const backend = new OfflineFallbackBackend({
    hosted,
    local,
    store,
    onFallback: (event) => io.stderr(`labeldesk: ${event.message}\n`),
  });
  return { backend, hosted, close: () => tally.flush() };
}

/** With the hosted API `--template` is always a hosted template name (there are no template files there). */
export function hostedTemplateName(spec: string | undefined): string {
  if (!spec) throw new UsageError('--template NAME is required');
  return spec;
}
