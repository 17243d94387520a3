/**
 * Issue #24's acceptance for a site server: three `labeldesk serve --database` processes (the bundled CLI, each
 * with its own empty data folder) on one real PostgreSQL behave as one service — counter values handed out
 * across them never repeat and run in order within each request; the per-key rate limit is one window across
 * the three; a secret regenerated with `labeldesk keys regenerate --database` is refused by every instance on
 * its next request; a template saved to the site applies to the next request on any instance; an SVG exported
 * through one is served by another; usage is one tally.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteKeys, siteTemplates, siteUsageOf } from '../../../src/node/site/site-stores';
import { defaultTemplateStore } from '../../../src/node/template-store';
import { cli } from '../../support/cli';
import { startPostgres, type TestPostgres } from '../../support/postgres';
import { buildServeBundle, startServeProcess, type ServeProcess } from '../../support/serve-process';

const serialsTemplate = (prefix: string) => ({
  schemaVersion: 1,
  name: 'site-serials',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [
    { name: 'sku', label: 'SKU', placeholder: 'SKU' },
    {
      name: 'serial',
      label: 'Serial',
      placeholder: 'SN????????',
      type: 'counter',
      counter: { start: 1, step: 1, width: 8, prefix, suffix: '' },
    },
  ],
  elements: [
    { type: 'text', x: 10, y: 10, width: 180, height: 30, text: '{sku} {serial}' },
    { type: 'barcode', x: 10, y: 45, width: 180, height: 45, format: 'code128', text: '{serial}' },
  ],
});

let pg: TestPostgres;
let url: string;
let db: SiteDb;
let root: string;
let instances: ServeProcess[] = [];

interface Key {
  key: string;
  secret: string;
}

const headersOf = (k: Key) => ({
  'content-type': 'application/json',
  'x-api-key': k.key,
  'x-api-secret': k.secret,
});

async function post(
  instance: ServeProcess,
  route: string,
  key: Key,
  body: unknown,
): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(`${instance.url}/custom-labels/${route}`, {
    method: 'POST',
    headers: headersOf(key),
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text), headers: response.headers };
}

/** The counter values a fetch-markups answer printed, copy by copy (each copy's text element). */
function serialsOf(markups: { elements: { type: string; text?: string }[] }[], prefix: string): number[] {
  return markups.map((m) => {
    const text = m.elements.find((e) => e.type === 'text')?.text ?? '';
    const match = new RegExp(`${prefix}(\\d{8})`).exec(text);
    if (!match?.[1]) throw new Error(`no serial in "${text}"`);
    return Number(match[1]);
  });
}

beforeAll(async () => {
  const bundle = buildServeBundle('labeldesk-site-test');
  pg = await startPostgres();
  url = await pg.createDatabase();
  // The first instance creates the schema; the others find it (migrations run once, under a lock).
  root = mkdtempSync(join(tmpdir(), 'ld-site-'));
  const path = await bundle;
  instances = await Promise.all(
    [0, 1, 2].map((i) => startServeProcess(path, ['--database', url, '--data-dir', join(root, `data${i}`)])),
  );
  db = await openSiteDb(url, { max: 4 });
  await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(serialsTemplate('SN')), 'test');
}, 120_000);

afterAll(async () => {
  for (const instance of instances) instance.child.kill('SIGTERM');
  await Promise.all(instances.map((i) => i.exit));
  await db?.close();
  await pg?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('three serve instances on one PostgreSQL', () => {
  test('2,000 requests spread over them: every counter value unique, consecutive within each request, none skipped', async () => {
    const keys = await Promise.all(Array.from({ length: 40 }, () => siteKeys(db).create()));
    // Each workstation's key is first verified by each instance (one scrypt each, remembered): 40 keys from one
    // address at once would otherwise meet the per-address share of scrypt places (429 "busy", issue #16).
    for (const instance of instances)
      for (const k of keys)
        expect(
          (await post(instance, 'fetch-markups', k, { label_name: 'product-2x1', amount: 1, apiData: {} }))
            .status,
        ).toBe(200);
    const total = 2000;
    const results: { instance: number; serials: number[] }[] = [];
    let next = 0;
    // 24 clients at once, each request to the next instance in turn with the next of 40 keys (50 requests per
    // key and 3 to warm up: under the 60 a minute every key is allowed).
    async function client(): Promise<void> {
      for (let i = next++; i < total; i = next++) {
        const amount = 1 + (i % 3);
        const a = await post(instances[i % 3]!, 'fetch-markups', keys[i % keys.length]!, {
          label_name: 'site-serials',
          amount,
          apiData: { sku: `R${i}` },
        });
        expect(a.status, JSON.stringify(a.json)).toBe(200);
        const serials = serialsOf(a.json, 'SN');
        expect(serials).toHaveLength(amount);
        results.push({ instance: i % 3, serials });
      }
    }
    await Promise.all(Array.from({ length: 24 }, client));
    expect(results).toHaveLength(total);
    for (const r of results) {
      // In order within the request: the copies of one reservation are consecutive.
      expect(r.serials).toEqual(r.serials.map((_, k) => r.serials[0]! + k));
    }
    const all = results.flatMap((r) => r.serials).sort((a, b) => a - b);
    const labels = results.reduce((sum, r) => sum + r.serials.length, 0);
    // Unique, and exactly 1..labels: no number handed out twice, none lost (every request succeeded).
    expect(new Set(all).size).toBe(labels);
    expect(all[0]).toBe(1);
    expect(all[all.length - 1]).toBe(labels);
    // Each request is in the site's history once, with who and where.
    const { rows } = await db.query<{ instance: string; n: string }>(
      `SELECT instance, count(*) AS n FROM jobs WHERE template = 'site-serials' GROUP BY instance`,
    );
    expect(rows).toHaveLength(3);
    expect(rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(total);
    // Usage is one tally over the three.
    let copies = 0;
    for (const k of keys) copies += (await siteUsageOf(db, k.key))['fetch-markups']?.copies ?? 0;
    // (with the 120 warm-up copies)
    expect(copies).toBe(labels + keys.length * instances.length);
  }, 240_000);

  test('the 61st request of a key within a minute, wherever it goes, is 429 with Retry-After', async () => {
    const key = await siteKeys(db).create();
    const body = { label_name: 'product-2x1', amount: 1, apiData: {} };
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post(instances[i % 3]!, 'fetch-markups', key, body)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    for (const instance of instances) {
      const refused = await post(instance, 'fetch-markups', key, body);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.json.message).toMatch(/more than 60 requests per minute for this API key/);
    }
  });

  test('a secret regenerated with labeldesk keys regenerate --database is refused by every instance at once', async () => {
    const key = await siteKeys(db).create();
    const body = { label_name: 'product-2x1', amount: 1, apiData: {} };
    // Verified (and remembered) by each instance first.
    for (const instance of instances)
      expect((await post(instance, 'fetch-markups', key, body)).status).toBe(200);
    const regenerated = await cli(['keys', 'regenerate', key.key, '--database', url, '--json']);
    expect(regenerated.code, regenerated.stderr).toBe(0);
    const fresh = JSON.parse(regenerated.stdout) as Key;
    expect(fresh.key).toBe(key.key);
    for (const instance of instances) {
      const old = await post(instance, 'fetch-markups', key, body);
      expect(old.status).toBe(401);
      expect((await post(instance, 'fetch-markups', fresh, body)).status).toBe(200);
    }
  });

  test('a template saved to the site applies to the very next request on every instance', async () => {
    const key = await siteKeys(db).create();
    const body = { label_name: 'site-serials', amount: 1, apiData: { sku: 'X' } };
    for (const instance of instances)
      expect((await post(instance, 'fetch-markups', key, body)).status).toBe(200);
    await siteTemplates(db, defaultTemplateStore()).save(JSON.stringify(serialsTemplate('LOT')), 'test');
    for (const instance of instances) {
      const a = await post(instance, 'fetch-markups', key, body);
      expect(a.status).toBe(200);
      // The counter continues (same template and field); only the prefix is the new revision's.
      expect(serialsOf(a.json, 'LOT')).toHaveLength(1);
    }
  });

  test('an SVG exported through one instance is served by the others until it expires', async () => {
    const key = await siteKeys(db).create();
    const a = await post(instances[0]!, 'export-svg', key, {
      label_name: 'product-2x1',
      amount: 1,
      apiData: {},
    });
    expect(a.status).toBe(200);
    const path = new URL(a.json.files[0].url as string).pathname;
    for (const instance of instances.slice(1)) {
      const svg = await fetch(`${instance.url}${path}`);
      expect(svg.status).toBe(200);
      expect(await svg.text()).toMatch(/^<svg /);
    }
  });

  test('/ready names the instance and says ready; /health answers', async () => {
    const names = new Set<string>();
    for (const instance of instances) {
      const ready = await fetch(`${instance.url}/ready`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { status: string; instance: string };
      expect(body.status).toBe('ready');
      names.add(body.instance);
      expect((await fetch(`${instance.url}/health`)).status).toBe(200);
    }
    expect(names.size).toBe(3);
  });
});
