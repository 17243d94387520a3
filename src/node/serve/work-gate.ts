/**
 * A gate for expensive work (scrypt, renders): at most `running` tasks at once and `waiting` queued in
 * arrival order; past that a task is refused at once, so the caller can answer 429 instead of piling up
 * memory and latency. With `perOwner`, one owner (an API key) holds at most that many places, running and
 * waiting together, so one client flooding the queue cannot push everyone else's requests out of it.
 */

export type GateRefusal = 'full' | 'owner';

/** Runs at most `running` tasks at once with at most `waiting` queued; past that, refuses at once. */
export interface WorkGate {
  /** Runs `task` when a place is free, or says why it did not (the task did not run). */
  run<T>(task: () => Promise<T>, owner?: string): Promise<T> | GateRefusal;
}

export function workGate(running: number, waiting: number, perOwner = Infinity): WorkGate {
  let active = 0;
  const queue: (() => void)[] = [];
  const held = new Map<string, number>();
  const next = () => {
    active--;
    queue.shift()?.();
  };
  return {
    run(task, owner) {
      if (active >= running && queue.length >= waiting) return 'full';
      if (owner !== undefined && (held.get(owner) ?? 0) >= perOwner) return 'owner';
      if (owner !== undefined) held.set(owner, (held.get(owner) ?? 0) + 1);
      const start = async () => {
        try {
          return await task();
        } finally {
          if (owner !== undefined) {
            const left = (held.get(owner) ?? 1) - 1;
            if (left > 0) held.set(owner, left);
            else held.delete(owner);
          }
          next();
        }
      };
      if (active < running) {
        active++;
        return start();
      }
      return new Promise((resolve, reject) => {
        queue.push(() => {
          active++;
          start().then(resolve, reject);
        });
      });
    },
  };
}
