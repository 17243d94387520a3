/**
 * EAN/UPC (with and without EAN-2/EAN-5 add-ons), UPC-E and ITF-14 with its bearer bars through the real
 * outputs (issue #23): a 4×6 label rendered to ZPL, PNG, SVG and PDF at 203, 300 and 600 dpi and read back as
 * render-barcodes.test.ts does (ZPL's ^GFA decoded to dots, PNG read back, SVG through resvg, PDF through
 * pdftoppm). Each symbol, cropped at its element's box, must be read by zbarimg (add-ons enabled) as its value
 * with its symbology, UPC-E by ZXing as a UPC-E too; the quiet zones printed, measured in the image across the
 * bars, must be at least the standard's (EAN-13 11X/7X, EAN-8 7X/7X, UPC-A 9X/9X, UPC-E 9X/7X, 5X after an
 * add-on, ITF-14 10X inside its frame), an ITF-14 bearer at least 2X; the X-dimension each output prints must lie in
 * GS1's range (EAN/UPC 0.264–0.660 mm, ITF-14 0.495–1.016 mm).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkup } from '../../src/model/parse';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { PX_PER_INCH } from '../../src/units/units';
import { cropGrey, type GreyImage } from '../support/grey-image';
import { OUTPUTS, outputImages, printedModules, vectorOutputs, type Output } from '../support/label-outputs';
import { writeGreyPgm } from '../support/pgm';
import { zbarDecodeFilesAsync } from '../support/zbar';
import { zxingDecode } from '../support/zxing';

const DPIS = [203, 300, 600] as const;

/** GS1 General Specifications X-dimension ranges (mm): retail EAN/UPC 0.264–0.660, ITF-14 0.495–1.016. */
const X_RANGE_MM = { retail: [0.264, 0.66], itf14: [0.495, 1.016] } as const;

interface Item {
  id: string;
  format: string;
  text: string;
  bearer?: 'frame' | 'top-bottom';
  box: [x: number, y: number, width: number, height: number];
  /** What zbarimg reads, sorted: [symbology, data]. */
  reads: Array<[string, string]>;
  /** Quiet zones in X, left and right. */
  quiet: [number, number];
  range: keyof typeof X_RANGE_MM;
}

// Boxes (px at 96 dpi) sized for an X of about 0.4 mm (EAN/UPC) and 0.55 mm (ITF-14) in every output.
const SYMBOLS: Item[] = [
  {
    id: 'ean13',
    format: 'ean13',
    text: '590123412345',
    box: [10, 10, 171, 80],
    reads: [['EAN-13', '5901234123457']],
    quiet: [11, 7],
    range: 'retail',
  },
  {
    id: 'ean8',
    format: 'ean8',
    text: '9638507',
    box: [220, 10, 122, 80],
    reads: [['EAN-8', '96385074']],
    quiet: [7, 7],
    range: 'retail',
  },
  {
    id: 'upca',
    format: 'upca',
    text: '03600029145',
    box: [10, 110, 171, 80],
    reads: [['UPC-A', '036000291452']],
    quiet: [9, 9],
    range: 'retail',
  },
  {
    id: 'upce',
    format: 'upce',
    text: '425261',
    box: [220, 110, 101, 80],
    // zbar reports a UPC-E as the UPC-A it stands for.
    reads: [['UPC-A', '042100005264']],
    quiet: [9, 7],
    range: 'retail',
  },
  {
    id: 'ean13-2',
    format: 'ean13',
    text: '5901234123457 12',
    box: [10, 210, 216, 80],
    reads: [
      ['EAN-13', '5901234123457'],
      ['EAN-2', '12'],
    ],
    quiet: [11, 5],
    range: 'retail',
  },
  {
    id: 'upce-2',
    format: 'upce',
    text: '04252614 12',
    box: [232, 210, 147, 80],
    reads: [
      ['EAN-2', '12'],
      ['UPC-A', '042100005264'],
    ],
    quiet: [9, 5],
    range: 'retail',
  },
  {
    id: 'upca-5',
    format: 'upca',
    text: '036000291452 53999',
    box: [10, 310, 254, 80],
    reads: [
      ['EAN-5', '53999'],
      ['UPC-A', '036000291452'],
    ],
    quiet: [9, 5],
    range: 'retail',
  },
  {
    id: 'itf14-frame',
    format: 'itf14',
    text: '1540014128876',
    bearer: 'frame',
    box: [10, 410, 335, 70],
    reads: [['I2/5', '15400141288763']],
    quiet: [10, 10],
    range: 'itf14',
  },
  {
    id: 'itf14-top-bottom',
    format: 'itf14',
    text: '1540014128876',
    bearer: 'top-bottom',
    box: [10, 495, 322, 70],
    reads: [['I2/5', '15400141288763']],
    quiet: [10, 10],
    range: 'itf14',
  },
];

const markup = parseMarkup({
  stage: { width: 4, height: 6, unit: 'in' },
  elements: SYMBOLS.map((s) => ({
    type: 'barcode',
    id: s.id,
    format: s.format,
    text: s.text,
    x: s.box[0],
    y: s.box[1],
    width: s.box[2],
    height: s.box[3],
    ...(s.bearer ? { bearer: s.bearer } : {}),
  })),
});
const markups = [markup];
const ports = nodeRenderPorts();
const dir = mkdtempSync(join(tmpdir(), 'ld-retail-'));
const printed: string[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.info(`X-dimension printed (mm):\n${printed.join('\n')}`);
});

/** Each symbol's module width as the output prints it: in image pixels at `dpi`, and in mm. */
function modules(output: Output, dpi: number): Map<string, { px: number; mm: number }> {
  const printed = printedModules(markup, ports, output, dpi);
  expect(printed.warnings).toEqual([]);
  expect(printed.modules).toHaveLength(SYMBOLS.length);
  return new Map(printed.modules.map((m, i) => [SYMBOLS[i]!.id, m]));
}

/** The element's box in the image, 3 px (at 96 dpi) larger on each side; neighbours are 6+ px away. */
function cropOf(image: GreyImage, s: Item, pad: number): GreyImage {
  const scale = image.width / (4 * PX_PER_INCH);
  const m = 3;
  return cropGrey(
    image,
    {
      x: (s.box[0] - m) * scale,
      y: (s.box[1] - m) * scale,
      width: (s.box[2] + 2 * m) * scale,
      height: (s.box[3] + 2 * m) * scale,
    },
    pad,
  );
}

/** Dark runs [start, end) along row `y` of `image`. */
function darkRuns(image: GreyImage, y: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let x = 0; x <= image.width; x++) {
    const dark = x < image.width && (image.grey[y * image.width + x] ?? 255) < 128;
    if (dark && start < 0) start = x;
    if (!dark && start >= 0) {
      runs.push([start, x]);
      start = -1;
    }
  }
  return runs;
}

let vector: { svg: string; pdfPath: string };
beforeAll(async () => {
  vector = await vectorOutputs(markups, ports, dir, 'retail');
});

describe.each(DPIS)('at %i dpi', (dpi) => {
  let images = new Map<Output, GreyImage>();
  const reads = new Map<Output, Map<string, Array<[string, string]>>>();
  beforeAll(async () => {
    images = await outputImages(markups, ports, vector, dpi, join(dir, `retail-${dpi}`));
    // Every crop of every output in one zbarimg run.
    const paths = new Map<string, [Output, string]>();
    for (const [output, image] of images) {
      for (const s of SYMBOLS) {
        const crop = cropOf(image, s, 20);
        const path = join(dir, `${dpi}-${output}-${s.id}.pgm`);
        writeGreyPgm(path, crop.width, crop.height, crop.grey);
        paths.set(path, [output, s.id]);
      }
    }
    const found = await zbarDecodeFilesAsync([...paths.keys()], { addons: true });
    for (const [path, [output, id]] of paths) {
      const byId = reads.get(output) ?? new Map<string, Array<[string, string]>>();
      byId.set(id, (found.get(path) ?? []).map((d): [string, string] => [d.symbology, d.value]).sort());
      reads.set(output, byId);
    }
  });

  it.each(OUTPUTS)('%s: every symbol scans as its value, add-ons too', (output) => {
    const got = Object.fromEntries(SYMBOLS.map((s) => [s.id, reads.get(output)?.get(s.id)]));
    expect(got).toEqual(Object.fromEntries(SYMBOLS.map((s) => [s.id, s.reads])));
  });

  it.each(OUTPUTS)('%s: the UPC-E reads as a UPC-E with ZXing', async (output) => {
    const s = SYMBOLS.find((x) => x.id === 'upce')!;
    const found = await zxingDecode(cropOf(images.get(output)!, s, 20));
    expect(found.map((r) => [r.format, r.text])).toEqual([['UPCE', '0042100005264']]);
  });

  it.each(OUTPUTS)('%s: quiet zones and bearer bars as printed, X in GS1 range', (output) => {
    const image = images.get(output)!;
    const xs = modules(output, dpi);
    for (const s of SYMBOLS) {
      const x = xs.get(s.id)!;
      printed.push(`${output} ${dpi} dpi ${s.id}: ${x.mm.toFixed(3)} mm`);
      const [min, max] = X_RANGE_MM[s.range];
      const what = `${s.id} in ${output} at ${dpi} dpi`;
      expect(x.mm, what).toBeGreaterThanOrEqual(min);
      expect(x.mm, what).toBeLessThanOrEqual(max);

      // Across the bars, 40 % down the element (through the data bars and an add-on's bars).
      const crop = cropOf(image, s, 0);
      const runs = darkRuns(crop, Math.round(crop.height * 0.4));
      const first = runs[0]!;
      const last = runs[runs.length - 1]!;
      // One pixel of anti-aliasing in the vector outputs.
      const slack = 1;
      if (s.bearer === 'frame') {
        // The frame's sides: at least 2X, then 10X of quiet zone inside them.
        for (const side of [first, last])
          expect(side[1] - side[0], what).toBeGreaterThanOrEqual(2 * x.px - slack);
        const inner = runs[1]!;
        const innerLast = runs[runs.length - 2]!;
        expect(inner[0] - first[1], what).toBeGreaterThanOrEqual(s.quiet[0] * x.px - slack);
        expect(last[0] - innerLast[1], what).toBeGreaterThanOrEqual(s.quiet[1] * x.px - slack);
      } else {
        expect(first[0], what).toBeGreaterThanOrEqual(s.quiet[0] * x.px - slack);
        expect(crop.width - last[1], what).toBeGreaterThanOrEqual(s.quiet[1] * x.px - slack);
      }
      if (s.bearer) {
        // Top and bottom bearers: rows dark from the first bar's quiet zone to the last's.
        const column = Math.round(crop.width / 2);
        const dark = (y: number): boolean => (crop.grey[y * crop.width + column] ?? 255) < 128;
        let top = 0;
        while (top < crop.height && !dark(top)) top++;
        let thick = 0;
        while (top + thick < crop.height && dark(top + thick)) thick++;
        expect(thick, what).toBeGreaterThanOrEqual(2 * x.px - slack);
      }
    }
  });
});
