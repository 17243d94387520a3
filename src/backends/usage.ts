/**
 * "Prints used": a local tally of hosted-API renders per key and route. Every route counts toward the plan's
 * allowance (spec §1 rule 3, §8), fetch-markups and export-svg included. The spec does not say whether the
 * allowance counts requests or copies, so both are kept. Only 2xx responses are counted (a refused request
 * rendered nothing). Persisted through a storage port (Node: a JSON file, see src/node/usage-store.ts).
 */
import { z } from 'zod';
import { serialQueue } from '../base/serial-queue';
import {
  countUsage,
  emptyUsage,
  usageLedgerSchema,
  usageTotal,
  type UsageCounts,
  type UsageLedgerData,
} from '../engine/usage-ledger';
import { ROUTE_NAMES, type RouteName } from '../label-api/routes';

/** The one usage ledger (src/engine/usage-ledger.ts), counting rendered labels as `labels`, by route name. */
export type UsageCount = UsageCounts<'labels'>;

export const UsageDataSchema = usageLedgerSchema('labels', z.enum(ROUTE_NAMES));
export type UsageData = UsageLedgerData<'labels', RouteName>;

/** Where the tally lives. `load` returns undefined when nothing was saved yet. */
export interface UsageStorage {
  load(): Promise<unknown>;
  save(data: UsageData): Promise<void>;
}

/** A storage that keeps the tally in memory (tests, or when no data folder is available). */
export function memoryUsageStorage(initial?: UsageData): UsageStorage & { data: UsageData | undefined } {
  const store = {
    data: initial ? structuredClone(initial) : undefined,
    load: async () => (store.data ? structuredClone(store.data) : undefined),
    save: async (data: UsageData) => {
      store.data = structuredClone(data);
    },
  };
  return store;
}

export interface UsageSummary {
  total: UsageCount;
  byRoute: Partial<Record<RouteName, UsageCount>>;
}

export class UsageTally {
  private readonly writes = serialQueue();

  private constructor(
    private readonly storage: UsageStorage,
    private data: UsageData,
    private readonly onError: (message: string) => void,
  ) {}

  /**
   * Loads the tally. A stored tally that cannot be read or has the wrong shape is reported through `onError`
   * and replaced by an empty one (a counter must never stop a print).
   */
  static async open(
    storage: UsageStorage,
    onError: (message: string) => void = () => {},
  ): Promise<UsageTally> {
    let data: UsageData = emptyUsage();
    try {
      const raw = await storage.load();
      if (raw !== undefined) {
        const parsed = UsageDataSchema.safeParse(raw);
        if (parsed.success) data = parsed.data;
        else
          onError(
            `the saved print tally is not valid and starts again from zero (${parsed.error.issues[0]?.message ?? 'wrong shape'})`,
          );
      }
    } catch (e) {
      onError(`the saved print tally cannot be read and starts again from zero (${(e as Error).message})`);
    }
    return new UsageTally(storage, data, onError);
  }

  /** Counts one successful request of `labels` copies and saves in the background (writes are serialised). */
  record(key: string, route: RouteName, labels: number): void {
    countUsage(this.data, 'labels', key, route, labels);
    const snapshot = structuredClone(this.data);
    void this.writes.run(async () => {
      try {
        await this.storage.save(snapshot);
      } catch (e) {
        this.onError(`the print tally could not be saved (${(e as Error).message})`);
      }
    });
  }

  /** The counts for one key. */
  usage(key: string): UsageSummary {
    const byRoute = structuredClone(this.data.keys[key] ?? {});
    return { total: usageTotal(this.data, 'labels', key), byRoute };
  }

  /** Resolves when every recorded count has been saved (or its failure reported). */
  flush(): Promise<void> {
    return this.writes.idle();
  }
}
