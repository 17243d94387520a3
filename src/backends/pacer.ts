/**
 * Client-side pacing: a sliding-window limiter per API key, so a batch never trips the service's 429
 * (spec §8: 60 requests per minute per key). It admits at most `limit` request starts in any window of
 * `windowMs + marginMs`; the margin absorbs network jitter between our clock and the service's.
 *
 * One pacer should serve every client of a process (the limit is per key, not per client): the app creates
 * one and injects it; a client without one gets its own.
 */
import type { Clock } from '../base/clock';

export interface PacerOptions {
  clock: Clock;
  /** Requests per window, default 60 (the service's default plan limit). */
  limit?: number;
  /** Default 60 000 ms. */
  windowMs?: number;
  /** Added to the window, default 1 000 ms. */
  marginMs?: number;
}

export class Pacer {
  readonly limit: number;
  readonly windowMs: number;
  private readonly clock: Clock;
  /** Start times per key, oldest first, pruned to the window. */
  private readonly starts = new Map<string, number[]>();
  /** After a 429 with Retry-After, no request for this key starts before this time. */
  private readonly pausedUntil = new Map<string, number>();

  constructor(options: PacerOptions) {
    this.clock = options.clock;
    this.limit = options.limit ?? 60;
    this.windowMs = (options.windowMs ?? 60_000) + (options.marginMs ?? 1_000);
    if (!Number.isInteger(this.limit) || this.limit < 1)
      throw new RangeError(`pacer limit: expected a whole number ≥ 1, got ${this.limit}`);
  }

  private recent(key: string, now: number): number[] {
    const list = this.starts.get(key) ?? [];
    while (list.length > 0 && (list[0] as number) <= now - this.windowMs) list.shift();
    this.starts.set(key, list);
    return list;
  }

  /** Milliseconds until a request for `key` may start (0 = now). */
  waitMs(key: string, now = this.clock.now()): number {
    const list = this.recent(key, now);
    const paused = (this.pausedUntil.get(key) ?? 0) - now;
    const full =
      list.length >= this.limit ? (list[list.length - this.limit] as number) + this.windowMs - now : 0;
    return Math.max(0, paused, full);
  }

  /**
   * Waits until a request for `key` may start and records its start. Returns the time waited (ms).
   * Rejects with the signal's reason when `signal` aborts while waiting.
   */
  async acquire(key: string, signal?: AbortSignal): Promise<number> {
    const began = this.clock.now();
    for (;;) {
      signal?.throwIfAborted();
      const now = this.clock.now();
      const wait = this.waitMs(key, now);
      if (wait <= 0) {
        this.recent(key, now).push(now);
        return now - began;
      }
      await this.clock.sleep(wait, signal);
    }
  }

  /** The service said 429 with Retry-After: hold every request for `key` until `untilMs`. */
  pause(key: string, untilMs: number): void {
    this.pausedUntil.set(key, Math.max(this.pausedUntil.get(key) ?? 0, untilMs));
  }

  /**
   * Estimated milliseconds until the last of `n` more requests for `key` may start, from what this pacer
   * knows now (request durations not included). For progress UIs: "about 1 min 40 s left".
   */
  eta(key: string, n: number): number {
    if (n <= 0) return 0;
    const now = this.clock.now();
    const starts = [...this.recent(key, now)];
    let t = Math.max(now, this.pausedUntil.get(key) ?? 0);
    for (let i = 0; i < n; i++) {
      if (starts.length >= this.limit) {
        t = Math.max(t, (starts[starts.length - this.limit] as number) + this.windowMs);
      }
      starts.push(t);
    }
    return t - now;
  }
}
