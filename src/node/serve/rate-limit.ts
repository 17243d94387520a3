/**
 * Requests per key per minute (spec §8: 60 by default, 429 past it). A sliding window: the last `limit`
 * request times of each key are kept, so a burst at the end of one minute and the start of the next cannot
 * double the rate as a fixed window would. Pure; the clock is injected.
 */

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until one more request would be allowed (for `Retry-After`); 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` when allowed. */
  take(key: string): RateDecision;
  /** Whether one more request would be allowed, without counting it. */
  peek(key: string): RateDecision;
}

export function slidingWindowLimiter(opts: {
  limit: number;
  windowMs?: number;
  now: () => number;
}): RateLimiter {
  const windowMs = opts.windowMs ?? 60_000;
  /** key → request times (ms), oldest first, at most `limit` of them. */
  const log = new Map<string, number[]>();
  let takes = 0;

  function prune(now: number): void {
    for (const [key, times] of log) if ((times.at(-1) ?? 0) <= now - windowMs) log.delete(key);
  }

  function decide(key: string, count: boolean): RateDecision {
    const now = opts.now();
    // Forget idle keys now and then, so a stream of distinct keys cannot grow the map without bound.
    if (count && ++takes % 1024 === 0) prune(now);
    const times = log.get(key) ?? [];
    while (times.length && (times[0] ?? 0) <= now - windowMs) times.shift();
    if (times.length < opts.limit) {
      if (count) {
        times.push(now);
        log.set(key, times);
      }
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const oldest = times[0] ?? now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
  }

  return { take: (key) => decide(key, true), peek: (key) => decide(key, false) };
}
