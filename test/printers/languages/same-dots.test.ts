/**
 * Issue #34's acceptance, as a user checks it: each bundled template (all but the RFID one, whose tag only
 * ZPL can write) rendered to each printer language at 203 and 300 dpi, read back by that language's decoder
 * (test/emulator/languages, which parses the bytes as the printer does and never calls a writer), is the ZPL
 * path's label dot for dot (decoded from its ^GFA by test/support/zpl-decode), and every linear and QR symbol
 * on it scans with zbarimg as the value typed. A label wider than the language's printers take is refused
 * with a sentence instead. The ZPL jobs are rendered once per template and dpi.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderZplLabels } from '../../../src/outputs/render';
import { nodeRenderPorts } from '../../../src/node/render-ports';
import { cropMonoBitmap, getDot, type MonoBitmap } from '../../../src/render/bitmap';
import {
  LanguageJobError,
  languageMaxWidthDots,
  type PrinterLanguage,
} from '../../../src/printers/languages';
import { renderLanguageLabels } from '../../../src/printers/languages/render-labels';
import { resolve } from '../../../src/resolve/resolve';
import { decodeLanguageJob } from '../../emulator/languages/decode';
import { writeMonoPgm } from '../../support/pgm';
import { SAMPLE_DATA, bundledTemplate } from '../../support/templates';
import { zbarDecodeAsync } from '../../support/zbar';
import { decodeZpl } from '../../support/zpl-decode';

const ports = nodeRenderPorts();
const dir = mkdtempSync(join(tmpdir(), 'ld-langs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What zbarimg reads on the whole label, by symbology: the values typed (check digits computed). */
const SCANS: Record<string, string[]> = {
  'shipping-4x6': ['CODE-128 1Z999AA10123456784', 'QR-Code ORD-20261123-0042'],
  'gs1-logistic-4x6': [
    'CODE-128 020501234567890037120',
    'CODE-128 1527053110L2611A',
    'CODE-128 00000000000000000000',
  ],
  'product-2x1': ['EAN-13 5901234123457'],
  'visitor-badge-4x3': ['QR-Code V-2026-0042'],
  'packing-slip-a4': ['CODE-128 ORD-20261123-0042'],
  'element-gallery-4x6': [
    'CODE-128 LD-128',
    'CODE-39 LD39',
    'EAN-8 96385074',
    'UPC-A 036000291452',
    'I2/5 15400141288763',
    'QR-Code https://labeldesk.example/g',
  ],
};

export const LANGUAGES_UNDER_TEST: readonly { language: PrinterLanguage; dpis: readonly number[] }[] = [
  { language: 'tspl', dpis: [203, 300] },
  { language: 'epl2', dpis: [203, 300] },
  { language: 'dpl', dpis: [203, 300] },
  { language: 'sbpl', dpis: [203, 300] },
  // The QL and the LabelWriter are 300 dpi printers only.
  { language: 'brother-ql', dpis: [300] },
  { language: 'dymo-lw', dpis: [300] },
];

const zplDots = new Map<string, MonoBitmap>();
const templates = Object.keys(SCANS);

beforeAll(async () => {
  for (const dpi of [203, 300]) {
    for (const name of templates) {
      const markups = resolve(bundledTemplate(name), SAMPLE_DATA[name] ?? {}, 1);
      // The head as wide as the label, so ZPL does not cut it either.
      const { labels } = await renderZplLabels(markups, { dpi, maxWidthDots: 10_000 }, ports);
      zplDots.set(`${name}@${dpi}`, decodeZpl(labels[0]!).bitmap);
    }
  }
}, 120_000);

function blackDots(bitmap: MonoBitmap): number {
  let n = 0;
  for (let y = 0; y < bitmap.height; y++)
    for (let x = 0; x < bitmap.width; x++) if (getDot(bitmap, x, y)) n++;
  return n;
}

function differingDots(a: MonoBitmap, b: MonoBitmap): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i++) {
    for (let x = (a.data[i] ?? 0) ^ (b.data[i] ?? 0); x; x >>= 1) n += x & 1;
  }
  return n;
}

describe.each(LANGUAGES_UNDER_TEST)('$language', ({ language, dpis }) => {
  describe.each(dpis.map((dpi) => ({ dpi })))('at $dpi dpi', ({ dpi }) => {
    it.each(templates)('%s: the decoded job is the ZPL dots, and its barcodes scan', async (name) => {
      const expected = zplDots.get(`${name}@${dpi}`)!;
      const markups = resolve(bundledTemplate(name), SAMPLE_DATA[name] ?? {}, 2);
      const render = () =>
        renderLanguageLabels(markups, language, { dpi, maxWidthDots: expected.width }, ports);
      if (expected.width > languageMaxWidthDots(language, dpi)) {
        await expect(render()).rejects.toThrow(LanguageJobError);
        await expect(render()).rejects.toThrow(/printers print at most \d+ dots/);
        return;
      }
      const jobs = await render();
      expect(jobs).toHaveLength(2);
      const decoded = decodeLanguageJob(language, jobs[0]!, dpi);
      expect(decoded.copies).toBe(1);
      // A raster printer's line is its print area (QL) or whole bytes: the label at its left, blank beyond.
      expect(decoded.bitmap.height).toBe(expected.height);
      expect(decoded.bitmap.width).toBeGreaterThanOrEqual(expected.width);
      const label = cropMonoBitmap(decoded.bitmap, expected.width, expected.height);
      expect(differingDots(label, expected), `${name} ${language} ${dpi} dpi`).toBe(0);
      expect(blackDots(decoded.bitmap) - blackDots(label), 'dots outside the label').toBe(0);
      const pgm = join(dir, `${language}-${name}-${dpi}.pgm`);
      writeMonoPgm(pgm, decoded.bitmap, 20, 2);
      const read = (await zbarDecodeAsync(pgm)).map((s) => `${s.symbology} ${s.value}`);
      for (const scan of SCANS[name]!) expect(read, `${name} ${language} ${dpi} dpi`).toContain(scan);
    });
  });
});
