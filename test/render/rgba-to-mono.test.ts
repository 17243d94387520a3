import { describe, expect, it } from 'vitest';
import { getDot, type MonoBitmap } from '../../src/render/bitmap';
import { ditherMaskScene, greyToMono, rgbaToGrey } from '../../src/render/rgba-to-mono';
import { rasterizeRgba, toMonoBitmap } from '../../src/node/resvg';
import { fonts, greyRampPng, imageNode, scene, textNode } from './fixtures';

/** A dot, white outside the bitmap. */
const dot = (b: MonoBitmap, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < b.width && y < b.height && getDot(b, x, y);

/** Fraction of black dots in [x0, x1) × [y0, y1). */
function density(b: MonoBitmap, x0: number, y0: number, x1: number, y1: number): number {
  let black = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (getDot(b, x, y)) black++;
  return black / ((x1 - x0) * (y1 - y0));
}

/** Black dots with no black dot left, right, above or below: the signature of dithering. */
function isolatedDots(b: MonoBitmap, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!getDot(b, x, y)) continue;
      const touching = dot(b, x - 1, y) || dot(b, x + 1, y) || dot(b, x, y - 1) || dot(b, x, y + 1);
      if (!touching) n++;
    }
  }
  return n;
}

describe('greyToMono', () => {
  it('thresholds at 50 %: 127 is black, 128 is white', () => {
    const b = greyToMono(new Uint8Array([0, 127, 128, 255]), 4, 1);
    expect([0, 1, 2, 3].map((x) => getDot(b, x, 0))).toEqual([true, true, false, false]);
  });

  it.each([
    ['floyd-steinberg', 64, 0.75],
    ['floyd-steinberg', 128, 0.5],
    ['floyd-steinberg', 192, 0.25],
    ['atkinson', 128, 0.5],
  ] as const)('%s: dithers masked grey %i to about %f black', (dither, g, expected) => {
    const w = 64;
    const grey = new Uint8Array(w * w).fill(g);
    const b = greyToMono(grey, w, w, new Uint8Array(w * w).fill(1), { dither });
    expect(density(b, 0, 0, w, w)).toBeCloseTo(expected, 1);
  });

  it('never diffuses error out of the mask into thresholded pixels', () => {
    // Left half: a masked dark grey; right half: unmasked light grey that must stay white.
    const w = 32;
    const grey = new Uint8Array(w * w);
    const mask = new Uint8Array(w * w);
    for (let i = 0; i < w * w; i++) {
      const left = i % w < w / 2;
      grey[i] = left ? 100 : 200;
      mask[i] = left ? 1 : 0;
    }
    const b = greyToMono(grey, w, w, mask);
    expect(density(b, w / 2, 0, w, w)).toBe(0);
    expect(density(b, 0, 0, w / 2, w)).toBeGreaterThan(0.4);
  });
});

describe('rgbaToGrey', () => {
  it('composites over white and uses luma weights', () => {
    const grey = rgbaToGrey(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 255]), 3, 1);
    expect([...grey]).toEqual([255, 0, 76]);
  });
});

describe('ditherMaskScene', () => {
  it('turns dithered images white and everything else black, keeping order and alpha', () => {
    const s = scene('dots', 203, 100, 100, [
      imageNode(greyRampPng(), 0, 0, 50, 50),
      { ...imageNode(greyRampPng(), 50, 0, 50, 50), monochrome: 'threshold' },
      {
        kind: 'rect',
        x: 0,
        y: 0,
        width: 10,
        height: 10,
        fill: '#ffffff80',
        stroke: { color: '#ff0000', width: 1 },
      },
    ]);
    const m = ditherMaskScene(s);
    expect(m.background).toBe('#000000');
    expect(m.nodes).toEqual([
      { kind: 'rect', x: 0, y: 0, width: 50, height: 50, fill: '#ffffff' },
      { kind: 'rect', x: 50, y: 0, width: 50, height: 50, fill: '#000000' },
      {
        kind: 'rect',
        x: 0,
        y: 0,
        width: 10,
        height: 10,
        fill: '#00000080',
        stroke: { color: '#000000', width: 1 },
      },
    ]);
  });
});

describe('toMonoBitmap: photos dithered, text thresholded', () => {
  // 203 dpi dots: a grey-ramp photo at (20, 20) 240 × 120, black "LABEL" on top of it, a white rect
  // covering its top-right corner, and "TEXT" on plain white below.
  const photo = { x: 20, y: 20, w: 240, h: 120 };
  const over = textNode('LABEL', { x: 40, baseline: 110, size: 60 });
  const plain = textNode('TEXT', { x: 20, baseline: 250, size: 50 });
  const s = scene('dots', 203, 300, 280, [
    imageNode(greyRampPng(), photo.x, photo.y, photo.w, photo.h),
    over,
    { kind: 'rect', x: 200, y: 20, width: 60, height: 30, fill: '#ffffff' },
    plain,
  ]);
  const bitmap = toMonoBitmap(s, fonts);

  it('dithers the photo: tones become dot densities, not a solid threshold', () => {
    // Strips above the overlaid text (y 20..55), left of the white rect.
    const dark = density(bitmap, 22, 22, 70, 50); // ramp 20–37 % white
    const light = density(bitmap, 150, 22, 198, 50); // ramp 63–80 % white
    expect(dark).toBeGreaterThan(0.55);
    expect(dark).toBeLessThan(0.9); // a threshold would make this 100 % black
    expect(light).toBeGreaterThan(0.1); // ... and this 0 %
    expect(light).toBeLessThan(0.45);
    expect(isolatedDots(bitmap, 150, 22, 198, 50)).toBeGreaterThan(20);
  });

  it('thresholds text on white: same dots as a plain threshold, no isolated dots', () => {
    const { width, height, rgba } = rasterizeRgba(s, fonts);
    const thresholded = greyToMono(rgbaToGrey(rgba, width, height), width, height);
    const [y0, y1] = [150, 270];
    let black = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = 0; x < 300; x++) {
        expect(getDot(bitmap, x, y)).toBe(getDot(thresholded, x, y));
        if (getDot(bitmap, x, y)) black++;
      }
    }
    expect(black).toBeGreaterThan(1000);
    expect(isolatedDots(bitmap, 0, y0, 300, y1)).toBe(0);
  });

  it('respects z-order: text over the photo is solid black, a white rect over it is white', () => {
    const alone = toMonoBitmap(scene('dots', 203, 300, 280, [over]), fonts);
    let interior = 0;
    for (let y = 1; y < 279; y++) {
      for (let x = 1; x < 299; x++) {
        let solid = true;
        for (let dy = -1; dy <= 1 && solid; dy++)
          for (let dx = -1; dx <= 1; dx++) solid &&= getDot(alone, x + dx, y + dy);
        if (!solid) continue;
        interior++;
        expect(getDot(bitmap, x, y)).toBe(true);
      }
    }
    expect(interior).toBeGreaterThan(500);
    expect(density(bitmap, 201, 21, 259, 49)).toBe(0);
  });
});
