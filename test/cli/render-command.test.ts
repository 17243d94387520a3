/**
 * `labeldesk render`, run in-process exactly as from a shell: files per copy that sort, complete ZPL jobs of
 * the right size, stdout for one copy, usage errors, and RFID mistakes caught before anything is written.
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli';
import { SAMPLE_DATA } from '../support/templates';
import { decodeZpl } from '../support/zpl-decode';

const SHIPPING = JSON.stringify(SAMPLE_DATA['shipping-4x6']);
const RFID = SAMPLE_DATA['rfid-asset-4x2']!;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-render-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('labeldesk render --format zpl --amount 2 --out DIR', () => {
  let out: string;
  let stderr: string;
  let code: number;
  beforeAll(async () => {
    out = join(dir, 'z64');
    ({ code, stderr } = await cli(
      [
        'render',
        '--template',
        'shipping-4x6',
        '--format',
        'zpl',
        '--amount',
        '2',
        '--data',
        SHIPPING,
        '--out',
        'z64',
      ],
      { cwd: dir },
    ));
  });

  it('writes one file per copy, named so they sort in print order, and no temporary files', () => {
    expect(code).toBe(0);
    expect(readdirSync(out)).toEqual(['shipping-4x6-001.zpl', 'shipping-4x6-002.zpl']);
    expect(stderr).toBe(`wrote 2 files to ${out}\n`);
  });

  it('makes each file one complete ^XA…^XZ job, 812 × 1218 dots, under 30 KB with Z64', () => {
    for (const file of readdirSync(out)) {
      const zpl = readFileSync(join(out, file), 'utf8');
      expect(zpl.startsWith('^XA\n')).toBe(true);
      expect(zpl.endsWith('^XZ\n')).toBe(true);
      expect(zpl).toContain('^PW812\n');
      expect(zpl).toContain('^LL1218\n');
      expect(Buffer.byteLength(zpl)).toBeLessThan(30_000);
      const job = decodeZpl(zpl);
      expect(job.graphics.map((g) => g.encoding)).toEqual(job.graphics.map(() => 'z64'));
      // Every row of the label is covered by the graphic bands.
      expect(job.graphics.reduce((rows, g) => rows + g.rows, 0)).toBe(1218);
    }
  });
});

it('writes plain hex (--compression hex) at about 248 KB per 4 × 6 label: 102 bytes × 1218 rows × 2 digits', async () => {
  const r = await cli(
    [
      'render',
      '--template',
      'shipping-4x6',
      '--format',
      'zpl',
      '--compression',
      'hex',
      '--data',
      SHIPPING,
      '--out',
      'hex',
    ],
    { cwd: dir },
  );
  expect(r.code).toBe(0);
  const [file, ...more] = readdirSync(join(dir, 'hex'));
  expect(more).toEqual([]);
  const zpl = readFileSync(join(dir, 'hex', file!), 'utf8');
  const size = Buffer.byteLength(zpl);
  expect(size).toBeGreaterThanOrEqual(102 * 1218 * 2);
  expect(size).toBeLessThan(102 * 1218 * 2 + 1000);
  expect(decodeZpl(zpl).graphics.map((g) => g.encoding)).toEqual(['hex', 'hex']);
});

describe('stdout', () => {
  it('prints the one job of a single copy', async () => {
    const r = await cli(['render', '--template', 'shipping-4x6', '--format', 'zpl', '--data', SHIPPING]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const job = decodeZpl(r.stdout);
    expect([job.printWidth, job.labelLength]).toEqual([812, 1218]);
  });

  it('writes binary formats as bytes (PNG at --dpi)', async () => {
    const r = await cli([
      'render',
      '--template',
      'product-2x1',
      '--format',
      'png',
      '--dpi',
      '300',
      '--data',
      JSON.stringify(SAMPLE_DATA['product-2x1']),
    ]);
    expect(r.code).toBe(0);
    expect([...r.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: 2 × 1 in at 300 dpi.
    expect([Buffer.from(r.bytes).readUInt32BE(16), Buffer.from(r.bytes).readUInt32BE(20)]).toEqual([
      600, 300,
    ]);
  });

  it('refuses several copies without --out: a usage error (exit 2), nothing printed', async () => {
    const r = await cli([
      'render',
      '--template',
      'shipping-4x6',
      '--format',
      'zpl',
      '--amount',
      '2',
      '--data',
      SHIPPING,
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('labeldesk: 2 copies need --out DIR (one file per copy), or --single-file\n');
  });
});

it('puts every copy into one multi-page PDF with --single-file', async () => {
  const r = await cli(
    [
      'render',
      '--template',
      'shipping-4x6',
      '--format',
      'pdf',
      '--amount',
      '3',
      '--single-file',
      '--data',
      SHIPPING,
      '--out',
      'single',
    ],
    { cwd: dir },
  );
  expect(r.code).toBe(0);
  expect(readdirSync(join(dir, 'single'))).toEqual(['shipping-4x6.pdf']);
  const pdf = readFileSync(join(dir, 'single', 'shipping-4x6.pdf'), 'latin1');
  expect(pdf.startsWith('%PDF-')).toBe(true);
  expect(pdf.match(/\/Type \/Page\b/g)).toHaveLength(3);
});

describe('RFID mistakes are caught before any output', () => {
  it.each([
    [
      'as PDF',
      ['--format', 'pdf'],
      RFID.epc!,
      'labeldesk: RFID labels must be rendered as ZPL because PDF cannot encode RFID tags\n',
    ],
    [
      'as SVG',
      ['--format', 'svg'],
      RFID.epc!,
      'labeldesk: RFID labels must be rendered as ZPL because PDF cannot encode RFID tags\n',
    ],
    [
      'with a 23-digit EPC',
      ['--format', 'zpl'],
      RFID.epc!.slice(0, 23),
      'labeldesk: elements[6] (rfid): epc: expected 24 hex digits for a 96-bit EPC, got 23\n',
    ],
  ])('fails %s with a clear message (exit 1) and writes no file', async (what, args, epc, message) => {
    const out = join(dir, `rfid ${what}`);
    const r = await cli([
      'render',
      '--template',
      'rfid-asset-4x2',
      ...args,
      '--amount',
      '2',
      '--data',
      JSON.stringify({ ...RFID, epc }),
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    // The value's own pattern warning (if any) comes first; the error is the last line.
    expect(r.stderr.endsWith(message)).toBe(true);
    expect(existsSync(out)).toBe(false);
  });

  it('fails on a non-hex EPC before any output', async () => {
    const out = join(dir, 'rfid-nonhex');
    const r = await cli([
      'render',
      '--template',
      'rfid-asset-4x2',
      '--format',
      'zpl',
      '--data',
      JSON.stringify({ ...RFID, epc: `${RFID.epc!.slice(0, 23)}Z` }),
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/labeldesk: elements\[6\] \(rfid\): epc: .*\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('renders a good EPC to ZPL with the ^RFW write in every copy', async () => {
    const r = await cli(
      [
        'render',
        '--template',
        'rfid-asset-4x2',
        '--format',
        'zpl',
        '--amount',
        '2',
        '--data',
        JSON.stringify(RFID),
        '--out',
        'rfid-ok',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const files = readdirSync(join(dir, 'rfid-ok'));
    expect(files).toEqual(['rfid-asset-4x2-001.zpl', 'rfid-asset-4x2-002.zpl']);
    for (const f of files) {
      expect(decodeZpl(readFileSync(join(dir, 'rfid-ok', f), 'utf8')).rfidWrites).toEqual([
        { params: 'W,H', data: RFID.epc },
      ]);
    }
  });
});

describe('images in a template file', () => {
  it("resolve relative paths against the template's own folder, not the working directory", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ld-tpl-'));
    try {
      copyFileSync('assets/images/logo.png', join(folder, 'logo.png'));
      writeFileSync(
        join(folder, 'with-logo.json'),
        JSON.stringify({
          schemaVersion: 1,
          name: 'with-logo',
          stage: { width: 1, height: 1, unit: 'in' },
          elements: [{ type: 'image', url: 'logo.png', x: 0, y: 0, width: 96, height: 96 }],
        }),
      );
      const elsewhere = mkdtempSync(join(tmpdir(), 'ld-cwd-'));
      const r = await cli(
        ['render', '--template', join(folder, 'with-logo.json'), '--format', 'png', '--dpi', '96'],
        {
          cwd: elsewhere,
        },
      );
      rmSync(elsewhere, { recursive: true, force: true });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(Buffer.from(r.bytes).subarray(1, 4).toString('latin1')).toBe('PNG');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
