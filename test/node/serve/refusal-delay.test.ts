/**
 * A client refused for its own excess is answered slowly (budgets.ts `refusalDelayMs`, issue #16): the 429 of a
 * key or address past its failed authentications, and of a key past its request rate, waits before it is sent.
 * Found by the load bench: 8 connections guessing secrets and ignoring Retry-After were answered ~1,600 times a
 * second, and those answers took a quarter of the core from the well-behaved clients' renders. Over real HTTP.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startHarness, type Answer, type Harness } from './harness';

const SHIPPING = { label_name: 'shipping-4x6', amount: 1, apiData: { tracking: '1Z999AA10123456784' } };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const wrongSecret = (key: string) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  'x-api-secret': 'lds_guess',
});

/** The answer and how long it took, from the client's side. */
async function timed(send: () => Promise<Answer>): Promise<Answer & { ms: number }> {
  const started = performance.now();
  const answer = await send();
  return { ...answer, ms: performance.now() - started };
}

describe('refusals of a client past its limits wait before they are answered', () => {
  test('past its failed authentications: each 429 comes after the pause; a valid key is answered meanwhile', async () => {
    h = await startHarness({ limits: { authFailuresPerMinute: 3, refusalDelayMs: 1_500 } });
    const harness = h;
    const other = await harness.addKey();
    for (let i = 0; i < 3; i++)
      expect((await harness.post('fetch-markups', SHIPPING, wrongSecret(harness.key))).status).toBe(401);
    const order: string[] = [];
    const held = Array.from({ length: 10 }, () =>
      timed(() => harness.post('fetch-markups', SHIPPING, wrongSecret(harness.key))).then((a) => {
        order.push('refused');
        return a;
      }),
    );
    const valid = await harness.post('fetch-markups', SHIPPING, {
      'content-type': 'application/json',
      'x-api-key': other.key,
      'x-api-secret': other.secret,
    });
    order.push('valid');
    expect(valid.status).toBe(200);
    const refused = await Promise.all(held);
    expect(order[0]).toBe('valid');
    for (const a of refused) {
      expect(a.status).toBe(429);
      expect(a.json.message).toBe('too many failed authentications for this API key; retry in 60 s');
      expect(a.headers.get('retry-after')).toBe('60');
      // A timer never fires early: the client waited at least the pause.
      expect(a.ms).toBeGreaterThanOrEqual(1_490);
    }
  });

  test('a script ignoring Retry-After on 8 connections gets about 8 answers a second, not thousands', async () => {
    h = await startHarness({ limits: { authFailuresPerMinute: 1, refusalDelayMs: 500 } });
    const harness = h;
    expect((await harness.post('fetch-markups', SHIPPING, wrongSecret(harness.key))).status).toBe(401);
    const until = performance.now() + 2_000;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < until)
          statuses.push((await harness.post('fetch-markups', SHIPPING, wrongSecret(harness.key))).status);
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([429]));
    // 2 s at one answer per 0.5 s per connection: at most 5 rounds of 8 (the last one sent before the end).
    expect(statuses.length).toBeLessThanOrEqual(40);
    expect(statuses.length).toBeGreaterThanOrEqual(8);
  });

  test('past its request rate: the 429 waits too', async () => {
    h = await startHarness({ rateLimitPerMinute: 2, limits: { refusalDelayMs: 800 } });
    const harness = h;
    for (let i = 0; i < 2; i++) expect((await harness.post('fetch-markups', SHIPPING)).status).toBe(200);
    const refused = await timed(() => harness.post('fetch-markups', SHIPPING));
    expect(refused.status).toBe(429);
    expect(refused.json.message).toMatch(
      /^more than 2 requests per minute for this API key; retry in \d+ s$/,
    );
    expect(refused.ms).toBeGreaterThanOrEqual(790);
  });
});
