/**
 * User and system fonts (#23): what a front desk adds to `<data dir>/fonts` or has installed can be named by a
 * template and fills what the bundled fonts lack, and the PDF embeds it. Real font files (the bundled ones,
 * copied under other names), a real fc-list.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_FONT_FILES, createFontSet, isBundledFamily } from '../../src/layout/fonts';
import { layout } from '../../src/layout/layout';
import type { TextNode } from '../../src/layout/scene';
import { parseMarkup } from '../../src/model/parse';
import { fontsDir } from '../../src/node/assets';
import { readFontNames } from '../../src/node/font-names';
import { loadFonts, systemFontSources, userFontSources } from '../../src/node/fonts';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { renderPdfLabels } from '../../src/outputs/render';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'ld-fonts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bundled = (file: string) => join(fontsDir(), file);

/** A data folder whose fonts/ holds the bundled Thai face as "ShopThai.ttf", plus files that are not fonts. */
function dataDirWithFonts(): string {
  const data = mkdtempSync(join(dir, 'data-'));
  mkdirSync(join(data, 'fonts'));
  copyFileSync(bundled('NotoSansThai-Regular.ttf'), join(data, 'fonts', 'ShopThai.ttf'));
  copyFileSync(bundled('DejaVuSans-Bold.ttf'), join(data, 'fonts', 'Arial Bold.ttf'));
  writeFileSync(join(data, 'fonts', 'broken.ttf'), 'not a font');
  writeFileSync(join(data, 'fonts', 'notes.txt'), 'ignored');
  return data;
}

describe('readFontNames', () => {
  it('reads family and style from the name table', () => {
    expect(readFontNames(bundled('DejaVuSans-Bold.ttf'))).toEqual({ family: 'DejaVu Sans', style: 'bold' });
    expect(readFontNames(bundled('DejaVuSerif-Italic.ttf'))).toEqual({
      family: 'DejaVu Serif',
      style: 'italic',
    });
    expect(readFontNames(bundled('NotoSansThai-Regular.ttf'))).toEqual({
      family: 'Noto Sans Thai',
      style: 'normal',
    });
  });

  it('is undefined for what is not a single TrueType font', () => {
    const junk = join(dir, 'junk.ttf');
    writeFileSync(junk, Buffer.from('OTTO0000garbage'));
    expect(readFontNames(junk)).toBeUndefined();
    expect(readFontNames(join(dir, 'missing.ttf'))).toBeUndefined();
  });
});

describe('user fonts (<data dir>/fonts)', () => {
  it('lists each TrueType font under its family and says why it skipped the others', () => {
    const data = dataDirWithFonts();
    const skipped: { file: string; why: string }[] = [];
    const sources = userFontSources(join(data, 'fonts'), skipped);
    expect(sources.map((s) => [s.key, s.family, s.style])).toEqual([
      ['user/Arial Bold.ttf', 'DejaVu Sans', 'bold'],
      ['user/ShopThai.ttf', 'Noto Sans Thai', 'normal'],
    ]);
    expect(skipped).toEqual([
      { file: join(data, 'fonts', 'broken.ttf'), why: expect.stringMatching(/TrueType/) },
    ]);
    expect(userFontSources(join(data, 'no-such-folder'))).toEqual([]);
  });

  it('can be named by a template: laid out, embedded in the PDF under its own name', async () => {
    const { fonts, skipped } = loadFonts({ dataDir: dataDirWithFonts(), system: false });
    expect(skipped).toHaveLength(1);
    expect(fonts.families()).toEqual(['DejaVu Sans', 'Noto Sans Thai']);
    const markup = parseMarkup({
      stage: { width: 4, height: 1, unit: 'in' },
      elements: [
        { type: 'text', x: 10, y: 10, text: 'สวัสดี 123', font: { family: 'noto sans thai', size: 20 } },
      ],
    });
    const scene = layout(markup, { fonts, target: { unit: 'px' } });
    const node = scene.nodes[0] as TextNode;
    expect(node.font).toBe('user/ShopThai.ttf');
    const glyphs = node.lines[0]!.glyphs;
    expect(glyphs.filter((g) => g.id === 0)).toEqual([]);
    // Thai and the space after it from the user's font; the digits it lacks from DejaVu Sans, the next link.
    expect(glyphs.map((g) => g.font ?? node.font)).toEqual([
      ...Array(7).fill('user/ShopThai.ttf'),
      ...Array(3).fill('DejaVuSans'),
    ]);
    const pdf = join(dir, 'user-font.pdf');
    writeFileSync(pdf, (await renderPdfLabels([markup], { ...nodeRenderPorts(), fonts }))[0]!);
    expect((await run('pdffonts', [pdf])).stdout).toMatch(
      /^[A-Z]{6}\+NotoSansThai-Regular .* yes +yes +yes /m,
    );
    expect((await run('pdftotext', ['-enc', 'UTF-8', pdf, '-'])).stdout.trim()).toBe('สวัสดี 123');
  });

  it('falls back to the bundled family for a family nobody has, as before', () => {
    const { fonts } = loadFonts({ dataDir: dataDirWithFonts(), system: false });
    expect(fonts.resolve('Helvetica', 'bold').key).toBe('DejaVuSans-Bold');
  });
});

describe('the last links of the chain', () => {
  it('takes a grapheme nothing before it covers from the first fallback source that has it, loaded then', () => {
    // DejaVu alone, and the Thai face as a machine's font: Thai comes from it, Latin stays DejaVu's.
    let loads = 0;
    const fonts = createFontSet(
      Object.fromEntries(
        Object.entries(BUNDLED_FONT_FILES).map(([k, f]) => [k, new Uint8Array(readFileSync(bundled(f)))]),
      ),
      {
        sources: [
          {
            key: 'system/thai.ttf',
            family: 'Noto Sans Thai',
            style: 'normal',
            fallback: true,
            load: () => (loads++, new Uint8Array(readFileSync(bundled('NotoSansThai-Regular.ttf')))),
          },
        ],
      },
    );
    const text = (t: string) =>
      layout(
        parseMarkup({
          stage: { width: 4, height: 1, unit: 'in' },
          elements: [{ type: 'text', x: 0, y: 0, text: t, font: { size: 20 } }],
        }),
        { fonts, target: { unit: 'px' } },
      );
    expect(text('Bangkok').nodes).toHaveLength(1);
    expect(loads).toBe(0);
    const scene = text('Bangkok กรุงเทพ');
    const glyphs = (scene.nodes[0] as TextNode).lines[0]!.glyphs;
    expect(scene.warnings).toEqual([]);
    expect(glyphs.filter((g) => g.id === 0)).toEqual([]);
    expect(new Set(glyphs.map((g) => g.font))).toEqual(new Set([undefined, 'system/thai.ttf']));
    expect(loads).toBe(1);
  });

  it('skips a source that cannot be read, for good', () => {
    const fonts = createFontSet(
      { DejaVuSans: new Uint8Array(readFileSync(bundled('DejaVuSans.ttf'))) },
      {
        sources: [
          {
            key: 'system/gone.ttf',
            family: 'Gone',
            style: 'normal',
            fallback: true,
            load: () => {
              throw new Error('ENOENT');
            },
          },
        ],
      },
    );
    expect(fonts.lastResort('ก')).toBeUndefined();
    expect(fonts.resolve('Gone', 'normal').key).toBe('DejaVuSans');
  });
});

describe('system fonts', () => {
  it('reads a Windows Fonts folder (and macOS’s folders) by name table', () => {
    const windir = mkdtempSync(join(dir, 'windows-'));
    mkdirSync(join(windir, 'Fonts'));
    copyFileSync(bundled('NotoSansHebrew-Regular.ttf'), join(windir, 'Fonts', 'hebrew.ttf'));
    copyFileSync(bundled('DejaVuSansMono.ttf'), join(windir, 'Fonts', 'mono.ttf'));
    const sources = systemFontSources('win32', { WINDIR: windir });
    expect(sources.map((s) => [s.family, s.style, s.fallback])).toEqual([
      ['Noto Sans Hebrew', 'normal', true],
      ['DejaVu Sans Mono', 'normal', true],
    ]);
  });

  it('lists fontconfig’s TrueType fonts on Linux (fc-list; .ci/run installs fontconfig)', async () => {
    const { stdout } = await run('fc-list', ['--format', '%{file}\\n']);
    const ttf = new Set(stdout.split('\n').filter((f) => f.toLowerCase().endsWith('.ttf')));
    expect(ttf.size).toBeGreaterThan(0);
    const sources = systemFontSources('linux', process.env);
    expect(new Set(sources.map((s) => s.key.slice('system/'.length)))).toEqual(ttf);
    // Any of them can be named but a generic family: the first other one resolves to itself.
    const first = sources.find((s) => !isBundledFamily(s.family))!;
    const { fonts } = loadFonts({ system: true });
    expect(fonts.resolve(first.family, first.style).key).toMatch(/^system\//);
    // A generic family stays the bundled face even where the machine has a font of that name (DejaVu Sans is
    // installed here: .ci/run's fonts-dejavu-core), so a template prints the same on every machine.
    expect(sources.some((s) => s.family === 'DejaVu Sans')).toBe(true);
    expect(fonts.resolve('DejaVu Sans', 'bold').key).toBe('DejaVuSans-Bold');
    expect(fonts.resolve('arial', 'normal').key).toBe('DejaVuSans');
  });
});
