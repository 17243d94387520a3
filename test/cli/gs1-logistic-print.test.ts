/**
 * Issue #23's acceptance: the bundled `gs1-logistic-4x6` printed with `labeldesk batch` to the Zebra emulator over
 * TCP, its SSCC made by the counter. Each label's ZPL as the printer received it is decoded to dots (^GFA,
 * support/zpl-decode) and every symbol read by ZXing at its element's box: `]C1` and the element string — the
 * SSCC `00` + extension digit + company prefix + serial reference + check digit, consecutive from label to
 * label and across a second run over the same data folder; the contents and batch/best-before symbols too — each
 * printed with GS1's X-dimension and bar height for logistic labels (0.495–1.016 mm, bars ≥ 31.75 mm).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readLabelTag } from '../../src/jobs/model';
import { MM_PER_INCH, PX_PER_INCH } from '../../src/units/units';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';
import { cropGrey, monoToGreyImage, type GreyImage } from '../support/grey-image';
import { bundledTemplate } from '../support/templates';
import { zxingDecode } from '../support/zxing';
import { decodeZpl } from '../support/zpl-decode';

let emulator: ZebraEmulator;
let dir: string;
beforeEach(async () => {
  emulator = await startZebraEmulator({ dpi: 203, port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-gs1-print-'));
});
afterEach(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const template = bundledTemplate('gs1-logistic-4x6');
const HEADER = 'gtin,count,batch,best_before,ship_from,ship_to,carrier,consignment,purchase_order';
const FROM = '"LabelDesk Foods Ltd\n12 Harbour Road\nBristol BS1 5TY"';
const TO = '"Northwind Retail DC 4\nDock 7\nLeeds LS10 1AB"';
const pallet = (count: string, batch: string, bestBefore: string) =>
  `05012345678900,${count},${batch},${bestBefore},${FROM},${TO},Harbour Freight,CN 4001234500012,PO-778812`;

async function batch(name: string, rows: string[]): Promise<void> {
  const csv = join(dir, name);
  writeFileSync(csv, [HEADER, ...rows].join('\n') + '\n');
  const run = await cli([
    'batch',
    ...['--csv', csv, '--template', 'gs1-logistic-4x6', '--printer', emulator.uri],
    ...['--data-dir', dir, '--by', 'ada', '--dpi', '203'],
  ]);
  expect(run.code, run.stderr).toBe(0);
  // Every field has its column; the SSCC, a counter, has none and needs none.
  expect(run.stderr).not.toMatch(/warning/);
}

/** The narrowest bar or space (dots) across the row at `y`, between the first and the last bar. */
function narrowestRun(image: GreyImage, y: number): number {
  const row = image.grey.subarray(y * image.width, (y + 1) * image.width);
  const first = row.findIndex((v) => v < 128);
  const last = row.findLastIndex((v) => v < 128);
  let narrowest = Infinity;
  let start = first;
  for (let x = first + 1; x <= last + 1; x++) {
    if (x > last || row[x]! < 128 !== row[start]! < 128) {
      narrowest = Math.min(narrowest, x - start);
      start = x;
    }
  }
  return narrowest;
}

/** The height (dots) of the first bar crossing the row at `y`: its dark run up and down from that row. */
function firstBarHeight(image: GreyImage, y: number): number {
  const row = image.grey.subarray(y * image.width, (y + 1) * image.width);
  const x = row.findIndex((v) => v < 128);
  const dark = (yy: number) => yy >= 0 && yy < image.height && image.grey[yy * image.width + x]! < 128;
  let top = y;
  while (dark(top - 1)) top--;
  let bottom = y;
  while (dark(bottom + 1)) bottom++;
  return bottom - top + 1;
}

/** The X-dimensions (mm, 3 decimals) printed, by element id: the narrowest bar or space across the bars. */
const xPrinted: Record<string, number>[] = [];
/** The bar heights (mm, 2 decimals) printed, by element id. */
const heightPrinted: Record<string, number>[] = [];
/** The quiet zones printed, in X (narrowest bar or space) — white from the label's edge to the first bar, left and right. */
const quietPrinted: Record<string, [number, number]>[] = [];

/** White dots from the label's left edge to the first bar, and from the last bar to the right edge, at row `y`. */
function quietZones(image: GreyImage, y: number): [number, number] {
  const row = image.grey.subarray(y * image.width, (y + 1) * image.width);
  return [row.findIndex((v) => v < 128), image.width - 1 - row.findLastIndex((v) => v < 128)];
}

/** What ZXing reads at each barcode element's box of a printed label: [symbology identifier, text] by id. */
async function readLabel(zpl: string): Promise<Record<string, [string, string][]>> {
  const image = monoToGreyImage(decodeZpl(zpl).bitmap);
  const scale = image.width / (4 * PX_PER_INCH);
  const got: Record<string, [string, string][]> = {};
  const xs: Record<string, number> = {};
  xPrinted.push(xs);
  const heights: Record<string, number> = {};
  heightPrinted.push(heights);
  const quiet: Record<string, [number, number]> = {};
  quietPrinted.push(quiet);
  for (const el of template.elements) {
    if (el.type !== 'barcode' || el.width === undefined || el.height === undefined) continue;
    const m = 3;
    const crop = cropGrey(image, {
      x: Math.max(0, el.x - m) * scale,
      y: (el.y - m) * scale,
      width: Math.min(el.width + 2 * m, 4 * PX_PER_INCH) * scale,
      height: (el.height + 2 * m) * scale,
    });
    got[el.id ?? ''] = (await zxingDecode(crop)).map((r) => [r.symbologyIdentifier, r.text]);
    const across = Math.round((el.y + el.height / 3) * scale);
    const dots = narrowestRun(image, across);
    xs[el.id ?? ''] = Number(((dots / 203) * MM_PER_INCH).toFixed(3));
    heights[el.id ?? ''] = Number(((firstBarHeight(image, across) / 203) * MM_PER_INCH).toFixed(2));
    const [left, right] = quietZones(image, across);
    quiet[el.id ?? ''] = [left / dots, right / dots];
  }
  return got;
}

it('gs1-logistic-4x6 prints with counter-made SSCCs that scan as ]C1 00 + the SSCC, consecutive, never repeated', async () => {
  await batch('pallets.csv', [pallet('120', 'L2611A', '2027-05-31'), pallet('96', '4711', '2027-06-30')]);
  // A second run over the same data folder: a new job service over the same jobs.sqlite.
  await batch('more.csv', [pallet('9999', 'ABC1234', '2028-02-29')]);

  const printed = emulator.printer.printed;
  expect(printed.map((j) => readLabelTag(j.zpl)?.labelNumber)).toEqual([1, 2, 1]);
  const labels = await Promise.all(printed.map((j) => readLabel(j.zpl)));
  // Extension digit 0, company prefix 0614141, serial references 1, 2, 3 zero-padded to 9 digits, and the
  // mod-10 check digits 2, 9, 6 (worked out by hand from GS1's 3-1 weights).
  expect(labels).toEqual([
    {
      content: [[']C1', '0205012345678900' + '37120']],
      batch: [[']C1', '15270531' + '10L2611A']],
      sscc: [[']C1', '00' + '006141410000000012']],
    },
    {
      content: [[']C1', '0205012345678900' + '3796']],
      batch: [[']C1', '15270630' + '104711']],
      sscc: [[']C1', '00' + '006141410000000029']],
    },
    {
      content: [[']C1', '0205012345678900' + '379999']],
      batch: [[']C1', '15280229' + '10ABC1234']],
      sscc: [[']C1', '00' + '006141410000000036']],
    },
  ]);
  // Each symbol printed within GS1's X-dimension range for logistic labels, 0.495–1.016 mm (whole dots: 4 at
  // 203 dpi is 0.500 mm; a shorter symbol may get 5).
  for (const xs of xPrinted) {
    expect(Object.keys(xs).sort()).toEqual(['batch', 'content', 'sscc']);
    for (const x of Object.values(xs)) expect(x >= 0.495 && x <= 1.016, JSON.stringify(xPrinted)).toBe(true);
  }
  expect(xPrinted.map((xs) => xs.sscc)).toEqual([0.5, 0.5, 0.5]);
  // And every bar at least 31.75 mm high, GS1's minimum for logistic labels at these X-dimensions.
  for (const heights of heightPrinted) {
    expect(Object.keys(heights).sort()).toEqual(['batch', 'content', 'sscc']);
    for (const h of Object.values(heights))
      expect(h, JSON.stringify(heightPrinted)).toBeGreaterThanOrEqual(31.75);
  }
  // Quiet zones of at least 10X on both sides (GS1 General Specifications 5.4.4.2), within the label's width.
  for (const quiet of quietPrinted) {
    expect(Object.keys(quiet).sort()).toEqual(['batch', 'content', 'sscc']);
    for (const [left, right] of Object.values(quiet)) {
      expect(left, JSON.stringify(quietPrinted)).toBeGreaterThanOrEqual(10);
      expect(right, JSON.stringify(quietPrinted)).toBeGreaterThanOrEqual(10);
    }
  }
}, 120_000);

it('labeldesk print refuses it: only a job numbers an SSCC, and its placeholder must never reach a pallet', async () => {
  const run = await cli([
    'print',
    ...['--printer', emulator.uri, '--template', 'gs1-logistic-4x6', '--data-dir', dir],
    ...[
      '--data',
      JSON.stringify({ gtin: '05012345678900', count: '12', batch: 'B1', best_before: '2027-05-31' }),
    ],
  ]);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(
    'labeldesk: gs1-logistic-4x6: SSCC (sscc) is an SSCC counter, which only a print job numbers; labeldesk ' +
      'print would print its placeholder "000000000000000000" — print with labeldesk jobs add or batch\n',
  );
  expect(emulator.printer.printed).toEqual([]);
  // Rendering files (a proof, a preview) is no print: it shows the placeholder.
  const render = await cli(['render', '--template', 'gs1-logistic-4x6', '--format', 'zpl']);
  expect(render.code).toBe(0);
});
