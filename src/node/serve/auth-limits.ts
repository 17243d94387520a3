/**
 * Bounds on the work wrong secrets can cause (key-store.ts): failed attempts per key id and per client
 * address in a sliding window, each attempt's slot reserved before scrypt runs and given back when the secret
 * proves right, and a cap on scrypts running and waiting at once. Scrypt runs on libuv's thread pool (4
 * threads by default), which also does every file read of the server: unbounded, 150 wrong secrets sent at
 * once queued the keys file's stat of every valid request behind 150 scrypts (12 s). Pure; the clock is injected.
 */

export interface Refusal {
  /** Whole seconds until a retry may succeed (for `Retry-After`). */
  retryAfterSeconds: number;
}

/** A counted attempt, given back with `release()` when it turns out not to be a failure. */
export interface Slot {
  release(): void;
}

export interface FailureWindow {
  /** Counts one attempt for `id` now, or says when one may be made. */
  reserve(id: string): Slot | Refusal;
}

/** At most `limit` attempts per id in any `windowMs`; a released attempt no longer counts. */
export function failureWindow(opts: { limit: number; windowMs?: number; now: () => number }): FailureWindow {
  const windowMs = opts.windowMs ?? 60_000;
  /** id → attempt times (ms), oldest first. */
  const log = new Map<string, number[]>();
  let reserves = 0;

  function prune(now: number): void {
    for (const [id, times] of log) if ((times.at(-1) ?? 0) <= now - windowMs) log.delete(id);
  }

  return {
    reserve(id) {
      const now = opts.now();
      // Forget idle ids now and then: a stream of invented key ids cannot grow the map without bound.
      if (++reserves % 1024 === 0) prune(now);
      const times = log.get(id) ?? [];
      while (times.length && (times[0] ?? 0) <= now - windowMs) times.shift();
      if (times.length >= opts.limit) {
        const oldest = times[0] ?? now;
        return { retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
      }
      times.push(now);
      log.set(id, times);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          const at = times.lastIndexOf(now);
          if (at >= 0) times.splice(at, 1);
        },
      };
    },
  };
}

export const isRefusal = (x: Slot | Refusal): x is Refusal => 'retryAfterSeconds' in x;
