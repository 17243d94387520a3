/**
 * The fault suite's summary: one row per path and link, with the faults injected per class, labels sent and
 * received, duplicates (received more than once) and how many of those were reported, and crashes.
 */
import type { ChaosFaultKind, InjectedFault } from '../emulator/chaos';

export interface SummaryRow {
  path: string;
  link: 'tcp' | 'serial' | 'usb';
  /** Runs of this path (processes started, requests made, jobs submitted). */
  runs: number;
  faults: Partial<Record<ChaosFaultKind | 'sigkill', number>>;
  /** Labels the user asked for. */
  sent: number;
  /** Labels that arrived whole at least once. */
  received: number;
  /** Extra copies that arrived (a label received twice counts 1). */
  duplicates: number;
  /** Duplicates the program reported by label number. */
  reported: number;
  /** Unexpected exits, stack traces on stderr, unhandled rejections. */
  crashes: number;
}

const rows = new Map<string, SummaryRow>();

/** The row of `path` over `link`, created empty. */
export function row(path: string, link: SummaryRow['link']): SummaryRow {
  const key = `${path}|${link}`;
  let r = rows.get(key);
  if (!r) {
    r = { path, link, runs: 0, faults: {}, sent: 0, received: 0, duplicates: 0, reported: 0, crashes: 0 };
    rows.set(key, r);
  }
  return r;
}

/** Adds the faults a chaos printer injected to a row. */
export function countFaults(r: SummaryRow, injected: readonly InjectedFault[]): void {
  for (const f of injected) r.faults[f.kind] = (r.faults[f.kind] ?? 0) + 1;
}

/** The table as Markdown (also readable in a terminal). */
export function summaryTable(): string {
  const lines = [
    '| path | link | runs | faults injected | labels sent | received | duplicates (reported) | crashes |',
    '|---|---|---:|---|---:|---:|---:|---:|',
  ];
  let total = { runs: 0, faults: 0, sent: 0, received: 0, duplicates: 0, reported: 0, crashes: 0 };
  for (const r of rows.values()) {
    const faults = Object.entries(r.faults)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ');
    const count = Object.values(r.faults).reduce((a, b) => a + (b ?? 0), 0);
    lines.push(
      `| ${r.path} | ${r.link} | ${r.runs} | ${faults || '—'} | ${r.sent} | ${r.received} | ${r.duplicates} (${r.reported}) | ${r.crashes} |`,
    );
    total = {
      runs: total.runs + r.runs,
      faults: total.faults + count,
      sent: total.sent + r.sent,
      received: total.received + r.received,
      duplicates: total.duplicates + r.duplicates,
      reported: total.reported + r.reported,
      crashes: total.crashes + r.crashes,
    };
  }
  lines.push(
    `| **total** | | ${total.runs} | ${total.faults} | ${total.sent} | ${total.received} | ${total.duplicates} (${total.reported}) | ${total.crashes} |`,
  );
  return lines.join('\n');
}
