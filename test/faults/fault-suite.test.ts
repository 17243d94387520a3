/**
 * The fault suite (issue #15): every path that sends labels to a printer meets the chaos printer
 * (test/emulator/chaos.ts) over the links it supports, with faults drawn from fixed seeds (a failing seed is
 * replayed by running the suite again: the seeds are in the test names).
 *
 * For each run it checks what a user would: the process never crashes (exit code 0 or 1, no stack trace, no
 * unhandled rejection), every label arrives, a label arrives twice at most once per fault and then is reported
 * by number, `--retries` bounds every kind of retry, a stalled printer is not reported as "sent", and the
 * message is one line naming the printer. The summary table (faults per class and path, labels sent, received,
 * duplicates, crashes) is printed at the end and kept in docs/reliability.md.
 *
 * Matrix (cells left out, and why):
 * - `labeldesk print`, `batch` + SIGKILL + `jobs resume`: TCP and serial. USB needs a device the process can
 *   open; the emulated one lives in this process only (src/node/printers/usb.ts takes `listDevices` in-process).
 * - the job service (the app's `main/app/jobs.ts` in web mode over TCP and serial; the service itself over USB).
 * - `serve` print-relay: TCP with concurrent requests; serial one request at a time (a tty has one user: a
 *   second concurrent open is refused, which is not a fault of the printer).
 * - RST, FIN, stalled and slow readers are TCP ideas: on serial a "reset" pulls the cable (the line goes dead
 *   for 300 ms); USB cannot push back (no stop-reading or slow-reader there).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../main/app/services';
import { plainCipher } from '../../main/app/secret-store';
import { dispatch } from '../../main/app/dispatch';
import { openJobService } from '../../src/node/jobs/job-service';
import { createUsbTransport } from '../../src/node/printers/usb';
import type { AppEvent, ChannelName, RequestOf, ResponseOf } from '../../src/ipc/contract';
import { parsePrinterUri, type UsbUri } from '../../src/printers/uri';
import { readLabelTag } from '../../src/jobs/model';
import { createKey } from '../../src/node/serve/key-store';
import { startZebraEmulator } from '../emulator/zebra-emulator';
import {
  FAULTS_BY_LINK,
  randomFaults,
  type ChaosFault,
  CHAOS_FAULT_KINDS,
  type ChaosFaultKind,
  type ChaosPrinter,
} from '../emulator/chaos';
import { seededRandom } from '../support/random';
import { SAMPLE_DATA, bundledTemplate } from '../support/templates';
import { chaosTarget } from './chaos-link';
import { buildCli, crashOf, killRunning, lastLine, runCli, type Exit } from './cli-process';
import { countFaults, row, summaryTable } from './summary';

let work: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ld-faults-'));
  process.on('unhandledRejection', onUnhandled);
  buildCli();
}, 60_000);

afterAll(() => {
  killRunning();
  process.off('unhandledRejection', onUnhandled);
  rmSync(work, { recursive: true, force: true });
  console.log(`\nFault suite summary\n\n${summaryTable()}\n`);
  if (unhandled.length) console.log('unhandled rejections:', unhandled);
});

let dirs = 0;
const freshDir = (name: string): string => {
  const dir = join(work, `${name}-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Fault classes a `labeldesk print` or job run meets at random (each recovers by itself). */
const RECOVERING: readonly ChaosFaultKind[] = CHAOS_FAULT_KINDS;
const SERIAL: readonly ChaosFaultKind[] = RECOVERING.filter((k) => k !== 'stop-reading');

/** How many times each label tag of job 1 was printed. */
function printedTags(printer: ChaosPrinter): Map<number, number> {
  const counts = new Map<number, number>();
  for (const job of printer.printed) {
    const tag = readLabelTag(job.zpl);
    if (tag) counts.set(tag.labelNumber, (counts.get(tag.labelNumber) ?? 0) + 1);
  }
  return counts;
}

/**
 * The extra copies a command reported, one entry per resend: "label 3 was sent again after …" counts 3 once,
 * "label 2 was sent again 2 times after …" counts 2 twice (src/printers/deliver.ts describeResends).
 */
function reportedResends(stderr: string): number[] {
  const out: number[] = [];
  for (const m of stderr.matchAll(/label (\d+) was sent again(?: (\d+) times)? after/g)) {
    for (let i = 0; i < Number(m[2] ?? 1); i++) out.push(Number(m[1]));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

describe('labeldesk print (child process) through faults', () => {
  const AMOUNT = 3;
  let labelBytes = 0;

  beforeAll(async () => {
    // One clean print to learn how many bytes a print of AMOUNT labels is, so faults land inside it.
    const clean = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await runCli(printArgs(clean.uri, freshDir('print-clean'))).exit;
    expect(r.code, r.stderr).toBe(0);
    labelBytes = Math.round(clean.bytesReceived() / AMOUNT);
    await clean.close();
  }, 30_000);

  function printArgs(uri: string, dataDir: string, ...extra: string[]): string[] {
    return [
      'print',
      '--printer',
      uri,
      '--template',
      'product-2x1',
      '--data',
      JSON.stringify(SAMPLE_DATA['product-2x1']),
      '--amount',
      String(AMOUNT),
      '--data-dir',
      dataDir,
      ...extra,
    ];
  }

  /** Checks one run and adds it to the summary; returns the exit. */
  async function printThrough(
    link: 'tcp' | 'serial',
    faults: readonly ChaosFault[],
    seed: number,
    ...extra: string[]
  ): Promise<{ exit: Exit; printer: ChaosPrinter }> {
    const target = await chaosTarget(link, faults, seed);
    try {
      const exit = await runCli(printArgs(target.uri, freshDir('print'), '--retries', '4', ...extra), 25_000)
        .exit;
      const printer = target.printer;
      const summary = row('labeldesk print', link);
      summary.runs++;
      countFaults(summary, printer.injected);
      const crash = crashOf(exit);
      if (crash) summary.crashes++;
      const context = `seed ${seed}, faults ${JSON.stringify(printer.injected)}:\n${exit.stderr}`;
      // Copies are identical (one template, one data row): count whole formats that arrived.
      const arrived = printer.jobs.length;
      const warned = reportedResends(exit.stderr);
      summary.sent += AMOUNT;
      summary.received += Math.min(arrived, AMOUNT);
      summary.duplicates += Math.max(0, arrived - AMOUNT);
      summary.reported += warned.length;
      expect(crash, context).toBeUndefined();
      if (exit.code === 0) {
        expect(exit.stderr, `seed ${seed}`).toMatch(new RegExp(`^sent ${AMOUNT} labels `, 'm'));
        expect(arrived, `seed ${seed}: "sent" but the printer has ${arrived} labels`).toBeGreaterThanOrEqual(
          AMOUNT,
        );
        expect(arrived - AMOUNT, `duplicates not reported; ${context}`).toBeLessThanOrEqual(warned.length);
        expect(warned.length).toBeLessThanOrEqual(printer.injected.length);
      } else {
        const message = lastLine(exit.stderr);
        expect(message, `seed ${seed}`).toMatch(/^labeldesk: /);
        expect(message).toContain(target.uri.split('?')[0]);
        expect(exit.stderr, `seed ${seed}: failed, yet said "sent"`).not.toMatch(/^sent /m);
        // What it says was confirmed did arrive; beyond that, at most one copy per fault it met (the label in
        // flight at each fault may have arrived before the fault: it is sent again on the next connection).
        const confirmed =
          /labels 1 to (\d+) were confirmed/.exec(message)?.[1] ??
          (/label 1 was confirmed/.test(message) ? '1' : '0');
        expect(arrived, `seed ${seed}: ${message}`).toBeGreaterThanOrEqual(Number(confirmed));
        const faultsMet = (exit.stderr.match(/was not confirmed \(/g) ?? []).length + 1;
        expect(arrived, context).toBeLessThanOrEqual(Number(confirmed) + faultsMet);
      }
      return { exit, printer };
    } finally {
      await target.close();
    }
  }

  it.each([1, 2, 3, 4, 5])(
    'TCP, seed %i: 2 random faults',
    async (seed) => {
      const rnd = seededRandom(seed);
      await printThrough(
        'tcp',
        randomFaults(seed, {
          count: 2,
          kinds: RECOVERING,
          firstByte: rnd(1, AMOUNT * labelBytes),
          spacing: [labelBytes / 2, labelBytes * 2],
          maxMs: 1000,
        }),
        seed,
      );
    },
    60_000,
  );

  it.each([11, 12, 13])(
    'serial, seed %i: 2 random faults',
    async (seed) => {
      const rnd = seededRandom(seed);
      await printThrough(
        'serial',
        randomFaults(seed, {
          count: 2,
          kinds: SERIAL,
          firstByte: rnd(1, AMOUNT * labelBytes),
          spacing: [labelBytes / 2, labelBytes * 2],
          maxMs: 1000,
        }),
        seed,
      );
    },
    60_000,
  );

  it('a printer that answers every ~HS with garbage: --retries 2 ends it, exit 1, nothing claimed as sent', async () => {
    const { exit } = await printThrough(
      'tcp',
      [{ kind: 'garbage-answer', byte: labelBytes, count: Number.POSITIVE_INFINITY }],
      21,
      '--retries',
      '2',
    );
    expect(exit.code).toBe(1);
    expect(lastLine(exit.stderr)).toMatch(/after 2 retries/);
  }, 60_000);

  it('a printer that stops reading for good: reported as not confirmed/stalled, exit 1, never "sent"', async () => {
    const faults: ChaosFault[] = [1, 2, 3, 4, 5].map((connection) => ({
      kind: 'stop-reading',
      connection,
      byte: connection === 1 ? labelBytes + 200 : 0,
    }));
    const { exit } = await printThrough('tcp', faults, 22, '--retries', '1');
    expect(exit.code).toBe(1);
    expect(lastLine(exit.stderr)).toMatch(/not confirmed|stopped accepting/);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------------------

describe('labeldesk batch + SIGKILL + labeldesk jobs resume (child processes) through faults', () => {
  const ROWS = 30;
  const LABEL_BYTES = 1100;

  function productsCsv(dir: string): string {
    const lines = ['Product name,SKU,Price,EAN-13'];
    for (let i = 1; i <= ROWS; i++) lines.push(`Oat drink ${i},SKU-${i},2.49,590123412345`);
    const path = join(dir, 'products.csv');
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  }

  async function batchThrough(link: 'tcp' | 'serial', seed: number): Promise<void> {
    const rnd = seededRandom(seed);
    const faults = randomFaults(seed, {
      count: 3,
      kinds: link === 'tcp' ? RECOVERING : SERIAL,
      firstByte: rnd(LABEL_BYTES, 8 * LABEL_BYTES),
      spacing: [4 * LABEL_BYTES, 9 * LABEL_BYTES],
      maxMs: 1000,
    });
    const target = await chaosTarget(link, faults, seed);
    const printer = target.printer;
    const summary = row('labeldesk batch + SIGKILL + jobs resume', link);
    const dir = freshDir('batch');
    const common = ['--data-dir', dir, '--retries', '6'];
    const exits: Exit[] = [];
    try {
      // One SIGKILL once a random number of labels has printed (the label has arrived, the process has not yet
      // recorded it), then `jobs resume` until the job is done.
      const killAt = rnd(5, ROWS - 5);
      const first = runCli([
        'batch',
        '--csv',
        productsCsv(dir),
        '--template',
        'product-2x1',
        '--printer',
        target.uri,
        '--by',
        'ada',
        ...common,
      ]);
      const stop = printer.onJob(() => {
        if (printer.printed.length < killAt) return;
        stop();
        first.child.kill('SIGKILL');
      });
      const killed = await first.exit;
      stop();
      exits.push(killed);
      summary.runs++;
      const wasKilled = killed.signal === 'SIGKILL';
      if (wasKilled) summary.faults.sigkill = (summary.faults.sigkill ?? 0) + 1;
      if (crashOf(killed, true)) summary.crashes++;
      expect(crashOf(killed, true), killed.stderr).toBeUndefined();

      let last = killed;
      for (let run = 0; run < 4 && !/^job 1 done/m.test(last.stdout); run++) {
        last = await runCli(['jobs', 'resume', ...common]).exit;
        exits.push(last);
        summary.runs++;
        const crash = crashOf(last);
        if (crash) summary.crashes++;
        expect(crash, `seed ${seed}: ${last.stderr}`).toBeUndefined();
      }
      const context = `seed ${seed}, faults ${JSON.stringify(printer.injected)}, kill at ${killAt}:\n${exits.map((e) => e.stdout + e.stderr).join('\n---\n')}`;
      expect(last.code, context).toBe(0);
      expect(last.stdout, context).toMatch(new RegExp(`^job 1 done: ${ROWS}/${ROWS} confirmed`, 'm'));

      const show = await runCli(['jobs', 'show', '1', '--json', '--data-dir', dir]).exit;
      const shown = JSON.parse(show.stdout) as { state: string; possibleDuplicates: number[] };
      const counts = printedTags(printer);
      const duplicated = [...counts].filter(([, c]) => c > 1);
      summary.sent += ROWS;
      summary.received += [...counts.keys()].length;
      summary.duplicates += duplicated.reduce((n, [, c]) => n + c - 1, 0);
      summary.reported += shown.possibleDuplicates.length;
      countFaults(summary, printer.injected);
      for (let n = 1; n <= ROWS; n++)
        expect(counts.get(n) ?? 0, `label ${n}; ${context}`).toBeGreaterThanOrEqual(1);
      // At most one extra copy per fault (two faults on the same label can print it three times), each
      // label printed more than once flagged.
      const extra = duplicated.reduce((n, [, c]) => n + c - 1, 0);
      const faultCount = printer.injected.length + (wasKilled ? 1 : 0);
      expect(extra, `extra copies; ${context}`).toBeLessThanOrEqual(faultCount);
      for (const [n, c] of duplicated)
        expect(shown.possibleDuplicates, `label ${n} printed ${c} times, not reported; ${context}`).toContain(
          n,
        );
      expect(shown.possibleDuplicates.length).toBeLessThanOrEqual(faultCount);
      // The user sees each possible duplicate by number in the summary line.
      for (const n of shown.possibleDuplicates)
        expect(last.stdout).toMatch(new RegExp(`possible duplicates: .*\\b${n}\\b`));
    } finally {
      await target.close();
    }
  }

  it.each([31, 32])(
    'TCP, seed %i: 3 random faults and one SIGKILL',
    (seed) => batchThrough('tcp', seed),
    120_000,
  );
  it.each([41])(
    'serial, seed %i: 3 random faults and one SIGKILL',
    (seed) => batchThrough('serial', seed),
    120_000,
  );

  it('a printer that answers every ~HS with garbage: --retries 2 leaves the job paused and the command ends', async () => {
    const target = await chaosTarget(
      'tcp',
      [{ kind: 'garbage-answer', byte: 3 * LABEL_BYTES, count: Number.POSITIVE_INFINITY }],
      51,
    );
    const summary = row('labeldesk batch + SIGKILL + jobs resume', 'tcp');
    const dir = freshDir('batch-garbage');
    try {
      const exit = await runCli([
        'batch',
        '--csv',
        productsCsv(dir),
        '--template',
        'product-2x1',
        '--printer',
        target.uri,
        '--data-dir',
        dir,
        '--retries',
        '2',
      ]).exit;
      summary.runs++;
      countFaults(summary, target.printer.injected);
      const crash = crashOf(exit);
      if (crash) summary.crashes++;
      expect(crash, exit.stderr).toBeUndefined();
      expect(exit.code, exit.stderr).toBe(1);
      expect(exit.stdout).toMatch(/^job 1 paused \(.*gave up after 2 retries\)/m);
      // It printed some labels before the garbage began, and no label was claimed beyond those the printer took.
      expect(target.printer.printed.length).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------------------

describe('the job service through faults: the app in web mode (main/app/jobs.ts), and the service over USB', () => {
  const COPIES = 20;
  const LABEL_BYTES = 1100;

  /** An app as web mode builds it, with one printer: the chaos printer. */
  async function appWith(uri: string): Promise<{ services: AppServices; events: AppEvent[] }> {
    const services = await createAppServices({
      dataDir: freshDir('app'),
      shell: 'web',
      version: 'test',
      cipher: plainCipher,
      printers: [{ id: 1, uri, name: 'Dock chaos' }],
    });
    const events: AppEvent[] = [];
    services.onEvent((e) => events.push(e));
    return { services, events };
  }

  async function call<C extends ChannelName>(
    services: AppServices,
    channel: C,
    request: RequestOf<C>,
  ): Promise<ResponseOf<C>> {
    const answer = await dispatch(services, channel, request);
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`);
    return answer.result as ResponseOf<C>;
  }

  function faultsFor(link: 'tcp' | 'serial' | 'usb', seed: number): ChaosFault[] {
    const rnd = seededRandom(seed);
    const kinds = link === 'tcp' ? RECOVERING : link === 'serial' ? SERIAL : FAULTS_BY_LINK.usb;
    return randomFaults(seed, {
      count: 3,
      kinds,
      firstByte: rnd(LABEL_BYTES, 6 * LABEL_BYTES),
      spacing: [3 * LABEL_BYTES, 6 * LABEL_BYTES],
      maxMs: 1000,
    });
  }

  /** Every label printed, extra copies at most one per fault, each flagged in the job's labels. */
  function checkJob(
    path: string,
    link: 'tcp' | 'serial' | 'usb',
    printer: ChaosPrinter,
    state: string,
    flagged: number[],
    context: string,
  ): void {
    const summary = row(path, link);
    summary.runs++;
    countFaults(summary, printer.injected);
    const counts = printedTags(printer);
    const duplicated = [...counts].filter(([, c]) => c > 1);
    const extra = duplicated.reduce((n, [, c]) => n + c - 1, 0);
    summary.sent += COPIES;
    summary.received += counts.size;
    summary.duplicates += extra;
    summary.reported += flagged.length;
    expect(state, context).toBe('done');
    for (let n = 1; n <= COPIES; n++)
      expect(counts.get(n) ?? 0, `label ${n}; ${context}`).toBeGreaterThanOrEqual(1);
    expect(extra, context).toBeLessThanOrEqual(printer.injected.length);
    for (const [n, c] of duplicated)
      expect(flagged, `label ${n} printed ${c} times; ${context}`).toContain(n);
  }

  it.each([
    ['tcp', 61],
    ['tcp', 62],
    ['serial', 63],
  ] as const)(
    'app (web mode), %s, seed %i: 3 random faults, a 20-label print',
    async (link, seed) => {
      const target = await chaosTarget(link, faultsFor(link, seed), seed);
      const { services, events } = await appWith(target.uri);
      try {
        const sent = await call(services, 'print.submit', {
          ref: { source: 'bundled', name: 'product-2x1' },
          values: SAMPLE_DATA['product-2x1'] ?? {},
          copies: COPIES,
          printer: '1',
        });
        const id = sent.job?.id;
        expect(id).toBeDefined();
        let detail = await call(services, 'jobs.get', { id: id ?? 0 });
        while (!['done', 'failed', 'cancelled'].includes(detail.job.state)) {
          await new Promise((r) => setTimeout(r, 100));
          detail = await call(services, 'jobs.get', { id: id ?? 0 });
        }
        const flagged = detail.labels.filter((l) => l.possibleDuplicate).map((l) => l.number);
        const context = `seed ${seed}, faults ${JSON.stringify(target.printer.injected)}, job ${JSON.stringify(detail.job)}`;
        checkJob('app print.submit (web mode)', link, target.printer, detail.job.state, flagged, context);
        // Each possible duplicate was told to the user by label number.
        for (const n of flagged)
          expect(events.some((e) => e.kind === 'job' && e.message?.includes(`Label ${n} `))).toBe(true);
      } finally {
        await services.close();
        await target.close();
      }
    },
    120_000,
  );

  it.each([71, 72])(
    'job service over USB, seed %i: 3 random faults (unplugs among them)',
    async (seed) => {
      const target = await chaosTarget('usb', faultsFor('usb', seed), seed);
      const usb = target.usb;
      if (!usb) throw new Error('no USB device');
      const service = openJobService({
        dataDir: freshDir('usb'),
        openTransport: async (uri) => {
          const t = createUsbTransport(parsePrinterUri(uri) as UsbUri, {
            listDevices: usb.listDevices,
            detachKernelDriver: true,
          });
          await t.open({ timeoutMs: 2_000 });
          return t;
        },
        timing: { backoffMs: 100, maxBackoffMs: 500, faultPollMs: 100 },
      });
      try {
        const { job } = await service.addJob({
          template: bundledTemplate('product-2x1'),
          printer: target.uri,
          rows: [{ data: SAMPLE_DATA['product-2x1'] ?? {} }],
          copies: COPIES,
          dpi: 203,
        });
        await service.idle();
        const done = service.getJob(job.id);
        const context = `seed ${seed}, faults ${JSON.stringify(target.printer.injected)}, job ${JSON.stringify(done)}`;
        checkJob(
          'job service',
          'usb',
          target.printer,
          done?.state ?? '?',
          done?.possibleDuplicates ?? [],
          context,
        );
      } finally {
        await service.close();
        await target.close();
      }
    },
    120_000,
  );

  it('app: a printer that answers only garbage is shown as a lost connection that backs off, never as printing', async () => {
    const target = await chaosTarget(
      'tcp',
      [{ kind: 'garbage-answer', byte: 2 * LABEL_BYTES, count: Number.POSITIVE_INFINITY }],
      64,
    );
    const { services, events } = await appWith(target.uri);
    try {
      const sent = await call(services, 'print.submit', {
        ref: { source: 'bundled', name: 'product-2x1' },
        values: SAMPLE_DATA['product-2x1'] ?? {},
        copies: 5,
        printer: '1',
      });
      const lost = () => events.filter((e) => e.kind === 'job' && /Connection lost/.test(e.message ?? ''));
      while (lost().length < 4) await new Promise((r) => setTimeout(r, 50));
      const summary = row('app print.submit (web mode)', 'tcp');
      summary.runs++;
      countFaults(summary, target.printer.injected);
      const detail = await call(services, 'jobs.get', { id: sent.job?.id ?? 0 });
      expect(detail.job.state).toBe('paused');
      expect(detail.job.reason).toMatch(/connection lost: .*status/);
      const status = events.filter((e) => e.kind === 'printer-status').at(-1);
      expect(status).toMatchObject({ status: { state: 'offline' } });
      // Backing off (250, 500, 1000 ms …), not polling every 500 ms: 4 losts took at least 5 connections.
      expect(target.printer.sessionsOpened).toBeLessThanOrEqual(6);
    } finally {
      await services.close();
      await target.close();
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------------------

describe('labeldesk serve print-relay (route 03, child process) through faults, concurrent requests', () => {
  interface Serve {
    url: string;
    headers: Record<string, string>;
    exit: Promise<Exit>;
    child: ChildProcess;
  }

  async function startServe(printers: { id: number; uri: string; name: string }[]): Promise<Serve> {
    const dir = freshDir('serve');
    const { key, secret } = await createKey(join(dir, 'keys.json'));
    const file = join(dir, 'printers.json');
    writeFileSync(file, JSON.stringify(printers));
    const { child, exit } = runCli(
      ['serve', '--port', '0', '--data-dir', dir, '--printers', file, '--rate-limit', '100000'],
      150_000,
    );
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      void exit.then((e) => reject(new Error(`serve ended: ${e.stderr}`)));
    });
    return {
      url,
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-api-secret': secret },
      exit,
      child,
    };
  }

  const body = (n: number, printerId: number) => ({
    label_name: 'product-2x1',
    amount: 1,
    apiData: { ...SAMPLE_DATA['product-2x1'], product_name: `Parcel ${n}`, sku: `SKU-${n}` },
    printer_id: printerId,
  });

  async function post(
    serve: Serve,
    payload: unknown,
  ): Promise<{ status: number; json: { message?: string } }> {
    const response = await fetch(`${serve.url}/custom-labels/print-relay`, {
      method: 'POST',
      headers: serve.headers,
      body: JSON.stringify(payload),
    });
    const text = await response.text();
    let json: { message?: string } = {};
    try {
      json = JSON.parse(text) as { message?: string };
    } catch {
      // not JSON: checked below through the status
    }
    return { status: response.status, json };
  }

  it.each([
    ['tcp', 81, 24, 6],
    ['serial', 82, 6, 1],
  ] as const)(
    '%s, seed %i: %i requests, %i at a time; 2xx only for a label delivered in full, 500 only for one that was not',
    async (link, seed, requests, concurrency) => {
      const reference = await startZebraEmulator({ dpi: 203, port: 0 });
      const rnd = seededRandom(seed);
      const labelBytes = 1100;
      const target = await chaosTarget(
        link,
        randomFaults(seed, {
          count: 4,
          kinds: link === 'tcp' ? RECOVERING : SERIAL,
          firstByte: rnd(labelBytes, 4 * labelBytes),
          spacing: [3 * labelBytes, 5 * labelBytes],
          maxMs: 800,
        }),
        seed,
      );
      const serve = await startServe([
        { id: 1, uri: reference.uri, name: 'Reference' },
        { id: 2, uri: target.uri, name: 'Dock chaos' },
      ]);
      const summary = row('serve print-relay (03)', link);
      try {
        // What each request's label looks like as ZPL, from a printer without faults.
        const expected: string[] = [];
        for (let n = 1; n <= requests; n++) {
          const a = await post(serve, body(n, 1));
          expect(a.status, JSON.stringify(a.json)).toBe(200);
          expected.push(reference.jobs.at(-1)?.zpl ?? '');
        }
        expect(new Set(expected).size).toBe(requests);
        const arrivals = (n: number): number =>
          target.printer.jobs.filter((j) => j.zpl === expected[n - 1]).length;

        const problems: string[] = [];
        const one = async (n: number): Promise<void> => {
          // The spec's client: on 500, retry once.
          for (let attempt = 1; attempt <= 2; attempt++) {
            const a = await post(serve, body(n, 2));
            const got = arrivals(n);
            if (a.status >= 200 && a.status < 300) {
              if (got === 0) problems.push(`request ${n}: ${a.status} but the label did not arrive`);
              return;
            }
            if (a.status !== 500) problems.push(`request ${n}: answered ${a.status}`);
            if (attempt === 1 && got > 0)
              problems.push(`request ${n}: 500 (${a.json.message}) although the label had arrived (${got}×)`);
            if (!/printer 2 \("Dock chaos"/.test(a.json.message ?? ''))
              problems.push(`request ${n}: the message does not name the printer: ${a.json.message}`);
          }
        };
        for (let first = 1; first <= requests; first += concurrency) {
          const wave = Array.from(
            { length: Math.min(concurrency, requests - first + 1) },
            (_, i) => first + i,
          );
          await Promise.all(wave.map(one));
        }

        expect(serve.child.exitCode, 'serve is still running').toBeNull();
        serve.child.kill('SIGTERM');
        // SIGTERM stops it within a few seconds, or it hangs.
        const stopped = await Promise.race([
          serve.exit.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
        ]);
        if (!stopped) serve.child.kill('SIGKILL');
        const exit = await serve.exit;
        const crash = stopped ? crashOf(exit) : 'serve did not stop on SIGTERM';
        summary.runs += requests;
        countFaults(summary, target.printer.injected);
        const received = expected.filter((_, i) => arrivals(i + 1) > 0).length;
        const extra = expected.reduce((sum, _, i) => sum + Math.max(0, arrivals(i + 1) - 1), 0);
        const reported = reportedResends(exit.stderr).length;
        summary.sent += requests;
        summary.received += received;
        summary.duplicates += extra;
        summary.reported += reported;
        if (crash) summary.crashes++;
        const context = `seed ${seed}, faults ${JSON.stringify(target.printer.injected)}:\n${exit.stderr}`;
        expect(crash, context).toBeUndefined();
        expect(exit.code, context).toBe(0);
        expect(problems, context).toEqual([]);
        expect(extra, context).toBeLessThanOrEqual(target.printer.injected.length);
        expect(extra, `duplicates not logged; ${context}`).toBeLessThanOrEqual(reported);
      } finally {
        if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
        await reference.close();
        await target.close();
      }
    },
    90_000,
  );
});
