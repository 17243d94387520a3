/**
 * The work gate's places (work-gate.ts), with a task whose work goes off the thread (a heavy render in a
 * worker): its running place goes to the next task meanwhile, it still counts toward the gate's bound and its
 * owner's share, and it takes a running place again, first in line, when its work comes back.
 */
import { describe, expect, test } from 'vitest';
import { workGate, type GatePlace } from '../../../src/node/serve/work-gate';

/** A promise with its resolve, to hold a task where a test wants it. */
function later<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('workGate', () => {
  test('one running place: tasks run one after another, in arrival order; past the queue, refused', async () => {
    const gate = workGate(1, 1);
    const order: string[] = [];
    const first = later();
    const a = gate.run(async () => (order.push('a'), first.promise));
    const b = gate.run(async () => void order.push('b'));
    expect(gate.run(async () => undefined)).toBe('full');
    await tick();
    expect(order).toEqual(['a']);
    first.resolve();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
  });

  test('a task working elsewhere gives its running place to the next one, and gets one back first in line', async () => {
    const gate = workGate(1, 2);
    const order: string[] = [];
    const worker = later<string>();
    const small = later();
    let heavyPlace: GatePlace | undefined;
    const heavy = gate.run(async (place) => {
      heavyPlace = place;
      const result = await place.elsewhere(() => worker.promise);
      order.push(`heavy back with ${result}`);
    });
    const b = gate.run(async () => {
      order.push('small runs while heavy is elsewhere');
      await small.promise;
      order.push('small done');
    });
    await tick();
    expect(heavyPlace).toBeDefined();
    expect(order).toEqual(['small runs while heavy is elsewhere']);
    // The away task holds a waiting place: with one more queued, the gate is full.
    const c = gate.run(async () => void order.push('c'));
    expect(gate.run(async () => undefined)).toBe('full');
    worker.resolve('its output');
    await tick();
    expect(order).toEqual(['small runs while heavy is elsewhere']); // small still has the place
    small.resolve();
    await Promise.all([heavy, b, c]);
    // Back from the worker, heavy waited for the place, but ahead of c, which came before its return.
    expect(order).toEqual([
      'small runs while heavy is elsewhere',
      'small done',
      'heavy back with its output',
      'c',
    ]);
  });

  test('tasks away in a worker still count: the gate never holds more than running + waiting', async () => {
    const gate = workGate(1, 1);
    const never = later<void>();
    // Each goes elsewhere at once, giving its running place to the next: the first two fill the gate.
    const a = gate.run(async (place) => place.elsewhere(() => never.promise));
    await tick();
    const b = gate.run(async (place) => place.elsewhere(() => never.promise));
    await tick();
    expect(gate.run(async () => undefined)).toBe('full');
    never.resolve();
    await Promise.all([a, b]);
    await expect(gate.run(async () => 'in again') as Promise<string>).resolves.toBe('in again');
  });

  test('work elsewhere that fails still gives the places back', async () => {
    const gate = workGate(1, 0, 1);
    const failed = gate.run(async (place) => place.elsewhere(async () => Promise.reject(new Error('lost'))));
    await expect(failed).rejects.toThrow('lost');
    const again = gate.run(async () => 'ok', 'key');
    expect(await again).toBe('ok');
    expect(await gate.run(async () => 'ok too', 'key')).toBe('ok too');
  });

  test('an owner’s share counts its tasks elsewhere too', async () => {
    const gate = workGate(1, 4, 1);
    const worker = later();
    const heavy = gate.run(async (place) => place.elsewhere(() => worker.promise), 'key');
    await tick();
    expect(gate.run(async () => undefined, 'key')).toBe('owner');
    expect(await gate.run(async () => 'other key', 'other')).toBe('other key');
    worker.resolve();
    await heavy;
  });
});

describe('workGate: fair order by cost between owners', () => {
  /** One running place held by a blocker; then tasks queue; the order they run in is recorded. */
  async function runOrder(
    arrivals: readonly { owner: string | undefined; cost: number; name: string }[],
  ): Promise<string[]> {
    const gate = workGate(1, arrivals.length);
    const order: string[] = [];
    const blocker = later();
    const first = gate.run(async () => blocker.promise, 'blocker');
    const tasks = arrivals.map(({ owner, cost, name }) =>
      gate.run(async () => void order.push(name), owner, cost),
    );
    blocker.resolve();
    await Promise.all([first, ...tasks]);
    return order;
  }

  test('a key asking for 1,000 copies a request runs one request per 1,000 single labels of a busy key', async () => {
    // The heavy key queues 3 requests of 1,000 copies first; the light key then queues 2,500 single labels.
    const arrivals = [
      ...Array.from({ length: 3 }, (_, k) => ({ owner: 'heavy', cost: 1000, name: `heavy ${k}` })),
      ...Array.from({ length: 2500 }, (_, k) => ({ owner: 'light', cost: 1, name: `light ${k}` })),
    ];
    const order = await runOrder(arrivals);
    // Heavy's first request starts at once (it was given nothing yet), its second after light's first 1,000
    // labels, its third after 2,000: each key gets the same copies through the gate.
    expect(order.indexOf('heavy 0')).toBe(0);
    expect(order.indexOf('heavy 1')).toBe(1 + 1000);
    expect(order.indexOf('heavy 2')).toBe(2 + 2000);
    expect(order.filter((name) => name.startsWith('light'))).toEqual(
      Array.from({ length: 2500 }, (_, k) => `light ${k}`),
    );
  });

  test('one owner alone runs in arrival order whatever the costs, and gets every place (nothing held back)', async () => {
    const order = await runOrder([
      { owner: 'a', cost: 1000, name: 'a0' },
      { owner: 'a', cost: 1, name: 'a1' },
      { owner: 'a', cost: 500, name: 'a2' },
      { owner: 'a', cost: 1, name: 'a3' },
    ]);
    expect(order).toEqual(['a0', 'a1', 'a2', 'a3']);
  });

  test('an owner idle for a while banks no credit: it starts level with the queue, not ahead of it', async () => {
    const gate = workGate(1, 100);
    // 'old' was busy long ago; 'busy' has since had 50 places.
    await gate.run(async () => undefined, 'old', 1);
    for (let k = 0; k < 50; k++) await gate.run(async () => undefined, 'busy', 1);
    const order: string[] = [];
    const blocker = later();
    const first = gate.run(async () => blocker.promise, 'busy', 1);
    const queued = [
      ...Array.from({ length: 3 }, (_, k) => gate.run(async () => void order.push(`busy ${k}`), 'busy', 1)),
      ...Array.from({ length: 3 }, (_, k) => gate.run(async () => void order.push(`new ${k}`), 'fresh', 1)),
      ...Array.from({ length: 3 }, (_, k) => gate.run(async () => void order.push(`old ${k}`), 'old', 1)),
    ];
    blocker.resolve();
    await Promise.all([first, ...queued]);
    // Equal shares from now on: the three keys alternate instead of 'old' and 'fresh' taking 50 places first.
    expect(order.slice(0, 3).sort()).toEqual(['busy 0', 'new 0', 'old 0']);
    expect(order.slice(3, 6).sort()).toEqual(['busy 1', 'new 1', 'old 1']);
  });

  test('tasks without an owner share one arrival-order line with the same fairness against owners', async () => {
    const order = await runOrder([
      { owner: undefined, cost: 1, name: 'x0' },
      { owner: undefined, cost: 1, name: 'x1' },
      { owner: 'k', cost: 1, name: 'k0' },
    ]);
    expect(order).toEqual(['x0', 'k0', 'x1']);
  });
});

describe('workGate paced one task per turn (the server’s renders)', () => {
  test('a task never starts in the turn it arrived in, even with a place free', async () => {
    const gate = workGate(1, 10, Infinity, { oneTaskPerTurn: true });
    const order: string[] = [];
    const done = gate.run(async () => void order.push('a'));
    expect(order).toEqual([]);
    await done;
    expect(order).toEqual(['a']);
  });

  test('requests read while a task runs are queued before the next task starts: arrival order, not socket order', async () => {
    // A real socket pair on loopback: bytes written during task a's (synchronous) work are read by the next
    // turn's poll, and the request they carry is queued then, before b starts. Unpaced, b and c started in the
    // same turn as a ended, before the poll, and a request read later waited for whatever else was ready.
    for (const paced of [true, false]) {
      const gate = workGate(1, 10, Infinity, { oneTaskPerTurn: paced });
      const order: string[] = [];
      const { createServer, connect } = await import('node:net');
      let late: Promise<unknown> | undefined;
      const server = createServer((socket) =>
        socket.once('data', () => {
          order.push('x read');
          late = gate.run(async () => void order.push('x')) as Promise<unknown>;
        }),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      const client = connect(port, '127.0.0.1');
      await new Promise((resolve) => client.once('connect', resolve));
      await new Promise((resolve) => setTimeout(resolve, 20)); // the server side has accepted it
      const tasks = [
        gate.run(async () => {
          order.push('a');
          client.write('x');
          const until = performance.now() + 20;
          while (performance.now() < until); // a render: the thread is busy, the byte waits in the kernel
        }),
        gate.run(async () => void order.push('b')),
        gate.run(async () => void order.push('c')),
      ];
      await Promise.all(tasks);
      for (let i = 0; i < 100 && late === undefined; i++) await tick();
      await late;
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
      if (paced) expect(order).toEqual(['a', 'x read', 'b', 'c', 'x']);
      else expect(order).toEqual(['a', 'b', 'c', 'x read', 'x']);
    }
  });

  test('one owner’s tasks still run in arrival order, fair order between owners still holds', async () => {
    const gate = workGate(1, 100, Infinity, { oneTaskPerTurn: true });
    const order: string[] = [];
    const tasks = [
      gate.run(async () => void order.push('heavy 0'), 'heavy', 3),
      gate.run(async () => void order.push('heavy 1'), 'heavy', 3),
      ...Array.from({ length: 4 }, (_, k) => gate.run(async () => void order.push(`light ${k}`), 'light', 1)),
    ];
    await Promise.all(tasks);
    expect(order).toEqual(['heavy 0', 'light 0', 'light 1', 'light 2', 'heavy 1', 'light 3']);
  });

  test('a task working elsewhere gives its place to the next, and comes back first, paced too', async () => {
    const gate = workGate(1, 4, Infinity, { oneTaskPerTurn: true });
    const order: string[] = [];
    const worker = later<string>();
    const heavy = gate.run(async (place) => {
      const result = await place.elsewhere(() => worker.promise);
      order.push(`heavy back with ${result}`);
    });
    const small = gate.run(async () => void order.push('small'));
    await small;
    const c = gate.run(async () => {
      order.push('c');
    });
    worker.resolve('its output');
    await Promise.all([heavy, c]);
    expect(order).toEqual(['small', 'heavy back with its output', 'c']);
  });
});
