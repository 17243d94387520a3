/**
 * usage.json under a busy server (usage-store.ts): a count after a quiet moment is written at once, a burst is
 * written at most every USAGE_WRITE_EVERY_MS (each write is a temporary file, an fsync and a rename: started after
 * every request, they took a share of the core from the renders), and flush() writes what is pending. Writes
 * are counted by their temporary files' names, seen through inotify (fs.watch).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openUsageLedger, USAGE_WRITE_EVERY_MS } from '../../../src/node/serve/usage-store';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function countWrites(folder: string): { names: Set<string>; stop: () => void } {
  const names = new Set<string>();
  const watcher = watch(folder, (_event, name) => {
    if (name && /^\.usage\.json\.[0-9a-f]+\.tmp$/.test(name)) names.add(name);
  });
  return { names, stop: () => watcher.close() };
}

const copiesIn = (file: string, key: string): number => {
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    keys: Record<string, Record<string, { copies: number }>>;
  };
  return Object.values(data.keys[key] ?? {}).reduce((sum, route) => sum + route.copies, 0);
};

test('a burst of 150 counted requests over ~0.6 s is a handful of writes, and every copy is in the file', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-usage-'));
  const file = join(dir, 'usage.json');
  const ledger = await openUsageLedger(file, (e) => {
    throw e;
  });
  const writes = countWrites(dir);
  const started = performance.now();
  for (let i = 0; i < 150; i++) {
    const reservation = await ledger.reserve('ldk_a', 2, undefined);
    await reservation.commit('render-zpl');
    await pause(4);
  }
  const took = performance.now() - started;
  await ledger.flush();
  await pause(50); // inotify's last events
  writes.stop();
  expect(copiesIn(file, 'ldk_a')).toBe(300);
  // One at once, then at most one per interval, and the one flush() started.
  expect(writes.names.size).toBeGreaterThanOrEqual(2);
  expect(writes.names.size).toBeLessThanOrEqual(Math.ceil(took / USAGE_WRITE_EVERY_MS) + 2);
});

test('a count after a quiet moment is on disk at once, without flush()', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-usage-'));
  const file = join(dir, 'usage.json');
  const ledger = await openUsageLedger(file, (e) => {
    throw e;
  });
  const reservation = await ledger.reserve('ldk_b', 1, undefined);
  await reservation.commit('render-pdf');
  // Well under the interval: the write was started with the commit, not held for a later one.
  for (let i = 0; i < 40; i++) {
    try {
      if (copiesIn(file, 'ldk_b') === 1) break;
    } catch {
      // not written yet
    }
    await pause(5);
  }
  expect(copiesIn(file, 'ldk_b')).toBe(1);
  await ledger.flush();
});

test('a write that failed (the folder gone, say) is tried again by flush(), as on SIGTERM', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-usage-'));
  const folder = join(dir, 'data');
  mkdirSync(folder);
  const file = join(folder, 'usage.json');
  const errors: unknown[] = [];
  const ledger = await openUsageLedger(file, (e) => errors.push(e));
  // Where the folder was, a file: the write cannot make its temporary file.
  rmSync(folder, { recursive: true });
  writeFileSync(folder, 'not a folder');
  const reservation = await ledger.reserve('ldk_c', 3, undefined);
  await reservation.commit('render-zpl');
  await ledger.flush();
  expect(errors.length).toBeGreaterThan(0);
  // The disk is back; nothing new was counted, and close() flushes.
  rmSync(folder);
  mkdirSync(folder);
  await ledger.flush();
  expect(copiesIn(file, 'ldk_c')).toBe(3);
});
