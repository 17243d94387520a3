/**
 * Routes 03 and 04 (spec §4.3, §4.4) against the Zebra emulator over real TCP: the server asks the printer its
 * resolution (SGD head.resolution.in_dpi), renders at that dpi and sends the jobs; what the printer received
 * is decoded back to dots and its barcode scanned.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTransport } from '../../../src/node/printers/open-transport';
import { filePrinterGateway } from '../../../src/node/serve/file-printer-gateway';
import { parsePrinterProfile } from '../../../src/printers/profiles';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { zbarValues } from '../../support/zbar';
import { decodeZplToPgm } from '../../support/zpl-decode';
import { startHarness, type Harness } from './harness';

const TRACKING = '1Z999AA10123456784';
const label = (printer_id: number, amount = 2) => ({
  label_name: 'shipping-4x6',
  amount,
  apiData: { ship_to_name: 'Ada Lovelace', tracking: TRACKING },
  printer_id,
});

let work: string;
let h: Harness;
let at203: ZebraEmulator;
let at300: ZebraEmulator;
let refusing: ZebraEmulator;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ld-relay-'));
  [at203, at300, refusing] = await Promise.all([
    startZebraEmulator({ dpi: 203, port: 0 }),
    startZebraEmulator({ dpi: 300, port: 0 }),
    startZebraEmulator({ dpi: 203, port: 0 }),
  ]);
  // The job connection is reset after 200 bytes; the resolution query (~40 bytes) still gets its answer.
  refusing.setFault({ dropAfterBytes: { bytes: 200, every: true } });
  const printersFile = join(work, 'printers.json');
  writeFileSync(
    printersFile,
    JSON.stringify([
      { id: 7, uri: at203.uri, name: 'Dock 7' },
      { id: 8, uri: at300.uri, name: 'Dock 8' },
      { id: 9, uri: refusing.uri, name: 'Dock 9' },
      { id: 10, uri: 'tcp://127.0.0.1:1', name: 'Switched off' },
      { id: 20, uri: `file://${join(work, 'out.pdf')}`, name: 'PDF to file' },
    ]),
  );
  h = await startHarness({
    printers: filePrinterGateway({ file: printersFile, openTransport: (uri) => createTransport(uri) }),
  });
});

afterAll(async () => {
  await h?.close();
  await Promise.all([at203?.close(), at300?.close(), refusing?.close()]);
  rmSync(work, { recursive: true, force: true });
});

describe('03 print-relay: ZPL at the resolution the printer reports', () => {
  test.each([
    [7, () => at203, 203, 812],
    [8, () => at300, 300, 1200],
  ])(
    'printer %i: renders at its dpi, ^PW follows it, and the received label scans',
    async (id, emulator, dpi, width) => {
      const before = emulator().jobs.length;
      const a = await h.post('print-relay', label(id));
      expect(a.status).toBe(200);
      expect(a.json).toEqual({ status: 'sent_to_printer', printer_dpi: dpi });
      const jobs = emulator().jobs.slice(before);
      expect(jobs).toHaveLength(2); // one ^XA…^XZ per copy
      for (const job of jobs) {
        const decoded = decodeZplToPgm(job.zpl, join(work, `relay-${id}.pgm`));
        expect(decoded.printWidth).toBe(width); // 4 in at the printer's dpi
        expect(decoded.labelLength).toBe(6 * dpi);
        expect(zbarValues(join(work, `relay-${id}.pgm`))).toContain(TRACKING);
      }
    },
  );

  test('a printer that drops the job → 500 naming the printer (a retry may succeed)', async () => {
    const a = await h.post('print-relay', label(9));
    expect(a.status).toBe(500);
    expect(a.json.message).toContain('printer 9 ("Dock 9"');
    expect(a.json.field).toBe('printer_id');
  });

  test('a printer that cannot be reached → 500 naming the printer', async () => {
    const a = await h.post('print-relay', label(10, 1));
    expect(a.status).toBe(500);
    expect(a.json.message).toContain('printer 10 ("Switched off"');
  });

  test('a printer_id not in the printers file → 422', async () => {
    const a = await h.post('print-relay', label(99));
    expect(a.status).toBe(422);
    expect(a.json).toMatchObject({ field: 'printer_id' });
  });

  test('a file:// target takes no ZPL job on 03 (it cannot report a resolution) → 422', async () => {
    const a = await h.post('print-relay', label(20));
    expect(a.status).toBe(422);
    expect(a.json.message).toMatch(/does not take ZPL/);
  });

  test('an Idempotency-Key that is not 1 to 200 visible ASCII characters: 422 on a site, ignored by the embedded server', async () => {
    const before = at203.jobs.length;
    const a = await h.post('print-relay', label(7, 1), { ...h.headers, 'idempotency-key': 'k'.repeat(201) });
    if (h.store === 'postgres') {
      expect(a.status).toBe(422);
      expect(a.json.field).toBe('Idempotency-Key');
      expect(at203.jobs.length).toBe(before);
    } else {
      // As before issue #24: the embedded server keeps no jobs to match a key against and does not read it.
      expect(a.status).toBe(200);
      expect(at203.jobs.length).toBe(before + 1);
    }
  });

  test('a label wider than the printer prints cut, as the spec says, with a warning header naming both widths (#42 item 1)', async () => {
    const before = at203.jobs.length;
    const a = await h.post('print-relay', {
      label_name: 'packing-slip-a4',
      amount: 1,
      apiData: { order_id: 'ORD-1', customer: 'Ada', items: '1 x Box' },
      printer_id: 7,
    });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'sent_to_printer', printer_dpi: 203 });
    expect(decodeZplToPgm(at203.jobs.slice(before)[0]!.zpl, join(work, 'wide.pgm')).printWidth).toBe(832);
    expect(JSON.parse(a.headers.get('x-labeldesk-warnings') ?? '[]')).toEqual([
      'packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi: printed cut, the right 106 mm (846 dots) not printed',
    ]);
    // A label that fits carries no such header.
    const fits = await h.post('print-relay', label(7, 1));
    expect(fits.headers.get('x-labeldesk-warnings')).toBeNull();
  });

  test('RFID is encoded in the ZPL (spec §4.3 rule 7)', async () => {
    const before = at203.jobs.length;
    const a = await h.post('print-relay', {
      label_name: 'rfid-asset-4x2',
      amount: 1,
      apiData: { asset_id: 'A-1', epc: '3034257BF7194E4000001A85' },
      printer_id: 7,
    });
    expect(a.status).toBe(200);
    expect(at203.jobs.slice(before)[0]?.zpl).toContain('^RFW,H');
  });
});

describe('04 print-relay-pdf', () => {
  test('a PDF-capable target gets one vector PDF with a page per copy; status reads sent_to_printer_png', async () => {
    const a = await h.post('print-relay-pdf', label(20, 3));
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'sent_to_printer_png' });
    const pdf = join(work, 'out.pdf');
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(/Pages:\s+3\b/);
    // Vector: the text is text.
    expect(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' })).toContain('Ada Lovelace');
  });

  test('a ZPL thermal printer cannot print a PDF → 422 explaining, nothing sent', async () => {
    const before = at203.jobs.length;
    const a = await h.post('print-relay-pdf', label(7));
    expect(a.status).toBe(422);
    expect(a.json.message).toMatch(/ZPL printer and cannot print a PDF/);
    expect(at203.jobs.length).toBe(before);
  });

  test('an RFID template → 422 (a PDF cannot carry RFID; spec §4.4 rule 3)', async () => {
    const a = await h.post('print-relay-pdf', { ...label(20, 1), label_name: 'rfid-asset-4x2', apiData: {} });
    expect(a.status).toBe(422);
    expect(a.json.message).toBe('RFID labels must be rendered as ZPL because PDF cannot encode RFID tags');
  });

  test('an unknown label_name → 404, before any printer is contacted', async () => {
    const a = await h.post('print-relay-pdf', { ...label(7), label_name: 'no-such-label' });
    expect(a.status).toBe(404);
  });
});

describe('03 print-relay: the printer profile applies to every label', () => {
  test("offsets go out as ^LH and darkness as ~SD; a dpi a person set wins over the printer's answer", async () => {
    const printersFile = join(work, 'printers-profiled.json');
    writeFileSync(printersFile, JSON.stringify([{ id: 7, uri: at203.uri, name: 'Dock 7' }]));
    const profile = parsePrinterProfile({
      uri: at203.uri,
      name: 'Dock 7',
      dpi: 300,
      dpiSource: 'set',
      printWidthDots: 1232,
      darkness: 20,
      offset: { x: 12, y: 8 },
    });
    const profiled = await startHarness({
      printers: filePrinterGateway({
        file: printersFile,
        openTransport: (uri) => createTransport(uri),
        profiles: { get: async (uri) => (uri === profile.uri ? profile : undefined) },
      }),
    });
    try {
      const before = at203.jobs.length;
      const a = await profiled.post('print-relay', label(7, 1));
      expect(a.json).toEqual({ status: 'sent_to_printer', printer_dpi: 300 });
      const [job] = at203.jobs.slice(before);
      expect(job?.zpl).toContain('^LH12,8');
      expect(job?.zpl).toContain('~SD20');
      expect(job?.zpl).toContain('^PW1200');
    } finally {
      await profiled.close();
    }
  });
});
