/**
 * "Prints used": a local tally of hosted-API renders per key and route. Every route counts toward the plan's
 * allowance (spec §1 rule 3, §8), fetch-markups and export-svg included. The spec does not say whether the
 * allowance counts requests or copies, so both are kept. Only 2xx responses are counted (a refused request
 * rendered nothing). Persisted through a storage port (Node: a JSON file, see src/node/usage-store.ts).
 */
import { z } from 'zod';
import { serialQueue } from '../base/serial-queue';
import { ROUTE_NAMES, type RouteName } from './routes';

const Count = z.object({ requests: z.number().int().min(0), labels: z.number().int().min(0) });
export type UsageCount = z.infer<typeof Count>;

export const UsageDataSchema = z.object({
  version: z.literal(1),
  /** API key → route → counts. Keys are identifiers, not secrets; the secret is never stored here. */
  keys: z.record(z.string(), z.partialRecord(z.enum(ROUTE_NAMES), Count)),
});
export type UsageData = z.infer<typeof UsageDataSchema>;

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
    let data: UsageData = { version: 1, keys: {} };
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
    const routes = (this.data.keys[key] ??= {});
    const count = (routes[route] ??= { requests: 0, labels: 0 });
    count.requests += 1;
    count.labels += labels;
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
    const total = { requests: 0, labels: 0 };
    for (const c of Object.values(byRoute)) {
      total.requests += c.requests;
      total.labels += c.labels;
    }
    return { total, byRoute };
  }

  /** Resolves when every recorded count has been saved (or its failure reported). */
  flush(): Promise<void> {
    return this.writes.idle();
  }
}
