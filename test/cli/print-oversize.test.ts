/**
 * #42 item 1 on the command line: a label wider than the printer's head is refused in one sentence naming both
 * widths, unless `--allow-cut` (printed cut, as asked) or `--fit` (laid out smaller so the whole label prints;
 * its barcode still scans). Against the Zebra emulator, a 4-inch head at 203 dpi (832 dots).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';
import { SAMPLE_DATA } from '../support/templates';
import { decodeZpl, decodeZplToPgm } from '../support/zpl-decode';
import { zbarValues } from '../support/zbar';
import { getDot } from '../../src/render/bitmap';

const SLIP = SAMPLE_DATA['packing-slip-a4']!;
const DATA = JSON.stringify(SLIP);
let dir: string;
let emulator: ZebraEmulator;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-print-cut-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await emulator.close();
});

const print = (name: string, ...extra: string[]) =>
  cli([
    'print',
    '--printer',
    emulator.uri,
    '--template',
    'packing-slip-a4',
    '--data',
    DATA,
    '--data-dir',
    join(dir, name),
    ...extra,
  ]);

describe('labeldesk print of an A4 packing slip to a 4-inch printer', () => {
  it('refuses in one sentence naming both widths, and prints nothing', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await print('refuse');
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      'labeldesk: packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi: add --fit to scale it, or --allow-cut to print it cut.',
    );
    expect(r.stderr).not.toMatch(/confirmed/);
    expect(emulator.jobs).toHaveLength(0);
  });

  it('--allow-cut prints it cut, as asked: 832 dots of it, and says so', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await print('cut', '--allow-cut');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: packing-slip-a4 printed cut, the right 106 mm \(846 dots\) not printed/,
    );
    expect(emulator.jobs).toHaveLength(1);
    const decoded = decodeZpl(emulator.jobs[0]!.zpl);
    expect(decoded.printWidth).toBe(832);
    expect(decoded.labelLength).toBe(2374);
    // The order's barcode sits on the right half: it is not on the label.
    const pgm = join(dir, 'cut.pgm');
    decodeZplToPgm(emulator.jobs[0]!.zpl, pgm, 20, 2);
    expect(zbarValues(pgm)).not.toContain(SLIP.order_id);
  });

  it('--fit prints the whole slip within the head, aspect kept, and its barcode scans', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await print('fit', '--fit');
    expect(r.code).toBe(0);
    expect(emulator.jobs).toHaveLength(1);
    const zpl = emulator.jobs[0]!.zpl;
    const decoded = decodeZpl(zpl);
    expect(decoded.printWidth).toBeLessThanOrEqual(832);
    expect(decoded.printWidth).toBeGreaterThan(800);
    // Aspect kept: 210 × 297.
    expect(decoded.labelLength! / decoded.printWidth!).toBeCloseTo(297 / 210, 2);
    // Scanned as a 406-dpi scanner sees the 203-dpi print: the scaled slip's bars are one dot (5 mil) wide.
    const pgm = join(dir, 'fit.pgm');
    decodeZplToPgm(zpl, pgm, 20, 2);
    expect(zbarValues(pgm)).toContain(SLIP.order_id);
    // The whole slip: the same dots as the slip rendered on its own at that scale on a head wide enough.
    const dpi = Math.round((decoded.printWidth! / 210) * 25.4);
    const whole = await cli([
      'render',
      '--template',
      'packing-slip-a4',
      '--data',
      DATA,
      '--format',
      'zpl',
      '--dpi',
      String(dpi),
      '--max-width-dots',
      '10000',
    ]);
    expect(whole.code).toBe(0);
    const reference = decodeZpl(whole.stdout).bitmap;
    const printed = decoded.bitmap;
    expect([printed.width, printed.height]).toEqual([reference.width, reference.height]);
    let differing = 0;
    for (let y = 0; y < reference.height; y++)
      for (let x = 0; x < reference.width; x++)
        if (getDot(reference, x, y) !== getDot(printed, x, y)) differing++;
    expect(differing).toBe(0);
    expect(r.stderr).toMatch(/scaled to fit/);
  });

  it('a label that fits prints as before, with neither option', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const r = await cli([
      'print',
      '--printer',
      emulator.uri,
      '--template',
      'product-2x1',
      '--data-dir',
      join(dir, 'fits'),
    ]);
    expect(r.code).toBe(0);
    expect(emulator.jobs).toHaveLength(1);
  });
});

describe('labeldesk jobs add and batch of the A4 slip to a 4-inch printer', () => {
  const jobsAdd = (name: string, ...extra: string[]) =>
    cli([
      'jobs',
      'add',
      '--printer',
      emulator.uri,
      '--template',
      'packing-slip-a4',
      '--data',
      DATA,
      '--data-dir',
      join(dir, name),
      ...extra,
    ]);

  it('jobs add refuses with the same sentence and stores no job; with --fit the whole slip prints', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const refused = await jobsAdd('jobs');
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split('\n').at(-1)).toBe(
      'labeldesk: packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi: add --fit to scale it, or --allow-cut to print it cut.',
    );
    const list = await cli(['jobs', 'list', '--json', '--data-dir', join(dir, 'jobs')]);
    expect(JSON.parse(list.stdout)).toEqual([]);
    expect(emulator.jobs).toHaveLength(0);

    const fitted = await jobsAdd('jobs', '--fit');
    expect(fitted.code).toBe(0);
    expect(emulator.jobs).toHaveLength(1);
    const decoded = decodeZpl(emulator.jobs[0]!.zpl);
    expect(decoded.printWidth).toBeLessThanOrEqual(832);
    const pgm = join(dir, 'jobs-fit.pgm');
    decodeZplToPgm(emulator.jobs[0]!.zpl, pgm, 20, 2);
    expect(zbarValues(pgm)).toContain(SLIP.order_id);
  });

  it('batch refuses the same way, and --allow-cut prints each record cut', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const { writeFileSync } = await import('node:fs');
    const csv = join(dir, 'slips.csv');
    writeFileSync(
      csv,
      'order_id,customer,address,items\nORD-1,Ada,1 Road,1 x Box\nORD-2,Grace,2 Road,2 x Box\n',
    );
    const batch = (...extra: string[]) =>
      cli([
        'batch',
        '--csv',
        csv,
        '--template',
        'packing-slip-a4',
        '--printer',
        emulator.uri,
        '--data-dir',
        join(dir, 'batch'),
        ...extra,
      ]);
    const refused = await batch();
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^labeldesk: packing-slip-a4 is 210 mm \(1678 dots\) wide but the printer prints 104 mm \(832 dots\) at 203 dpi: add --fit to scale it, or --allow-cut to print it cut\.$/,
    );
    expect(emulator.jobs).toHaveLength(0);
    const cut = await batch('--allow-cut');
    expect(cut.code).toBe(0);
    expect(emulator.jobs.map((j) => decodeZpl(j.zpl).printWidth)).toEqual([832, 832]);
  });
});
