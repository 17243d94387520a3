/**
 * Issue #33: labels written from the ZPL II guide (corpus.ts) rendered by our reader and rasteriser and, in the
 * same test, by an independent renderer from npm (zpl-renderer-js: zebrash compiled to WebAssembly). Every bar
 * code must decode (zbarimg and ZXing) to the same value from both images, and the black dots must agree.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ready } from 'zpl-renderer-js';
import { loadBundledFonts } from '../../../src/node/fonts';
import { createMonoBitmap, getDot, setDot, type MonoBitmap } from '../../../src/render/bitmap';
import { renderMono } from '../../../src/render/dots';
import { parseZpl, readZpl } from '../../../src/zpl/read';
import { decodePngToGrey, type GreyImage } from '../../support/grey-image';
import { ocrImages, similarity } from '../../support/ocr';
import { writeMonoPgm } from '../../support/pgm';
import { zbarDecodeAsync } from '../../support/zbar';
import { zxingDecode } from '../../support/zxing';
import { CORPUS, MORE_CORPUS, type CorpusLabel } from './corpus';

const DPI = 203;
const dir = mkdtempSync(join(tmpdir(), 'ld-zpl-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A white margin so scanners find quiet zones at the label's edge. */
const MARGIN = 20;

async function decodeAll(bitmap: MonoBitmap, name: string): Promise<string[]> {
  const path = join(dir, `${name}.pgm`);
  writeMonoPgm(path, bitmap, MARGIN);
  const w = bitmap.width + 2 * MARGIN;
  const h = bitmap.height + 2 * MARGIN;
  const grey = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < bitmap.height; y++)
    for (let x = 0; x < bitmap.width; x++) if (getDot(bitmap, x, y)) grey[(y + MARGIN) * w + x + MARGIN] = 0;
  const [zbar, zxing] = await Promise.all([
    zbarDecodeAsync(path, {}),
    zxingDecode({ width: w, height: h, grey }),
  ]);
  // ZXing reads UPC-A as the EAN-13 it is, with a leading 0; zbarimg (UPC-A on) as 12 digits.
  const values = [...zbar.map((d) => d.value), ...zxing.map((d) => d.text)].map((v) =>
    /^0\d{12}$/.test(v) ? v.slice(1) : v,
  );
  return [...new Set(values)].sort();
}

/** The reference PNG as dots: black where its grey is under half. */
function pngToMono(png: Uint8Array): MonoBitmap {
  const { width, height, grey } = decodePngToGrey(png);
  const bitmap = createMonoBitmap(width, height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if ((grey[y * width + x] ?? 255) < 128) setDot(bitmap, x, y, true);
  return bitmap;
}

/** Share of `a`'s black dots with a black dot of `b` within `reach` dots. */
function covered(a: MonoBitmap, b: MonoBitmap, reach: number): number {
  let black = 0;
  let hit = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!getDot(a, x, y)) continue;
      black++;
      search: for (let dy = -reach; dy <= reach; dy++) {
        for (let dx = -reach; dx <= reach; dx++) {
          const bx = x + dx;
          const by = y + dy;
          if (bx >= 0 && by >= 0 && bx < b.width && by < b.height && getDot(b, bx, by)) {
            hit++;
            break search;
          }
        }
      }
    }
  }
  return black ? hit / black : 1;
}

/** Least OCR similarity (1 − edit distance / length, case and spaces ignored) of a text field: about one
 * character in ten may be misread, by either renderer's image. */
const OCR_MIN_SIMILARITY = 0.8;

interface Outcome {
  ours: string[];
  theirs: string[];
  agreement: number;
  ocr: Array<{ text: string; ours: string; theirs: string }>;
  warnings: string[];
  /** zebrash's error when it refuses the label. */
  theirsError?: string;
}

function crop(b: MonoBitmap, [x0, y0, w, h]: [number, number, number, number]): GreyImage {
  const grey = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (getDot(b, x0 + x, y0 + y)) grey[y * w + x] = 0;
  return { width: w, height: h, grey };
}

const LABELS = [...CORPUS, ...MORE_CORPUS];

describe('ZPL labels: ours against zpl-renderer-js (zebrash)', async () => {
  const fonts = loadBundledFonts();
  const { api } = await ready;
  const outcomes = new Map<string, Outcome>();

  async function measure(label: CorpusLabel): Promise<Outcome> {
    const { labels, warnings } = readZpl(label.zpl, { fonts, dpi: DPI });
    const ours = renderMono(labels[label.labelIndex ?? 0]!.scene, fonts);
    let theirs = createMonoBitmap(ours.width, ours.height);
    let theirsError: string | undefined;
    try {
      const png = await api.zplToBase64Async(label.zpl, ours.width / 8, ours.height / 8, 8);
      theirs = pngToMono(Buffer.from(png, 'base64'));
    } catch (e) {
      theirsError = e instanceof Error ? e.message : String(e);
    }
    const boxes = label.ocr ?? [];
    const [ourValues, theirValues, read] = await Promise.all([
      decodeAll(ours, `${label.name}-ours`),
      decodeAll(theirs, `${label.name}-theirs`),
      boxes.length
        ? ocrImages(
            [...boxes.map((o) => crop(ours, o.box)), ...boxes.map((o) => crop(theirs, o.box))],
            'eng',
            dir,
            label.name,
          )
        : Promise.resolve([]),
    ]);
    const agreement =
      theirs.width === ours.width && theirs.height === ours.height
        ? Math.min(covered(ours, theirs, 1), covered(theirs, ours, 1))
        : 0;
    return {
      ours: ourValues,
      theirs: theirValues,
      agreement,
      ocr: boxes.map((o, i) => ({ text: o.text, ours: read[i] ?? '', theirs: read[i + boxes.length] ?? '' })),
      warnings: [...warnings, ...labels.flatMap((l) => l.warnings)].map((w) => w.message),
      ...(theirsError ? { theirsError } : {}),
    };
  }

  beforeAll(async () => {
    // Two labels at a time: each runs its decoders and Tesseract in parallel (CI has two cores).
    const queue = [...LABELS];
    const worker = async () => {
      for (let label = queue.shift(); label; label = queue.shift())
        outcomes.set(label.name, await measure(label));
    };
    await Promise.all([worker(), worker()]);
    if (process.env.ZPL_FIGURES) {
      writeFigures(LABELS, outcomes);
      for (const [name, o] of outcomes) console.log(name, JSON.stringify(o)); // the figures behind the table
    }
  }, 240_000);

  for (const label of LABELS) {
    it(`${label.name}: every bar code decodes to the same value from both, the text reads, the dots agree`, () => {
      const o = outcomes.get(label.name)!;
      expect(o.warnings).toEqual((label.warnings ?? []).map((w) => expect.stringMatching(w)));
      expect(o.ours).toEqual([...label.barcodes].sort());
      expect(o.theirsError).toEqual(label.theirsFails ? expect.stringMatching(label.theirsFails) : undefined);
      expect(o.theirs).toEqual(label.barcodes.filter((v) => !label.theirsLacks?.includes(v)).sort());
      for (const t of o.ocr) {
        expect({ field: t.text, ours: similarity(t.text, t.ours) >= OCR_MIN_SIMILARITY }).toEqual({
          field: t.text,
          ours: true,
        });
        expect({ field: t.text, theirs: similarity(t.text, t.theirs) >= OCR_MIN_SIMILARITY }).toEqual({
          field: t.text,
          theirs: true,
        });
      }
      // Black dots of each within 1 dot of a black dot of the other (fonts differ: see docs/zpl.md).
      expect(o.agreement).toBeGreaterThanOrEqual(label.minAgreement ?? 0.9);
      if ((label.minAgreement ?? 0.9) < 0.9) expect(label.differs).toBeTruthy();
    });
  }

  it('the corpus draws every command docs/zpl.md lists as supported, and every font letter', () => {
    const doc = readFileSync(DOC, 'utf8');
    const table = doc.slice(doc.indexOf('## Supported commands'), doc.indexOf('## Fonts'));
    const rows = table.split('\n').filter((l) => l.startsWith('|') && !/Recorded, not drawn/.test(l));
    const listed = new Set(rows.flatMap((r) => (r.split('|')[2] ?? '').match(/[~^][A-Z0-9@]{1,2}/g) ?? []));
    expect(listed.size).toBeGreaterThan(50);
    const used = new Set<string>();
    const fontLetters = new Set<string>();
    for (const label of LABELS) {
      for (const format of parseZpl(label.zpl).formats) {
        for (const c of format.commands) {
          used.add(`${c.prefix}${c.name}`);
          if (c.name === 'A' && c.prefix === '^') fontLetters.add(c.params[0]!.toUpperCase());
        }
      }
      for (const m of label.zpl.matchAll(/([~^])(DG|DY|CC|CT|CD|DF|XF|XA|XZ)/g)) used.add(`${m[1]}${m[2]}`);
    }
    // ^A is the font command: written with its font letter (^A0, ^AD…), it is ^A for the table.
    const missing = [...listed].filter((c) => !used.has(c));
    expect(missing).toEqual([]);
    expect([...'0ABCDEFGHPQRSTUV'].filter((f) => !fontLetters.has(f))).toEqual([]);
    expect(LABELS.length).toBeGreaterThanOrEqual(46);
  });

  it('docs/zpl.md has a figures row for every corpus label', () => {
    const doc = readFileSync(DOC, 'utf8');
    const figures = doc.slice(doc.indexOf(FIGURES_START), doc.indexOf(FIGURES_END));
    expect(LABELS.filter((l) => !figures.includes(`| ${l.name} `))).toEqual([]);
  });

  it('^A0 and font D text is as wide and as high as zpl-renderer-js draws it, within 5 % and 3 dots', async () => {
    const cases: Array<[font: string, h: number, w: number, text: string]> = [
      ['0', 40, 40, 'WAREHOUSE 12345'],
      ['0', 60, 30, 'Jane Example'],
      ['0', 30, 30, 'abcdefghijklmnopqrstuvwxyz'],
      ['0', 100, 100, 'HXH'],
      ['0', 20, 20, 'Springfield 12345'],
      ['D', 36, 20, 'MMMMMMMMMM'],
    ];
    for (const [font, h, w, text] of cases) {
      const zpl = `^XA^PW1600^LL200^FO10,10^A${font}N,${h},${w}^FD${text}^FS^XZ`;
      const ours = renderMono(readZpl(zpl, { fonts, dpi: DPI }).labels[0]!.scene, fonts);
      const theirs = pngToMono(Buffer.from(await api.zplToBase64Async(zpl, 200, 25, 8), 'base64'));
      const a = inkBox(ours);
      const b = inkBox(theirs);
      if (process.env.ZPL_FIGURES) console.log(zpl, a, b, (a.x1 - a.x0 + 1) / (b.x1 - b.x0 + 1));
      expect((a.x1 - a.x0 + 1) / (b.x1 - b.x0 + 1)).toBeGreaterThan(0.95);
      expect((a.x1 - a.x0 + 1) / (b.x1 - b.x0 + 1)).toBeLessThan(1.05);
      expect(Math.abs(a.y1 - b.y1)).toBeLessThanOrEqual(3);
      expect(Math.abs(a.y0 - b.y0)).toBeLessThanOrEqual(3);
    }
  }, 60_000);
});

const DOC = join(__dirname, '../../../docs/zpl.md');
const FIGURES_START = '<!-- corpus-figures:start -->';
const FIGURES_END = '<!-- corpus-figures:end -->';

/** ZPL_FIGURES=1: the per-label table of docs/zpl.md, rewritten from this run's measurements. */
function writeFigures(labels: CorpusLabel[], outcomes: Map<string, Outcome>): void {
  // eslint-disable-next-line no-control-regex -- control characters of decoded values are shown as ·
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/[\x00-\x1f]/g, '·');
  const rows = labels.map((l) => {
    const o = outcomes.get(l.name)!;
    const codes = o.ours.length ? `${o.ours.length} ours, ${o.theirs.length} theirs` : '—';
    const ocr = o.ocr.length
      ? o.ocr
          .map((t) => `${similarity(t.text, t.ours).toFixed(2)} / ${similarity(t.text, t.theirs).toFixed(2)}`)
          .join(', ')
      : '—';
    const min = l.minAgreement ?? 0.9;
    return `| ${l.name} | ${codes} | ${ocr} | ${o.agreement.toFixed(3)} | ${min} | ${cell(l.differs ?? '')} |`;
  });
  const table = [
    '| Label | Bar codes decoded | OCR similarity ours / theirs | Dot agreement | Held at | Why they differ |',
    '| ----- | ----------------- | ---------------------------- | ------------- | ------- | --------------- |',
    ...rows,
  ].join('\n');
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(FIGURES_START);
  const b = doc.indexOf(FIGURES_END);
  if (a < 0 || b < 0) return;
  writeFileSync(DOC, `${doc.slice(0, a + FIGURES_START.length)}\n\n${table}\n\n${doc.slice(b)}`);
}

/** Bounding box of the black dots. */
function inkBox(b: MonoBitmap) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      if (!getDot(b, x, y)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return { x0, y0, x1, y1 };
}
