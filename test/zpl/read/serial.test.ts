/**
 * Issue #33: ^SN / ^SF serialisation per ^PQ copy, and ^FB's hanging indent and justification, by the ZPL II
 * guide's rules (src/zpl/read/serial.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Scene, SceneNode, TextNode } from '../../../src/layout/scene';
import { loadBundledFonts } from '../../../src/node/fonts';
import { getDot, type MonoBitmap } from '../../../src/render/bitmap';
import { renderMono } from '../../../src/render/dots';
import { readZpl } from '../../../src/zpl/read';
import { serialValue, sfRule, snRule } from '../../../src/zpl/read/serial';
import { writeMonoPgm } from '../../support/pgm';
import { zbarDecode } from '../../support/zbar';

const fonts = loadBundledFonts();
const only = (zpl: string) => {
  const { labels } = readZpl(zpl, { fonts, dpi: 203 });
  expect(labels).toHaveLength(1);
  return labels[0]!;
};
const texts = (nodes: SceneNode[]): string[] =>
  nodes.flatMap((n) =>
    n.kind === 'group' ? texts(n.children) : n.kind === 'text' ? n.lines.map((l) => l.text) : [],
  );
const allScenes = (l: ReturnType<typeof only>): Scene[] => [l.scene, ...(l.copyScenes ?? [])];
const dir = mkdtempSync(join(tmpdir(), 'ld-zpl-serial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('^SN and ^SF: each copy ^PQ asks for prints its own value', () => {
  it('^SN counts the right-most digits by its step; Y keeps the width with zeros, N adds none', () => {
    const label = only(
      '^XA^PW400^LL100^FO10,10^A0N,30,30^SNBOX-008A,1,Y^FS^FO10,50^A0N,30,30^SN10,-3,N^FS^PQ5^XZ',
    );
    expect(label.copies).toBe(5);
    expect(allScenes(label).map((s) => texts(s.nodes))).toEqual([
      ['BOX-008A', '10'],
      ['BOX-009A', '7'],
      ['BOX-010A', '4'],
      ['BOX-011A', '1'],
      ['BOX-012A', '999999999998'],
    ]);
  });

  it("^SF follows the guide's examples: the mask aligned right, % left alone, a carry skipping it", () => {
    const dd = sfRule('AAdddd', '1')!;
    expect([0, 1, 9, 10, 9999, 10000].map((k) => serialValue('BL0000', dd, k))).toEqual([
      'BL0000',
      'BL0001',
      'BL0009',
      'BL0010',
      'BL9999',
      'BM0000',
    ]);
    const skip = sfRule('AAdd%d', '1%1')!;
    expect([0, 1, 2, 9, 10].map((k) => serialValue('BL00-0', skip, k))).toEqual([
      'BL00-0',
      'BL01-1',
      'BL02-2',
      'BL09-9',
      'BL11-0',
    ]);
    // Hexadecimal keeps the data's case; alphabetic counts from A; a step of 1 by default.
    expect(serialValue('id-0ff', sfRule('hhh', undefined)!, 1)).toBe('id-100');
    expect(serialValue('AZ', sfRule('AA', 'B')!, 1)).toBe('BA');
    expect(serialValue('X9', snRule('1', 'N'), 3)).toBe('X12');
  });

  it('a serialised bar code decodes to each copy’s value; the other fields are the same on every copy', () => {
    const label = only(
      '^XA^PW600^LL300^FO20,20^A0N,30,30^FDFIXED^FS^FO40,80^BY2^BCN,120,N,N,N^FDPAL0098^SFAAAdddd,1^FS^PQ3^XZ',
    );
    const values = allScenes(label).map((scene, i) => {
      const path = join(dir, `copy-${i}.pgm`);
      writeMonoPgm(path, renderMono(scene, fonts));
      return zbarDecode(path).map((d) => d.value);
    });
    expect(values).toEqual([['PAL0098'], ['PAL0099'], ['PAL0100']]);
    expect(allScenes(label).map((s) => texts(s.nodes))).toEqual([['FIXED'], ['FIXED'], ['FIXED']]);
  });

  it('a label without serial fields has no copy scenes; serialised copies are drawn up to the budget', () => {
    expect(only('^XA^FO10,10^A0N,30,30^FDA^FS^PQ3^XZ').copyScenes).toBeUndefined();
    const { labels } = readZpl('^XA^FO10,10^A0N,30,30^SN1^FS^PQ50^XZ', {
      fonts,
      dpi: 203,
      budgets: { maxSerialCopies: 10 },
    });
    expect(labels[0]!.copies).toBe(50);
    expect(labels[0]!.copyScenes).toHaveLength(9);
    expect(texts(labels[0]!.copyScenes![8]!.nodes)).toEqual(['10']);
    expect(labels[0]!.warnings.map((w) => w.message).join()).toMatch(
      /50 serialised copies asked; the first 10/,
    );
  });
});

function inkRows(b: MonoBitmap, y0: number, y1: number) {
  let x0 = Infinity;
  let x1 = -1;
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < b.width; x++)
      if (getDot(b, x, y)) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
      }
  return { x0, x1 };
}

describe('^FB: hanging indent and justification', () => {
  const words = 'alpha beta gamma delta epsilon zeta theta iota kappa lambda';

  it('the lines after the first start the hanging indent further right, and wrap in the narrower width', () => {
    const label = only(`^XA^PW500^LL300^FO10,10^FB300,6,0,L,60^A0N,30,30^FD${words}^FS^XZ`);
    const lines = (
      label.scene.nodes.flatMap((n) => (n.kind === 'group' ? n.children : [n])) as TextNode[]
    )[0]!.lines;
    expect(lines.length).toBeGreaterThan(2);
    const b = renderMono(label.scene, fonts);
    expect(inkRows(b, 10, 40).x0).toBeLessThan(14);
    expect(inkRows(b, 40, 70).x0).toBeGreaterThanOrEqual(68);
    expect(inkRows(b, 40, 70).x0).toBeLessThan(76);
    for (let i = 1; i < lines.length; i++) expect(inkRows(b, 10 + 30 * i, 40 + 30 * i).x1).toBeLessThan(312);
  });

  it('J spreads every wrapped line to the block’s right edge; the last line stays as wide as its words', () => {
    const zpl = (a: string) => `^XA^PW500^LL300^FO10,10^FB300,6,0,${a}^A0N,30,30^FD${words}^FS^XZ`;
    const justified = renderMono(only(zpl('J')).scene, fonts);
    const left = renderMono(only(zpl('L')).scene, fonts);
    const first = inkRows(justified, 10, 40);
    expect(first.x0).toBeLessThan(14);
    expect(first.x1).toBeGreaterThan(300);
    expect(inkRows(left, 10, 40).x1).toBeLessThan(first.x1 - 10);
    // The last line (row 3 here) is not spread.
    const last = only(zpl('J')).scene;
    const n = (last.nodes.flatMap((x) => (x.kind === 'group' ? x.children : [x])) as TextNode[])[0]!.lines
      .length;
    const y = 10 + 30 * (n - 1);
    expect(inkRows(justified, y, y + 30)).toEqual(inkRows(left, y, y + 30));
  });
});
