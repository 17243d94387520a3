/**
 * Declared image sizes from headers (src/layout/image-size.ts) and the pixel budget checked on them
 * (src/layout/images.ts), on hand-built headers: nothing here is decodable past its header, which is the point.
 */
import { describe, expect, test } from 'vitest';
import { declaredSize } from '../../src/layout/image-size';
import {
  checkImageBudget,
  ImageError,
  ImageTooLarge,
  inspectImage,
  type ImageAssets,
} from '../../src/layout/images';
import type { Markup } from '../../src/model/schema';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];

const png = (w: number, h: number) =>
  bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    be32(13),
    'IHDR',
    be32(w),
    be32(h),
    [1, 0, 0, 0, 0],
  );
/** SOI, an APP0 segment, then SOF2 (progressive). */
const jpeg = (w: number, h: number) =>
  bytes(
    [0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc2, 0, 11, 8],
    [h >> 8, h & 255, w >> 8, w & 255],
    [1, 0, 0, 0],
  );
const gif = (w: number, h: number) => bytes('GIF89a', le16(w), le16(h), [0, 0, 0]);
const riff = (chunk: string, body: number[]) =>
  bytes('RIFF', [0, 0, 0, 0], 'WEBP', chunk, [0, 0, 0, 0], body, Array<number>(16).fill(0));

describe('declaredSize', () => {
  test('reads every format from its header', () => {
    expect(declaredSize(png(24_000, 24_000))).toEqual({ format: 'png', width: 24_000, height: 24_000 });
    expect(declaredSize(jpeg(65_000, 300))).toEqual({ format: 'jpeg', width: 65_000, height: 300 });
    expect(declaredSize(gif(640, 480))).toEqual({ format: 'gif', width: 640, height: 480 });
    // VP8 (lossy): frame tag, start code, 14-bit sizes.
    expect(declaredSize(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(16_383), ...le16(100)]))).toEqual({
      format: 'webp',
      width: 16_383,
      height: 100,
    });
    // VP8L (lossless): signature, then width − 1 and height − 1 in 14 bits each.
    const vp8l = (12_000 - 1) | ((9_000 - 1) << 14);
    expect(
      declaredSize(riff('VP8L', [0x2f, vp8l & 255, (vp8l >>> 8) & 255, (vp8l >>> 16) & 255, vp8l >>> 24])),
    ).toEqual({
      format: 'webp',
      width: 12_000,
      height: 9_000,
    });
    // VP8X (extended): 24-bit canvas width − 1 and height − 1.
    expect(declaredSize(riff('VP8X', [0, 0, 0, 0, ...le24(99_999), ...le24(49_999)]))).toEqual({
      format: 'webp',
      width: 100_000,
      height: 50_000,
    });
    expect(
      declaredSize(
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"/>'),
      ),
    ).toEqual({
      format: 'svg',
      width: 300,
      height: 150,
    });
    expect(declaredSize(new TextEncoder().encode('hello'))).toBeUndefined();
  });
  test('an SVG size that is no number ("1.2.3", 400 digits) reads as not given: the viewBox, else 100', () => {
    const svg = (attrs: string) =>
      new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" ${attrs}/>`);
    expect(declaredSize(svg('width="1.2.3" height="20" viewBox="0 0 40 30"'))).toEqual({
      format: 'svg',
      width: 40,
      height: 20,
    });
    expect(declaredSize(svg(`width="${'9'.repeat(400)}" height="1.2.3"`))).toEqual({
      format: 'svg',
      width: 100,
      height: 100,
    });
  });
});

describe('inspectImage: the absolute cap, before any decode', () => {
  test('a PNG declaring 24000 × 24000 is refused, naming the size and the limit', () => {
    const e = (() => {
      try {
        inspectImage('bomb.png', png(24_000, 24_000));
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ImageTooLarge);
    expect((e as Error).message).toBe(
      'image bomb.png: declares 24000 × 24000 pixels (576,000,000); the limit for any image is 16,000,000 pixels, so scale the image down',
    );
  });

  test('the cap is a parameter; JPEG too; GIF and WebP are still not accepted as images', () => {
    expect(inspectImage('a.png', png(100, 100), 10_000).width).toBe(100);
    expect(() => inspectImage('a.png', png(101, 100), 10_000)).toThrow(ImageTooLarge);
    expect(() => inspectImage('a.jpg', jpeg(5_000, 5_000), 10_000_000)).toThrow(/5000 × 5000/);
    expect(() => inspectImage('a.gif', gif(10, 10))).toThrow('is not a PNG, JPEG or SVG image');
  });

  test('an SVG is checked on the raster images it embeds (resvg decodes them at their own size)', () => {
    const nested = Buffer.from(png(20_000, 20_000)).toString('base64');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="data:image/png;base64,${nested}"/></svg>`;
    expect(() => inspectImage('logo.svg', new TextEncoder().encode(svg))).toThrow(
      'image logo.svg: embeds images of 400,000,000 pixels or more; the limit is 16,000,000 pixels, so scale them down',
    );
    const small = svg.replace(nested, Buffer.from(png(100, 100)).toString('base64'));
    expect(inspectImage('logo.svg', new TextEncoder().encode(small)).embeddedPixels).toBe(10_000);
  });
});

describe('inspectImage: an SVG may embed only data: images', () => {
  const svgOf = (inner: string) =>
    new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">${inner}</svg>`,
    );
  const refused = 'is an SVG referring to another file or URL; an SVG image may embed only data: images';

  test.each([
    '<image href="/etc/logo.png"/>',
    '<image xlink:href="file:///etc/logo.png"/>',
    "<image href='http://127.0.0.1/logo.png'/>",
    '<image href="&#47;etc/logo.png"/>',
    '<image href=" relative.png "/>',
  ])('%s is refused (resvg would read it from the disk)', (inner) => {
    expect(() => inspectImage('logo.svg', svgOf(inner))).toThrow(`image logo.svg: ${refused}`);
  });

  test('fragments and data: images are fine; an entity-encoded data: URL is still counted', () => {
    expect(() => inspectImage('a.svg', svgOf('<use href="#shape"/>'))).not.toThrow();
    const nested = Buffer.from(png(5000, 5000)).toString('base64');
    expect(() =>
      inspectImage('a.svg', svgOf(`<image href="data&#58;image/png;base64,${nested}"/>`), 10_000_000),
    ).toThrow(ImageTooLarge);
  });

  test('XML entities are refused (they could spell a file path)', () => {
    const svg =
      '<!DOCTYPE svg [<!ENTITY p "/etc/logo.png">]><svg xmlns="http://www.w3.org/2000/svg"><image href="&p;"/></svg>';
    expect(() => inspectImage('a.svg', new TextEncoder().encode(svg))).toThrow('declaring XML entities');
  });
});

describe('checkImageBudget: the label decides how many pixels are useful', () => {
  const label = (width: number, height: number, url: string): Markup =>
    ({
      stage: { width, height, unit: 'in', background: '#ffffff' },
      elements: [{ type: 'image', x: 0, y: 0, width: 10, height: 10, url }],
    }) as unknown as Markup;
  const assets = (w: number, h: number): ImageAssets =>
    new Map([['logo.png', { mime: 'image/png', data: new Uint8Array(), width: w, height: h }]]);

  test('4× the label dots at the dpi, at least 4 Mpx, at most the absolute cap', () => {
    const small = [label(2, 1, 'logo.png')];
    expect(() => checkImageBudget(assets(2000, 2000), small, { unit: 'dots', dpi: 203 })).not.toThrow();
    expect(() => checkImageBudget(assets(2001, 2000), small, { unit: 'dots', dpi: 203 })).toThrow(
      'image logo.png: declares 2001 × 2000 pixels (4,002,000); the limit for this label at 203 dpi is 4,000,000 pixels, so scale the image down',
    );
    // 4 × 6 in at 600 dpi: 4 × 8.64 M dots, capped at 16 M.
    const big = [label(4, 6, 'logo.png')];
    expect(() => checkImageBudget(assets(4000, 4000), big, { unit: 'dots', dpi: 600 })).not.toThrow();
    expect(() => checkImageBudget(assets(4001, 4000), big, { unit: 'dots', dpi: 600 })).toThrow(ImageError);
    // PDF and SVG are budgeted at 300 dpi: 4 × 6 in → 4 × 2.16 M = 8.64 M.
    expect(() => checkImageBudget(assets(2939, 2939), big, { unit: 'px' })).not.toThrow();
    expect(() => checkImageBudget(assets(2940, 2940), big, { unit: 'px' })).toThrow(
      /at 300 dpi is 8,640,000/,
    );
  });
});
