/**
 * `labeldesk render --markup FILE|@-` (issue #19): Markup JSON as fetch-markups returns it, rendered with no
 * template. The markup comes from a real `labeldesk serve`'s fetch-markups route for every bundled template;
 * each copy is rendered to ZPL at 203, 300 and 600 dpi and every barcode, cropped at its element's box, is read
 * back by a real decoder (zbarimg, dmtxread, ZXing). Also: the SVG of an exported 4 × 6 label is 1200 × 1800
 * px through `rsvg-convert -d 300 -p 300`, and the incomplete-markup policy as a user meets it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageToInches } from '../../src/units/units';
import type { Markup } from '../../src/model/schema';
import { startHarness, type Harness } from '../node/serve/harness';
import { cli } from '../support/cli';
import { dmtxDecodeAsync } from '../support/dmtx';
import { cropGrey, monoToGreyImage, type GreyImage } from '../support/grey-image';
import { writeGreyPgm } from '../support/pgm';
import { SAMPLE_DATA, bundledTemplateNames } from '../support/templates';
import { zbarValues } from '../support/zbar';
import { decodeZpl } from '../support/zpl-decode';
import { zxingDecodePdf417 } from '../support/zxing-pdf417';

/** What each barcode element reads as (check digits computed, GS1 brackets dropped), and which decoder reads it. */
const SCANS: Record<string, Record<string, [decoder: 'zbar' | 'dmtx' | 'zxing', value: string]>> = {
  'shipping-4x6': { tracking: ['zbar', '1Z999AA10123456784'], order_id: ['zbar', 'ORD-20261123-0042'] },
  'gs1-logistic-4x6': {
    content: ['zbar', '020501234567890037120'],
    batch: ['zbar', '1527053110L2611A'],
    sscc: ['zbar', '00000000000000000000'],
  },
  'product-2x1': { ean13: ['zbar', '5901234123457'] },
  'visitor-badge-4x3': { badge_id: ['zbar', 'V-2026-0042'] },
  'packing-slip-a4': { order_id: ['zbar', 'ORD-20261123-0042'] },
  'rfid-asset-4x2': { asset_id: ['zbar', 'ASSET-004211'] },
  'element-gallery-4x6': {
    'bc-code128': ['zbar', 'LD-128'],
    'bc-gs1-128': ['zbar', '0109501101530003'],
    'bc-code39': ['zbar', 'LD39'],
    'bc-ean13': ['zbar', '5901234123457'],
    'bc-ean8': ['zbar', '96385074'],
    'bc-upca': ['zbar', '036000291452'],
    'bc-itf14': ['zbar', '15400141288763'],
    'bc-isbn': ['zbar', '9781565812314'],
    'bc-ismn': ['zbar', '9790260000438'],
    'bc-issn': ['zbar', '9770317847001'],
    'bc-qrcode': ['zbar', 'https://labeldesk.example/g'],
    'bc-datamatrix': ['dmtx', 'LD-DM-0001'],
    'bc-pdf417': ['zxing', 'LabelDesk PDF417'],
  },
};

let dir: string;
let api: Harness;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-render-markup-'));
  api = await startHarness();
});
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What fetch-markups answers for `amount` copies of a bundled template with its sample values. */
async function fetchMarkups(name: string, amount: number): Promise<Markup[]> {
  const a = await api.post('fetch-markups', { label_name: name, amount, apiData: SAMPLE_DATA[name] ?? {} });
  expect(a.status).toBe(200);
  return a.json as Markup[];
}

/** Every barcode of `markup` read from the printed dots (a crop of its element's box, 3 px margin). */
async function readBarcodes(markup: Markup, image: GreyImage, dpi: number, name: string) {
  const scale = dpi / 96;
  const out: Record<string, string[]> = {};
  for (const el of markup.elements) {
    if (el.type !== 'barcode' || el.width === undefined || el.height === undefined) continue;
    const id = el.id ?? '';
    const m = 3;
    const crop = cropGrey(image, {
      x: (el.x - m) * scale,
      y: (el.y - m) * scale,
      width: (el.width + 2 * m) * scale,
      height: (el.height + 2 * m) * scale,
    });
    const decoder = SCANS[name]?.[id]?.[0] ?? 'zbar';
    if (decoder === 'zxing') {
      out[id] = zxingDecodePdf417(crop);
      continue;
    }
    const pgm = join(dir, `${name}-${dpi}-${id}.pgm`);
    writeGreyPgm(pgm, crop.width, crop.height, crop.grey);
    out[id] = decoder === 'dmtx' ? await dmtxDecodeAsync(pgm) : zbarValues(pgm);
  }
  return out;
}

describe.each(bundledTemplateNames())('render --markup <fetch-markups of %s> --format zpl', (name) => {
  let file: string;
  let markups: Markup[];
  beforeAll(async () => {
    markups = await fetchMarkups(name, 2);
    file = join(dir, `${name}.markup.json`);
    writeFileSync(file, JSON.stringify(markups));
  });

  it.each([203, 300, 600])(
    'at %i dpi: one job per copy, the stage size, and every barcode scans',
    async (dpi) => {
      const first = markups[0]!;
      const widthDots = Math.round(stageToInches(first.stage.width, first.stage.unit) * dpi);
      const out = join(dir, `${name}-${dpi}`);
      const r = await cli(
        [
          'render',
          '--markup',
          file,
          '--format',
          'zpl',
          '--dpi',
          String(dpi),
          '--max-width-dots',
          String(widthDots),
          '--out',
          out,
        ],
        { cwd: dir },
      );
      expect(r.stderr).toBe(`wrote 2 files to ${out}\n`);
      expect(r.code).toBe(0);
      const files = readdirSync(out);
      expect(files).toEqual([`${name}.markup-001.zpl`, `${name}.markup-002.zpl`]);
      const decoded = decodeZpl(readFileSync(join(out, files[0]!), 'utf8'));
      expect(decoded.printWidth).toBe(widthDots);
      expect(decoded.labelLength).toBe(Math.round(stageToInches(first.stage.height, first.stage.unit) * dpi));
      const read = await readBarcodes(first, monoToGreyImage(decoded.bitmap), dpi, name);
      const want = Object.fromEntries(
        Object.entries(SCANS[name] ?? {}).map(([id, [, value]]) => [id, [value]]),
      );
      expect(read).toEqual(want);
    },
  );
});

describe('render --markup: input forms and mistakes', () => {
  it('reads one Markup object from standard input (@-) and writes the single output to stdout', async () => {
    const [markup] = await fetchMarkups('product-2x1', 1);
    const r = await cli(['render', '--markup', '@-', '--format', 'zpl'], {
      cwd: dir,
      stdin: JSON.stringify(markup),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(r.stderr).toBe('');
  });

  it('names every problem of invalid markup with its path, and writes nothing', async () => {
    const [markup] = await fetchMarkups('product-2x1', 1);
    const broken = { ...markup!, elements: [{ type: 'barcode', format: 'code12', text: 'x' }] };
    const r = await cli(['render', '--markup', '@-', '--format', 'zpl'], {
      cwd: dir,
      stdin: JSON.stringify([broken]),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--markup: standard input is not Markup JSON (what fetch-markups returns):');
    expect(r.stderr).toContain('[0].elements[0].format: unknown barcode format "code12"');
  });

  it('a template option with --markup is a usage error naming it', async () => {
    const r = await cli(['render', '--markup', 'x.json', '--template', 'shipping-4x6', '--format', 'zpl'], {
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--template cannot be used with --markup');
  });
});

describe('incomplete markup (the hosted documentation example: a barcode with no size, an unreachable image)', () => {
  const hostedExample = {
    stage: { width: 4, height: 6, unit: 'in', background: '#ffffff' },
    elements: [
      { type: 'text', x: 20, y: 20, width: 340, text: 'Ship to: Ada Lovelace', font: { size: 24 } },
      { type: 'image', x: 250, y: 400, width: 100, height: 100, url: 'http://127.0.0.1:1/logo.png' },
      { type: 'barcode', x: 20, y: 120, format: 'code128', text: 'HOSTED-0001' },
    ],
  };

  it('renders the rest: the image left out and the barcode at its natural size at its x/y, each with a warning', async () => {
    const source = join(dir, 'hosted-example.json');
    writeFileSync(source, JSON.stringify(hostedExample));
    const r = await cli(['render', '--markup', source, '--format', 'zpl', '--dpi', '203'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: elements[2] (barcode code128): no width or height, drawn at its natural size at its x/y\n',
    );
    expect(r.stderr).toMatch(
      /warning: elements\[1\] \(image\): image http:\/\/127\.0\.0\.1:1\/logo\.png: .*; left out\n/,
    );
    const { bitmap } = decodeZpl(r.stdout);
    const image = monoToGreyImage(bitmap);
    // Natural size: 2 px modules at 96 dpi are 4 dots at 203 dpi; the bars start at the element's y (120 px).
    const pgm = join(dir, 'hosted-example.pgm');
    writeGreyPgm(pgm, image.width, image.height, image.grey);
    expect(zbarValues(pgm)).toEqual(['HOSTED-0001']);
    const y0 = Math.round((120 * 203) / 96);
    const dark = (x: number, y: number) => (image.grey[y * image.width + x] ?? 255) < 128;
    const darkInRow = (y: number) =>
      Array.from({ length: image.width }, (_, x) => dark(x, y)).filter(Boolean).length;
    expect(darkInRow(y0 + 10)).toBeGreaterThan(50); // bars
    // Between the text's line and the bars nothing is drawn: the barcode does not cover the text.
    expect(darkInRow(y0 - 5)).toBe(0);
    // Where the image would be, nothing is drawn.
    const x0 = Math.round((250 * 203) / 96);
    const y1 = Math.round((400 * 203) / 96);
    let inImage = 0;
    for (let y = y1; y < y1 + 200; y++) for (let x = x0; x < x0 + 200; x++) if (dark(x, y)) inImage++;
    expect(inImage).toBe(0);
  });

  it('--strict refuses the label, naming the image, and writes nothing', async () => {
    const r = await cli(['render', '--markup', '@-', '--format', 'zpl', '--strict'], {
      cwd: dir,
      stdin: JSON.stringify(hostedExample),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('http://127.0.0.1:1/logo.png');
  });

  it('a barcode without x/y either is drawn at the top-left corner, and the warning says so', async () => {
    const markup = { ...hostedExample, elements: [{ type: 'barcode', format: 'qrcode', text: 'CORNER' }] };
    const r = await cli(['render', '--markup', '@-', '--format', 'zpl'], {
      cwd: dir,
      stdin: JSON.stringify(markup),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('drawn at its natural size at the top-left corner (no x/y either)');
    const image = monoToGreyImage(decodeZpl(r.stdout).bitmap);
    const corner = cropGrey(image, { x: 0, y: 0, width: 200, height: 200 });
    const pgm = join(dir, 'corner.pgm');
    writeGreyPgm(pgm, corner.width, corner.height, corner.grey);
    expect(zbarValues(pgm)).toEqual(['CORNER']);
  });
});

describe('SVG physical size', () => {
  it('rsvg-convert -d 300 -p 300 of an exported 4 × 6 SVG (download-svg) gives 1200 × 1800 px', async () => {
    const exported = await api.post('export-svg', {
      label_name: 'shipping-4x6',
      amount: 1,
      apiData: SAMPLE_DATA['shipping-4x6']!,
    });
    const path = exported.json.files[0].path as string;
    const svg = await fetch(`${api.url}/custom-labels/download-svg?path=${encodeURIComponent(path)}`, {
      headers: { 'X-API-KEY': api.key, 'X-API-SECRET': api.secret },
    });
    expect(svg.status).toBe(200);
    const text = await svg.text();
    expect(text).toMatch(/^<svg [^>]*width="4in" height="6in" viewBox="0 0 384 576"/);
    mkdirSync(join(dir, 'rsvg'), { recursive: true });
    const svgFile = join(dir, 'rsvg', 'label.svg');
    const pngFile = join(dir, 'rsvg', 'label.png');
    writeFileSync(svgFile, text);
    execFileSync('rsvg-convert', ['-d', '300', '-p', '300', svgFile, '-o', pngFile]);
    const png = readFileSync(pngFile);
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 1800]);
  });
});
