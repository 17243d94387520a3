/**
 * The acceptance, as a user checks it: every barcode of every bundled template, in every output
 * format, scans back as exactly the value given, at 203, 300 and 600 dpi.
 *
 *  - ZPL: our own ^GFA decoded back to dots (support/zpl-decode, independent of src/zpl), drawn by the 1-bit
 *    rasteriser (src/render/dots) that the Node ports use for ZPL;
 *  - PNG: renderPngLabels at the dpi, read back with our own PNG reader;
 *  - SVG: rasterised by resvg (no system fonts) to the label's width at the dpi;
 *  - PDF: rasterised by poppler's `pdftoppm -r <dpi> -gray`.
 *
 * Each symbol is cropped out at its element's box (so we also know it is where the template puts it) and read
 * by a real decoder: zbarimg (linear, QR), dmtxread (Data Matrix), ZXing (PDF417). Each crop must hold exactly
 * one symbol of the expected symbology. Rendering happens once per template, format and dpi, in beforeAll.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPdfLabels, renderPngLabels, renderSvgLabels, renderZplLabels } from '../../src/outputs/render';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { monoRasterStats } from '../../src/node/resvg';
import { resolve } from '../../src/resolve/resolve';
import type { Markup } from '../../src/model/schema';
import { stageToInches } from '../../src/units/units';
import { dmtxDecodeAsync } from '../support/dmtx';
import {
  cropGrey,
  decodePngToGrey,
  monoToGreyImage,
  readPgm,
  rgbaToGreyImage,
  type GreyImage,
} from '../support/grey-image';
import { writeGreyPgm } from '../support/pgm';
import { SAMPLE_DATA, bundledTemplate, bundledTemplateNames } from '../support/templates';
import { zbarDecodeFilesAsync, type Decoded } from '../support/zbar';
import { decodeZpl } from '../support/zpl-decode';
import { zxingDecodePdf417 } from '../support/zxing-pdf417';

const run = promisify(execFile);
const DPIS = [203, 300, 600] as const;
type Format = 'zpl' | 'png' | 'svg' | 'pdf';
const ALL_FORMATS: readonly Format[] = ['zpl', 'png', 'svg', 'pdf'];

/** What one barcode element must scan as: zbar's symbology name, or the 2D decoder that reads it. */
type Scan =
  | { element: string; decoder: 'zbar'; symbology: string; value: string; gs1?: true }
  | { element: string; decoder: 'dmtx' | 'zxing'; value: string };

const zbar = (element: string, symbology: string, value: string): Scan => ({
  element,
  decoder: 'zbar',
  symbology,
  value,
});

const EXPECTED: Record<string, { formats: readonly Format[]; scans: Scan[] }> = {
  'shipping-4x6': {
    formats: ALL_FORMATS,
    scans: [
      zbar('tracking', 'CODE-128', '1Z999AA10123456784'),
      zbar('order_id', 'QR-Code', 'ORD-20261123-0042'),
    ],
  },
  // GS1-128: zbar flags GS1 and gives the element string without the leading FNC1; the date field's 2027-05-31
  // goes in as YYMMDD; the SSCC is a counter, printed as its placeholder without a job's number.
  'gs1-logistic-4x6': {
    formats: ALL_FORMATS,
    scans: [
      {
        element: 'content',
        decoder: 'zbar',
        symbology: 'CODE-128',
        value: '020501234567890037120',
        gs1: true,
      },
      { element: 'batch', decoder: 'zbar', symbology: 'CODE-128', value: '1527053110L2611A', gs1: true },
      { element: 'sscc', decoder: 'zbar', symbology: 'CODE-128', value: '00000000000000000000', gs1: true },
    ],
  },
  // 12 digits typed; the symbol carries the computed check digit.
  'product-2x1': { formats: ALL_FORMATS, scans: [zbar('ean13', 'EAN-13', '5901234123457')] },
  'visitor-badge-4x3': { formats: ALL_FORMATS, scans: [zbar('badge_id', 'QR-Code', 'V-2026-0042')] },
  'packing-slip-a4': { formats: ALL_FORMATS, scans: [zbar('order_id', 'CODE-128', 'ORD-20261123-0042')] },
  // PDF and SVG cannot carry the tag (see render.test.ts); PNG is a preview, ZPL is the print path.
  'rfid-asset-4x2': { formats: ['zpl', 'png'], scans: [zbar('asset_id', 'CODE-128', 'ASSET-004211')] },
  'element-gallery-4x6': {
    formats: ALL_FORMATS,
    scans: [
      zbar('bc-code128', 'CODE-128', 'LD-128'),
      // The brackets are for people; the symbol holds FNC1 + "01" + GTIN, zbar flags it GS1 and drops the FNC1.
      { element: 'bc-gs1-128', decoder: 'zbar', symbology: 'CODE-128', value: '0109501101530003', gs1: true },
      zbar('bc-code39', 'CODE-39', 'LD39'),
      zbar('bc-ean13', 'EAN-13', '5901234123457'),
      zbar('bc-ean8', 'EAN-8', '96385074'),
      // With zbar's UPC-A decoder on, UPC-A is reported as such (12 digits), not as EAN-13 "0036000291452".
      zbar('bc-upca', 'UPC-A', '036000291452'),
      zbar('bc-itf14', 'I2/5', '15400141288763'),
      zbar('bc-isbn', 'EAN-13', '9781565812314'),
      zbar('bc-ismn', 'EAN-13', '9790260000438'),
      zbar('bc-issn', 'EAN-13', '9770317847001'),
      zbar('bc-qrcode', 'QR-Code', 'https://labeldesk.example/g'),
      { element: 'bc-datamatrix', decoder: 'dmtx', value: 'LD-DM-0001' },
      { element: 'bc-pdf417', decoder: 'zxing', value: 'LabelDesk PDF417' },
    ],
  },
};

/** What a decoder read in one crop, in the shape EXPECTED uses. */
type Read = { symbology?: string; value: string; gs1?: true };

const ports = nodeRenderPorts();
const dir = mkdtempSync(join(tmpdir(), 'ld-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The element's box in image pixels, 3 px (at 96 dpi) larger on each side; neighbours are 6+ px away. */
function elementBox(
  markup: Markup,
  id: string,
  scale: number,
): { x: number; y: number; width: number; height: number } {
  const el = markup.elements.find((e) => e.id === id);
  if (!el || el.width === undefined || el.height === undefined) throw new Error(`no sized element "${id}"`);
  const m = 3;
  return {
    x: (el.x - m) * scale,
    y: (el.y - m) * scale,
    width: (el.width + 2 * m) * scale,
    height: (el.height + 2 * m) * scale,
  };
}

/**
 * Reads every crop with its decoder: the zbar crops in one zbarimg run, Data Matrix with dmtxread, PDF417 with
 * ZXing in this process.
 */
async function readSymbols(jobs: { scan: Scan; crop: GreyImage; name: string }[]): Promise<Read[][]> {
  const paths = jobs.map(({ scan, crop, name }) => {
    if (scan.decoder === 'zxing') return '';
    const path = join(dir, `${name}.pgm`);
    writeGreyPgm(path, crop.width, crop.height, crop.grey);
    return path;
  });
  const zbarPaths = paths.filter((p, i) => jobs[i]!.scan.decoder === 'zbar');
  const [zbarFound, ...dmtxFound] = await Promise.all([
    zbarPaths.length ? zbarDecodeFilesAsync(zbarPaths) : new Map<string, Decoded[]>(),
    ...jobs.map((job, i) => (job.scan.decoder === 'dmtx' ? dmtxDecodeAsync(paths[i]!) : Promise.resolve([]))),
  ]);
  return jobs.map(({ scan, crop }, i) => {
    switch (scan.decoder) {
      case 'zxing':
        return zxingDecodePdf417(crop).map((value) => ({ value }));
      case 'dmtx':
        return (dmtxFound[i] ?? []).map((value) => ({ value }));
      case 'zbar':
        return (zbarFound.get(paths[i]!) ?? []).map((s) => ({
          symbology: s.symbology,
          value: s.value,
          ...(s.modifiers.includes('GS1') ? { gs1: true as const } : {}),
        }));
    }
  });
}

function expectedRead(scan: Scan): Read {
  if (scan.decoder !== 'zbar') return { value: scan.value };
  return { symbology: scan.symbology, value: scan.value, ...(scan.gs1 ? { gs1: true as const } : {}) };
}

describe.each(bundledTemplateNames())('%s', (name) => {
  const expected = EXPECTED[name];
  if (!expected) throw new Error(`bundled template ${name} has no expected scans: add it here`);
  const markups = resolve(bundledTemplate(name), SAMPLE_DATA[name] ?? {}, 1);
  const markup = markups[0]!;
  const widthIn = stageToInches(markup.stage.width, markup.stage.unit);
  const heightIn = stageToInches(markup.stage.height, markup.stage.unit);
  const stageWidthPx = widthIn * 96;

  it('lists every barcode element of the template', () => {
    const barcodeIds = markup.elements.filter((e) => e.type === 'barcode').map((e) => e.id);
    expect(expected.scans.map((s) => s.element).sort()).toEqual([...barcodeIds].sort());
  });

  // Vector outputs do not depend on the dpi: render them once per template.
  let svg: string | undefined;
  let pdfPath: string | undefined;
  beforeAll(async () => {
    if (expected.formats.includes('svg')) svg = (await renderSvgLabels(markups, ports))[0];
    if (expected.formats.includes('pdf')) {
      pdfPath = join(dir, `${name}.pdf`);
      writeFileSync(pdfPath, (await renderPdfLabels(markups, ports))[0]!);
    }
  });

  describe.each(DPIS)('at %i dpi', (dpi) => {
    const labelW = Math.round(widthIn * dpi);
    const labelH = Math.round(heightIn * dpi);
    const reads = new Map<Format, Read[][]>();
    const sizes = new Map<Format, [number, number]>();

    beforeAll(async () => {
      // pdftoppm runs in its own process while this one rasterises the other formats.
      const pdfPage = pdfPath
        ? run('pdftoppm', [
            '-r',
            String(dpi),
            '-gray',
            '-singlefile',
            pdfPath,
            join(dir, `${name}-${dpi}`),
          ]).then(() => readPgm(join(dir, `${name}-${dpi}.pgm`)))
        : undefined;
      const images = new Map<Format, GreyImage>();
      for (const format of expected.formats) {
        switch (format) {
          case 'zpl': {
            // A printer whose head is as wide as the label (a 4 in label at 300 dpi needs 1200 dots; the
            // default of 832 is a 203 dpi head and would cut it, by design).
            const fallbacks = monoRasterStats.fallback;
            const { labels } = await renderZplLabels(markups, { dpi, maxWidthDots: labelW }, ports);
            // Drawn by the 1-bit rasteriser (the default ZPL path), not by its resvg fallback.
            expect(monoRasterStats.fallback, monoRasterStats.lastFallback).toBe(fallbacks);
            images.set(format, monoToGreyImage(decodeZpl(labels[0]!).bitmap));
            break;
          }
          case 'png':
            images.set(format, decodePngToGrey((await renderPngLabels(markups, dpi, ports))[0]!));
            break;
          case 'svg': {
            const r = new Resvg(svg!, {
              font: { loadSystemFonts: false },
              fitTo: { mode: 'width', value: labelW },
              background: 'white',
            }).render();
            images.set(format, rgbaToGreyImage(r.width, r.height, r.pixels));
            break;
          }
          case 'pdf':
            images.set(format, await pdfPage!);
            break;
        }
      }
      const jobs: { format: Format; scan: Scan; crop: GreyImage; name: string }[] = [];
      for (const [format, image] of images) {
        sizes.set(format, [image.width, image.height]);
        const scale = image.width / stageWidthPx;
        for (const scan of expected.scans) {
          const crop = cropGrey(image, elementBox(markup, scan.element, scale));
          jobs.push({ format, scan, crop, name: `${name}-${dpi}-${format}-${scan.element}` });
        }
      }
      images.clear();
      const found = await readSymbols(jobs);
      jobs.forEach(({ format }, i) => reads.set(format, [...(reads.get(format) ?? []), found[i]!]));
    });

    it.each(expected.formats)('%s: the label is the stage size at this dpi', (format) => {
      const [w, h] = sizes.get(format)!;
      // pdftoppm rounds the page size its own way: allow it one pixel.
      expect(Math.abs(w - labelW)).toBeLessThanOrEqual(format === 'pdf' ? 1 : 0);
      expect(Math.abs(h - labelH)).toBeLessThanOrEqual(format === 'pdf' || format === 'svg' ? 1 : 0);
    });

    it.each(expected.formats)('%s: every barcode scans as exactly its value', (format) => {
      const got = Object.fromEntries(expected.scans.map((s, i) => [s.element, reads.get(format)?.[i]]));
      const want = Object.fromEntries(expected.scans.map((s) => [s.element, [expectedRead(s)]]));
      expect(got).toEqual(want);
    });
  });
});
