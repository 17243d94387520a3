/**
 * The job service end to end: real Zebra emulators over TCP, real SQLite, the real renderer (counters read back
 * from the printed labels with zbarimg), and an injected renderer only where 10,000 labels would take minutes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readLabelTag } from '../../../src/jobs/model';
import type { JobServiceEvent } from '../../../src/jobs/events';
import type { PrinterTransport } from '../../../src/printers/transport';
import { parseTemplate } from '../../../src/model/parse';
import { openJobService, type JobService, type JobServiceOptions } from '../../../src/node/jobs/job-service';
import { JOBS_FILE_NAME } from '../../../src/node/jobs/sqlite-job-store';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { scanZplJob } from '../../support/barcode-label';
import { bundledTemplate } from '../../support/templates';

/** A 3×1 in label that prints its serial number as a Code 128, big enough for zbarimg at 203 dpi. */
const serials = parseTemplate({
  schemaVersion: 1,
  name: 'serials',
  stage: { width: 3, height: 1, unit: 'in' },
  fields: [
    { name: 'sku', label: 'SKU', placeholder: 'SKU' },
    {
      name: 'serial',
      label: 'Serial',
      placeholder: 'SN-000000',
      type: 'counter',
      counter: { start: 1, step: 1, width: 6, prefix: 'SN-' },
    },
  ],
  elements: [{ type: 'barcode', x: 10, y: 10, width: 270, height: 70, format: 'code128', text: '{serial}' }],
});

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-service-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function emulator(): Promise<ZebraEmulator> {
  const e = await startZebraEmulator({ dpi: 203, port: 0 });
  cleanup.push(() => e.close());
  return e;
}

function service(dataDir: string, extra: Partial<JobServiceOptions> = {}): JobService {
  const s = openJobService({ dataDir, user: 'ada', machine: 'desk-1', ...extra });
  cleanup.push(() => s.close());
  return s;
}

/** Printed labels of `jobId` on an emulator, by label number (how many times each). */
function printedCounts(e: ZebraEmulator, jobId: number): Map<number, number> {
  const counts = new Map<number, number>();
  for (const job of e.printer.printed) {
    const tag = readLabelTag(job.zpl);
    if (tag?.jobId === jobId) counts.set(tag.labelNumber, (counts.get(tag.labelNumber) ?? 0) + 1);
  }
  return counts;
}

describe('counters', () => {
  it('continue across a restart and per (template, printer) across two printers; a cancelled job burns its numbers', async () => {
    const dir = tempDir();
    const [a, b] = [await emulator(), await emulator()];
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ data: { sku: `S${i + 1}` } }));

    let jobs = service(dir);
    // Cancelled before it printed: it owned SN-000001 and SN-000002, burned, never reused.
    const cancelled = await jobs.addJob({
      template: serials,
      printer: a.uri,
      rows: rows(2),
      dpi: 203,
      start: false,
    });
    jobs.cancel(cancelled.job.id);
    const first = await jobs.addJob({
      template: serials,
      printer: a.uri,
      rows: [{ data: {}, copies: 2 }, ...rows(1)],
      dpi: 203,
    });
    const onB = await jobs.addJob({ template: serials, printer: b.uri, rows: rows(2), dpi: 203 });
    await jobs.idle();
    expect(jobs.getJob(first.job.id)?.state).toBe('done');
    expect(jobs.getJob(onB.job.id)?.state).toBe('done');
    await jobs.close();

    // A new process on the same data dir.
    jobs = service(dir);
    const after = await jobs.addJob({ template: serials, printer: a.uri, rows: rows(2), dpi: 203 });
    await jobs.idle();
    expect(jobs.getJob(after.job.id)?.state).toBe('done');

    const scanned = (e: ZebraEmulator) =>
      e.printer.printed.map((job, i) => {
        const tag = readLabelTag(job.zpl);
        return `${tag?.jobId}.${tag?.labelNumber} ${scanZplJob(job.zpl, dir, `label-${i}`).join(' ')}`;
      });
    // Copies of a row get their own numbers (one per physical label).
    expect(scanned(a)).toEqual([
      '2.1 SN-000003',
      '2.2 SN-000004',
      '2.3 SN-000005',
      '4.1 SN-000006',
      '4.2 SN-000007',
    ]);
    expect(scanned(b)).toEqual(['3.1 SN-000001', '3.2 SN-000002']);
    expect(jobs.labels(after.job.id).map((l) => [l.number, l.row, l.counters.serial])).toEqual([
      [1, 1, 'SN-000006'],
      [2, 2, 'SN-000007'],
    ]);
  }, 60_000);
});

describe('pause, resume, cancel', () => {
  it('pause mid-job stops after the label in flight; resume prints the rest: every label once', async () => {
    const dir = tempDir();
    const e = await emulator();
    const jobs = service(dir);
    const events: JobServiceEvent[] = [];
    let pausedAt = 0;
    jobs.onEvent((ev) => {
      events.push(ev);
      if (ev.kind === 'progress' && ev.done === 4 && !pausedAt) {
        pausedAt = ev.done;
        jobs.pause(ev.jobId);
      }
    });
    const { job } = await jobs.addJob({
      template: bundledTemplate('product-2x1'),
      printer: e.uri,
      rows: [{ data: { product_name: 'Oat', ean13: '590123412345' } }],
      copies: 12,
    });
    await jobs.idle();
    const held = jobs.getJob(job.id);
    expect(held).toMatchObject({ state: 'held', reason: 'paused by the user' });
    expect(held?.counts.confirmed).toBe(4);
    expect(e.printer.printed).toHaveLength(4);
    expect(events).toContainEqual({
      kind: 'paused',
      jobId: job.id,
      reason: 'paused by the user',
      byUser: true,
    });

    jobs.resume(job.id);
    await jobs.idle();
    expect(jobs.getJob(job.id)).toMatchObject({ state: 'done', possibleDuplicates: [] });
    const counts = printedCounts(e, job.id);
    expect([...counts.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect([...counts.values()].every((c) => c === 1)).toBe(true);

    const progress = events.filter((ev) => ev.kind === 'progress');
    expect(progress.at(-1)).toMatchObject({ done: 12, total: 12 });
    // Events cross IPC as they are: plain JSON.
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
    expect(events.at(-1)).toMatchObject({ kind: 'done', state: 'done', confirmed: 12, total: 12 });
    expect(jobs.audit({ jobId: job.id }).map((x) => x.action)).toEqual([
      'printed',
      'resumed',
      'paused',
      'created',
    ]);
  }, 60_000);
});

describe('reprint and the audit log', () => {
  it("a reprint to another printer renders the same labels at that printer's dpi, with the same counter values (#17 item 9)", async () => {
    const dir = tempDir();
    const dock = await emulator();
    const back = await startZebraEmulator({ dpi: 300, port: 0 });
    cleanup.push(() => back.close());
    const jobs = service(dir);
    const { job } = await jobs.addJob({
      template: serials,
      printer: dock.uri,
      rows: [{ data: {} }],
      copies: 3,
    });
    await jobs.idle();
    expect(dock.printer.printed).toHaveLength(3);

    const reprint = await jobs.reprint(job.id, [3, 1], { printer: back.uri });
    await jobs.idle();
    expect(jobs.getJob(reprint.id)).toMatchObject({
      state: 'done',
      printer: back.uri,
      labelCount: 2,
      reprintOf: job.id,
      reprintedLabels: [3, 1],
    });
    // Nothing more on the first printer; on the other, each label once, drawn for 300 dpi (3 in = 900 dots).
    expect(dock.printer.printed).toHaveLength(3);
    expect(back.printer.printed).toHaveLength(2);
    const zpl = back.printer.printed.map((p) => p.zpl);
    for (const z of zpl) expect(z).toContain('^PW900');
    expect(zpl.map((z) => readLabelTag(z))).toEqual([
      { jobId: reprint.id, labelNumber: 1 },
      { jobId: reprint.id, labelNumber: 2 },
    ]);
    // The same labels: the counters they were printed with, not new numbers.
    expect(scanZplJob(zpl[0] ?? '', dir, 'r1')).toEqual(['SN-000003']);
    expect(scanZplJob(zpl[1] ?? '', dir, 'r2')).toEqual(['SN-000001']);
    expect(jobs.labels(reprint.id)).toMatchObject([
      { number: 1, reprintOf: 3, counters: { serial: 'SN-000003' } },
      { number: 2, reprintOf: 1, counters: { serial: 'SN-000001' } },
    ]);
    // And a reprint of that reprint, back on the first printer, is still label 3 of the first job.
    const again = await jobs.reprint(reprint.id, [1], { printer: dock.uri });
    await jobs.idle();
    expect(jobs.getJob(again.id)).toMatchObject({ state: 'done', printer: dock.uri });
    const last = dock.printer.printed.at(-1)?.zpl ?? '';
    expect(last).toContain('^PW609');
    expect(scanZplJob(last, dir, 'r3')).toEqual(['SN-000003']);
    expect(jobs.audit({ jobId: reprint.id }).find((a) => a.action === 'reprinted')?.detail).toBe(
      `reprint of job ${job.id}, labels 3, 1, on ${back.uri}`,
    );
  });

  it('a reprint of one label sends exactly that label again, recorded in the append-only audit log', async () => {
    const dir = tempDir();
    const e = await emulator();
    const jobs = service(dir);
    const { job } = await jobs.addJob({ template: serials, printer: e.uri, rows: [{ data: {} }], copies: 3 });
    await jobs.idle();
    expect(e.printer.printed).toHaveLength(3);

    const reprint = await jobs.reprint(job.id, [2]);
    await jobs.idle();
    expect(jobs.getJob(reprint.id)).toMatchObject({
      state: 'done',
      labelCount: 1,
      reprintOf: job.id,
      reprintedLabels: [2],
    });
    expect(e.printer.printed).toHaveLength(4);
    const [original, again] = [e.printer.printed[1]?.zpl ?? '', e.printer.printed[3]?.zpl ?? ''];
    expect(readLabelTag(again)).toEqual({ jobId: reprint.id, labelNumber: 1 });
    const untagged = (z: string) => z.replace(/\^FXLabelDesk job \d+ label \d+\^FS/, '');
    expect(untagged(again)).toBe(untagged(original));
    expect(scanZplJob(again, dir)).toEqual(['SN-000002']);
    expect(jobs.labels(reprint.id)).toMatchObject([
      { number: 1, reprintOf: 2, counters: { serial: 'SN-000002' } },
    ]);

    const log = jobs.audit();
    expect(log[0]).toMatchObject({
      action: 'printed',
      jobId: reprint.id,
      user: 'ada',
      machine: 'desk-1',
      template: 'serials',
      printer: e.uri,
      labels: 1,
    });
    expect(log[1]).toMatchObject({
      action: 'reprinted',
      jobId: reprint.id,
      labels: 1,
      detail: `reprint of job ${job.id}, label 2`,
    });
    expect(log.map((x) => x.action)).toEqual(['printed', 'reprinted', 'printed', 'created']);

    // Append-only, whoever asks: the database itself refuses UPDATE and DELETE.
    const db = new Database(join(dir, JOBS_FILE_NAME));
    cleanup.push(() => void db.close());
    expect(() => db.prepare(`UPDATE audit_log SET user = 'mallory'`).run()).toThrow(
      'the audit log is append-only',
    );
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow('the audit log is append-only');
    expect(jobs.audit()).toHaveLength(4);
  }, 60_000);

  it('refuses what cannot be done, with a message for people', async () => {
    const dir = tempDir();
    const e = await emulator();
    const jobs = service(dir);
    const { job } = await jobs.addJob({
      template: serials,
      printer: e.uri,
      rows: [{ data: {} }],
      start: false,
    });
    await expect(jobs.reprint(job.id, [2])).rejects.toThrow(
      `job ${job.id} has labels 1 to 1; there is no label 2`,
    );
    jobs.cancel(job.id);
    expect(() => jobs.pause(job.id)).toThrow(`job ${job.id} is cancelled; it cannot be paused`);
    expect(() => jobs.cancel(job.id)).toThrow(`job ${job.id} is already cancelled`);
    expect(() => jobs.resume(99)).toThrow('no job 99');
  });
});

const LABELS = 10_000;
/** Labels actually sent before the test pauses the job (each costs a few fsyncs; the rest would take minutes). */
const PRINTED = 300; // a whole number of spooler jobs (SPOOLER_JOB_LABELS): the printer has no status

describe('a 10,000-row batch streams', () => {
  it('is created without rendering its rows; labels are rendered in chunks of 50 as printing reaches them', async () => {
    const dir = tempDir();
    const chunks: number[] = [];
    let sent = 0;
    let rendered = 0;
    let aheadAtMost = 0;
    // A printer without status (like a CUPS queue): the accepted write confirms the label.
    const transport: PrinterTransport = {
      uri: 'file:///dev/null',
      capabilities: { status: false },
      open: async () => undefined,
      write: async () => void sent++,
      request: async () => {
        throw new Error('no status');
      },
      close: async () => undefined,
    };
    const jobs = service(dir, {
      openTransport: async () => transport,
      renderLabels: async (markups) => {
        chunks.push(markups.length);
        rendered += markups.length;
        aheadAtMost = Math.max(aheadAtMost, rendered - sent);
        return markups.map((m) => `^XA^FD${JSON.stringify(m.elements[0]).length}^FS^XZ`);
      },
    });
    jobs.onEvent((e) => {
      if (e.kind === 'progress' && e.done === PRINTED) jobs.pause(e.jobId);
    });
    const rows = Array.from({ length: LABELS }, (_, i) => ({
      data: { product_name: `Item ${i + 1}`, ean13: '590123412345' },
      row: i + 2,
    }));
    const { job } = await jobs.addJob({
      template: bundledTemplate('product-2x1'),
      printer: 'file:///dev/null',
      rows,
      dpi: 203,
      start: false,
    });
    expect(job.labelCount).toBe(LABELS);
    // At creation only label 1 is rendered (so a template the engine cannot render fails before printing).
    expect(chunks).toEqual([1]);

    await jobs.start(job.id);
    expect(jobs.getJob(job.id)).toMatchObject({ state: 'held', counts: { confirmed: PRINTED } });
    expect(sent).toBe(PRINTED);
    // Never more than one chunk rendered ahead of the printer; chunks of 50 after label 1.
    expect(chunks).toEqual([1, 50, 50, 50, 50, 50, 50]);
    expect(aheadAtMost).toBeLessThanOrEqual(50);
    expect(jobs.labels(job.id).at(-1)).toMatchObject({ number: LABELS, state: 'pending', row: LABELS + 1 });
    jobs.cancel(job.id);
  }, 60_000);
});

describe('a label that cannot be rendered', () => {
  it('on a file printer (no status): the file keeps every label once — a resumed job adds to it', async () => {
    // Review finding: each connection of the job replaced the file, so the skip erased labels 1-50.
    const dir = tempDir();
    const out = join(dir, 'out.zpl');
    const jobs = service(dir);
    const rows = Array.from({ length: 60 }, (_, i) => ({
      data: { product_name: `Item ${i + 1}`, ean13: i === 54 ? '4006381333933' : '4006381333931' },
      row: i + 1,
    }));
    const { job } = await jobs.addJob({
      template: bundledTemplate('product-2x1'),
      printer: `file://${out}`,
      rows,
      dpi: 203,
    });
    await jobs.idle();
    expect(jobs.getJob(job.id)?.state).toBe('held');
    jobs.skip(job.id, [55]);
    await jobs.idle();
    expect(jobs.getJob(job.id)).toMatchObject({ state: 'done', possibleDuplicates: [] });
    const inFile = readFileSync(out, 'latin1')
      .split('^XZ')
      .map((z) => readLabelTag(`${z}^XZ`)?.labelNumber)
      .filter((n) => n !== undefined);
    expect(inFile).toEqual(Array.from({ length: 60 }, (_, i) => i + 1).filter((n) => n !== 55));
  });

  it('holds the job on that label (named with its record); the labels before it print, skip prints the rest', async () => {
    // Issue #17: a bad value in record 5 failed the whole job at "label 2" (the chunk it was rendered in).
    const e = await emulator();
    const jobs = service(tempDir());
    const product = bundledTemplate('product-2x1');
    const rows = Array.from({ length: 6 }, (_, i) => ({
      data: { product_name: `Item ${i + 1}`, ean13: i === 4 ? '4006381333933' : '4006381333931' },
      row: i + 1,
    }));
    const events: JobServiceEvent[] = [];
    jobs.onEvent((ev) => events.push(ev));
    const { job } = await jobs.addJob({ template: product, printer: e.uri, rows, dpi: 203 });
    await jobs.idle();
    const held = jobs.getJob(job.id)!;
    expect(held.state).toBe('held');
    expect(held.reason).toMatch(
      /^label 5 \(record 5\) cannot be printed: .*check digit should be 1, not 3.*; skip that label to print the others, or cancel the job$/,
    );
    expect([...printedCounts(e, job.id).keys()]).toEqual([1, 2, 3, 4]);
    expect(() => jobs.skip(job.id, [2])).toThrow(/label 2 of job \d+ is confirmed; only labels not yet sent/);
    jobs.skip(job.id, [5]);
    await jobs.idle();
    const done = jobs.getJob(job.id)!;
    expect(done).toMatchObject({ state: 'done', reason: 'skipped label 5' });
    expect(done.counts).toMatchObject({ confirmed: 5, failed: 1 });
    expect([...printedCounts(e, job.id).entries()]).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
      [6, 1],
    ]);
    expect(jobs.audit({ jobId: job.id }).map((a) => a.action)).toContain('skipped');
    expect(events.some((ev) => ev.kind === 'paused' && ev.reason.startsWith('label 5 (record 5)'))).toBe(
      true,
    );
  });
});
