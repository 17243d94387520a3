/**
 * A gate for expensive work (scrypt, renders): at most `running` tasks at once and `waiting` queued in
 * arrival order; past that a task is refused at once, so the caller can answer 429 instead of piling up
 * memory and latency. With `perOwner`, one owner (an API key) holds at most that many places, running and
 * waiting together, so one client flooding the queue cannot push everyone else's requests out of it.
 *
 * A running task whose work goes off this thread for a while (a heavy render in a worker) gives its running
 * place to the next task meanwhile (`place.elsewhere`): it then holds a waiting place instead, so the gate
 * still bounds every task it let in to `running + waiting`, and takes a running place again, first in line,
 * when the work comes back.
 */

export type GateRefusal = 'full' | 'owner';

/** What a task holds while it runs. */
export interface GatePlace {
  /** Runs `work` (which keeps this thread free) with the running place given to the next task meanwhile. */
  elsewhere<T>(work: () => Promise<T>): Promise<T>;
}

/** Runs at most `running` tasks at once with at most `waiting` queued; past that, refuses at once. */
export interface WorkGate {
  /** Runs `task` when a place is free, or says why it did not (the task did not run). */
  run<T>(task: (place: GatePlace) => Promise<T>, owner?: string): Promise<T> | GateRefusal;
}

export function workGate(running: number, waiting: number, perOwner = Infinity): WorkGate {
  let active = 0;
  /** Tasks whose work is elsewhere: each holds a waiting place. */
  let away = 0;
  const queue: (() => void)[] = [];
  const held = new Map<string, number>();
  const next = () => {
    active--;
    queue.shift()?.();
  };
  /** Resolves once the caller holds a running place; `first`: ahead of the queue. */
  const acquire = (first: boolean): Promise<void> | undefined => {
    if (active < running) {
      active++;
      return undefined;
    }
    return new Promise((resolve) => {
      const go = () => {
        active++;
        resolve();
      };
      if (first) queue.unshift(go);
      else queue.push(go);
    });
  };
  return {
    run(task, owner) {
      // Every task let in counts until it ends — running, queued, or away with its work elsewhere.
      if (active + queue.length + away >= running + waiting) return 'full';
      if (owner !== undefined && (held.get(owner) ?? 0) >= perOwner) return 'owner';
      if (owner !== undefined) held.set(owner, (held.get(owner) ?? 0) + 1);
      let holding = true;
      const place: GatePlace = {
        async elsewhere(work) {
          if (!holding) return work();
          holding = false;
          away++;
          next();
          try {
            return await work();
          } finally {
            away--;
            await acquire(true);
            holding = true;
          }
        },
      };
      const start = async () => {
        try {
          return await task(place);
        } finally {
          if (owner !== undefined) {
            const left = (held.get(owner) ?? 1) - 1;
            if (left > 0) held.set(owner, left);
            else held.delete(owner);
          }
          if (holding) next();
        }
      };
      const turn = acquire(false);
      return turn ? turn.then(start) : start();
    },
  };
}
