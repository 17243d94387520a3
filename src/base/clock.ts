/**
 * The clock port, the one of the project: the hosted client's pacing, backoff and Retry-After waits, and the
 * job service's waits go through it, so tests run a batch of 100 requests or a print job against a fake clock
 * in milliseconds of real time. (Per-request timeouts are network time and use AbortSignal.timeout.)
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock (Date.now and setTimeout). */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * A virtual clock for tests and simulations: `sleep(ms)` moves time forward by `ms` at once, so waits cost no
 * real time and every reading is deterministic. Exact for one sequence of waits (a paced batch); concurrent
 * sleepers each add their own wait, so they over-wait, never under-wait.
 */
export function virtualClock(start = Date.UTC(2026, 8, 29)): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason as Error;
      now += Math.max(0, ms);
      // Let other tasks run, as a real timer would.
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason as Error;
    },
  };
}
