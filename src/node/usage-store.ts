/**
 * Node-only: the "prints used" tally of the hosted API (src/api/usage.ts) as a JSON file, by default
 * `hosted-usage.json` in the data folder (`usage.json` there is `labeldesk serve`'s own ledger). Writes go
 * to a temporary file in the same folder and are renamed over the old one, so a crash mid-write leaves the
 * previous tally intact, never half a file.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../engine/server/atomic-file';
import type { UsageData, UsageStorage } from '../api/usage';

/** A UsageStorage over one JSON file (created with its folder on first save). */
export function jsonFileUsageStorage(file: string): UsageStorage {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      try {
        return JSON.parse(text) as unknown;
      } catch (e) {
        throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
      }
    },
    // 0600 in a 0700 folder (created with its parents): the data folder holds label data.
    save: (data: UsageData) => writeFileAtomic(file, JSON.stringify(data, null, 2) + '\n'),
  };
}
