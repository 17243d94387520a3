/** `labeldesk batch` and the history commands, in-process, against the Zebra emulator over TCP. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLabelTag } from '../../src/jobs/model';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';

let emulator: ZebraEmulator;
let dir: string;
beforeEach(async () => {
  emulator = await startZebraEmulator({ dpi: 203, port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-batch-cli-'));
});
afterEach(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const batch = (csv: string, ...extra: string[]) =>
  cli(['batch', '--csv', csv, '--printer', emulator.uri, '--data-dir', dir, '--by', 'ada', ...extra]);
const tags = () => emulator.printer.printed.map((j) => readLabelTag(j.zpl));

/** 100 rows of product-2x1 (semicolon-separated, with a BOM, header names as people write them). */
function productsCsv(bad: ReadonlyMap<number, string>): string {
  const lines = ['\uFEFFProduct name;SKU;Price;EAN-13'];
  for (let i = 1; i <= 100; i++) lines.push(bad.get(i) ?? `Oat drink ${i % 7};SKU-${i};2.49;590123412345`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

describe('labeldesk batch', () => {
  it('5 bad rows among 100: the report names all 5 and nothing prints; --skip-invalid prints the 95 others once', async () => {
    const csv = write(
      'products.csv',
      productsCsv(
        new Map([
          [3, ';SKU-3;1.00;590123412345'],
          [30, 'Oat;SKU-30;1.00;5901234'],
          [31, 'Oat;SKU-31;1.00;59012341234X'],
          [64, `${'x'.repeat(70)};SKU-64;1.00;590123412345`],
          [100, 'Oat;SKU-100;1.00;'],
        ]),
      ),
    );
    const refused = await batch(csv, '--template', 'product-2x1');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(
      [
        '5 of 100 records have problems:',
        'record 3 (line 4), Product name: Product name is required',
        'record 30 (line 31), EAN-13: EAN-13 must be 12 or 13 digits, got "5901234"',
        'record 31 (line 32), EAN-13: EAN-13 must be 12 or 13 digits, got "59012341234X"',
        'record 64 (line 65), Product name: Product name is 70 characters long; the maximum is 60',
        'record 100 (line 101), EAN-13: EAN-13 is required',
        '',
      ].join('\n'),
    );
    expect(refused.stderr).toContain(
      'nothing was printed. Fix the records, or use --skip-invalid to print the 95 valid records.',
    );
    expect(emulator.jobs).toEqual([]);
    expect((await cli(['jobs', 'list', '--data-dir', dir])).stdout).toBe('no jobs\n');

    const printed = await batch(csv, '--template', 'product-2x1', '--skip-invalid');
    expect(printed.stdout).toContain('skipping records 3, 30, 31, 64, 100\n');
    expect(printed.stdout).toContain(`job 1: 95 labels from 95 records for ${emulator.uri}\n`);
    expect(printed.stdout).toContain('job 1 done: 95/95 confirmed\n');
    expect(printed.stderr).toContain('job 1: 95/95 labels');
    expect(printed.code).toBe(0);
    expect(tags()).toEqual(Array.from({ length: 95 }, (_, i) => ({ jobId: 1, labelNumber: i + 1 })));

    const audit = await cli(['jobs', 'audit', '--json', '--data-dir', dir]);
    expect(JSON.parse(audit.stdout)).toMatchObject([
      { action: 'printed', labels: 95, user: 'ada' },
      { action: 'created', labels: 95, detail: 'skipped invalid records: 3, 30, 31, 64, 100' },
    ]);
  }, 120_000);

  it('maps columns, takes copies from a column, numbers counters per label, and continues them in the next run', async () => {
    const template = write(
      'serials.json',
      JSON.stringify({
        schemaVersion: 1,
        name: 'serials',
        stage: { width: 2, height: 1, unit: 'in' },
        fields: [
          { name: 'sku', label: 'SKU', placeholder: '', required: true },
          {
            name: 'serial',
            label: 'Serial',
            placeholder: '',
            type: 'counter',
            counter: { width: 4, prefix: 'S' },
          },
        ],
        elements: [{ type: 'text', x: 4, y: 4, width: 180, height: 40, text: '{sku} {serial}' }],
      }),
    );
    const csv = write('items.csv', 'Artikel,n\nA-1,2\nA-2,1\n');
    const first = await batch(csv, '--template', template, '--map', 'Artikel=sku', '--copies-column', 'n');
    expect(first.stdout).toContain(`job 1: 3 labels from 2 records for ${emulator.uri}\n`);
    expect(first.code).toBe(0);
    const second = await batch(csv, '--template', template, '--map', 'Artikel=sku', '--copies-column', 'n');
    expect(second.code).toBe(0);
    const labels = async (id: number) =>
      (
        JSON.parse((await cli(['jobs', 'labels', String(id), '--json', '--data-dir', dir])).stdout) as {
          row: number;
          counters: { serial: string };
        }[]
      ).map((l) => `${l.row}:${l.counters.serial}`);
    expect(await labels(1)).toEqual(['1:S0001', '1:S0002', '2:S0003']);
    expect(await labels(2)).toEqual(['1:S0004', '1:S0005', '2:S0006']);
    expect(emulator.printer.printed).toHaveLength(6);
  }, 60_000);

  it('says what is wrong with the file or the arguments', async () => {
    const empty = write('empty.csv', 'sku,price\n\n');
    expect(await batch(empty, '--template', 'product-2x1')).toMatchObject({
      code: 1,
      stderr: 'labeldesk: the CSV file has a header row but no data rows\n',
    });
    expect(await batch(join(dir, 'nope.csv'), '--template', 'product-2x1')).toMatchObject({
      code: 1,
      stderr: `labeldesk: --csv ${join(dir, 'nope.csv')}: no such file\n`,
    });
    const csv = write('p.csv', 'sku\nx\n');
    expect((await batch(csv, '--template', 'product-2x1', '--map', 'sku')).stderr).toBe(
      'labeldesk: --map: expected COLUMN=FIELD, got "sku"\n',
    );
    expect((await batch(csv, '--template', 'product-2x1', '--map', 'sku=nope')).stderr).toBe(
      'labeldesk: mapping sku=nope: the template has no field "nope"\n',
    );
    expect((await cli(['batch', '--template', 'product-2x1'])).code).toBe(2);
  });
});

describe('labeldesk jobs reprint, pause, list filters, audit', () => {
  it('reprints one label as a new job, records it in the audit log, and filters the history', async () => {
    const add = await cli([
      'jobs',
      'add',
      '--printer',
      emulator.uri,
      '--template',
      'product-2x1',
      '--amount',
      '3',
      '--data-dir',
      dir,
      '--by',
      'ada',
    ]);
    expect(add.code).toBe(0);
    const reprint = await cli(['jobs', 'reprint', '1', '--labels', '2', '--data-dir', dir, '--by', 'bob']);
    expect(reprint.stdout).toBe('job 2: reprint of job 1, 1 label\njob 2 done: 1/1 confirmed\n');
    expect(tags()).toEqual([
      { jobId: 1, labelNumber: 1 },
      { jobId: 1, labelNumber: 2 },
      { jobId: 1, labelNumber: 3 },
      { jobId: 2, labelNumber: 1 },
    ]);
    const untag = (z: string) => z.replace(/\^FX[^^]*\^FS/, '');
    expect(untag(emulator.printer.printed[3]?.zpl ?? '')).toBe(untag(emulator.printer.printed[1]?.zpl ?? ''));

    const audit = await cli(['jobs', 'audit', '--job', '2', '--data-dir', dir]);
    expect(audit.stdout).toMatch(
      / bob@\S+ {2}reprinted job 2 {2}product-2x1 → tcp:\/\/127\.0\.0\.1:\d+ {2}1 label\(s\) {2}\(reprint of job 1, label 2\)\n$/,
    );

    const list = await cli(['jobs', 'list', '--template', 'product-2x1', '--data-dir', dir]);
    expect(list.stdout.split('\n')[0]).toMatch(/^job 2 done: 1\/1 confirmed .* reprint of job 1$/);
    expect((await cli(['jobs', 'list', '--state', 'held', '--data-dir', dir])).stdout).toBe('no jobs\n');
    expect((await cli(['jobs', 'list', '--state', 'nope', '--data-dir', dir])).code).toBe(2);
    expect((await cli(['jobs', 'reprint', '1', '--labels', '9', '--data-dir', dir])).stderr).toBe(
      'labeldesk: job 1 has labels 1 to 3; there is no label 9\n',
    );
  }, 60_000);

  it('pause holds a stored job; resume without an id leaves it; resume ID prints it', async () => {
    await cli([
      'jobs',
      'add',
      '--printer',
      emulator.uri,
      '--template',
      'product-2x1',
      '--amount',
      '2',
      '--detach',
      '--data-dir',
      dir,
    ]);
    expect((await cli(['jobs', 'pause', '1', '--data-dir', dir])).stdout).toBe(
      'job 1 held (paused by the user): 0/2 confirmed\n',
    );
    const all = await cli(['jobs', 'resume', '--data-dir', dir]);
    expect(all).toMatchObject({ code: 0, stdout: 'no unfinished jobs\n' });
    expect(all.stderr).toContain('job 1 is paused by a person; labeldesk jobs resume 1 continues it');
    expect((await cli(['jobs', 'list', '--state', 'held', '--data-dir', dir])).stdout).toMatch(/^job 1 held/);
    expect(emulator.jobs).toEqual([]);
    const one = await cli(['jobs', 'resume', '1', '--data-dir', dir]);
    expect(one).toMatchObject({ code: 0, stdout: 'job 1 done: 2/2 confirmed\n' });
    expect(emulator.printer.printed).toHaveLength(2);
  }, 60_000);
});
