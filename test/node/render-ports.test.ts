/**
 * The Node render ports' zlib settings for `:Z64:` (src/node/render-ports.ts): chosen for speed on label
 * bitmaps, they must still compress the bundled labels about as well as zlib's level 9 — the size matters on
 * serial and USB links — and always better than the pure-JS fallback.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { collectImageUrls } from '../../src/layout/images';
import { layout } from '../../src/layout/layout';
import { nodeDeflate, nodeRenderPorts } from '../../src/node/render-ports';
import { resolveOne } from '../../src/resolve/resolve';
import { fflateDeflate9, planGfaBands } from '../../src/zpl/gfa';
import { SAMPLE_DATA, bundledTemplate } from '../support/templates';

const ports = nodeRenderPorts();

async function labelBitmap(name: string, dpi: number) {
  const markup = resolveOne(bundledTemplate(name), SAMPLE_DATA[name] ?? {});
  const images = await ports.loadImages(collectImageUrls([markup]));
  return ports.toMonoBitmap(
    layout(markup, { fonts: ports.fonts, images, target: { unit: 'dots', dpi } }),
    ports.fonts,
  );
}

describe('nodeDeflate on label bitmaps', () => {
  const cases: [string, number, number][] = [
    // template, dpi, largest size over zlib level 9 (full window) allowed
    ['shipping-4x6', 203, 1.01],
    ['shipping-4x6', 300, 1.01],
    ['shipping-4x6', 600, 1.01],
    ['element-gallery-4x6', 203, 1.03],
    ['element-gallery-4x6', 300, 1.03],
    ['packing-slip-a4', 203, 1.03],
  ];
  it.each(cases)(
    '%s at %i dpi: valid zlib streams per ^GFA band, within the bound of level 9, smaller than fflate',
    async (name, dpi, bound) => {
      const bitmap = await labelBitmap(name, dpi);
      let ours = 0;
      let level9 = 0;
      let js = 0;
      // Band by band, as the job compresses them (at most 99,999 bytes each).
      for (const band of planGfaBands(bitmap.rowBytes, bitmap.height)) {
        const rows = bitmap.data.subarray(band.y * bitmap.rowBytes, (band.y + band.rows) * bitmap.rowBytes);
        const z = nodeDeflate(rows, bitmap.rowBytes);
        expect(Buffer.compare(inflateSync(z), Buffer.from(rows))).toBe(0);
        ours += z.length;
        level9 += deflateSync(rows, { level: 9, memLevel: 9 }).length;
        js += fflateDeflate9(rows).length;
      }
      expect(ours / level9, `${ours} bytes against ${level9}`).toBeLessThan(bound);
      expect(ours).toBeLessThan(js);
    },
  );

  it('uses a small window for narrow rows and a larger one for wide rows (the stream header says which)', () => {
    // RFC 1950: the high nibble of the first byte is log2(window size) - 8.
    const windowOf = (z: Uint8Array): number => 2 ** (((z[0] ?? 0) >> 4) + 8);
    const rows = new Uint8Array(300 * 40).fill(0x0f);
    expect(windowOf(nodeDeflate(rows, 102))).toBe(2048);
    expect(windowOf(nodeDeflate(rows, 300))).toBe(8192);
    expect(windowOf(nodeDeflate(rows))).toBe(32768);
  });

  it('without a row length (PDF streams) it is an ordinary zlib stream', () => {
    const text = new TextEncoder().encode('BT /F1 12 Tf 10 10 Td (label) Tj ET\n'.repeat(50));
    expect(new Uint8Array(inflateSync(nodeDeflate(text)))).toEqual(text);
  });
});
