/**
 * The job worker's decisions, one at a time, against the emulator's printer model (no sockets) and an in-memory
 * store: what happens to a label left in flight, on printers with and without status, on cancel and when the
 * printer stays unreachable. The full fault suite over TCP and SQLite is test/node/jobs/.
 */
import { describe, expect, it } from 'vitest';
import { readLabelTag, tagLabel, type Job } from '../../src/jobs/model';
import type { JobStore } from '../../src/jobs/store';
import {
  LabelNotRendered,
  runJob,
  SKIP_OR_CANCEL,
  type JobEvent,
  type WorkerDeps,
} from '../../src/jobs/worker';
import { resumeAllJobs } from '../../src/jobs/queue';
import { PrinterRefused, toBytes, type PrinterTransport } from '../../src/printers/transport';
import { ZebraPrinterModel } from '../emulator/zebra-core';
import { memoryTransport } from '../support/memory-transport';
import { memoryJobStore } from '../support/memory-job-store';

const URI = 'tcp://emulator:9100';
const zpl = (n: number): string => `^XA^FO20,20^A0N,30,30^FDParcel ${n}^FS^XZ`;

function newJob(store: JobStore, count: number, printer = URI): Job {
  return store.createJob(
    {
      printer,
      format: 'zpl',
      templateName: 't',
      template: {},
      rows: [{}],
      copies: count,
      dpi: 203,
      createdBy: 'test',
    },
    (id) => Array.from({ length: count }, (_, i) => tagLabel(zpl(i + 1), id, i + 1)),
  );
}

/** Label numbers the printer printed, in order. */
const printedNumbers = (printer: ZebraPrinterModel): number[] =>
  printer.printed.map((j) => readLabelTag(j.zpl)?.labelNumber ?? -1);

function deps(store: JobStore, connect: WorkerDeps['connect'], events: JobEvent[] = []): WorkerDeps {
  return {
    store,
    connect,
    sleep: async () => undefined,
    onEvent: (e) => events.push(e),
    timing: { pollMs: 0, faultPollMs: 0, backoffMs: 10, maxBackoffMs: 40 },
  };
}

const statusConnect =
  (printer: ZebraPrinterModel) =>
  async (uri: string): Promise<PrinterTransport> => {
    const t = memoryTransport(printer, uri);
    await t.open();
    return t;
  };

/** A printer that only accepts jobs (an OS queue, a file): records what it was given. */
function jobsOnlyConnect(written: string[]) {
  return async (uri: string): Promise<PrinterTransport> => ({
    uri,
    capabilities: { status: false },
    open: async () => undefined,
    write: async (data) => {
      written.push(new TextDecoder().decode(toBytes(data)));
    },
    request: async () => {
      throw new Error('no status');
    },
    close: async () => undefined,
  });
}

describe('runJob on a printer with status (~HS)', () => {
  it('prints every label once, in order, each confirmed', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const job = newJob(store, 5);
    const ended = await runJob(job.id, deps(store, statusConnect(printer)));
    expect(ended.state).toBe('done');
    expect(printedNumbers(printer)).toEqual([1, 2, 3, 4, 5]);
    expect(store.labels(job.id).map((l) => [l.state, l.attempts, l.possibleDuplicate])).toEqual(
      Array(5).fill(['confirmed', 1, false]),
    );
  });

  it('pauses with the reason while the printer is out of paper, and resumes by itself when it is reloaded', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    printer.setFault({ paperOut: true });
    const store = memoryJobStore();
    const job = newJob(store, 3);
    const events: JobEvent[] = [];
    const d = deps(store, statusConnect(printer), events);
    d.onEvent = (e) => {
      events.push(e);
      if (e.kind === 'paused') {
        expect(store.getJob(job.id)).toMatchObject({ state: 'paused', reason: 'out of paper (media)' });
        expect(printer.jobs).toEqual([]);
        printer.setFault({ paperOut: false });
      }
    };
    const ended = await runJob(job.id, d);
    expect(ended).toMatchObject({ state: 'done', reason: null });
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['paused', 'resumed']));
    expect(printedNumbers(printer)).toEqual([1, 2, 3]);
  });

  it('a label left in flight that is still held in the printer is waited for, not resent', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const job = newJob(store, 4);
    // As after a crash: 1 confirmed, 2 sent and held by the paused printer.
    store.setLabelState(job.id, 1, { state: 'confirmed' });
    store.setLabelState(job.id, 2, { state: 'sent', attempt: true });
    printer.setFault({ paused: true });
    const before = memoryTransport(printer);
    await before.open();
    await before.write(store.payload(job.id, 2));
    await before.close();
    const d = deps(store, statusConnect(printer));
    d.onEvent = (e) => {
      if (e.kind === 'paused') printer.setFault({ paused: false });
    };
    const ended = await runJob(job.id, d);
    expect(ended.state).toBe('done');
    expect(printedNumbers(printer)).toEqual([2, 3, 4]);
    expect(store.labels(job.id).filter((l) => l.possibleDuplicate)).toEqual([]);
  });

  it('a label left in flight that is not in the buffer is resent and reported as a possible duplicate', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const job = newJob(store, 3);
    store.setLabelState(job.id, 1, { state: 'sending', attempt: true });
    const events: JobEvent[] = [];
    const ended = await runJob(job.id, deps(store, statusConnect(printer), events));
    expect(ended.state).toBe('done');
    expect(printedNumbers(printer)).toEqual([1, 2, 3]);
    expect(store.label(job.id, 1)).toMatchObject({
      possibleDuplicate: true,
      attempts: 2,
      state: 'confirmed',
    });
    expect(events).toContainEqual({ kind: 'possible-duplicate', jobId: job.id, labelNumber: 1 });
  });

  it('stops at the next step when the job is cancelled elsewhere; unsent labels stay pending', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const job = newJob(store, 5);
    const d = deps(store, statusConnect(printer));
    d.onEvent = (e) => {
      if (e.kind === 'confirmed' && e.labelNumber === 2) store.setJobState(job.id, 'cancelled', 'by test');
    };
    const ended = await runJob(job.id, d);
    expect(ended.state).toBe('cancelled');
    expect(printedNumbers(printer)).toEqual([1, 2]);
    expect(store.counts(job.id)).toMatchObject({ confirmed: 2, pending: 3 });
  });

  it('a hold from a person stops before the next label, after the label in flight is confirmed (not resent later)', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const job = newJob(store, 5);
    const d = deps(store, async (uri) => {
      const t = await statusConnect(printer)(uri);
      let writes = 0;
      // Label 1 arrives in a printer that just ran out of paper: it sits in the buffer.
      return {
        ...t,
        write: async (data) => {
          if (writes++ === 0 && store.counts(job.id).confirmed === 0) printer.setFault({ paperOut: true });
          await t.write(data);
        },
      };
    });
    let polls = 0;
    d.sleep = async () => {
      polls++;
      if (polls === 1) store.setJobState(job.id, 'held', 'paused by the user');
      if (polls === 3) printer.setFault({ paperOut: false });
    };
    const held = await runJob(job.id, d);
    expect(held).toMatchObject({ state: 'held', reason: 'paused by the user' });
    expect(store.label(job.id, 1)).toMatchObject({ state: 'confirmed', possibleDuplicate: false });
    expect(printedNumbers(printer)).toEqual([1]);
    expect(store.counts(job.id)).toMatchObject({ confirmed: 1, pending: 4 });

    store.setJobState(job.id, 'queued', null);
    expect((await runJob(job.id, d)).state).toBe('done');
    expect(printedNumbers(printer)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a label that cannot be rendered holds the job on it; once skipped, the other labels print and it is named', async () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const job = newJob(store, 4);
    const d = deps(store, statusConnect(printer));
    d.preparePayload = async (_jobId, n) => {
      if (n === 2) throw new LabelNotRendered('label 2 cannot be printed: EAN-13 needs 12 or 13 digits');
    };
    const held = await runJob(job.id, d);
    expect(held).toMatchObject({
      state: 'held',
      reason: `label 2 cannot be printed: EAN-13 needs 12 or 13 digits; ${SKIP_OR_CANCEL}`,
    });
    expect(printedNumbers(printer)).toEqual([1]);
    expect(store.label(job.id, 2)).toMatchObject({ state: 'pending', attempts: 0 });
    // What "skip" does (the job service's skip): the label is given up on, the job goes on.
    store.setLabelState(job.id, 2, { state: 'failed' });
    store.setJobState(job.id, 'queued', null);
    const ended = await runJob(job.id, d);
    expect(ended).toMatchObject({ state: 'done', reason: 'skipped label 2' });
    expect(printedNumbers(printer)).toEqual([1, 3, 4]);
  });

  it('retries an unreachable printer with doubling, capped backoff, then leaves the job paused for a resume', async () => {
    const store = memoryJobStore();
    const job = newJob(store, 2);
    const slept: number[] = [];
    const d = deps(store, async (uri) => {
      throw new PrinterRefused(`${uri}: connection refused`, uri);
    });
    d.sleep = async (ms) => {
      slept.push(ms);
    };
    d.timing = { ...d.timing, maxConnectFailures: 4 };
    const ended = await runJob(job.id, d);
    expect(slept).toEqual([10, 20, 40, 40]);
    expect(ended.state).toBe('paused');
    expect(ended.reason).toMatch(/connection refused.*gave up after 4 retries/);
    expect(store.counts(job.id).pending).toBe(2);
  });

  it.each([
    ['garbage', 'HELLO\r\n'],
    ['a truncated answer', '\u0002030,0,0,1245,000,0,0,0,000,0,0,0\u0003\r\n'],
  ])(
    'a printer that answers ~HS with %s is retried as a lost connection, bounded by maxConnectFailures',
    async (_what, answer) => {
      const printer = new ZebraPrinterModel({ dpi: 203 });
      const store = memoryJobStore();
      const job = newJob(store, 2);
      const events: JobEvent[] = [];
      const garbled = async (uri: string): Promise<PrinterTransport> => {
        const t = memoryTransport(printer, uri);
        await t.open();
        return {
          ...t,
          // The printer takes jobs but its status answer is not a well-formed ~HS.
          request: async () => toBytes(answer),
        };
      };
      const d = deps(store, garbled, events);
      d.timing = { ...d.timing, maxConnectFailures: 3 };
      const ended = await runJob(job.id, d);
      expect(ended.state).toBe('paused');
      expect(ended.reason).toMatch(/no usable status.*gave up after 3 retries/);
      expect(events.filter((e) => e.kind === 'connection-lost')).toHaveLength(3);
      // It never took the garbage for "ready": nothing was sent.
      expect(printer.jobs).toEqual([]);
      expect(store.counts(job.id).pending).toBe(2);
    },
  );
});

describe('runJob on a printer without status (OS queue, file)', () => {
  it('confirms labels when the spooler accepts the job; labels left in flight by a crash are resent, reported', async () => {
    const written: string[] = [];
    const store = memoryJobStore();
    const job = newJob(store, 4);
    // A crash left 1 written into an lp session (lp may or may not have submitted it) and 2 half-written.
    store.setLabelState(job.id, 1, { state: 'sent', attempt: true });
    store.setLabelState(job.id, 2, { state: 'sending', attempt: true });
    const ended = await runJob(job.id, deps(store, jobsOnlyConnect(written)));
    expect(ended.state).toBe('done');
    expect(written.map((z) => readLabelTag(z)?.labelNumber)).toEqual([1, 2, 3, 4]);
    expect(store.labels(job.id).map((l) => [l.number, l.state, l.possibleDuplicate])).toEqual([
      [1, 'confirmed', true],
      [2, 'confirmed', true],
      [3, 'confirmed', false],
      [4, 'confirmed', false],
    ]);
  });

  it('a spooler that refuses the job at submission: nothing is confirmed, the labels are sent again, not lost', async () => {
    // Issue #18's finding: lp failing at close was ignored and the labels stayed "confirmed".
    const written: string[] = [];
    let refusals = 1;
    const connect = async (uri: string): Promise<PrinterTransport> => {
      const t = await jobsOnlyConnect(written)(uri);
      return {
        ...t,
        close: async () => {
          if (refusals-- > 0) throw new PrinterRefused(`${uri}: queue "Q" is not accepting jobs`, uri);
        },
      };
    };
    const store = memoryJobStore();
    const job = newJob(store, 3);
    const events: JobEvent[] = [];
    const ended = await runJob(job.id, deps(store, connect, events));
    expect(ended.state).toBe('done');
    expect(written.map((z) => readLabelTag(z)?.labelNumber)).toEqual([1, 2, 3, 1, 2, 3]);
    expect(
      events.filter((e) => e.kind === 'confirmed').map((e) => e.kind === 'confirmed' && e.labelNumber),
    ).toEqual([1, 2, 3]);
    expect(events.some((e) => e.kind === 'connection-lost' && /not accepting jobs/.test(e.reason))).toBe(
      true,
    );
    expect(store.labels(job.id).every((l) => l.state === 'confirmed' && !l.possibleDuplicate)).toBe(true);
  });

  it('a spooler that refuses every submission: the retries are counted (not reset by each write) and the job pauses', async () => {
    // Found under Wine: a queue rejecting jobs accepted every write and refused at close; a successful write
    // reset the failure count, so the job looped forever writing the same labels.
    const written: string[] = [];
    let closes = 0;
    const connect = async (uri: string): Promise<PrinterTransport> => {
      const t = await jobsOnlyConnect(written)(uri);
      return {
        ...t,
        close: async () => {
          closes++;
          if (closes > 50) throw new Error('looping: the worker kept retrying a refusing queue');
          throw new PrinterRefused(`${uri}: queue "Q" is not accepting jobs`, uri);
        },
      };
    };
    const store = memoryJobStore();
    const job = newJob(store, 2);
    const d = deps(store, connect);
    d.timing = { ...d.timing, maxConnectFailures: 3 };
    const ended = await runJob(job.id, d);
    expect(ended.state).toBe('paused');
    expect(ended.reason).toMatch(/not accepting jobs.*gave up after 3 retries/);
    // Written 4 times (the first try and 3 retries), never confirmed, nothing lost.
    expect(written).toHaveLength(8);
    expect(store.labels(job.id).map((l) => l.state)).toEqual(['pending', 'pending']);
  });
});

describe('runJob without status: what a spooler session submits', () => {
  /** An lp / Windows spooler session: closing it submits (prints) what was written; abort throws it away. */
  function spooler(printed: number[], options: { failWriteOf?: number; canAbort?: boolean } = {}) {
    return async (uri: string): Promise<PrinterTransport> => {
      let session: number[] = [];
      return {
        uri,
        capabilities: { status: false },
        open: async () => {
          session = [];
        },
        write: async (data) => {
          const n = readLabelTag(new TextDecoder().decode(toBytes(data)))?.labelNumber ?? -1;
          if (n === options.failWriteOf) throw new PrinterRefused(`${uri}: the spooler went away`, uri);
          session.push(n);
        },
        request: async () => {
          throw new Error('no status');
        },
        close: async () => {
          printed.push(...session.splice(0));
        },
        ...(options.canAbort ? { abort: async () => void session.splice(0) } : {}),
      };
    };
  }

  it('a label that cannot be rendered: the labels before it are submitted and confirmed once, none twice after the skip', async () => {
    // Review finding: they were submitted by the close in `finally` but stayed `sent`, and printed again.
    const printed: number[] = [];
    const store = memoryJobStore();
    const job = newJob(store, 8);
    const d = deps(store, spooler(printed));
    d.preparePayload = async (_id, n) => {
      if (n === 5 && store.label(job.id, 5)?.state === 'pending') {
        throw new LabelNotRendered(
          'label 5 (record 5) cannot be printed: EAN-13 check digit should be 1, not 3',
        );
      }
    };
    const held = await runJob(job.id, d);
    expect(held.state).toBe('held');
    expect(printed).toEqual([1, 2, 3, 4]);
    expect(store.labels(job.id).map((l) => l.state)).toEqual([
      ...Array(4).fill('confirmed'),
      ...Array(4).fill('pending'),
    ]);
    store.setLabelState(job.id, 5, { state: 'failed' });
    store.setJobState(job.id, 'queued', null);
    expect((await runJob(job.id, d)).state).toBe('done');
    expect(printed).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(store.labels(job.id).some((l) => l.possibleDuplicate)).toBe(false);
  });

  it('a write that fails mid-session: the session is thrown away, not submitted by the close, on every retry', async () => {
    // Review finding: label 1 printed once per retry (201 times in 200) as each failed session was closed.
    const printed: number[] = [];
    const store = memoryJobStore();
    const job = newJob(store, 3);
    const d = deps(store, spooler(printed, { failWriteOf: 2, canAbort: true }));
    d.timing = { ...d.timing, maxConnectFailures: 5 };
    const ended = await runJob(job.id, d);
    expect(ended.state).toBe('paused');
    expect(printed).toEqual([]);
    expect(store.labels(job.id).map((l) => l.state)).not.toContain('confirmed');
  });
});

describe('resumeAllJobs', () => {
  it('runs jobs one at a time per printer, oldest first, and printers side by side', async () => {
    const a = new ZebraPrinterModel({ dpi: 203 });
    const b = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    const j1 = newJob(store, 2, 'tcp://a:9100');
    const j2 = newJob(store, 2, 'tcp://b:9100');
    const j3 = newJob(store, 2, 'tcp://a:9100');
    const connect = (uri: string) => statusConnect(uri === 'tcp://a:9100' ? a : b)(uri);
    const ended = await resumeAllJobs(deps(store, connect));
    expect(ended.map((j) => [j.id, j.state])).toEqual([
      [j1.id, 'done'],
      [j2.id, 'done'],
      [j3.id, 'done'],
    ]);
    expect(a.printed.map((j) => readLabelTag(j.zpl))).toEqual([
      { jobId: j1.id, labelNumber: 1 },
      { jobId: j1.id, labelNumber: 2 },
      { jobId: j3.id, labelNumber: 1 },
      { jobId: j3.id, labelNumber: 2 },
    ]);
    expect(b.printed).toHaveLength(2);
  });

  it('leaves a printer alone while another process holds it', async () => {
    const a = new ZebraPrinterModel({ dpi: 203 });
    const store = memoryJobStore();
    newJob(store, 2);
    const events: JobEvent[] = [];
    const d = { ...deps(store, statusConnect(a), events), claimPrinter: () => undefined };
    expect(await resumeAllJobs(d)).toEqual([]);
    expect(events).toEqual([{ kind: 'printer-busy', printer: URI }]);
    expect(a.jobs).toEqual([]);
  });
});
