/**
 * Node-only: the print allowance ledger (spec §1 rule 3: every render counts). Per key and route: requests
 * that succeeded and copies they rendered, in `usage.json` of the data folder. Only successful renders count;
 * a refused or failed request renders nothing.
 *
 * The server owns the file while it runs (one server per data folder): it keeps the ledger in memory and
 * writes it after each counted request (atomically; a write starts at most every USAGE_WRITE_EVERY_MS, and the
 * requests counted meanwhile go into the next one).
 */
import { z } from 'zod';
import { HttpError } from '../../engine/http-errors';
import type { RouteName } from '../../label-api/contract';
import { serialQueue } from '../../base/serial-queue';
import {
  countUsage,
  emptyUsage,
  usageLedgerSchema,
  usageTotal,
  type UsageLedgerData,
} from '../../engine/usage-ledger';
import { jsonFile } from '../files/json-file';

/** usage.json: the one usage ledger (src/engine/usage-ledger.ts), counting rendered labels as `copies`. */
export const UsageFileSchema = usageLedgerSchema('copies', z.string());

export type UsageFile = UsageLedgerData<'copies'>;

const usageFile = (file: string) => jsonFile(file, UsageFileSchema, emptyUsage<'copies', string>());

export async function readUsageFile(file: string): Promise<UsageFile> {
  try {
    return await usageFile(file).read();
  } catch (e) {
    throw new Error(`${file} is not a LabelDesk usage file`, { cause: e });
  }
}

/** Copies rendered by a key over all routes. */
export const copiesOf = (usage: UsageFile, key: string): number => usageTotal(usage, 'copies', key).copies;

export interface Reservation {
  /** The render succeeded: count it. */
  commit(route: RouteName): void | Promise<void>;
  /** The render failed: give the copies back. */
  release(): void | Promise<void>;
}

export interface UsageLedger {
  /**
   * Holds `copies` against the key's allowance (undefined = unlimited) until commit or release, so concurrent
   * requests cannot overdraw it. Throws HttpError 422 (field `amount`) when they do not fit.
   */
  reserve(key: string, copies: number, allowance: number | undefined): Reservation | Promise<Reservation>;
  /** Waits for pending writes. */
  flush(): Promise<void>;
}

/**
 * A write of usage.json starts at most this often, ms: the changes of the requests answered meanwhile go into the
 * next one. Each write is a temporary file, fsync and rename; started after every request, they took ~6 % of a
 * busy server's event loop and its thread pool's fsyncs the rest of the core (docs/performance.md). A request
 * after a quiet moment is written at once; a process killed without warning loses at most this much of the
 * tally (close() and SIGTERM write it all).
 */
export const USAGE_WRITE_EVERY_MS = 200;

export async function openUsageLedger(file: string, onError: (e: unknown) => void): Promise<UsageLedger> {
  const usage = await readUsageFile(file);
  const store = usageFile(file);
  const pending = new Map<string, number>();
  const writes = serialQueue();
  let dirty = false;

  /** When the last write started (performance.now()), and the timer of the next one when it has to wait. */
  let lastWrite = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The last write failed: flush() (close, SIGTERM) tries once more even if nothing was counted since. */
  let failed = false;

  function queueWrite(): void {
    timer = undefined;
    void writes.run(async () => {
      dirty = false;
      lastWrite = performance.now();
      try {
        await store.write(usage);
        failed = false;
      } catch (e) {
        failed = true;
        onError(e);
      }
    });
  }

  function scheduleWrite(): void {
    if (dirty) return; // a write is already queued or timed and will include this change
    dirty = true;
    const wait = lastWrite + USAGE_WRITE_EVERY_MS - performance.now();
    if (wait <= 0) queueWrite();
    else timer = setTimeout(queueWrite, wait);
  }

  return {
    reserve(key, copies, allowance) {
      const held = pending.get(key) ?? 0;
      if (allowance !== undefined) {
        const left = allowance - copiesOf(usage, key) - held;
        if (copies > left) {
          throw new HttpError(
            422,
            `amount: ${copies} ${copies === 1 ? 'copy exceeds' : 'copies exceed'} the print allowance of this API key (${Math.max(0, left)} of ${allowance} left)`,
            'amount',
          );
        }
      }
      pending.set(key, held + copies);
      let done = false;
      const settle = () => {
        if (done) return false;
        done = true;
        const now = (pending.get(key) ?? copies) - copies;
        if (now > 0) pending.set(key, now);
        else pending.delete(key);
        return true;
      };
      return {
        commit(route) {
          if (!settle()) return;
          countUsage(usage, 'copies', key, route, copies);
          scheduleWrite();
        },
        release() {
          settle();
        },
      };
    },
    flush: async () => {
      if (timer !== undefined) {
        clearTimeout(timer);
        queueWrite();
      } else if (failed && !dirty) {
        queueWrite();
      }
      await writes.idle();
    },
  };
}
