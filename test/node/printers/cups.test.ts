/**
 * OS queues through a real, private CUPS scheduler: a raw queue pointing at the Zebra emulator
 * (socket://127.0.0.1:PORT), ZPL printed with `lp -o raw` through our cups:// transport arrives at the printer
 * and its barcode scans. Needs cupsd, lpadmin, lp, lpstat (cups, cups-client, cups-bsd); when they are missing
 * the tests are skipped and say why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCupsTransport } from '../../../src/node/printers/cups';
import { discoverCups } from '../../../src/node/printers/discovery';
import { queryStatus } from '../../../src/printers/query';
import { PrinterNotFound, PrinterRefused, PrinterUnsupported } from '../../../src/printers/transport';
import { buildZplJob } from '../../../src/zpl/job';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { code128Label, scanZplJob } from '../../support/barcode-label';
import { cupsdUnavailableReason, startCupsd, type Cupsd } from '../../support/cupsd';

const VALUE = 'LD-CUPS-1234';
const unavailable = cupsdUnavailableReason();
if (unavailable) console.warn(`SKIPPED CUPS transport tests: ${unavailable}`);

describe.skipIf(unavailable !== null)('cups:// transport with a private cupsd', () => {
  let dir: string;
  let cupsd: Cupsd;
  let emulator: ZebraEmulator;
  let sink: Server;
  let sinkBytes: Buffer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-cups-'));
    cupsd = await startCupsd();
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    sink = createServer((s) => s.on('data', (d: Buffer) => sinkBytes.push(d)));
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
    const sinkPort = (sink.address() as { port: number }).port;
    cupsd.run('lpadmin', ['-p', 'LabelQ', '-E', '-v', `socket://127.0.0.1:${emulator.port}`]);
    cupsd.run('lpadmin', ['-p', 'Office', '-E', '-v', `socket://127.0.0.1:${sinkPort}`]);
    cupsd.run('lpadmin', ['-p', 'Closed', '-E', '-v', `socket://127.0.0.1:${sinkPort}`]);
    cupsd.run('cupsreject', ['Closed']);
  });
  afterAll(async () => {
    await cupsd?.stop();
    await emulator?.close();
    await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Waits (bounded) for the backend to deliver: CUPS prints asynchronously after lp returns. */
  async function until(done: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 300 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!done()) throw new Error(`${what} did not happen; cupsd log:\n${cupsd.errorLog().slice(-3000)}`);
  }

  it('prints ZPL raw: the emulator receives the job unchanged and the barcode scans', async () => {
    const job = buildZplJob({ bitmap: code128Label(VALUE) });
    const t = createCupsTransport({ scheme: 'cups', queue: 'LabelQ' }, { env: cupsd.env, title: 'label 1' });
    await t.open();
    await t.write(job);
    await t.close();
    expect(t.jobId).toMatch(/^LabelQ-\d+$/);
    await until(() => emulator.jobs.length === 1, 'delivery to the emulator');
    expect(emulator.jobs[0]?.zpl).toBe(job.replace(/\n$/, ''));
    expect(scanZplJob(emulator.jobs[0]?.zpl ?? '', dir)).toEqual([VALUE]);
  });

  it('abort() throws the session away: half a job written, nothing is queued or printed', async () => {
    const before = emulator.jobs.length;
    const job = buildZplJob({ bitmap: code128Label('LD-ABORTED') });
    const t = createCupsTransport({ scheme: 'cups', queue: 'LabelQ' }, { env: cupsd.env, title: 'aborted' });
    await t.open();
    await t.write(job.slice(0, Math.floor(job.length / 2)));
    await t.abort();
    await t.close(); // after an abort: nothing left to submit
    expect(t.jobId).toBeUndefined();
    // A job printed after it arrives alone: the aborted half never reached the queue.
    const next = buildZplJob({ bitmap: code128Label('LD-AFTER-ABORT') });
    const u = createCupsTransport({ scheme: 'cups', queue: 'LabelQ' }, { env: cupsd.env, title: 'next' });
    await u.open();
    await u.write(next);
    await u.close();
    await until(() => emulator.jobs.length === before + 1, 'delivery of the job after the abort');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(emulator.jobs.slice(before).map((j) => j.zpl)).toEqual([next.replace(/\n$/, '')]);
    expect(cupsd.run('lpstat', ['-o', 'LabelQ']).trim()).toBe('');
  });

  it('sends PDF without -o raw (the queue decides how to print it)', async () => {
    sinkBytes = [];
    const pdf =
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
    const t = createCupsTransport(
      { scheme: 'cups', queue: 'Office' },
      { env: cupsd.env, contentType: 'pdf' },
    );
    await t.open();
    await t.write(pdf);
    await t.close();
    await until(() => Buffer.concat(sinkBytes).includes('%%EOF'), 'PDF delivery');
    expect(Buffer.concat(sinkBytes).toString('latin1')).toContain('%PDF-1.4');
  });

  it('an unknown queue is PrinterNotFound, a queue rejecting jobs PrinterRefused, status unsupported', async () => {
    const missing = createCupsTransport({ scheme: 'cups', queue: 'NoSuchQueue' }, { env: cupsd.env });
    await expect(missing.open()).rejects.toThrow(
      new PrinterNotFound('cups://NoSuchQueue: no print queue named "NoSuchQueue"', 'cups://NoSuchQueue'),
    );
    // Even without open(), lp's own verdict is typed.
    await expect(missing.write('^XA^XZ').then(() => missing.close())).rejects.toBeInstanceOf(PrinterNotFound);
    const closed = createCupsTransport({ scheme: 'cups', queue: 'Closed' }, { env: cupsd.env });
    await expect(closed.open()).rejects.toBeInstanceOf(PrinterRefused);
    await expect(closed.write('^XA^XZ').then(() => closed.close())).rejects.toThrow(
      'cups://Closed: queue "Closed" is not accepting jobs',
    );
    const t = createCupsTransport({ scheme: 'cups', queue: 'LabelQ' }, { env: cupsd.env });
    await expect(t.request()).rejects.toBeInstanceOf(PrinterUnsupported);
    expect(await queryStatus(t)).toMatchObject({ state: 'unknown' });
  });

  it('discovery lists the queues with their device URIs; PPD-less queues are raw and take ZPL', async () => {
    const queues = await discoverCups(cupsd.env);
    expect(queues.map((q) => q.queue).sort()).toEqual(['Closed', 'LabelQ', 'Office']);
    expect(queues.find((q) => q.queue === 'LabelQ')).toEqual({
      kind: 'cups',
      uri: 'cups://LabelQ',
      name: 'LabelQ',
      zpl: true,
      queue: 'LabelQ',
      deviceUri: `socket://127.0.0.1:${emulator.port}`,
      raw: true,
      state: 'idle',
    });
  });
});
