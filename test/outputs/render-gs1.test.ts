/**
 * GS1 symbols through the real outputs (issue #23): a 4×6 logistics label with three GS1-128, a GS1 DataMatrix
 * and a GS1 QR, rendered to ZPL, PNG, SVG and PDF at 203, 300 and 600 dpi and read back as
 * render-barcodes.test.ts does (ZPL's ^GFA decoded to dots, PNG read back, SVG through resvg, PDF through
 * pdftoppm). Each symbol, cropped at its element's box, must be read by ZXing with the GS1 symbology identifier
 * and the element string (GS after a variable-length field). The X-dimension each output prints is reported and
 * must lie in GS1's range: whole dots for ZPL and PNG, the box's width over the modules for SVG and PDF.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GS } from '../../src/model/barcode/gs1';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { resolve } from '../../src/resolve/resolve';
import { PX_PER_INCH } from '../../src/units/units';
import { cropGrey, type GreyImage } from '../support/grey-image';
import { OUTPUTS, outputImages, printedModules, vectorOutputs, type Output } from '../support/label-outputs';
import { GS1_SYMBOLS_DATA, GS1_X_RANGE_MM, gs1SymbolsTemplate } from '../support/gs1-label';
import { zxingDecode } from '../support/zxing';

const DPIS = [203, 300, 600] as const;

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

/** The X-dimension (mm) of each barcode element as the output prints it: raster outputs in dots, vector in px. */
function xDimensions(output: Output, dpi: number): Map<string, number> {
  const ids = markup.elements.filter((e) => e.type === 'barcode').map((e) => e.id ?? '');
  const { modules } = printedModules(markup, ports, output, dpi);
  return new Map(modules.map((m, i) => [ids[i] ?? '', m.mm]));
}

let vector: { svg: string; pdfPath: string };
beforeAll(async () => {
  vector = await vectorOutputs(markups, ports, dir, 'gs1');
});

describe.each(DPIS)('at %i dpi', (dpi) => {
  let images = new Map<Output, GreyImage>();
  beforeAll(async () => {
    images = await outputImages(markups, ports, vector, dpi, join(dir, `gs1-${dpi}`));
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
