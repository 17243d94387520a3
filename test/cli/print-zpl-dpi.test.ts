/**
 * `labeldesk print --zpl` against the printer's resolution and profile (issue #33 items 3, 4), through the Zebra
 * emulator over TCP: a file made for 203 dpi printed on a 300-dpi printer is re-rasterised so the label keeps its
 * size and its bar code still scans; `--as-is` sends the file's bytes; a file whose dpi nothing tells is sent as
 * it is; the printer's profile keeps or strips the file's settings, and a flag overrides it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDot } from '../../src/render/bitmap';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { scanZplJob } from '../support/barcode-label';
import { cli } from '../support/cli';
import { decodeZpl } from '../support/zpl-decode';

const TRACKING = '1Z999AA100000042';

/** A 4×6 in label at 203 dpi: a frame 20 dots in (0.1 in), text, a Code 128 with ^BY3. */
function label203(extra = '', width = '^PW812^LL1218'): string {
  return [
    '^XA',
    extra,
    `${width}^LH0,0^CI28`,
    '^FO20,20^GB772,1178,4^FS',
    '^FO40,40^A0N,50,50^FDSHIP TO:^FS',
    `^BY3^FO60,340^BCN,200,Y,N,N^FD${TRACKING}^FS`,
    '^XZ',
  ].join('\r\n');
}

let dir: string;
let emulator: ZebraEmulator | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-print-zpl-dpi-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const received = (e: ZebraEmulator): string[] => e.jobs.map((j) => Buffer.from(j.bytes).toString('latin1'));

async function printFile(name: string, content: string, printer: ZebraEmulator, ...flags: string[]) {
  const file = join(dir, name);
  writeFileSync(file, content);
  return cli([
    'print',
    '--zpl',
    file,
    '--printer',
    printer.uri,
    '--data-dir',
    join(dir, `${name}.d`),
    ...flags,
  ]);
}

describe('labeldesk print --zpl: the file dpi against the printer', () => {
  it('re-rasterises a 203-dpi file for a 300-dpi printer: the same 4×6 in, the frame where it was, the bar code scans; reprint sends the same bytes', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const r = await printFile('parcel.zpl', label203(), emulator);
    expect(r.stderr).toMatch(
      /parcel\.zpl was made for 203 dpi \(inferred from its \^PW812: 4 in at 203 dpi, the width of the printer's labels \(4\.11 in, the printer's print width of 1232 dots at 300 dpi\)\) and tcp:\/\/127\.0\.0\.1:\d+ prints at 300 dpi: each label is re-rasterised at 300 dpi so it keeps its size \(--as-is sends the file's bytes unchanged\)\./,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/job 1 done: 1\/1 confirmed/);
    const [job] = received(emulator);
    const printed = decodeZpl(job!);
    // 4 × 6 in at 300 dpi.
    expect([printed.printWidth, printed.labelLength]).toEqual([1200, 1800]);
    // The frame's left line: 20..24 dots at 203 dpi is 0.099..0.118 in, dots 30..35 at 300.
    expect([25, 31, 33, 40].map((x) => getDot(printed.bitmap, x, 900))).toEqual([false, true, true, false]);
    expect(scanZplJob(job!, dir, 'parcel-300')).toEqual([TRACKING]);

    const reprint = await cli(['jobs', 'reprint', '1', '--data-dir', join(dir, 'parcel.zpl.d')]);
    expect(reprint.code).toBe(0);
    expect(received(emulator)).toEqual([job, job]);
  });

  it('re-rasterises each label of a file as one job item, its ^PQ copies kept', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const file = [label203(), label203().replace('^XZ', '^PQ2^XZ')].join('\r\n');
    const r = await printFile('two.zpl', file, emulator);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /job 1: 2 labels from two\.zpl .*\(3 printed: \^PQ copies are made by the printer\)/,
    );
    expect(r.stdout).toMatch(/job 1 done: 2\/2 confirmed/);
    const jobs = received(emulator);
    expect(jobs).toHaveLength(2);
    expect(jobs.map((j) => decodeZpl(j).commands.find((c) => c.name === '^PQ')?.params)).toEqual([
      undefined,
      '2',
    ]);
    for (const [i, job] of jobs.entries()) expect(scanZplJob(job, dir, `two-${i}`)).toEqual([TRACKING]);
  });

  it('--as-is sends the file byte for byte, and says the label prints smaller', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const label = label203();
    const r = await printFile('as-is.zpl', label, emulator, '--as-is');
    expect(r.stderr).toMatch(
      /as-is\.zpl was made for 203 dpi .* prints at 300 dpi: its bytes are sent unchanged \(--as-is\), so each label prints at 0\.68 × its size\./,
    );
    expect(r.code).toBe(0);
    expect(received(emulator)).toEqual([label]);
  });

  it('sends a file whose dpi nothing tells as it is, with no claim about it', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const label = `^XA^BY3^FO60,60^BCN,200,Y,N,N^FD${TRACKING}^FS^XZ`;
    const r = await printFile('no-width.zpl', label, emulator);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/made for|re-rasterised|--as-is/);
    expect(received(emulator)).toEqual([label]);
  });

  it('a file made for the printer dpi is sent as it is, without a word about dpi', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const label = label203('', '^PW1218^LL1800');
    const r = await printFile('same.zpl', label, emulator);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/made for|re-rasterised/);
    expect(received(emulator)).toEqual([label]);
  });

  it('hostile sizes: a garbage ^MU is named and ignored (the ^PW still tells); an absurd ^PW tells nothing', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    const garbage = await printFile('garbage-mu.zpl', label203('^MUQ,7,9'), emulator);
    expect(garbage.stderr).toMatch(
      /warning: garbage-mu\.zpl: \^MU at byte \d+: \^MUQ,7,9: units "Q" are not D, I or M: ignored, as a printer does, when telling the file's dpi\./,
    );
    expect(garbage.stderr).toMatch(/was made for 203 dpi \(inferred from its \^PW812/);
    expect(garbage.code).toBe(0);
    expect(scanZplJob(received(emulator)[0]!, dir, 'garbage-mu')).toEqual([TRACKING]);

    const absurd = label203('', '^PW99999999^LL-5');
    const r = await printFile('absurd-pw.zpl', absurd, emulator);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/made for|re-rasterised/);
    expect(received(emulator)[1]).toBe(absurd);
  });

  it('^MU giving the format base says the dpi', async () => {
    emulator = await startZebraEmulator({ dpi: 300, port: 0 });
    // No ^PW: only ^MU tells. A 200-dpi base to a 300-dpi printer is no whole multiple: the printer cannot convert.
    const label = `^XA^MUd,200,200^BY2^FO40,40^BCN,120,Y,N,N^FD${TRACKING}^FS^XZ`;
    const r = await printFile('mu.zpl', label, emulator);
    expect(r.stderr).toMatch(
      /mu\.zpl was made for 203 dpi \(its \^MUd,200,200 gives a 203-dpi format base\) and .* prints at 300 dpi: each label is re-rasterised/,
    );
    expect(r.code).toBe(0);
    expect(scanZplJob(received(emulator)[0]!, dir, 'mu')).toEqual([TRACKING]);
  });
});

describe('labeldesk print --zpl: keep or strip per printer', () => {
  it("uses the profile's choice saved by printers set; --strip-settings and --strip-printer-commands override it", async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const dataDir = join(dir, 'profile');
    const set = await cli([
      'printers',
      'set',
      emulator.uri,
      '--zpl-settings',
      'keep',
      '--zpl-printer-commands',
      'allow',
      '--data-dir',
      dataDir,
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/ZPL files' printer settings kept, commands beyond the label sent/);
    const label = label203('^PR4^MD10^JUS');
    const file = join(dir, 'settings.zpl');
    writeFileSync(file, label);
    const print = (...flags: string[]) =>
      cli(['print', '--zpl', file, '--printer', emulator!.uri, '--data-dir', dataDir, ...flags]);

    const kept = await print();
    expect(kept.stderr).toMatch(
      /\^PR4 \(print speed\), \^MD10 \(darkness adjustment\); sent as written \(the printer's profile keeps them; --strip-settings takes them out\)/,
    );
    expect(kept.stderr).toMatch(/\^JUS .*; SENT as the printer's profile allows/);
    expect(kept.code).toBe(0);
    expect(received(emulator)).toEqual([label]);

    const stripped = await print('--strip-settings', '--strip-printer-commands');
    expect(stripped.code).toBe(0);
    expect(received(emulator)[1]).toBe(label.replace('^PR4^MD10^JUS\r\n', ''));

    // Saved back to strip: the default again, and --keep-settings still sends them for one print.
    await cli(['printers', 'set', emulator.uri, '--zpl-settings', 'strip', '--data-dir', dataDir]);
    const once = await print('--keep-settings');
    expect(once.code).toBe(0);
    expect(received(emulator)[2]).toBe(label);
    const after = await print();
    expect(after.stderr).toMatch(
      /taken out, the printer's own setup applies \(the printer's profile strips them/,
    );
    expect(received(emulator)[3]).toBe(label.replace('^PR4^MD10', ''));
  });

  it('refuses a choice it does not know, and both flags of a pair', async () => {
    const bad = await cli(['printers', 'set', 'tcp://127.0.0.1:9', '--zpl-settings', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--zpl-settings: expected keep or strip, got "maybe"/);
    const both = await cli([
      'print',
      '--zpl',
      join(dir, 'settings.zpl'),
      '--printer',
      'tcp://127.0.0.1:9',
      '--keep-settings',
      '--strip-settings',
      '--data-dir',
      join(dir, 'both'),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--keep-settings and --strip-settings: choose one/);
  });
});
