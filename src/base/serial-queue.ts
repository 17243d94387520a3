/**
 * One task at a time: each task starts when every task queued before it has settled (resolved or rejected),
 * in the order they were queued. A task's result or error reaches only its own caller; a rejected task does
 * not stop the ones after it. Pure (no I/O): file writes, a printer link's operations and ledgers use it.
 */
export interface SerialQueue {
  /** Queues `task`; resolves or rejects as it does. */
  run<T>(task: () => T | Promise<T>): Promise<T>;
  /** Resolves (never rejects) when every task queued so far has settled. */
  idle(): Promise<void>;
}

export function serialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => T | Promise<T>): Promise<T> {
      const run = tail.then(task, task);
      tail = run.catch(() => undefined);
      return run;
    },
    idle: async () => {
      await tail;
    },
  };
}
