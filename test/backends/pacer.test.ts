/**
 * Pacing: a batch of 100 requests at the default 60/min takes at least the minute the limit implies, and a
 * server that enforces 60 per minute (sliding window, on the same virtual clock) never answers 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostedApiClient } from '../../src/backends/hosted-client';
import { virtualClock } from '../../src/base/clock';
import { Pacer } from '../../src/backends/pacer';
import { json, okBody, startServer, type TestServer } from './support/http-server';

const clock = virtualClock();
let server: TestServer;
let tooMany = 0;
const arrivals: number[] = [];

beforeAll(async () => {
  server = await startServer((req, res) => {
    const now = clock.now();
    const recent = arrivals.filter((t) => t > now - 60_000);
    if (recent.length >= 60) {
      tooMany++;
      json(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '60' });
      return;
    }
    arrivals.push(now);
    json(res, 200, okBody(req.path));
  });
});
afterAll(() => server.close());

describe('pacing', () => {
  it('100 requests at 60/min: at least a minute of (virtual) time, and never a 429', async () => {
    const client = new HostedApiClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: 'secret-value',
      fetch: globalThis.fetch,
      clock,
    });
    const start = clock.now();
    expect(client.eta(100)).toBe(61_000); // 60 now, 40 after the window (60 s + 1 s margin)
    for (let i = 0; i < 100; i++) {
      await client.renderZpl({ label_name: 't', amount: 1, apiData: {} });
      if (i === 59) expect(client.eta(40)).toBe(61_000);
    }
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
    expect(tooMany).toBe(0);
    expect(arrivals).toHaveLength(100);
  });

  it('control: the same server does answer 429 to an unpaced batch', async () => {
    arrivals.length = 0;
    tooMany = 0;
    clock.advance(120_000);
    const unpaced = new Pacer({ clock, limit: 1000 });
    const client = new HostedApiClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: 'secret-value',
      fetch: globalThis.fetch,
      clock,
      pacer: unpaced,
      rateLimitRetries: 0,
    });
    let failedAt = -1;
    for (let i = 0; i < 100 && failedAt < 0; i++) {
      await client.renderZpl({ label_name: 't', amount: 1, apiData: {} }).catch(() => (failedAt = i));
    }
    expect(failedAt).toBe(60);
    expect(tooMany).toBe(1);
  });

  it('the window slides: after the pause only as many start as have left the window', () => {
    const c = virtualClock(0);
    const pacer = new Pacer({ clock: c, limit: 3, windowMs: 10_000, marginMs: 0 });
    for (const t of [0, 4000, 8000]) {
      c.advance(t - c.now());
      expect(pacer.waitMs('k')).toBe(0);
      void pacer.acquire('k');
    }
    c.advance(1000); // t = 9000
    expect(pacer.waitMs('k')).toBe(1000); // the request of t=0 leaves at 10 000
    expect(pacer.eta('k', 3)).toBe(9000); // 10 000, 14 000, 18 000
    expect(pacer.waitMs('other-key')).toBe(0); // per key
  });

  it('a 429 pause holds every request of that key', () => {
    const c = virtualClock(0);
    const pacer = new Pacer({ clock: c });
    pacer.pause('k', 30_000);
    expect(pacer.waitMs('k')).toBe(30_000);
    expect(pacer.eta('k', 1)).toBe(30_000);
    expect(pacer.waitMs('j')).toBe(0);
  });

  it('eta of nothing is 0', () => {
    expect(new Pacer({ clock: virtualClock() }).eta('k', 0)).toBe(0);
  });
});
