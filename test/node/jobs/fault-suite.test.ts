/**
 * The fault suite of print jobs, in-process: a 200-label job on the Zebra emulator over real TCP, stored in
 * SQLite, meets connection drops at random byte offsets, paper out (with the label held in the printer's
 * buffer, and the connection dropped while it waits), and head open. The emulator must end up with every label,
 * each exactly once, except duplicates that the job reported, at most one per fault.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLabelTag, tagLabel } from '../../../src/jobs/model';
import { runJob, type JobEvent } from '../../../src/jobs/worker';
import type { PrinterTransport } from '../../../src/printers/transport';
import { openSqliteJobStore } from '../../../src/node/jobs/sqlite-job-store';
import { createTransport } from '../../../src/node/printers/open-transport';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';

const LABELS = 200;

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
function random(seed: number): (min: number, max: number) => number {
  let a = seed >>> 0;
  return (min, max) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return min + Math.floor(r * (max - min + 1));
  };
}

/** A label of realistic size (a few KB, like a ^GFA graphic) that says which parcel it is for. */
const labelZpl = (n: number): string =>
  `^XA^PW812^LL1218^FO50,50^A0N,40,40^FDParcel ${n}^FS^FO50,120^FD${'0123456789ABCDEF'.repeat(120)}^FS^XZ`;

/** How many times the emulator received each label of job `jobId`, printed (not held or cancelled). */
function printedCounts(emulator: ZebraEmulator, jobId: number): Map<number, number> {
  const counts = new Map<number, number>();
  for (const job of emulator.printer.printed) {
    const tag = readLabelTag(job.zpl);
    if (tag?.jobId === jobId) counts.set(tag.labelNumber, (counts.get(tag.labelNumber) ?? 0) + 1);
  }
  return counts;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

describe('a 200-label job through faults (Zebra emulator, TCP, SQLite)', () => {
  it.each([1, 2, 3])('seed %i: every label printed, duplicates only where reported', async (seed) => {
    const rnd = random(seed);
    const emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-jobs-'));
    const store = openSqliteJobStore(dir);
    cleanup.push(async () => {
      store.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const job = store.createJob(
      {
        printer: emulator.uri,
        format: 'zpl',
        templateName: 'parcel',
        template: {},
        rows: [{}],
        copies: LABELS,
        dpi: 203,
        createdBy: 'fault-suite',
      },
      (jobId) => Array.from({ length: LABELS }, (_, i) => tagLabel(labelZpl(i + 1), jobId, i + 1)),
    );
    const labelBytes = store.payload(job.id, 1).length;

    // Faults, each at a label picked at random: four connection drops at a random byte offset from there, one
    // right after a label's last byte,
    // paper out as label P is written (so it is held in the buffer) with a drop while the job waits, head open
    // as label H is written.
    const dropAt = new Set<number>();
    while (dropAt.size < 4) dropAt.add(rnd(5, LABELS - 5));
    // One more drop exactly at the end of a label: it arrives whole and prints, but the job cannot know.
    let exactAt = rnd(5, LABELS - 5);
    while (dropAt.has(exactAt)) exactAt = rnd(5, LABELS - 5);
    const paperAt = rnd(60, 120);
    const headAt = rnd(130, 190);
    let faults = 0;
    let connectionBytes = 0;
    let paperPhase: 'none' | 'held' | 'dropped' | 'cleared' = 'none';
    let headDone = false;
    /** Drops the connection `offset` bytes from what has been sent on it so far. */
    const scheduleDrop = (offset: number): void => {
      faults++;
      emulator.setFault({ dropAfterBytes: { bytes: connectionBytes + offset, every: false } });
    };

    const connect = async (printer: string): Promise<PrinterTransport> => {
      const inner = createTransport(printer);
      await inner.open({ timeoutMs: 2_000 });
      connectionBytes = 0;
      return {
        uri: inner.uri,
        capabilities: inner.capabilities,
        open: (o) => inner.open(o),
        close: () => inner.close(),
        request: (data, o) => {
          connectionBytes += data.length;
          return inner.request(data, o);
        },
        write: (data, o) => {
          const tag =
            typeof data === 'string' ? readLabelTag(data) : readLabelTag(new TextDecoder().decode(data));
          if (tag && dropAt.delete(tag.labelNumber)) scheduleDrop(rnd(1, 2 * labelBytes));
          if (tag?.labelNumber === exactAt && exactAt > 0) {
            exactAt = -exactAt;
            scheduleDrop(data.length);
          }
          if (tag?.labelNumber === paperAt && paperPhase === 'none') {
            faults++;
            paperPhase = 'held';
            emulator.setFault({ paperOut: true });
          }
          if (tag?.labelNumber === headAt && !headDone) {
            headDone = true;
            faults++;
            emulator.setFault({ headOpen: true });
          }
          connectionBytes += data.length;
          return inner.write(data, o);
        },
      };
    };

    const events: JobEvent[] = [];
    const onEvent = (e: JobEvent): void => {
      events.push(e);
      if (e.kind !== 'paused') return;
      if (/paper/.test(e.reason) && paperPhase === 'held') {
        // While label P waits in the buffer, the link drops too: it must not be resent.
        paperPhase = 'dropped';
        scheduleDrop(1);
      } else if (/paper/.test(e.reason) && paperPhase === 'dropped') {
        paperPhase = 'cleared';
        emulator.setFault({ paperOut: false });
      } else if (/head/.test(e.reason)) {
        emulator.setFault({ headOpen: false });
      }
    };

    const ended = await runJob(job.id, {
      store,
      connect,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      onEvent,
      timing: { pollMs: 1, faultPollMs: 5, backoffMs: 5, maxBackoffMs: 20 },
    });

    expect(ended.state).toBe('done');
    expect(store.counts(job.id).confirmed).toBe(LABELS);
    const flagged = store
      .labels(job.id)
      .filter((l) => l.possibleDuplicate)
      .map((l) => l.number);
    const counts = printedCounts(emulator, job.id);
    for (let n = 1; n <= LABELS; n++) expect(counts.get(n) ?? 0, `label ${n}`).toBeGreaterThanOrEqual(1);
    const duplicated = [...counts].filter(([, c]) => c > 1);
    for (const [n, c] of duplicated) {
      expect(c, `label ${n} printed ${c} times`).toBe(2);
      expect(flagged, `label ${n} printed twice but was not reported`).toContain(n);
    }
    expect(flagged.length).toBeLessThanOrEqual(faults);
    expect(emulator.printer.held).toEqual([]);
    // The faults did happen, and the job told the user about each kind.
    expect(emulator.connections()).toBeGreaterThanOrEqual(7);
    // The label cut off right after its ^XZ printed before the drop: resent, and reported.
    expect(counts.get(-exactAt)).toBe(2);
    expect(flagged).toContain(-exactAt);
    expect(events.some((e) => e.kind === 'paused' && /paper/.test(e.reason))).toBe(true);
    expect(events.some((e) => e.kind === 'paused' && /head/.test(e.reason))).toBe(true);
    expect(events.some((e) => e.kind === 'resumed')).toBe(true);
    // The paper-out label was held in the printer across a dropped connection: printed once, not resent.
    expect(counts.get(paperAt)).toBe(1);
    expect(flagged).not.toContain(paperAt);
    console.log(
      `seed ${seed}: ${faults} faults, ${emulator.connections()} connections, reported ${JSON.stringify(flagged)}, printed twice ${JSON.stringify(duplicated.map(([n]) => n))}`,
    );
  });
});
