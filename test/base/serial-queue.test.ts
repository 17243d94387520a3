/** serialQueue: order kept, one task at a time, a rejected task neither breaks the chain nor leaks its error. */
import { describe, expect, it } from 'vitest';
import { serialQueue } from '../../src/base/serial-queue';

const tick = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('serialQueue', () => {
  it('runs tasks one at a time, in the order queued, whatever their durations', async () => {
    const queue = serialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, ms: number) => async () => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([
      queue.run(task('a', 20)),
      queue.run(task('b', 1)),
      queue.run(() => 'c'),
      queue.run(task('d', 5)),
    ]);
    expect(results).toEqual(['a', 'b', 'c', 'd']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start d', 'end d']);
  });

  it('a rejected task rejects its own caller only; the next task still runs', async () => {
    const queue = serialQueue();
    const failed = queue.run(async () => {
      await tick(5);
      throw new Error('boom');
    });
    const thrown = queue.run(() => {
      throw new Error('sync boom');
    });
    const next = queue.run(() => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(thrown).rejects.toThrow('sync boom');
    await expect(next).resolves.toBe(42);
  });

  it('does not start a task before the one before it has settled, even a failing one', async () => {
    const queue = serialQueue();
    let firstSettled = false;
    const first = queue.run(async () => {
      await tick(10);
      firstSettled = true;
      throw new Error('late failure');
    });
    const second = queue.run(() => firstSettled);
    await expect(first).rejects.toThrow('late failure');
    await expect(second).resolves.toBe(true);
  });

  it('idle() waits for every task queued so far and never rejects', async () => {
    const queue = serialQueue();
    await expect(queue.idle()).resolves.toBeUndefined();
    let done = 0;
    void queue.run(async () => {
      await tick(5);
      done += 1;
    });
    queue
      .run(async () => {
        await tick(5);
        done += 1;
        throw new Error('ignored by idle');
      })
      .catch(() => undefined);
    await expect(queue.idle()).resolves.toBeUndefined();
    expect(done).toBe(2);
  });
});
