/** The per-key request rate of spec §8 (src/node/serve/rate-limit.ts): a sliding window over an injected clock. */
import { describe, expect, test } from 'vitest';
import { slidingWindowLimiter } from '../../../src/node/serve/rate-limit';

describe('slidingWindowLimiter', () => {
  test('60 a minute per key; the 61st waits for the oldest to leave the window', () => {
    let now = 0;
    const limiter = slidingWindowLimiter({ limit: 60, now: () => now });
    for (let i = 0; i < 60; i++) {
      now = i * 500; // one every half second
      expect(limiter.take('a').allowed).toBe(true);
    }
    now = 30_000;
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.take('b').allowed).toBe(true); // keys are independent
    now = 60_000; // the first request (t=0) has left the window
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  test('no burst across a window edge: 60 at 0:59 and 60 at 1:01 cannot both pass', () => {
    let now = 59_000;
    const limiter = slidingWindowLimiter({ limit: 60, now: () => now });
    for (let i = 0; i < 60; i++) expect(limiter.take('k').allowed).toBe(true);
    now = 61_000;
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 58 });
  });

  test('refused requests do not count; peek does not count', () => {
    let now = 0;
    const limiter = slidingWindowLimiter({ limit: 1, now: () => now });
    expect(limiter.peek('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect(limiter.take('k').allowed).toBe(false);
    now = 60_000;
    expect(limiter.take('k').allowed).toBe(true);
  });
});
