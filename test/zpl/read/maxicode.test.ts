/** Issue #33: ^BD MaxiCode, drawn from bwip-js's modules, reads back with ZXing to the carrier message. */
import { describe, expect, it } from 'vitest';
import { loadBundledFonts } from '../../../src/node/fonts';
import { getDot, type MonoBitmap } from '../../../src/render/bitmap';
import { renderMono } from '../../../src/render/dots';
import { readZpl } from '../../../src/zpl/read';
import { zxingDecode } from '../../support/zxing';

const fonts = loadBundledFonts();

/** The label's dots as a grey image with a white margin (ZXing reads MaxiCode only as a lone symbol). */
function grey(b: MonoBitmap, margin = 20) {
  const width = b.width + 2 * margin;
  const height = b.height + 2 * margin;
  const g = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < b.height; y++)
    for (let x = 0; x < b.width; x++) if (getDot(b, x, y)) g[(y + margin) * width + x + margin] = 0;
  return { width, height, grey: g };
}

const GS = '\x1d';
const RS = '\x1e';
const EOT = '\x04';

describe('^BD MaxiCode', () => {
  it('mode 2: class, country and postal code from the field data, the carrier message after them', async () => {
    const zpl =
      '^XA^PW300^LL280^FO20,20^BD2,1,1^FH^FD001840152382802[)>_1E01_1D961Z00004951_1DUPSN_1D06X610_1D159_1D1234567_1D1/1_1D_1DY_1D634 ALPHA DR_1DPITTSBURGH_1DPA_1E_04^FS^XZ';
    const { labels, warnings } = readZpl(zpl, { fonts, dpi: 203 });
    expect(warnings).toEqual([]);
    expect(labels[0]!.warnings).toEqual([]);
    const bitmap = renderMono(labels[0]!.scene, fonts);
    const reads = await zxingDecode(grey(bitmap));
    expect(reads.map((r) => [r.format, r.text])).toEqual([
      [
        'MaxiCode',
        `[)>${RS}01${GS}96152382802${GS}840${GS}001${GS}1Z00004951${GS}UPSN${GS}06X610${GS}159${GS}1234567${GS}1/1${GS}${GS}Y${GS}634 ALPHA DR${GS}PITTSBURGH${GS}PA${RS}${EOT}`,
      ],
    ]);
  });

  it('mode 4 carries free text; the symbol is about 1.1 in wide at 203 and at 300 dpi', async () => {
    for (const dpi of [203, 300]) {
      const { labels } = readZpl(`^XA^PW400^LL400^FO10,10^BD4^FDLABELDESK MAXICODE 0123^FS^XZ`, {
        fonts,
        dpi,
      });
      const bitmap = renderMono(labels[0]!.scene, fonts);
      const reads = await zxingDecode(grey(bitmap));
      expect([dpi, reads.map((r) => r.text)]).toEqual([dpi, ['LABELDESK MAXICODE 0123']]);
      let x1 = 0;
      for (let y = 0; y < bitmap.height; y++)
        for (let x = 0; x < bitmap.width; x++) if (getDot(bitmap, x, y)) x1 = Math.max(x1, x);
      expect((x1 - 10) / dpi).toBeGreaterThan(1.05);
      expect((x1 - 10) / dpi).toBeLessThan(1.15);
    }
  });

  it('mode 2 data without its postal code is a warning naming ^BD; the rest of the label is drawn', () => {
    const { labels } = readZpl('^XA^FO10,10^A0N,30,30^FDOK^FS^FO10,60^BD2^FD12AB^FS^XZ', { fonts, dpi: 203 });
    expect(labels[0]!.warnings).toMatchObject([
      { command: '^BD', message: expect.stringMatching(/postal code/) },
    ]);
    expect(labels[0]!.scene.nodes).toHaveLength(1);
  });
});
