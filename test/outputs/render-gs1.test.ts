/**
 * GS1 symbols through the real outputs (issue #23): a 4×6 logistics label with three GS1-128, a GS1 DataMatrix
 * and a GS1 QR, rendered to ZPL, PNG, SVG and PDF at 203, 300 and 600 dpi and read back as
 * render-barcodes.test.ts does (ZPL's ^GFA decoded to dots, PNG read back, SVG through resvg, PDF through
 * pdftoppm). Each symbol, cropped at its element's box, must be read by ZXing with the GS1 symbology identifier
 * and the element string (GS after a variable-length field). The X-dimension each output prints is reported and
 * must lie in GS1's range: whole dots for ZPL and PNG, the box's width over the modules for SVG and PDF.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layout } from '../../src/layout/layout';
import type { BarcodeNode, SceneNode } from '../../src/layout/scene';
import { GS } from '../../src/model/barcode/gs1';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { renderPdfLabels, renderPngLabels, renderSvgLabels, renderZplLabels } from '../../src/outputs/render';
import { resolve } from '../../src/resolve/resolve';
import { MM_PER_INCH, PX_PER_INCH } from '../../src/units/units';
import {
  cropGrey,
  decodePngToGrey,
  monoToGreyImage,
  readPgm,
  rgbaToGreyImage,
  type GreyImage,
} from '../support/grey-image';
import { GS1_SYMBOLS_DATA, GS1_X_RANGE_MM, gs1SymbolsTemplate } from '../support/gs1-label';
import { zxingDecode } from '../support/zxing';
import { decodeZpl } from '../support/zpl-decode';

const run = promisify(execFile);
const DPIS = [203, 300, 600] as const;
type Output = 'zpl' | 'png' | 'svg' | 'pdf';
const OUTPUTS: readonly Output[] = ['zpl', 'png', 'svg', 'pdf'];

/** Each element: what ZXing must report. */
const EXPECTED: Record<
  string,
  { format: 'gs1-128' | 'gs1datamatrix' | 'gs1qrcode'; id: string; text: string }
> = {
  contents: { format: 'gs1-128', id: ']C1', text: '02050123456789003712' },
  batch: { format: 'gs1-128', id: ']C1', text: `10AB12${GS}17260131` },
  sscc: { format: 'gs1-128', id: ']C1', text: '00350123451234567894' },
  datamatrix: { format: 'gs1datamatrix', id: ']d2', text: `01095011015300031726013110AB12${GS}21S12345` },
  qrcode: { format: 'gs1qrcode', id: ']Q3', text: `01095011015300031726013110AB12${GS}21S12345` },
};

const ports = nodeRenderPorts();
const markups = resolve(gs1SymbolsTemplate(), GS1_SYMBOLS_DATA, 1);
const markup = markups[0]!;
const dir = mkdtempSync(join(tmpdir(), 'ld-gs1-'));
const printed: string[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.info(`X-dimension printed (mm):\n${printed.join('\n')}`);
});

function barcodeNodes(nodes: readonly SceneNode[]): BarcodeNode[] {
  return nodes.flatMap((n) =>
    n.kind === 'barcode' ? [n] : n.kind === 'group' ? barcodeNodes(n.children) : [],
  );
}

/** The X-dimension (mm) of each barcode element as the output prints it: raster outputs in dots, vector in px. */
function xDimensions(output: Output, dpi: number): Map<string, number> {
  const raster = output === 'zpl' || output === 'png';
  const scene = layout(markup, {
    fonts: ports.fonts,
    images: new Map(),
    target: raster ? { unit: 'dots', dpi } : { unit: 'px' },
  });
  const perInch = raster ? dpi : PX_PER_INCH;
  const ids = markup.elements.filter((e) => e.type === 'barcode').map((e) => e.id ?? '');
  return new Map(
    barcodeNodes(scene.nodes).map((n, i) => [ids[i] ?? '', (n.moduleWidth / perInch) * MM_PER_INCH]),
  );
}

let svg = '';
let pdfPath = '';
beforeAll(async () => {
  svg = (await renderSvgLabels(markups, ports))[0]!;
  pdfPath = join(dir, 'gs1.pdf');
  writeFileSync(pdfPath, (await renderPdfLabels(markups, ports))[0]!);
});

describe.each(DPIS)('at %i dpi', (dpi) => {
  const labelW = Math.round(4 * dpi);
  const images = new Map<Output, GreyImage>();
  beforeAll(async () => {
    const page = join(dir, `gs1-${dpi}`);
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', pdfPath, page]);
    images.set('pdf', await readPgm(`${page}.pgm`));
    const { labels } = await renderZplLabels(markups, { dpi, maxWidthDots: labelW }, ports);
    images.set('zpl', monoToGreyImage(decodeZpl(labels[0]!).bitmap));
    images.set('png', decodePngToGrey((await renderPngLabels(markups, dpi, ports))[0]!));
    const r = new Resvg(svg, {
      font: { loadSystemFonts: false },
      fitTo: { mode: 'width', value: labelW },
      background: 'white',
    }).render();
    images.set('svg', rgbaToGreyImage(r.width, r.height, r.pixels));
  });

  it.each(OUTPUTS)(
    '%s: every GS1 symbol reads with its symbology identifier and element string',
    async (output) => {
      const image = images.get(output)!;
      const scale = image.width / (4 * PX_PER_INCH);
      const got: Record<string, [string, string][]> = {};
      for (const el of markup.elements) {
        if (el.type !== 'barcode' || el.width === undefined || el.height === undefined) continue;
        const m = 3;
        const crop = cropGrey(image, {
          x: (el.x - m) * scale,
          y: (el.y - m) * scale,
          width: (el.width + 2 * m) * scale,
          height: (el.height + 2 * m) * scale,
        });
        got[el.id ?? ''] = (await zxingDecode(crop)).map((r) => [r.symbologyIdentifier, r.text]);
      }
      const want = Object.fromEntries(Object.entries(EXPECTED).map(([k, e]) => [k, [[e.id, e.text]]]));
      expect(got).toEqual(want);
    },
  );

  it.each(OUTPUTS)('%s: the X-dimension printed is in the GS1 range', (output) => {
    const xs = xDimensions(output, dpi);
    expect([...xs.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [id, xMm] of xs) {
      const format = EXPECTED[id]!.format;
      printed.push(`${output} ${dpi} dpi ${id} (${format}): ${xMm.toFixed(3)} mm`);
      if (format === 'gs1qrcode') continue;
      const [min, max] = GS1_X_RANGE_MM[format];
      expect(xMm, `${id} (${format}) in ${output} at ${dpi} dpi`).toBeGreaterThanOrEqual(min);
      expect(xMm, `${id} (${format}) in ${output} at ${dpi} dpi`).toBeLessThanOrEqual(max);
    }
  });
});
