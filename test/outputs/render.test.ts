/**
 * The engine's render operations on the bundled templates, checked with the tools a user has: poppler's
 * pdftotext / pdffonts / pdfimages / pdfinfo on the PDFs, our independent ZPL decoder on the jobs. Barcode
 * scanning of every template, format and dpi is in render-barcodes.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RfidRequiresZpl,
  renderPdfLabels,
  renderPngLabels,
  renderSvgLabels,
  renderZplLabels,
} from '../../src/outputs/render';
import { ElementError } from '../../src/layout/element-context';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { resolve } from '../../src/resolve/resolve';
import type { Markup } from '../../src/model/schema';
import { decodePngToGrey } from '../support/grey-image';
import { SAMPLE_DATA, bundledTemplate } from '../support/templates';
import { decodeZpl } from '../support/zpl-decode';

const run = promisify(execFile);
const ports = nodeRenderPorts();
const dir = mkdtempSync(join(tmpdir(), 'ld-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const markupsOf = (
  name: string,
  data: Record<string, string> = SAMPLE_DATA[name] ?? {},
  amount = 1,
): Markup[] => resolve(bundledTemplate(name), data, amount);

/** The rows of a poppler `-list`-style table (after the dashed rule), split on whitespace. */
function tableRows(out: string): string[][] {
  const lines = out.split('\n');
  const rule = lines.findIndex((l) => /^-{10,}/.test(l));
  return lines
    .slice(rule + 1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));
}

/** What a reader copies out of each PDF: every field value, as typed. */
const PDF_TEXT: Record<string, string[]> = {
  'shipping-4x6': [
    'Ada Lovelace',
    '12 St James Square',
    'London SW1Y 4JH',
    'United Kingdom',
    'EXPRESS',
    'WEIGHT: 2.4 kg',
    'Order ORD-20261123-0042',
    // The human-readable line under the tracking barcode.
    '1Z999AA10123456784',
  ],
  // EAN-13 and UPC-A print their digits in groups beside and between the guard bars (ISO/IEC 15420).
  'product-2x1': ['Organic Oat Drink 1 L', '2.49', 'SKU-OAT-0001', '5', '901234', '123457'],
  'visitor-badge-4x3': [
    'VISITOR',
    'Grace Hopper',
    'Harvard Computation Lab',
    'Host: Howard Aiken',
    'Date: 2026-11-23',
    'V-2026-0042',
  ],
  'packing-slip-a4': [
    'PACKING SLIP',
    'ORD-20261123-0042',
    'Ada Lovelace',
    '12 St James Square',
    'London SW1Y 4JH',
    '2 x Thermal labels 4x6 (SKU-LBL-46)',
    '1 x Ribbon wax 110 mm (SKU-RIB-110)',
    '3 x Label core adapter (SKU-CORE-3)',
  ],
  'element-gallery-4x6': [
    'Element gallery · Engine test',
    '(01)09501101530003',
    '36000',
    '29145',
    'Italic text',
    'Bold text',
    'Mono 0123',
    'Rotated 90°',
    'The quick',
  ],
};

/** The logo every template with an image element carries (a 128 × 128 PNG data: URL). */
const LOGO_PX = 128;

describe.each(Object.keys(PDF_TEXT))('the PDF of %s', (name) => {
  let path: string;
  let text: string;
  let fonts: string[][];
  let images: string[][];
  beforeAll(async () => {
    const [pdf, ...more] = await renderPdfLabels(markupsOf(name), ports, { title: name });
    expect(more).toEqual([]);
    path = join(dir, `${name}.pdf`);
    writeFileSync(path, pdf!);
    const [t, f, i] = await Promise.all([
      run('pdftotext', [path, '-']),
      run('pdffonts', [path]),
      run('pdfimages', ['-list', path]),
    ]);
    text = t.stdout;
    fonts = tableRows(f.stdout);
    images = tableRows(i.stdout);
  });

  it('holds every field value as real, copyable text', () => {
    const lines = text.split('\n').map((l) => l.trim());
    for (const value of PDF_TEXT[name]!) expect(lines, value).toContain(value);
  });

  it('embeds every font it uses (a subset of each)', () => {
    expect(fonts.length).toBeGreaterThan(0);
    // name type... encoding emb sub uni object ID: emb, sub, uni are the 5th to 3rd columns from the end.
    for (const row of fonts) {
      expect(row.at(-5), row.join(' ')).toBe('yes');
      expect(row[0], row.join(' ')).toMatch(/^[A-Z]{6}\+DejaVu/);
    }
  });

  it('draws vectors: no full-label raster, only the logo at its own size', () => {
    const hasLogo = markupsOf(name)[0]!.elements.some((e) => e.type === 'image');
    // page num type width height ...
    const pictures = images.filter((r) => r[2] === 'image');
    const masks = images.filter((r) => r[2] === 'smask');
    if (!hasLogo) {
      expect(images).toEqual([]);
      return;
    }
    expect(pictures.map((r) => [r[3], r[4]])).toEqual([[String(LOGO_PX), String(LOGO_PX)]]);
    // The logo's alpha channel, same size; nothing else.
    expect(masks.map((r) => [r[3], r[4]])).toEqual([[String(LOGO_PX), String(LOGO_PX)]]);
  });
});

describe('PDF pages', () => {
  it('makes one PDF per copy, or one page per copy with merge, at the label size', async () => {
    const markups = markupsOf('product-2x1', SAMPLE_DATA['product-2x1'], 3);
    const separate = await renderPdfLabels(markups, ports);
    expect(separate).toHaveLength(3);
    const [merged, ...rest] = await renderPdfLabels(markups, ports, { merge: true });
    expect(rest).toEqual([]);
    const path = join(dir, 'merged.pdf');
    writeFileSync(path, merged!);
    const info = (await run('pdfinfo', [path])).stdout;
    expect(info).toMatch(/^Pages:\s+3$/m);
    // 2 × 1 in = 144 × 72 pt.
    expect(info).toMatch(/^Page size:\s+144 x 72 pts$/m);
  });
});

describe('ZPL', () => {
  it('renders one complete job per copy at the printer dpi, copies identical', async () => {
    const result = await renderZplLabels(
      markupsOf('shipping-4x6', SAMPLE_DATA['shipping-4x6'], 3),
      { dpi: 203 },
      ports,
    );
    expect(result).toMatchObject({ dpi: 203, max_width_dots: 832, count: 3 });
    expect(result.labels).toHaveLength(3);
    expect(new Set(result.labels).size).toBe(1);
    const job = decodeZpl(result.labels[0]!);
    expect([job.printWidth, job.labelLength]).toEqual([812, 1218]);
    expect(job.graphics.every((g) => g.encoding === 'z64')).toBe(true);
  });

  it('cuts a label wider than the printer head at max_width_dots, without an error', async () => {
    const result = await renderZplLabels(markupsOf('shipping-4x6'), { dpi: 300 }, ports);
    const job = decodeZpl(result.labels[0]!);
    expect([job.printWidth, job.labelLength]).toEqual([832, 1800]);
  });

  it.each<[string, Record<string, number>, RegExp]>([
    ['a dpi below 100', { dpi: 99 }, /^dpi: expected a whole number from 100 to 1200, got 99$/],
    ['a fractional dpi', { dpi: 203.5 }, /^dpi: expected a whole number from 100 to 1200, got 203.5$/],
    [
      'a head narrower than 100 dots',
      { maxWidthDots: 50 },
      /^max_width_dots: expected a whole number from 100 to 10000, got 50$/,
    ],
  ])('refuses %s', async (_what, opts, message) => {
    await expect(renderZplLabels(markupsOf('product-2x1'), opts, ports)).rejects.toThrow(message);
  });

  it('fails on a bad barcode value with the element named, instead of printing a broken label', async () => {
    const markups = markupsOf('product-2x1', { ...SAMPLE_DATA['product-2x1'], ean13: '59012341234X' });
    const error = await renderZplLabels(markups, {}, ports).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElementError);
    expect((error as ElementError).message).toMatch(/^elements\[1\] \(barcode ean13\): /);
  });
});

describe('PNG', () => {
  it('is the label at the dpi, which it records (pHYs), one per copy', async () => {
    const pngs = await renderPngLabels(
      markupsOf('visitor-badge-4x3', SAMPLE_DATA['visitor-badge-4x3'], 2),
      300,
      ports,
    );
    expect(pngs).toHaveLength(2);
    const image = decodePngToGrey(pngs[0]!);
    expect([image.width, image.height]).toEqual([1200, 900]);
    expect(image.pixelsPerMetre).toBe(Math.round(300 / 0.0254));
    // The black VISITOR banner is at the top, the bottom corner is paper.
    expect(image.grey[10 * 1200 + 10]).toBeLessThan(64);
    expect(image.grey[899 * 1200 + 1199]).toBeGreaterThan(192);
  });

  it('many different labels in one call do not pile up native memory (resvg frees a render on a later turn)', async () => {
    // 40 different 4x6 labels: resvg-js holds ~9 MB per render until the event loop turns, ~390 MB in a tight
    // loop; with a turn before each render the RSS grows ~45 MB here.
    const markups = Array.from({ length: 40 }, (_, i) =>
      markupsOf('shipping-4x6', { ...SAMPLE_DATA['shipping-4x6'], ship_to_name: `Recipient ${i}` }),
    ).flat();
    // Start from a collected heap, so what earlier tests left behind is not counted.
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const before = process.memoryUsage().rss;
    const pngs = await renderPngLabels(markups, 203, ports);
    const grownMb = (process.memoryUsage().rss - before) / 1e6;
    expect(new Set(pngs.map((p) => Buffer.from(p).toString('base64'))).size).toBe(40);
    expect(grownMb).toBeLessThan(150);
  });
});

describe('RFID (rfid-asset-4x2)', () => {
  const EPC = SAMPLE_DATA['rfid-asset-4x2']!.epc!;

  it('writes the EPC to the tag with ^RFW before the printed graphic', async () => {
    const { labels } = await renderZplLabels(markupsOf('rfid-asset-4x2'), { dpi: 203 }, ports);
    const job = decodeZpl(labels[0]!);
    expect(job.rfidWrites).toEqual([{ params: 'W,H', data: EPC }]);
    const names = job.commands.map((c) => c.name);
    expect(names).toContain('^RS');
    expect(names.indexOf('^RF')).toBeLessThan(names.indexOf('^GF'));
    expect([job.printWidth, job.labelLength]).toEqual([812, 406]);
  });

  it('writes a lowercase EPC in uppercase', async () => {
    const data = { ...SAMPLE_DATA['rfid-asset-4x2'], epc: EPC.toLowerCase() };
    const { labels } = await renderZplLabels(markupsOf('rfid-asset-4x2', data), {}, ports);
    expect(decodeZpl(labels[0]!).rfidWrites.map((w) => w.data)).toEqual([EPC]);
  });

  it.each([
    ['PDF', () => renderPdfLabels(markupsOf('rfid-asset-4x2'), ports)],
    ['SVG', () => renderSvgLabels(markupsOf('rfid-asset-4x2'), ports)],
  ])('refuses %s, which cannot encode a tag', async (_format, render) => {
    const error = await render().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RfidRequiresZpl);
    expect((error as Error).message).toBe(
      'RFID labels must be rendered as ZPL because PDF cannot encode RFID tags',
    );
  });

  it.each([
    [
      '23 digits',
      EPC.slice(0, 23),
      'elements[6] (rfid): epc: expected 24 hex digits for a 96-bit EPC, got 23',
    ],
    ['a non-hex digit', `${EPC.slice(0, 23)}G`, 'elements[6] (rfid): epc: '],
    ['a ZPL command in it', `${EPC.slice(0, 20)}^XZ~`, 'elements[6] (rfid): epc: '],
  ])('refuses an EPC with %s before rendering anything', async (_what, epc, message) => {
    const data = { ...SAMPLE_DATA['rfid-asset-4x2'], epc };
    const error = await renderZplLabels(markupsOf('rfid-asset-4x2', data), {}, ports).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ElementError);
    expect((error as Error).message.startsWith(message)).toBe(true);
  });
});
