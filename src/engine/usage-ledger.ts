/**
 * The usage ledger both ends keep: per API key and route, the requests that succeeded and the labels they
 * rendered. `labeldesk serve` counts them as `copies` in its usage.json (spec §1 rule 3: every render counts);
 * the hosted client as `labels` in hosted-usage.json. Each file keeps its own field name, so existing files
 * still read; the shape and the counting are this one. Pure: the stores around it decide where it is kept.
 */
import { z } from 'zod';

/** One route's counts: requests, and the labels they rendered under the ledger's own name (`unit`). */
export type UsageCounts<U extends string> = { requests: number } & Record<U, number>;

export interface UsageLedgerData<U extends string, R extends string = string> {
  version: 1;
  /** API key → route → counts. Keys are identifiers, not secrets; a secret is never stored here. */
  keys: Record<string, RouteCounts<U, R>>;
}

/** Route → counts: any route name (a plain record), or some of a closed set of names. */
export type RouteCounts<U extends string, R extends string> = string extends R
  ? Record<string, UsageCounts<U>>
  : Partial<Record<R, UsageCounts<U>>>;

const COUNT = z.number().int().min(0);

/** The schema of a ledger whose label count is named `unit`; `routes` says which route names it takes. */
export function usageLedgerSchema<U extends string, R extends string>(
  unit: U,
  routes: z.ZodType<R, string>,
): z.ZodType<UsageLedgerData<U, R>> {
  const counts = z.object({ requests: COUNT, [unit]: COUNT }) as unknown as z.ZodType<UsageCounts<U>>;
  return z.object({
    version: z.literal(1),
    keys: z.record(z.string(), z.partialRecord(routes, counts)),
  }) as unknown as z.ZodType<UsageLedgerData<U, R>>;
}

/** An empty ledger. */
export const emptyUsage = <U extends string, R extends string>(): UsageLedgerData<U, R> => ({
  version: 1,
  keys: {},
});

/** Counts one successful request of `labels` labels for `key` on `route`. */
export function countUsage<U extends string, R extends string>(
  data: UsageLedgerData<U, R>,
  unit: U,
  key: string,
  route: R,
  labels: number,
): void {
  const routes = (data.keys[key] ??= {} as RouteCounts<U, R>) as Partial<Record<R, UsageCounts<U>>>;
  const counts = (routes[route] ??= { requests: 0, [unit]: 0 } as UsageCounts<U>);
  counts.requests += 1;
  (counts as Record<string, number>)[unit]! += labels;
}

/** `key`'s counts over all routes. */
export function usageTotal<U extends string, R extends string>(
  data: UsageLedgerData<U, R>,
  unit: U,
  key: string,
): UsageCounts<U> {
  const total = { requests: 0, [unit]: 0 } as UsageCounts<U>;
  const routes: Partial<Record<string, UsageCounts<U>>> = data.keys[key] ?? {};
  for (const c of Object.values(routes)) {
    if (!c) continue;
    total.requests += c.requests;
    (total as Record<string, number>)[unit]! += (c as Record<string, number>)[unit]!;
  }
  return total;
}
