/**
 * `labeldesk print --zpl` (issue #33 item 3): a carrier-like ZPL file printed to the Zebra emulator through the
 * job queue, each label its own bytes; settings and printer commands named and taken out unless kept; 200
 * labels through a printer that resets the connection twice; the job in `jobs list`, reprinted byte for byte.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChaosPrinter, type ChaosEmulator } from '../emulator/chaos';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';

/** A 4×6 in shipping label at 203 dpi as a carrier writes one (boxes, ^A0 text, an address block, a ^BC). */
function carrierLabel(n: number, extra = ''): string {
  const tracking = `1Z999AA1${String(n).padStart(8, '0')}`;
  return [
    '^XA',
    extra,
    '^PW812^LL1218^LH0,0^CI28',
    '^FO20,20^GB772,1178,4^FS',
    '^FO20,240^GB772,0,4^FS',
    '^FO40,40^A0N,50,50^FDSHIP TO:^FS',
    `^FO40,100^A0N,36,36^FB700,3,0,L^FDPARCEL ${String(n).padStart(3, '0')}\\&12 HARBOUR ROAD\\&PORTSMOUTH PO1 2AB^FS`,
    '^FO40,270^A0N,28,28^FDFROM: LABELDESK WAREHOUSE, DOCK 7^FS',
    `^BY3^FO60,340^BCN,200,Y,N,N^FD${tracking}^FS`,
    '^FO40,640^GB360,120,120^FS^FO60,670^A0N,60,60^FR^FDNDA^FS',
    '^XZ',
  ].join('\r\n');
}

let dir: string;
let emulator: ZebraEmulator | ChaosEmulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-print-zpl-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const received = (e: ZebraEmulator | ChaosEmulator): string[] =>
  e.jobs.map((j) => Buffer.from(j.bytes).toString('latin1'));

describe('labeldesk print --zpl', () => {
  it('sends each label of a carrier file as its own bytes, once; settings and printer commands named and taken out', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const labels = [carrierLabel(1, '^PR4^MD10^JUS'), carrierLabel(2), carrierLabel(3)];
    const file = join(dir, 'carrier.zpl');
    writeFileSync(file, `~SD25\r\n${labels[0]}\r\n${labels[1]}\r\n~JA\r\n${labels[2]}\r\n`);
    const dataDir = join(dir, 'three');
    const r = await cli(['print', '--zpl', file, '--printer', emulator.uri, '--data-dir', dataDir]);
    expect(r.stderr).toMatch(
      /carrier\.zpl: printer settings in the file: ~SD25 \(darkness\), \^PR4 \(print speed\), \^MD10 \(darkness adjustment\); taken out/,
    );
    expect(r.stderr).toMatch(
      /warning: carrier\.zpl: commands that reach beyond the label: \^JUS \(saves or restores the printer configuration\), ~JA \(cancels every format in the printer\); taken out \(--allow-printer-commands sends them\)/,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/job 1: 3 labels from carrier\.zpl/);
    expect(r.stdout).toMatch(/job 1 done: 3\/3 confirmed/);
    // Exactly the three labels, each once, as written but for the commands taken out.
    expect(received(emulator)).toEqual([labels[0]!.replace('^PR4^MD10^JUS\r\n', ''), labels[1], labels[2]]);

    // In History, and reprinted as the same bytes.
    const list = await cli(['jobs', 'list', '--data-dir', dataDir]);
    expect(list.stdout).toMatch(/job 1 done: 3\/3 confirmed {2}carrier\.zpl → tcp:\/\/127\.0\.0\.1:\d+/);
    const first = received(emulator);
    const reprint = await cli(['jobs', 'reprint', '1', '--labels', '2', '--data-dir', dataDir]);
    expect(reprint.code).toBe(0);
    expect(received(emulator)).toEqual([...first, first[1]]);
  });

  it('sends the settings and printer commands when asked', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const label = carrierLabel(1, '^PR4^MD10^JUS');
    const r = await cli(
      [
        'print',
        '--zpl',
        '@-',
        '--printer',
        emulator.uri,
        '--keep-settings',
        '--allow-printer-commands',
        '--data-dir',
        join(dir, 'kept'),
      ],
      { stdin: label },
    );
    expect(r.stderr).toMatch(/\^PR4 \(print speed\), \^MD10 \(darkness adjustment\); sent as written/);
    expect(r.stderr).toMatch(/\^JUS \(saves or restores the printer configuration\); SENT as asked/);
    expect(r.code).toBe(0);
    expect(received(emulator)).toEqual([label]);
  });

  it('sends bytes that are not UTF-8 (^CI0 Latin-1 text) exactly as in the file', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const bytes = Buffer.concat([
      Buffer.from('^XA^CI0^FO20,20^A0N,40,40^FDStra'),
      Buffer.from([0xdf, 0x65, 0x20, 0xfc]),
      Buffer.from('ber M'),
      Buffer.from([0xfc]),
      Buffer.from('nchen^FS^XZ'),
    ]);
    const file = join(dir, 'latin1.zpl');
    writeFileSync(file, bytes);
    const r = await cli([
      'print',
      '--zpl',
      file,
      '--printer',
      emulator.uri,
      '--data-dir',
      join(dir, 'latin1'),
    ]);
    expect(r.code).toBe(0);
    expect(emulator.jobs.map((j) => Buffer.from(j.bytes))).toEqual([bytes]);
  });

  it('jobs add --zpl --detach stores the job; jobs resume prints it', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const labels = [carrierLabel(1), carrierLabel(2)];
    const file = join(dir, 'detached.zpl');
    writeFileSync(file, labels.join('\r\n'));
    const dataDir = join(dir, 'detached');
    const add = await cli([
      'jobs',
      'add',
      '--zpl',
      file,
      '--printer',
      emulator.uri,
      '--detach',
      '--data-dir',
      dataDir,
    ]);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/job 1: 2 labels from detached\.zpl/);
    expect(emulator.jobs).toHaveLength(0);
    const resume = await cli(['jobs', 'resume', '1', '--data-dir', dataDir]);
    expect(resume.code).toBe(0);
    expect(received(emulator)).toEqual(labels);
  });

  it('refuses a file with no label before touching the printer', async () => {
    emulator = await startZebraEmulator({ dpi: 203, port: 0 });
    const file = join(dir, 'empty.zpl');
    writeFileSync(file, '~SD25\r\nnot a label\r\n');
    const r = await cli([
      'print',
      '--zpl',
      file,
      '--printer',
      emulator.uri,
      '--data-dir',
      join(dir, 'empty'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--zpl .*empty\.zpl: no label \(\^XA…\^XZ\) in it; nothing was printed/);
    expect(emulator.connections()).toBe(0);
  });

  it('prints 200 labels through a printer that resets the connection twice: every label, at most one duplicate per fault, reported', async () => {
    const labels = Array.from({ length: 200 }, (_, i) => carrierLabel(i + 1));
    const file = join(dir, 'two-hundred.zpl');
    writeFileSync(file, labels.join('\r\n'));
    const size = labels.reduce((sum, l) => sum + l.length, 0);
    emulator = await startChaosPrinter({
      dpi: 203,
      faults: [
        { kind: 'reset', byte: Math.round(size * 0.3) },
        { kind: 'reset', byte: Math.round(size * 0.7) },
      ],
    });
    const r = await cli([
      'print',
      '--zpl',
      file,
      '--printer',
      emulator.uri,
      '--data-dir',
      join(dir, 'faults'),
    ]);
    expect(emulator.injected.map((f) => f.kind)).toEqual(['reset', 'reset']);
    expect(r.code).toBe(0);
    const got = received(emulator);
    for (const label of labels) expect(got).toContain(label);
    const extra = got.length - labels.length;
    expect(extra).toBeLessThanOrEqual(2);
    // Every label received twice is among those reported as possible duplicates.
    const reported = /possible duplicates: label ([\d, -]+)/.exec(r.stdout)?.[1] ?? '';
    const reportedNumbers = reported
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .flatMap((s) => {
        const [a, b] = s.split('-').map(Number);
        return Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
      });
    expect(reportedNumbers.length).toBeLessThanOrEqual(2);
    labels.forEach((label, i) => {
      if (got.filter((g) => g === label).length > 1) expect(reportedNumbers).toContain(i + 1);
    });
    expect(r.stdout).toMatch(/job 1 done: 200\/200 confirmed/);
  }, 120_000);
});
