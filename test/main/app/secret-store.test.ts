/**
 * The hosted API secret on a desktop that cannot protect it at rest (Linux without a keyring: Electron's
 * `basic_text` backend): storing it is refused with a sentence on the secret field, and it can be kept for the
 * session only — in memory, used for requests, never on disk, gone after a restart. Through the services'
 * handlers, with a real data folder and a real `labeldesk serve` standing in for the hosted API.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher, type SecretCipher } from '../../../main/app/secret-store';
import { dispatch } from '../../../main/app/dispatch';
import { createKey } from '../../../src/node/serve/key-store';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import type { ChannelName, RequestOf, ResponseOf } from '../../../src/ipc/contract';

const NO_KEYRING = 'This desktop has no keyring to protect the API secret: keep it for this session only.';

/** What the Electron shell's cipher is on such a desktop: it works, but says it protects nothing. */
const keyringless: SecretCipher = {
  ...plainCipher,
  kind: 'test-basic-text',
  unprotectedReason: () => NO_KEYRING,
};

let dir: string;
let hosted: ApiServer;
let credentials: { key: string; secret: string };
const opened: AppServices[] = [];

async function start(dataDir: string, cipher: SecretCipher) {
  const services = await createAppServices({ dataDir, shell: 'electron', version: 'test', cipher });
  opened.push(services);
  return async <C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> => {
    const answer = await dispatch(services, channel, request);
    if (!answer.ok) throw answer.error;
    return answer.result as ResponseOf<C>;
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-secret-'));
  credentials = await createKey(join(dir, 'hosted', 'keys.json'));
  hosted = await startServer({ dataDir: join(dir, 'hosted'), port: 0 });
});

afterAll(async () => {
  for (const s of opened) await s.close();
  await hosted.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a desktop without a keyring', () => {
  it('refuses to store the secret, saying why and what to do, and keeps nothing', async () => {
    const dataDir = join(dir, 'refused');
    const call = await start(dataDir, keyringless);
    expect(await call('settings.get', {})).toMatchObject({
      hasSecret: false,
      secretKept: null,
      secretStorageProblem: NO_KEYRING,
    });
    await expect(call('settings.update', { apiSecret: credentials.secret })).rejects.toMatchObject({
      code: 'invalid',
      field: 'apiSecret',
      action: 'settings',
      message: NO_KEYRING,
    });
    expect(existsSync(join(dataDir, 'api-secret.bin'))).toBe(false);
    expect((await call('settings.get', {})).hasSecret).toBe(false);
  });

  it('keeps it for the session only: used for requests, never written, gone after a restart', async () => {
    const dataDir = join(dir, 'session');
    const call = await start(dataDir, keyringless);
    const saved = await call('settings.update', {
      apiBaseUrl: hosted.url,
      apiKey: credentials.key,
      apiSecret: credentials.secret,
      secretForSessionOnly: true,
      mode: 'hosted',
    });
    expect(saved).toMatchObject({ hasSecret: true, secretKept: 'session' });
    expect(JSON.stringify(saved)).not.toContain(credentials.secret);
    expect((await call('connection.test', {})).ok).toBe(true);
    expect(existsSync(join(dataDir, 'api-secret.bin'))).toBe(false);

    const restarted = await start(dataDir, keyringless);
    expect(await restarted('settings.get', {})).toMatchObject({ hasSecret: false, secretKept: null });
  });

  it('forgets a session secret on request, and a stored one when the user switches to session-only', async () => {
    const dataDir = join(dir, 'switch');
    // Stored while the desktop had a keyring…
    const before = await start(dataDir, plainCipher);
    await before('settings.update', { apiSecret: 'sk-old' });
    expect(existsSync(join(dataDir, 'api-secret.bin'))).toBe(true);
    // …then kept for the session: the stored one must not come back after a restart.
    const call = await start(dataDir, keyringless);
    expect(await call('settings.update', { apiSecret: 'sk-new', secretForSessionOnly: true })).toMatchObject({
      secretKept: 'session',
    });
    expect(existsSync(join(dataDir, 'api-secret.bin'))).toBe(false);
    expect(await call('settings.update', { apiSecret: null })).toMatchObject({
      hasSecret: false,
      secretKept: null,
    });
  });
});
