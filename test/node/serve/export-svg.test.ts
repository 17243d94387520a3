/**
 * Route 05 export-svg and the lifecycle of its files (spec §2.5, §3, §4.5): public, unguessable URLs that
 * answer until `expires_at` (the clock is injected), then 404, and the files gone from
 * disk (or the site database's rows, when the suite runs on PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { answerOf, startHarness, type Harness } from './harness';

const BODY = { label_name: 'shipping-4x6', amount: 2, apiData: { ship_to_name: 'Ada Lovelace' } };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

interface Exported {
  status: string;
  ttl_hours: number;
  expires_at: string;
  files: { url: string; path: string; expires_at: string }[];
}

describe('05 export-svg', () => {
  test('one public file per copy, unguessable, until expires_at (24 h, ISO 8601 with offset)', async () => {
    const a = await h.post('export-svg', BODY);
    expect(a.status).toBe(200);
    const result = a.json as Exported;
    expect(result).toMatchObject({
      status: 'svg_exported',
      ttl_hours: 24,
      expires_at: '2026-09-30T12:00:00+00:00',
    });
    expect(result.files).toHaveLength(2);
    for (const file of result.files) {
      expect(file.expires_at).toBe(result.expires_at);
      // Base URL from the request's Host; the token carries 128 random bits.
      expect(file.url).toMatch(new RegExp(`^${h.url}/files/svg/\\d+-[0-9a-f]{32}\\.svg$`));
      expect(file.path).toBe(`svg/${file.url.split('/').pop()}`);
      const svg = await fetch(file.url); // no credentials
      expect(svg.status).toBe(200);
      expect(svg.headers.get('content-type')).toBe('image/svg+xml');
      expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    expect(new Set(result.files.map((f) => f.url)).size).toBe(2);
    const stored = await h.storedSvgs();
    for (const file of result.files) expect(stored).toContain(file.path.slice('svg/'.length));
  });

  test('200 just before expiry; 404 (JSON) at expiry, and the file is deleted on that access', async () => {
    const result = (await h.post('export-svg', BODY)).json as Exported;
    const [first] = result.files;
    h.clock.advanceHours(24);
    h.clock.now = new Date(h.clock.now.getTime() - 1000);
    expect((await fetch(first!.url)).status).toBe(200);
    h.clock.now = new Date(h.clock.now.getTime() + 1000);
    const expired = await answerOf(await fetch(first!.url));
    expect(expired.status).toBe(404);
    expect(expired.contentType).toMatch(/^application\/json/);
    expect(await h.storedSvgs()).not.toContain(first!.path.slice('svg/'.length));
  });

  test('the sweeper deletes expired files nobody asks for', async () => {
    const result = (await h.post('export-svg', BODY)).json as Exported;
    expect(await h.storedSvgs()).toEqual(
      expect.arrayContaining(result.files.map((f) => f.path.slice('svg/'.length))),
    );
    h.clock.advanceHours(25);
    await h.server.sweep();
    expect(await h.storedSvgs()).toEqual([]);
  });

  test('a forged, altered or unknown token → 404 (changing the expiry in the URL names another file)', async () => {
    const result = (await h.post('export-svg', { ...BODY, amount: 1 })).json as Exported;
    const url = result.files[0]!.url;
    const later = url.replace(/\/(\d+)-/, (_m, ms: string) => `/${Number(ms) + 3_600_000}-`);
    for (const bad of [later, `${h.url}/files/svg/..%2Fkeys.json`, `${h.url}/files/svg/123-abc.svg`]) {
      expect((await fetch(bad)).status).toBe(404);
    }
  });

  test('--svg-ttl-hours and --public-url', async () => {
    const other = await startHarness({ svgTtlHours: 2, publicUrl: 'https://labels.example.com/engine/' });
    try {
      const result = (await other.post('export-svg', { ...BODY, amount: 1 })).json as Exported;
      expect(result.ttl_hours).toBe(2);
      expect(result.expires_at).toBe('2026-09-29T14:00:00+00:00');
      expect(result.files[0]!.url).toMatch(/^https:\/\/labels\.example\.com\/engine\/files\/svg\//);
    } finally {
      await other.close();
    }
  });
});
