/**
 * Serial over a real PTY pair (socat): the emulator core serves one end, our serial transport opens the other
 * with the URI's line settings. A job arrives whole and scans; status and dpi come back over the line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSerialTransport } from '../../../src/node/printers/serial';
import { queryDpi, queryStatus } from '../../../src/printers/query';
import { PrinterNotFound } from '../../../src/printers/transport';
import { parsePrinterUri, type SerialUri } from '../../../src/printers/uri';
import { buildZplJob } from '../../../src/zpl/job';
import { serveOnSerialPort, type SerialEmulatorLink } from '../../emulator/serial';
import { ZebraPrinterModel } from '../../emulator/zebra-core';
import { code128Label, scanZplJob } from '../../support/barcode-label';
import { openPtyPair, type PtyPair } from '../../support/pty-pair';

const VALUE = 'LD-SERIAL-7';
let dir: string;
let pty: PtyPair;
let link: SerialEmulatorLink;
const printer = new ZebraPrinterModel({ dpi: 300 });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-serial-'));
  pty = await openPtyPair();
  link = await serveOnSerialPort(printer, pty.a, 115200);
});
afterAll(async () => {
  await link?.close();
  await pty?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serial transport', () => {
  it('prints a job whose barcode scans, and reads status and dpi over the same line', async () => {
    const uri = parsePrinterUri(`serial://${pty.b}?baud=115200&flow=none`) as SerialUri;
    const t = createSerialTransport(uri);
    await t.open();
    try {
      const job = buildZplJob({ bitmap: code128Label(VALUE), maxWidthDots: 1248 });
      await t.write(job);
      // ~HS after the job: its answer proves the job's bytes went through first (one line, in order).
      expect(await queryStatus(t)).toEqual({
        state: 'ready',
        reasons: [],
        formatsInBuffer: 0,
        labelsRemaining: 0,
        labelLengthDots: 160,
      });
      expect(printer.jobs.map((j) => j.zpl)).toEqual([job.replace(/\n$/, '')]);
      expect(scanZplJob(printer.jobs[0]?.zpl ?? '', dir)).toEqual([VALUE]);
      expect(await queryDpi(t)).toEqual({ dpi: 300, source: 'sgd', printWidthDots: 1232 });
      printer.setFault({ ribbonOut: true });
      expect((await queryStatus(t)).state).toBe('ribbon-out');
      printer.setFault({ ribbonOut: false });
    } finally {
      await t.close();
    }
  });

  it('a port that does not exist is PrinterNotFound', async () => {
    const t = createSerialTransport(parsePrinterUri('serial:///dev/ttyNOPE99') as SerialUri);
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterNotFound);
    expect((error as Error).message).toBe('serial:///dev/ttyNOPE99: no serial port /dev/ttyNOPE99');
  });
});
