/**
 * A gate for expensive work (scrypt, renders): at most `running` tasks at once and `waiting` queued in
 * arrival order; past that a task is refused at once, so the caller can answer 429 instead of piling up
 * memory and latency.
 */

/** Runs at most `running` tasks at once with at most `waiting` queued; past that, refuses at once. */
export interface WorkGate {
  /** Runs `task` when a place is free; undefined when the queue is full (the task did not run). */
  run<T>(task: () => Promise<T>): Promise<T> | undefined;
}

export function workGate(running: number, waiting: number): WorkGate {
  let active = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    active--;
    queue.shift()?.();
  };
  return {
    run(task) {
      if (active >= running && queue.length >= waiting) return undefined;
      const start = async () => {
        try {
          return await task();
        } finally {
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
