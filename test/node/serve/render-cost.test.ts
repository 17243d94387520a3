/**
 * The estimate that sends a render to a worker (render-cost.ts) and the worker protocol's errors
 * (render-protocol.ts): the everyday labels stay under the default threshold, the large ones go over it;
 * identical copies count once; and every error the HTTP face tells apart crosses the thread boundary as the
 * same class with the same message.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/node/serve/budgets';
import { IMAGE_WEIGHT, renderCost } from '../../../src/node/serve/render-cost';
import {
  RenderAnswerSchema,
  RenderJobSchema,
  distinctOf,
  fromWorkerError,
  perCopy,
  toWorkerError,
} from '../../../src/node/serve/render-protocol';
import { RfidRequiresZpl } from '../../../src/outputs/render';
import {
  decodedPixels,
  ImageError,
  ImageTooLarge,
  type ImageAssets,
  type LoadedImage,
} from '../../../src/layout/images';
import { ElementError } from '../../../src/layout/element-context';
import { resolveOne, resolveShared } from '../../../src/resolve/resolve';
import type { Markup } from '../../../src/model/schema';
import { bundledTemplate, SAMPLE_DATA } from '../../support/templates';

const markupOf = (name: string): Markup => resolveOne(bundledTemplate(name), SAMPLE_DATA[name] ?? {});
/** The images a bundled label shows (data: URLs in the template), with their real byte sizes. */
function imagesOf(markup: Markup): ImageAssets {
  const images = new Map<string, LoadedImage>();
  for (const el of markup.elements) {
    if (el.type !== 'image') continue;
    const data = Buffer.from(el.url.slice(el.url.indexOf(',') + 1), 'base64');
    images.set(el.url, {
      mime: 'image/png',
      data,
      width: data.readUInt32BE(16),
      height: data.readUInt32BE(20),
    });
  }
  return images;
}
const zplAt = (dpi: number, maxWidthDots = 832) => ({ dpi, raster: true, maxWidthDots }) as const;
const HEAVY = DEFAULT_LIMITS.heavyRenderDots;

describe('renderCost', () => {
  test.each([
    ['shipping-4x6', 203],
    ['shipping-4x6', 300],
    ['packing-slip-a4', 203],
    ['packing-slip-a4', 300],
    ['product-2x1', 1200],
  ])('%s at %i dpi, 832 dots wide, stays on the event loop', (name, dpi) => {
    const markup = markupOf(name);
    expect(renderCost([markup], zplAt(dpi), imagesOf(markup))).toBeLessThanOrEqual(HEAVY);
  });

  test.each([
    ['shipping-4x6', 600],
    ['packing-slip-a4', 600],
    ['packing-slip-a4', 1200],
  ])('%s at %i dpi, 832 dots wide, goes to a worker', (name, dpi) => {
    const markup = markupOf(name);
    expect(renderCost([markup], zplAt(dpi), imagesOf(markup))).toBeGreaterThan(HEAVY);
  });

  test('identical copies are one label; different copies each count', () => {
    const template = bundledTemplate('shipping-4x6');
    const data = SAMPLE_DATA['shipping-4x6'] ?? {};
    const one = resolveOne(template, data);
    const images = imagesOf(one);
    const single = renderCost([one], zplAt(203), images);
    expect(renderCost(resolveShared(template, data, 1000), zplAt(203), images)).toBe(single);
    const other = resolveOne(template, { ...data, tracking: '1Z999AA10000000001' });
    const imageBytes =
      [...images.values()].reduce((n, i) => n + i.data.byteLength + decodedPixels(i), 0) * IMAGE_WEIGHT;
    expect(renderCost([one, other], zplAt(203), images)).toBeCloseTo(2 * single - imageBytes, 3);
  });

  test('an image counts its canvas and box when rasterised, its bytes and decoded pixels always; a turned one the whole label', () => {
    const stage = { width: 4, height: 6, unit: 'in' as const, background: '#ffffff' };
    const image = {
      type: 'image' as const,
      x: 96,
      y: 96,
      width: 96,
      height: 96,
      rotation: 0,
      scaleX: 1,
      scaleY: 1,
      opacity: 1,
      visible: true,
      url: 'logo.png',
      fit: 'fill' as const,
      monochrome: 'dither' as const,
    };
    const data = new Uint8Array(1000);
    const images = new Map([['logo.png', { mime: 'image/png' as const, data, width: 10, height: 10 }]]);
    const label = 4 * 96 * 6 * 96;
    const markup = { stage, elements: [image] } as Markup;
    // At 96 dpi a markup px is a dot: canvas 192 × 192 from the corner, box 96 × 96.
    expect(renderCost([markup], { dpi: 96, raster: true, maxWidthDots: 10_000 }, images)).toBe(
      label * (1 + 1 / 8) + IMAGE_WEIGHT * (192 * 192 + 4 * 96 * 96) + IMAGE_WEIGHT * (1000 + 10 * 10),
    );
    // Cut at 100 dots: the dots up to the cut and an eighth of all.
    expect(renderCost([markup], { dpi: 96, raster: true, maxWidthDots: 100 }, images)).toBe(
      100 * 6 * 96 + label / 8 + IMAGE_WEIGHT * (192 * 192 + 4 * 96 * 96) + IMAGE_WEIGHT * (1000 + 10 * 10),
    );
    expect(renderCost([markup], { dpi: 96, raster: false }, images)).toBe(
      label + IMAGE_WEIGHT * (1000 + 10 * 10),
    );
    const turned = { stage, elements: [{ ...image, rotation: 90 }] } as Markup;
    expect(renderCost([turned], { dpi: 96, raster: true, maxWidthDots: 10_000 }, images)).toBe(
      label * (1 + 1 / 8) + IMAGE_WEIGHT * 5 * label + IMAGE_WEIGHT * (1000 + 10 * 10),
    );
    // A small file declaring many pixels (a 16 KB PNG of 2000 × 2000) is heavy for PDF and SVG too: the
    // writer decodes it on whichever thread renders.
    const declared = new Map([['logo.png', { mime: 'image/png' as const, data, width: 2000, height: 2000 }]]);
    expect(renderCost([markup], { dpi: 203, raster: false }, declared)).toBeGreaterThan(HEAVY);
    const hidden = { stage, elements: [{ ...image, visible: false }] } as Markup;
    expect(renderCost([hidden], { dpi: 96, raster: true, maxWidthDots: 10_000 }, new Map())).toBe(
      label * (1 + 1 / 8),
    );
  });
});

describe('the worker protocol', () => {
  test('errors cross as the same classes with the same messages and fields', () => {
    const errors = [
      new ImageError('https://example.com/logo.png', 'cannot be fetched'),
      new ImageTooLarge('data:image/png;base64,AAAA', 'declares 9 × 9 pixels'),
      new ElementError(3, 'barcode ean13', 'not 12 or 13 digits'),
      new RfidRequiresZpl('SVG'),
    ];
    for (const error of errors) {
      const back = fromWorkerError(toWorkerError(error));
      expect(back.constructor).toBe(error.constructor);
      expect(back.name).toBe(error.name);
      expect(back.message).toBe(error.message);
      expect({ ...back }).toEqual({ ...error });
    }
  });

  test('any other failure crosses as its class name and stack frames, never its message', () => {
    const error = new TypeError('the value "Ada Lovelace" is not a function');
    const crossed = toWorkerError(error);
    expect(JSON.stringify(crossed)).not.toContain('Ada Lovelace');
    expect(crossed).toMatchObject({ kind: 'failure', name: 'TypeError' });
    const back = fromWorkerError(crossed);
    expect(back.name).toBe('TypeError');
    expect(back.message).toBe('the render failed in a worker');
    expect(back.stack?.split('\n')[1]).toBe(error.stack?.split('\n')[1]);
  });

  test('a job or an answer of the wrong shape does not parse', () => {
    const job = {
      id: 1,
      markups: [markupOf('product-2x1')],
      copies: [0, 0],
      images: [],
      imageBudget: { maxPixels: 1, labelAreaFactor: 1, minPixels: 1 },
      output: { kind: 'svg' },
    };
    expect(RenderJobSchema.safeParse(job).success).toBe(true);
    expect(RenderJobSchema.safeParse({ ...job, copies: [1] }).success).toBe(false);
    expect(RenderJobSchema.safeParse({ ...job, output: { kind: 'png' } }).success).toBe(false);
    expect(
      RenderAnswerSchema.safeParse({ id: 1, ok: true, output: { kind: 'pdf', items: ['x'], copies: [0] } })
        .success,
    ).toBe(false);
  });

  test('identical outputs cross once and come back as the same object per copy', () => {
    const pdf = new Uint8Array([1, 2, 3]);
    const other = new Uint8Array([1, 2, 3]);
    const crossed = distinctOf([pdf, pdf, other, pdf]);
    expect(crossed).toEqual({ items: [pdf, other], copies: [0, 0, 1, 0] });
    const back = perCopy(crossed);
    expect(back[0]).toBe(back[1]);
    expect(back[2]).toBe(other);
    expect(distinctOf(['a', 'b', 'a'])).toEqual({ items: ['a', 'b'], copies: [0, 1, 0] });
  });
});
