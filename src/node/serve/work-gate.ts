/**
 * A gate for expensive work (scrypt, renders): at most `running` tasks at once and `waiting` queued; past that
 * a task is refused at once, so the caller can answer 429 instead of piling up memory and latency. With
 * `perOwner`, one owner (an API key) holds at most that many places, running and waiting together, so one client
 * flooding the queue cannot push everyone else's requests out of it.
 *
 * Queued tasks take the free place in **fair order by cost** (start-time fair queueing): each task has a cost (a
 * render: the copies it asks for), each owner a running total, and the next task is the one whose owner has been
 * given the least so far (ties: arrival order). So an owner asking for 1,000 copies a request gets as many
 * copies a second as one asking for a label at a time, not 1,000 times as many; an owner who was idle gets no
 * banked credit (its tally starts at the queue's current level); and when only one owner is waiting it gets
 * every place (nothing is held back). One owner alone — or tasks without an owner — run in arrival order.
 *
 * A running task whose work goes off this thread for a while (a heavy render in a worker) gives its running
 * place to the next task meanwhile (`place.elsewhere`): it then holds a waiting place instead, so the gate
 * still bounds every task it let in to `running + waiting`, and takes a running place again, first in line,
 * when the work comes back.
 *
 * With `oneTaskPerTurn` (the server's renders), a task never starts in the turn of the event loop it arrived
 * in: tasks start from the queue one per turn (`setImmediate`), so the requests that arrived during a render
 * are read and queued before the next render starts. Without it, Node's poll hands the server its ready sockets
 * in epoll's order, and a saturated server settled into serving 30 of 32 keep-alive connections every round and
 * the other two every other round, at twice the latency (docs/performance.md, "Arrival order"); paced, each
 * connection is answered once a round, in the order it asked.
 */

export type GateRefusal = 'full' | 'owner';

/** What a task holds while it runs. */
export interface GatePlace {
  /** Runs `work` (which keeps this thread free) with the running place given to the next task meanwhile. */
  elsewhere<T>(work: () => Promise<T>): Promise<T>;
}

/** Runs at most `running` tasks at once with at most `waiting` queued; past that, refuses at once. */
export interface WorkGate {
  /**
   * Runs `task` when a place is free, or says why it did not (the task did not run). `cost` (default 1, at
   * least 1) is what the task counts against its owner in the fair order.
   */
  run<T>(task: (place: GatePlace) => Promise<T>, owner?: string, cost?: number): Promise<T> | GateRefusal;
}

/** A queued task: `start` is its owner's tally when it arrived (its place in the fair order). */
interface Waiter {
  go: () => void;
  start: number;
}

/** Owners' tallies are forgotten once the queue's level passes them (they would start there anyway). */
const TALLY_SWEEP_AT = 256;

export interface WorkGateOptions {
  /** Start queued tasks one per turn of the event loop, never in the turn they arrived in (see above). */
  oneTaskPerTurn?: boolean;
}

export function workGate(
  running: number,
  waiting: number,
  perOwner = Infinity,
  options: WorkGateOptions = {},
): WorkGate {
  const paced = options.oneTaskPerTurn === true;
  let active = 0;
  /** Tasks whose work is elsewhere: each holds a waiting place. */
  let away = 0;
  /** Tasks back from elsewhere: they take the next free place before anything queued. */
  const returning: (() => void)[] = [];
  /** Queued tasks in arrival order. */
  const queue: Waiter[] = [];
  /** The queue's level: the `start` of the last task given a place. */
  let level = 0;
  /** Each owner's tally: where its next task starts in the fair order. */
  const tally = new Map<string, number>();
  const held = new Map<string, number>();
  const dispatch = () => {
    const back = returning.shift();
    if (back) return back();
    if (queue.length === 0) return undefined;
    let best = 0;
    for (let k = 1; k < queue.length; k++) {
      if ((queue[k]?.start ?? 0) < (queue[best]?.start ?? 0)) best = k;
    }
    const [chosen] = queue.splice(best, 1);
    if (!chosen) return undefined;
    level = Math.max(level, chosen.start);
    return chosen.go();
  };
  /** Paced: a turn that will start the next queued task is already scheduled. */
  let turnScheduled = false;
  const turn = () => {
    turnScheduled = false;
    if (active < running) dispatch();
    schedule();
  };
  /** Paced: starts the next queued task in a later turn, if there is one and a free place for it. */
  const schedule = () => {
    if (turnScheduled || active >= running || returning.length + queue.length === 0) return;
    turnScheduled = true;
    setImmediate(turn);
  };
  const next = () => {
    active--;
    if (paced) schedule();
    else dispatch();
  };
  /** Where a task of `owner` costing `cost` starts in the fair order; moves the owner's tally past it. */
  const startOf = (owner: string, cost: number): number => {
    if (tally.size >= TALLY_SWEEP_AT) {
      for (const [name, value] of tally) if (value <= level) tally.delete(name);
    }
    const start = Math.max(level, tally.get(owner) ?? 0);
    tally.set(owner, start + cost);
    return start;
  };
  /** Resolves once the caller holds a running place; `start`: its place in the fair order, or first in line. */
  const acquire = (start: number | 'first'): Promise<void> | undefined => {
    if (active < running && !paced) {
      active++;
      if (start !== 'first') level = Math.max(level, start);
      return undefined;
    }
    return new Promise((resolve) => {
      const go = () => {
        active++;
        resolve();
      };
      if (start === 'first') returning.push(go);
      else queue.push({ go, start });
      if (paced) schedule();
    });
  };
  return {
    run(task, owner, cost = 1) {
      // Every task let in counts until it ends — running, queued, or away with its work elsewhere.
      if (active + queue.length + returning.length + away >= running + waiting) return 'full';
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
            await acquire('first');
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
      const turn = acquire(startOf(owner ?? '', Math.max(1, Number.isFinite(cost) ? cost : 1)));
      return turn ? turn.then(start) : start();
    },
  };
}
