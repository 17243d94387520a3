/**
 * API keys (spec §5) and the print allowance (spec §1 rule 3) through the CLI (`labeldesk keys`, `labeldesk
 * usage`) against a running server sharing the data folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defaultDataDir } from '../../../src/node/files/data-dir';
import { cli } from '../../support/cli';
import { addKeyWithEarlierScrypt, startHarness, type Harness } from './harness';

const SHIPPING = { label_name: 'shipping-4x6', amount: 2, apiData: { tracking: '1Z999AA10123456784' } };

let h: Harness;
const keys = (...args: string[]) => cli(['keys', ...args, '--data-dir', h.dataDir]);
const headersOf = (pair: { key: string; secret: string }) => ({
  'content-type': 'application/json',
  'x-api-key': pair.key,
  'x-api-secret': pair.secret,
});

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe('labeldesk keys', () => {
  test('create --json prints {"key","secret"}; the file holds only a salted scrypt hash of the secret', async () => {
    const created = await keys('create', '--json');
    expect(created.code).toBe(0);
    const pair = JSON.parse(created.stdout) as { key: string; secret: string };
    expect(Object.keys(pair)).toEqual(['key', 'secret']);
    expect(pair.key).toMatch(/^ldk_[0-9a-f]{24}$/);
    expect(pair.secret).toMatch(/^lds_[A-Za-z0-9_-]{43}$/);
    const file = readFileSync(join(h.dataDir, 'keys.json'), 'utf8');
    expect(file).not.toContain(pair.secret);
    expect(file).not.toContain(pair.secret.slice(4));
    const record = (JSON.parse(file) as { keys: Record<string, unknown>[] }).keys.find(
      (k) => k.key === pair.key,
    );
    expect(record).toMatchObject({ scrypt: { N: 1024, r: 8, p: 1 } });
    expect(Buffer.from(record!.salt as string, 'base64')).toHaveLength(16);
    expect((await h.post('fetch-markups', SHIPPING, headersOf(pair))).status).toBe(200);
  });

  test('a key made with the earlier scrypt setting (N=2^15) still works, with its own parameters', async () => {
    const { key, secret } = addKeyWithEarlierScrypt(h.dataDir);
    expect((await h.post('fetch-markups', SHIPPING, headersOf({ key, secret }))).status).toBe(200);
    expect((await h.post('fetch-markups', SHIPPING, headersOf({ key, secret: `${secret}x` }))).status).toBe(
      401,
    );
  });

  test('regenerate: the old secret gets 401 on the running server at once, the new one works', async () => {
    const pair = JSON.parse((await keys('create', '--json')).stdout) as { key: string; secret: string };
    // Verified once, so the pair is in the server's cache: the change must still win.
    expect((await h.post('fetch-markups', SHIPPING, headersOf(pair))).status).toBe(200);
    const regenerated = await keys('regenerate', pair.key, '--json');
    expect(regenerated.code).toBe(0);
    const next = JSON.parse(regenerated.stdout) as { key: string; secret: string };
    expect(next.key).toBe(pair.key);
    expect(next.secret).not.toBe(pair.secret);
    const old = await h.post('fetch-markups', SHIPPING, headersOf(pair));
    expect(old.status).toBe(401);
    expect(old.json.message).toMatch(/regenerated/);
    expect((await h.post('fetch-markups', SHIPPING, headersOf(next))).status).toBe(200);
  });

  test('revoke: the key gets 401; list shows keys without secrets', async () => {
    const pair = JSON.parse((await keys('create', '--json')).stdout) as { key: string; secret: string };
    const listed = await keys('list', '--json');
    expect(listed.stdout).toContain(pair.key);
    expect(listed.stdout).not.toContain(pair.secret);
    expect((await keys('revoke', pair.key)).code).toBe(0);
    expect((await h.post('print', SHIPPING, headersOf(pair))).status).toBe(401);
    expect((await keys('list', '--json')).stdout).not.toContain(pair.key);
  });

  test('human output shows the secret once with a warning; unknown keys are one-line errors', async () => {
    const created = await keys('create');
    expect(created.stdout).toMatch(/^key: {4}ldk_\w+\nsecret: lds_[\w-]+\n$/);
    expect(created.stderr).toMatch(/shown only now/);
    const unknown = await keys('regenerate', 'ldk_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('labeldesk: no API key "ldk_nope" (see: labeldesk keys list)\n');
    expect((await keys('frobnicate')).code).toBe(2);
    expect((await keys('create', '--allowance', 'lots')).code).toBe(2);
  });

  test('the data folder: --data-dir, else $LABELDESK_DATA_DIR, else the per-user data folder', () => {
    expect(defaultDataDir({ LABELDESK_DATA_DIR: '/srv/ld' })).toBe('/srv/ld');
    expect(defaultDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.local/share/labeldesk');
    expect(defaultDataDir({ XDG_DATA_HOME: '/x' }, 'linux', '/home/ada')).toBe('/x/labeldesk');
    expect(defaultDataDir({}, 'darwin', '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/LabelDesk/engine',
    );
  });
});

describe('print allowance: every render counts (spec §1 rule 3)', () => {
  test('usage counts requests and copies per key and route; failed requests count nothing', async () => {
    const pair = JSON.parse((await keys('create', '--json')).stdout) as { key: string; secret: string };
    const auth = headersOf(pair);
    expect((await h.post('fetch-markups', SHIPPING, auth)).status).toBe(200);
    expect((await h.post('render-zpl', { ...SHIPPING, amount: 3 }, auth)).status).toBe(200);
    expect((await h.post('render-zpl', { ...SHIPPING, amount: 0 }, auth)).status).toBe(422);
    expect((await h.post('render-pdf', { ...SHIPPING, label_name: 'nope' }, auth)).status).toBe(422);
    await h.server.flush();
    const usage = await cli(['usage', '--json', '--data-dir', h.dataDir]);
    expect(usage.code).toBe(0);
    expect(JSON.parse(usage.stdout)[pair.key]).toEqual({
      'fetch-markups': { requests: 1, copies: 2 },
      'render-zpl': { requests: 1, copies: 3 },
    });
    const table = await cli(['usage', '--data-dir', h.dataDir]);
    expect(table.stdout).toMatch(new RegExp(`${pair.key}\\s+render-zpl\\s+1\\s+3`));
  });

  test('keys create --allowance N: a request that would exceed it → 422 on amount; nothing rendered', async () => {
    const pair = JSON.parse((await keys('create', '--allowance', '5', '--json')).stdout) as {
      key: string;
      secret: string;
    };
    const auth = headersOf(pair);
    expect((await h.post('render-zpl', { ...SHIPPING, amount: 4 }, auth)).status).toBe(200);
    const over = await h.post('export-svg', { ...SHIPPING, amount: 2 }, auth);
    expect(over.status).toBe(422);
    expect(over.json).toEqual({
      message: 'amount: 2 copies exceed the print allowance of this API key (1 of 5 left)',
      field: 'amount',
    });
    expect((await h.post('fetch-markups', { ...SHIPPING, amount: 1 }, auth)).status).toBe(200);
    expect((await h.post('fetch-markups', { ...SHIPPING, amount: 1 }, auth)).status).toBe(422);
    await h.server.flush();
    const listed = JSON.parse((await keys('list', '--json')).stdout) as { key: string }[];
    expect(listed.find((r) => r.key === pair.key)).toMatchObject({ allowance: 5, copies_used: 5 });
  });

  test('concurrent requests cannot overdraw an allowance', async () => {
    const pair = JSON.parse((await keys('create', '--allowance', '3', '--json')).stdout) as {
      key: string;
      secret: string;
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => h.post('render-zpl', { ...SHIPPING, amount: 1 }, headersOf(pair))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(3);
  });
});
