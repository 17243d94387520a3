/**
 * The 1-bit rasteriser on every bundled template at 203, 300 and 600 dpi, against the resvg path it replaces
 * for ZPL: the bitmaps differ in under 0.5 % of the dots, and a batch of different labels makes no resvg call
 * per label (the logo is decoded once). Barcodes scanning back from the ZPL of every template and dpi is
 * test/outputs/render-barcodes.test.ts, which renders through the same Node ports.
 */
import type * as ResvgModule from '@resvg/resvg-js';
import { describe, expect, it, vi } from 'vitest';
import { renderZplLabels } from '../../src/outputs/render';
import { collectImageUrls } from '../../src/layout/images';
import { layout } from '../../src/layout/layout';
import { nodeRenderPorts } from '../../src/node/render-ports';
import type { MonoBitmap } from '../../src/render/bitmap';
import { monoRasterStats, toMonoBitmap, toMonoBitmapFast } from '../../src/node/resvg';
import { resolve, resolveOne } from '../../src/resolve/resolve';
import { SAMPLE_DATA, bundledTemplate, bundledTemplateNames } from '../support/templates';
import { decodeZpl } from '../support/zpl-decode';

// Every resvg render in this process, counted where it happens.
const resvg = vi.hoisted(() => ({ renders: 0 }));
vi.mock('@resvg/resvg-js', async (importOriginal) => {
  const mod = await importOriginal<typeof ResvgModule>();
  class CountingResvg extends mod.Resvg {
    override render(): ReturnType<InstanceType<typeof mod.Resvg>['render']> {
      resvg.renders++;
      return super.render();
    }
  }
  return { ...mod, Resvg: CountingResvg };
});

const ports = nodeRenderPorts();

/** Dots that differ, over the whole label. */
function differingDots(a: MonoBitmap, b: MonoBitmap): number {
  expect([a.width, a.height, a.rowBytes]).toEqual([b.width, b.height, b.rowBytes]);
  let n = 0;
  for (let i = 0; i < a.data.length; i++) {
    let x = (a.data[i] ?? 0) ^ (b.data[i] ?? 0);
    while (x) {
      n += x & 1;
      x >>= 1;
    }
  }
  return n;
}

describe.each(bundledTemplateNames())('%s', (name) => {
  it.each([203, 300, 600])(
    'at %i dpi differs from the resvg path in under 0.5 % of the dots',
    async (dpi) => {
      const markups = resolve(bundledTemplate(name), SAMPLE_DATA[name] ?? {}, 1);
      const images = await ports.loadImages(collectImageUrls(markups));
      const scene = layout(markups[0]!, { fonts: ports.fonts, images, target: { unit: 'dots', dpi } });
      const fallbacks = monoRasterStats.fallback;
      const ours = toMonoBitmapFast(scene, ports.fonts);
      expect(monoRasterStats.fallback, monoRasterStats.lastFallback).toBe(fallbacks);
      const rendersBefore = resvg.renders;
      const reference = toMonoBitmap(scene, ports.fonts);
      // The counter is live: the resvg path does render (so the batch test below can fail).
      expect(resvg.renders).toBeGreaterThan(rendersBefore);
      const diff = differingDots(ours, reference);
      const share = diff / (ours.width * ours.height);
      expect(
        share,
        `${name} ${dpi} dpi: ${diff} of ${ours.width * ours.height} dots differ (${(share * 100).toFixed(3)} %)`,
      ).toBeLessThan(0.005);
    },
  );
});

describe('a batch of different labels', () => {
  it('300 labels through renderZplLabels: no resvg render per label, no fallback, every job decodes', async () => {
    // Name, tracking number and order id (so the QR code) differ on every label; the logo is the same.
    const template = bundledTemplate('shipping-4x6');
    const markups = Array.from({ length: 300 }, (_, i) =>
      resolveOne(template, {
        ...SAMPLE_DATA['shipping-4x6'],
        ship_to_name: `Ada Lovelace ${i}`,
        tracking: `1Z999AA1${String(i).padStart(10, '0')}`,
        order_id: `ORD-20261123-${String(i).padStart(5, '0')}`,
      }),
    );
    const renders = resvg.renders;
    const fallbacks = monoRasterStats.fallback;
    const fast = monoRasterStats.fast;
    for (const markup of markups) {
      const { labels } = await renderZplLabels([markup], { dpi: 203 }, ports);
      expect(decodeZpl(labels[0]!).bitmap.width).toBe(812);
    }
    expect(monoRasterStats.fast - fast).toBe(300);
    expect(monoRasterStats.fallback - fallbacks).toBe(0);
    // The logo's decode (two renders: on white, and alone for its alpha) at most once for the whole batch.
    expect(resvg.renders - renders).toBeLessThanOrEqual(2);
  });
});
