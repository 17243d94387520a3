/**
 * "Test connection" tests what is typed (#42 item 8), and a refused request names the field by its label with the
 * channel in the log only (#42 item 13): the app's services through `dispatch`, a real `labeldesk serve` as the
 * hosted API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { dispatch } from '../../../main/app/dispatch';
import { plainCipher } from '../../../main/app/secret-store';
import { createKey } from '../../../src/node/serve/key-store';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import { ipcCalls } from '../../support/ipc-calls';

let dir: string;
let hostedDir: string;
let services: AppServices;
let server: ApiServer;
let key: string;
let secret: string;
const { call, refused } = ipcCalls(() => services);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-conn-typed-'));
  hostedDir = mkdtempSync(join(tmpdir(), 'ld-conn-typed-hosted-'));
  ({ key, secret } = await createKey(join(hostedDir, 'keys.json')));
  server = await startServer({ dataDir: hostedDir, port: 0 });
  services = await createAppServices({ dataDir: dir, shell: 'web', version: 'test', cipher: plainCipher });
});

afterAll(async () => {
  await services.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(hostedDir, { recursive: true, force: true });
});

describe('connection.test with what is typed (#42 item 8)', () => {
  it('connects with the typed URL, key and secret whatever the mode, and saves none of them', async () => {
    const result = await call('connection.test', {
      typed: { apiBaseUrl: server.url, apiKey: key, apiSecret: secret },
    });
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(/^Connected: the hosted API accepted the key and secret\. Save to use/);
    const settings = await call('settings.get', {});
    expect(settings).toMatchObject({ apiBaseUrl: null, apiKey: null, hasSecret: false, mode: 'local' });
    expect(result.status.backend).toBe('local');
  });

  it('refuses a wrong typed secret in so many words, and names what is missing', async () => {
    const wrong = await call('connection.test', {
      typed: { apiBaseUrl: server.url, apiKey: key, apiSecret: 'not-it' },
    });
    expect(wrong.ok).toBe(false);
    expect(wrong.message).toMatch(/refused the credentials \(401\)/);
    const missing = await call('connection.test', { typed: { apiBaseUrl: server.url, apiKey: null } });
    expect(missing).toMatchObject({ ok: false, message: 'Enter the API key and the API secret first.' });
  });

  it('takes the kept secret when none is typed', async () => {
    await call('settings.update', { apiSecret: secret });
    const result = await call('connection.test', { typed: { apiBaseUrl: server.url, apiKey: key } });
    expect(result.ok).toBe(true);
    await call('settings.update', { apiSecret: null });
  });
});

describe('refused requests (#42 item 13)', () => {
  it('names the field by its label; the channel and the path go to the log only, never a secret', async () => {
    const body = await refused('settings.update', { siteUrl: 'http://10.0.0.5:8787' });
    expect(body).toMatchObject({ code: 'bad-request', field: 'siteUrl' });
    expect(body.message).toMatch(/^Site URL: use https:\/\//);
    expect(body.message).not.toMatch(/settings\.update|siteUrl/);

    const typed = await refused('connection.test', {
      typed: { apiBaseUrl: 'http://labels.example.com', apiKey: 'k', apiSecret: 'the-secret-typed' },
    });
    expect(typed.message).toMatch(/^Base URL: use https:\/\//);

    const log: string[] = [];
    await dispatch(services, 'settings.update', { siteUrl: 'http://10.0.0.5:8787' }, (l) => log.push(l));
    await dispatch(
      services,
      'connection.test',
      { typed: { apiBaseUrl: 'http://labels.example.com', apiKey: 'k', apiSecret: 'the-secret-typed' } },
      (l) => log.push(l),
    );
    expect(log[0]).toMatch(/^refused settings\.update: siteUrl: use https:\/\//);
    expect(log[1]).toMatch(/^refused connection\.test: typed\.apiBaseUrl: /);
    expect(log.join('\n')).not.toContain('the-secret-typed');
  });
});
