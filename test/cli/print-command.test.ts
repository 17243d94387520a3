import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';
import { SAMPLE_DATA } from '../support/templates';
import { decodeZpl, decodeZplToPgm } from '../support/zpl-decode';
import { zbarValues } from '../support/zbar';

const DATA = JSON.stringify(SAMPLE_DATA['shipping-4x6']);
const TRACKING = SAMPLE_DATA['shipping-4x6']!.tracking!;
let dir: string;
let emulator: ZebraEmulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-print-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('labeldesk print to a ZPL printer', () => {
  it("renders at the printer's own dpi, prints each copy once, and saves the detected dpi in its profile", async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const dataDir = join(dir, 'detect');
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--template',
      'shipping-4x6',
      '--data',
      DATA,
      '--amount',
      '2',
      '--data-dir',
      dataDir,
    ]);
    expect(r.stderr).toContain('detected 300 dpi');
    expect(r.code).toBe(0);
    expect(emulator.jobs).toHaveLength(2);
    for (const [i, job] of emulator.jobs.entries()) {
      const decoded = decodeZpl(job.zpl);
      expect(decoded.printWidth).toBe(1200); // 4 in at 300 dpi fits the 1232-dot head of a 300 dpi printer
      expect(decoded.labelLength).toBe(1800);
      const pgm = join(dir, `job-${i}.pgm`);
      decodeZplToPgm(job.zpl, pgm);
      expect(zbarValues(pgm)).toContain(TRACKING);
    }
    const profiles = JSON.parse(readFileSync(join(dataDir, 'printer-profiles.json'), 'utf8'));
    expect(profiles.profiles[0]).toMatchObject({ dpi: 300, dpiSource: 'detected' });
  });

  it("applies the printer profile's offsets as ^LH", async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const dataDir = join(dir, 'profile');
    const profile = {
      uri: emulator.uri,
      name: 'Dock 7',
      dpi: 203,
      dpiSource: 'set',
      printWidthDots: 832,
      offset: { x: 12, y: 8 },
    };
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      join(dataDir, 'printer-profiles.json'),
      JSON.stringify({ version: 1, profiles: [profile] }),
    );
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--template',
      'product-2x1',
      '--data-dir',
      dataDir,
    ]);
    expect(r.code).toBe(0);
    expect(emulator.jobs).toHaveLength(1);
    expect(emulator.jobs[0]!.zpl).toContain('^LH12,8');
  });

  it('refuses to print into a printer that reports paper out, and prints nothing', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    emulator.setFault({ paperOut: true });
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--template',
      'shipping-4x6',
      '--data',
      DATA,
      '--data-dir',
      join(dir, 'fault'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not ready \(out of paper.*\); nothing was printed/);
    expect(emulator.jobs).toHaveLength(0);
  });

  it('checks the label before touching the printer', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--template',
      'shipping-4x6',
      '--amount',
      '0',
      '--data-dir',
      join(dir, 'x'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('labeldesk: amount: must be at least 1, got 0\n');
    expect(emulator.connections()).toBe(0);
  });

  it('says "sent" only for labels the printer confirmed: a reset mid-job resends from the cut label and names it', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    // The first connection carries the status and dpi queries, then is reset inside the second label.
    let firstLabelBytes = 0;
    const dataDir = join(dir, 'reset');
    const args = ['print', '--printer', emulator.uri, '--template', 'product-2x1', '--amount', '3'];
    const warm = await cli([...args.slice(0, 5), '--amount', '1', '--data-dir', dataDir]);
    expect(warm.code).toBe(0);
    firstLabelBytes = emulator.bytesReceived();
    emulator.printer.printed.length = 0;
    emulator.jobs.length = 0;
    emulator.setFault({ dropAfterBytes: { bytes: Math.round(firstLabelBytes * 1.5), every: false } });
    const r = await cli([...args, '--data-dir', dataDir]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/label 2 was not confirmed .*; retrying in \d+ ms/);
    expect(r.stderr).toMatch(
      /sent 3 labels as ZPL at 203 dpi to tcp:\/\/127\.0\.0\.1:\d+; the printer confirmed each one/,
    );
    expect(r.stderr).toMatch(
      /warning: label 2 was sent again after the connection failed and may have printed twice/,
    );
    expect(emulator.printer.printed).toHaveLength(3);
  });

  it('a printer that takes the connection but never answers is not reported as printed', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    emulator.setFault({ silent: true });
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--template',
      'product-2x1',
      '--dpi',
      '203',
      '--force',
      '--retries',
      '1',
      '--data-dir',
      join(dir, 'silent'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/^sent /m);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^labeldesk: tcp:\/\/127\.0\.0\.1:\d+: label 1 of 1 was not confirmed after 1 retry: the printer did not answer a status query within \d+ ms; no label was confirmed; label 1 was sent 2 times and may have printed$/,
    );
  });

  it('--retries takes a whole number', async () => {
    const r = await cli([
      'print',
      '--printer',
      'tcp://127.0.0.1:1',
      '--template',
      'product-2x1',
      '--retries',
      'many',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--retries: expected a whole number/);
  });

  it('names an unreachable printer in one line', async () => {
    const r = await cli([
      'print',
      '--printer',
      'tcp://127.0.0.1:1',
      '--template',
      'product-2x1',
      '--data-dir',
      join(dir, 'y'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^labeldesk: tcp:\/\/127\.0\.0\.1:1: .+$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints to a file as ZPL or PDF by its extension', async () => {
    const zpl = join(dir, 'out.zpl');
    const pdf = join(dir, 'out.pdf');
    expect(
      (
        await cli([
          'print',
          '--printer',
          `file://${zpl}`,
          '--template',
          'product-2x1',
          '--data-dir',
          join(dir, 'z'),
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await cli([
          'print',
          '--printer',
          `file://${pdf}`,
          '--template',
          'product-2x1',
          '--data-dir',
          join(dir, 'z'),
        ])
      ).code,
    ).toBe(0);
    expect(readFileSync(zpl, 'utf8')).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('labeldesk print --markup (issue #19)', () => {
  it('prints Markup JSON as fetch-markups returns it: each copy once, its barcode scans', async () => {
    const { resolve } = await import('../../src/resolve/resolve');
    const { bundledTemplate } = await import('../support/templates');
    const markups = resolve(bundledTemplate('shipping-4x6'), SAMPLE_DATA['shipping-4x6']!, 2);
    const file = join(dir, 'shipping.markup.json');
    writeFileSync(file, JSON.stringify(markups));
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--markup',
      file,
      '--data-dir',
      join(dir, 'markup'),
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/sent 2 labels/);
    expect(emulator.jobs).toHaveLength(2);
    for (const [i, job] of emulator.jobs.entries()) {
      const pgm = join(dir, `markup-${i}.pgm`);
      decodeZplToPgm(job.zpl, pgm);
      expect(zbarValues(pgm)).toContain(TRACKING);
    }
  });

  it('refuses more than 1,000 labels of markup in one print, as --amount does, before touching the printer', async () => {
    const { resolve } = await import('../../src/resolve/resolve');
    const { bundledTemplate } = await import('../support/templates');
    const [one] = resolve(bundledTemplate('product-2x1'), {}, 1);
    const file = join(dir, 'many.markup.json');
    writeFileSync(file, JSON.stringify(Array(1001).fill(one)));
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--markup',
      file,
      '--data-dir',
      join(dir, 'many'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^labeldesk: --markup: 1001 labels in one print; the maximum is 1000/m);
    expect(emulator.jobs).toHaveLength(0);
  });

  it('refuses --markup with --template, naming both, and touches no printer', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const file = join(dir, 'any.markup.json');
    writeFileSync(file, '[]');
    const r = await cli(['print', '--printer', emulator.uri, '--markup', file, '--template', 'product-2x1']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--markup/);
    expect(r.stderr).toMatch(/--template/);
    expect(emulator.jobs).toHaveLength(0);
  });
});
