/**
 * Text in any script (issue #23): an address in each of nine scripts through every output, checked the way a
 * front desk would: every character drawn (no .notdef anywhere), the PDF's text copied out in reading order
 * (poppler's pdftotext), and the printed text readable (Tesseract reads back the ZPL dots, the PNG, the SVG
 * through resvg, the PDF through pdftoppm, and the live preview's path data). Real fonts, real tools; the control at the end shows the same
 * checks failing without the fallback fonts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_FONT_FILES, createFontSet, FALLBACK_FONT_FILES } from '../../src/layout/fonts';
import { glyphPath } from '../../src/layout/glyph-paths';
import { layout } from '../../src/layout/layout';
import type { SceneNode, TextNode } from '../../src/layout/scene';
import { toWirePreview } from '../../src/ipc/wire-scene';
import { parseMarkup } from '../../src/model/parse';
import { renderPdf } from '../../src/render/pdf';
import type { Markup } from '../../src/model/schema';
import { fontsDir } from '../../src/node/assets';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { readPgm, rgbaToGreyImage, type GreyImage } from '../support/grey-image';
import { OUTPUTS, outputImages, vectorOutputs } from '../support/label-outputs';
import { ocrImages, similarity } from '../support/ocr';

const run = promisify(execFile);

interface Address {
  /** Tesseract's language. */
  lang: string;
  name: string;
  text: string;
  /** Fonts layout must take glyphs from (beyond the element's DejaVu Sans). */
  fallbacks: string[];
}

const ADDRESSES: readonly Address[] = [
  {
    lang: 'jpn',
    name: 'Japanese',
    text: '〒530-0001 大阪府大阪市北区梅田三丁目一番一号',
    fallbacks: ['DroidSansFallback'],
  },
  {
    lang: 'chi_sim',
    name: 'Simplified Chinese',
    text: '上海市浦东新区世纪大道一百号',
    fallbacks: ['DroidSansFallback'],
  },
  { lang: 'kor', name: 'Korean', text: '서울특별시 중구 세종대로 110', fallbacks: ['NanumSquare'] },
  { lang: 'ara', name: 'Arabic', text: 'دبي، شارع الشيخ زايد، برج الإمارات', fallbacks: [] },
  { lang: 'heb', name: 'Hebrew', text: 'תל אביב, רחוב דיזנגוף 50', fallbacks: [] },
  { lang: 'tha', name: 'Thai', text: 'กรุงเทพมหานคร ถนนสุขุมวิท', fallbacks: ['NotoSansThai'] },
  {
    lang: 'hin',
    name: 'Hindi',
    text: 'नई दिल्ली, कनॉट प्लेस, राजीव चौक',
    fallbacks: ['NotoSansDevanagari'],
  },
  { lang: 'ell', name: 'Greek', text: 'Αθήνα, Οδός Ερμού 25', fallbacks: [] },
  { lang: 'rus', name: 'Russian', text: 'Москва, Тверская улица, дом 7', fallbacks: [] },
];

/**
 * Every output must read back at least this similar (1 − edit distance / length, over characters without
 * spaces; test/support/ocr.ts). Measured when this was written (Tesseract 5.3.0, Debian's 4.1.0 language
 * data), at 300 dpi and 22 px (16.5 pt) text: 1.00 for Korean, Hebrew, Hindi, Greek and Russian in all four
 * outputs; Japanese 0.96 (PDF), Simplified Chinese 0.93 (ZPL: one ideograph misread), Thai 0.96 (one vowel
 * sign), Arabic 0.90–0.93 (the Arabic comma read as ","). The control below, DejaVu alone, reads 0.31. 0.8
 * leaves room for other Tesseract versions and is far above what empty boxes read.
 */
const MIN_OCR_SIMILARITY = 0.8;
const DPI = 300;

const ports = nodeRenderPorts();
const dir = mkdtempSync(join(tmpdir(), 'ld-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 4 × 1 in label with the address as one text element, 22 px, wrapping in a 360 px box. */
function addressLabel(text: string): Markup {
  return parseMarkup({
    stage: { width: 4, height: 1, unit: 'in' },
    elements: [{ type: 'text', x: 10, y: 10, width: 360, height: 80, text, font: { size: 22 } }],
  });
}

function textNodes(nodes: readonly SceneNode[]): TextNode[] {
  return nodes.flatMap((n) => (n.kind === 'text' ? [n] : n.kind === 'group' ? textNodes(n.children) : []));
}

/** Every glyph of the scene's text as (font, id). */
function glyphsOf(markup: Markup, fonts = ports.fonts, dpi?: number) {
  const scene = layout(markup, {
    fonts,
    target: dpi === undefined ? { unit: 'px' } : { unit: 'dots', dpi },
  });
  const glyphs = textNodes(scene.nodes).flatMap((t) =>
    t.lines.flatMap((l) => l.glyphs.map((g) => ({ font: g.font ?? t.font, id: g.id }))),
  );
  return { glyphs, warnings: scene.warnings };
}

/**
 * What the live preview draws (Konva fills each text line's path data, as main sends it: toWirePreview), through
 * resvg at DPI: the glyph outlines of every font the line uses.
 */
function previewImage(markup: Markup): GreyImage {
  const scene = layout(markup, { fonts: ports.fonts, target: { unit: 'px' } });
  const wire = toWirePreview(scene, ports.fonts, 'ocr');
  const paths = wire.nodes.flatMap((n) =>
    n.kind === 'text' ? n.lines.map((l) => `<path d="${l.d}" fill="${n.color}"/>`) : [],
  );
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}">` +
    `${paths.join('')}</svg>`;
  const r = new Resvg(svg, {
    font: { loadSystemFonts: false },
    fitTo: { mode: 'width', value: 4 * DPI },
    background: 'white',
  }).render();
  return rgbaToGreyImage(r.width, r.height, r.pixels);
}

/** The fonts (bundled and fallback) whose .notdef box outline, glyph 0, is among the SVG's glyph paths. */
function notdefOutlinesIn(svg: string): string[] {
  const keys = [...Object.keys(BUNDLED_FONT_FILES), ...Object.keys(FALLBACK_FONT_FILES)];
  return keys.filter((k) => {
    const d = glyphPath(ports.fonts.get(k), 0);
    return d !== '' && svg.includes(` d="${d}"`);
  });
}

/**
 * Every glyph (CID) the PDF's content streams show: the hex strings of their TJ arrays, four digits a glyph
 * (Identity-H). CID 0 is the subset's glyph 0, .notdef. Read independently of src/render: zlib and regexes.
 */
function shownCids(pdf: Uint8Array): number[] {
  const bytes = Buffer.from(pdf);
  const cids: number[] = [];
  let at = 0;
  for (;;) {
    const start = bytes.indexOf('stream', at, 'latin1');
    if (start < 0) break;
    const body = start + (bytes[start + 6] === 0x0d ? 8 : 7);
    const end = bytes.indexOf('endstream', body, 'latin1');
    at = end + 9;
    let text: string;
    try {
      text = inflateSync(bytes.subarray(body, end)).toString('latin1');
    } catch {
      continue; // not deflated: not a content stream of this writer
    }
    if (!/\bBT\b[\s\S]*\bTf\b/.test(text)) continue; // font files and images
    for (const tj of text.match(/\[[^\]]*\]\s*TJ/g) ?? []) {
      for (const [, hex] of tj.matchAll(/<([0-9A-Fa-f]*)>/g)) {
        for (let i = 0; i + 4 <= hex!.length; i += 4) cids.push(parseInt(hex!.slice(i, i + 4), 16));
      }
    }
  }
  return cids;
}

/**
 * The letters, marks and digits in order, nothing between them: what reading order means for copied text
 * (pdftotext ends each line where a CJK address wrapped between two ideographs, and moves neutrals, below).
 */
function letters(text: string): string {
  return (text.normalize('NFKC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).join('');
}

describe.each(ADDRESSES)('$name address', (address) => {
  const markup = addressLabel(address.text);

  it('is laid out without .notdef or warning, in px and in printer dots, from the fallback fonts', () => {
    for (const dpi of [undefined, 203, DPI]) {
      const { glyphs, warnings } = glyphsOf(markup, ports.fonts, dpi);
      expect(warnings).toEqual([]);
      expect(glyphs.length).toBeGreaterThan(0);
      expect(glyphs.filter((g) => g.id === 0)).toEqual([]);
      const used = new Set(glyphs.map((g) => g.font));
      for (const f of address.fallbacks) expect(used).toContain(f);
    }
  });

  it('prints a PDF whose text copies out in reading order, its fonts embedded as subsets', async () => {
    const { pdfPath } = await vectorOutputs([markup], ports, dir, address.lang);
    expect(shownCids(readFileSync(pdfPath)).length).toBeGreaterThan(5);
    expect(shownCids(readFileSync(pdfPath))).not.toContain(0);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', pdfPath, '-']);
    // Punctuation and spaces left out: between right-to-left words poppler moves a comma and a space around (it
    // wraps them in left-to-right embeddings), its reading of neutrals, not the order the PDF stores.
    expect(letters(stdout)).toBe(letters(address.text));
    expect(letters(stdout).length).toBeGreaterThan(5);
    const fonts = (await run('pdffonts', [pdfPath])).stdout;
    for (const key of address.fallbacks) {
      // Embedded (yes), as a subset (yes), with a ToUnicode map (yes), under the font's PostScript name.
      const name = ports.fonts.get(key).font.postscriptName;
      expect(fonts).toMatch(new RegExp(`^[A-Z]{6}\\+${name} .* yes +yes +yes `, 'm'));
    }
  });

  it('prints an SVG that holds no .notdef outline of any font', async () => {
    const { svg } = await vectorOutputs([markup], ports, dir, `${address.lang}-svg`);
    expect(svg).toContain('<use ');
    expect(notdefOutlinesIn(svg)).toEqual([]);
  });

  it(`reads back with Tesseract (${address.lang}) from every output and the live preview`, async () => {
    const vector = await vectorOutputs([markup], ports, dir, `${address.lang}-ocr`);
    const images = await outputImages([markup], ports, vector, DPI, join(dir, `${address.lang}-page`));
    const shown = [...OUTPUTS, 'preview'] as const;
    const read = await ocrImages(
      [...OUTPUTS.map((o) => images.get(o)!), previewImage(markup)],
      address.lang,
      dir,
      address.lang,
    );
    const scores = Object.fromEntries(shown.map((o, i) => [o, similarity(address.text, read[i]!)]));
    for (const o of shown) {
      expect(scores[o], `${o} read "${read[shown.indexOf(o)]?.trim()}"`).toBeGreaterThanOrEqual(
        MIN_OCR_SIMILARITY,
      );
    }
  });
});

describe('pdfkit, the fallback PDF writer', () => {
  it.each([ADDRESSES[0]!, ADDRESSES[5]!])(
    'draws the $name address from the same fonts: it reads back',
    async (address) => {
      const scene = layout(addressLabel(address.text), { fonts: ports.fonts, target: { unit: 'px' } });
      const pdfPath = join(dir, `${address.lang}-pdfkit.pdf`);
      writeFileSync(pdfPath, await renderPdf([scene], ports.fonts, { writer: 'pdfkit' }));
      const page = join(dir, `${address.lang}-pdfkit`);
      await run('pdftoppm', ['-r', String(DPI), '-gray', '-singlefile', pdfPath, page]);
      const [text] = await ocrImages(
        [await readPgm(`${page}.pgm`)],
        address.lang,
        dir,
        `${address.lang}-pdfkit`,
      );
      expect(similarity(address.text, text!)).toBeGreaterThanOrEqual(MIN_OCR_SIMILARITY);
    },
  );
});

describe('control: without the fallback chain', () => {
  // DejaVu alone, as the page's preview loads it: the checks above must fail for text DejaVu lacks.
  const dejavu = createFontSet(
    Object.fromEntries(
      Object.entries(BUNDLED_FONT_FILES).map(([k, f]) => [
        k,
        new Uint8Array(readFileSync(join(fontsDir(), f))),
      ]),
    ),
  );
  const japanese = ADDRESSES[0]!;

  it('draws .notdef (in the scene, the PDF and the SVG), warns "empty boxes", reads back far below the threshold', async () => {
    const markup = addressLabel(japanese.text);
    const { glyphs, warnings } = glyphsOf(markup, dejavu, DPI);
    expect(glyphs.some((g) => g.id === 0)).toBe(true);
    expect(warnings.join('\n')).toMatch(/drawn as empty boxes/);
    const noFallback = { ...ports, fonts: dejavu };
    const vector = await vectorOutputs([markup], noFallback, dir, 'control');
    const images = await outputImages([markup], noFallback, vector, DPI, join(dir, 'control-page'));
    expect(shownCids(readFileSync(vector.pdfPath))).toContain(0);
    expect(notdefOutlinesIn(vector.svg)).toContain('DejaVuSans');
    const [zpl] = await ocrImages([images.get('zpl')!], japanese.lang, dir, 'control');
    expect(similarity(japanese.text, zpl!)).toBeLessThan(MIN_OCR_SIMILARITY);
  });
});
