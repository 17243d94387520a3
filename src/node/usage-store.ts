/**
 * Node-only: the "prints used" tally of the hosted API (src/backends/usage.ts) as a JSON file, by default
 * `hosted-usage.json` in the data folder (`usage.json` there is `labeldesk serve`'s own ledger). A jsonFile:
 * writes are atomic, so a crash mid-write leaves the previous tally intact, never half a file.
 */
import { z } from 'zod';
import { jsonFile } from './files/json-file';
import type { UsageData, UsageStorage } from '../backends/usage';

/** A UsageStorage over one JSON file (created with its folder on first save). */
export function jsonFileUsageStorage(file: string): UsageStorage {
  // Read as it is: UsageTally validates it (and starts again from zero when it is not a tally).
  const stored = jsonFile(file, z.unknown(), undefined as unknown, {
    notJson: (e) => new Error(`${file} is not valid JSON: ${e.message}`),
    parse: (json) => json,
  });
  return {
    load: () => stored.read(),
    save: (data: UsageData) => stored.write(data),
  };
}
