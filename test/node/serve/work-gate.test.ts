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
