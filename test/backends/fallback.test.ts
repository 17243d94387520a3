/**
 * Offline fallback: the hosted API unreachable + the template known locally → rendered locally and the user
 * told; unreachable + unknown template → UnreachableError; a hosted answer (401) is never overridden.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostedApiBackend } from '../../src/backends/backend';
import { AuthError, UnreachableError } from '../../src/backends/errors';
import { OfflineFallbackBackend, type FallbackEvent } from '../../src/backends/fallback';
import { LocalEngineBackend } from '../../src/backends/local-backend';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { defaultTemplateStore } from '../../src/node/template-store';
import { cli } from '../support/cli';
import { closedPortUrl, json, startServer, type TestServer } from './support/http-server';

const REQ = { label_name: 'shipping-4x6', amount: 1, apiData: { tracking: '1Z999AA10123456784' } };
let offline: string;
let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  offline = await closedPortUrl();
  server = await startServer((_q, res) => json(res, 401, { message: 'Unauthenticated.' }));
  dataDir = mkdtempSync(join(tmpdir(), 'ld-fallback-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function setup(baseUrl: string) {
  const store = defaultTemplateStore();
  const local = new LocalEngineBackend({ store, ports: () => nodeRenderPorts() });
  const hosted = new HostedApiBackend({
    baseUrl,
    apiKey: 'k',
    apiSecret: 'secret-xyz',
    fetch: globalThis.fetch,
  });
  const events: FallbackEvent[] = [];
  const backend = new OfflineFallbackBackend({ hosted, local, store, onFallback: (e) => events.push(e) });
  return { backend, local, events };
}

describe('OfflineFallbackBackend', () => {
  it('unreachable + a local template → the local engine renders it, and says so', async () => {
    const { backend, local, events } = setup(offline);
    const result = await backend.renderZpl(REQ);
    expect(result).toEqual(await local.renderZpl(REQ));
    expect(backend.lastSource).toBe('local');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ route: 'render-zpl', templateName: 'shipping-4x6', origin: 'bundled' });
    expect(events[0]?.reason).toBeInstanceOf(UnreachableError);
    expect(events[0]?.message).toBe(
      'the hosted API service is unreachable: the connection was refused; rendered "shipping-4x6" locally from the bundled template (it may differ from the hosted one)',
    );
  });

  it('unreachable + a template unknown locally → UnreachableError', async () => {
    const { backend, events } = setup(offline);
    await expect(backend.renderZpl({ ...REQ, label_name: 'only-on-the-service' })).rejects.toBeInstanceOf(
      UnreachableError,
    );
    expect(events).toHaveLength(0);
  });

  it('a hosted answer is final: 401 does not fall back', async () => {
    const { backend, events } = setup(server.url);
    await expect(backend.fetchMarkups(REQ)).rejects.toBeInstanceOf(AuthError);
    expect(events).toHaveLength(0);
  });

  it('print-relay never falls back (a relay printer id is not a local printer)', async () => {
    const { backend } = setup(offline);
    await expect(backend.printRelay({ ...REQ, printer_id: 1 })).rejects.toBeInstanceOf(UnreachableError);
  });
});

describe('labeldesk render/markup with the hosted API unreachable', () => {
  const hostedArgs = () => ['--api-url', offline, '--api-key', 'k', '--api-secret', 'secret-xyz'];
  const env = () => ({ LABELDESK_DATA_DIR: dataDir });

  it('renders locally, prints the same label, and tells stderr', async () => {
    const args = ['--template', 'shipping-4x6', '--format', 'zpl', '--data', JSON.stringify(REQ.apiData)];
    const local = await cli(['render', ...args]);
    const r = await cli(['render', ...args, ...hostedArgs()], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(local.stdout);
    expect(r.stderr).toBe(
      'labeldesk: the hosted API service is unreachable: the connection was refused; rendered "shipping-4x6" locally from the bundled template (it may differ from the hosted one)\n',
    );
  });

  it('markup falls back the same way', async () => {
    const r = await cli(['markup', '--template', 'shipping-4x6', '--compact', ...hostedArgs()], {
      env: env(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await cli(['markup', '--template', 'shipping-4x6', '--compact'])).stdout);
    expect(r.stderr).toMatch(/rendered "shipping-4x6" locally/);
  });

  it('an unknown template: one line, exit 1', async () => {
    const r = await cli(['render', '--template', 'nowhere', '--format', 'zpl', ...hostedArgs()], {
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('labeldesk: the hosted API service is unreachable: the connection was refused\n');
  });

  it('templates saved in <data dir>/captured are used too', async () => {
    mkdirSync(join(dataDir, 'captured'), { recursive: true });
    writeFileSync(
      join(dataDir, 'captured', 'hosted-only.json'),
      JSON.stringify({
        schemaVersion: 1,
        name: 'hosted-only',
        stage: { width: 1, height: 1, unit: 'in' },
        fields: [{ name: 'a', label: 'A', placeholder: '' }],
        elements: [{ type: 'text', text: '{a}' }],
      }),
    );
    const r = await cli(
      ['markup', '--template', 'hosted-only', '--data', '{"a":"captured!"}', ...hostedArgs()],
      { env: env() },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0].elements[0].text).toBe('captured!');
    expect(r.stderr).toMatch(/from the captured template/);
  });

  it('hosted options are checked', async () => {
    const noKey = await cli(['render', '--template', 'x', '--format', 'zpl', '--api-url', offline], {
      env: env(),
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toBe('labeldesk: the hosted API needs --api-key (or LABELDESK_API_KEY)\n');
    const noUrl = await cli(['render', '--template', 'x', '--format', 'zpl', '--api-key', 'k'], {
      env: env(),
    });
    expect(noUrl.stderr).toBe(
      'labeldesk: --api-key and --api-secret need --api-url (or LABELDESK_API_URL)\n',
    );
    const compression = await cli(
      ['render', '--template', 'x', '--format', 'zpl', '--compression', 'acs', ...hostedArgs()],
      { env: env() },
    );
    expect(compression.code).toBe(2);
  });
});
