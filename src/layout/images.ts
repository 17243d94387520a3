/**
 * Images in markup are URLs (data:, http(s), or file paths). Layout is pure, so the edge loads every image
 * first (`collectImageUrls` → a loader → `ImageAssets`) and layout only looks them up. What is pure lives
 * here: data: URL decoding, reading an image's size from its header, and the pixel budget checked on that size
 * before anything decodes an image.
 */
import { KindedError } from '../base/error-kind';
import type { Markup } from '../model/schema';
import { stageToInches } from '../units/units';
import { declaredSize, ImageHeaderError, type DeclaredSize } from './image-size';
import type { ImageMime } from './scene';

export interface LoadedImage {
  mime: ImageMime;
  data: Uint8Array;
  /** Natural size in pixels. */
  width: number;
  height: number;
  /** An SVG's raster images embedded as data: URLs, their declared pixels summed (decoded at that size). */
  embeddedPixels?: number;
}

/** url → loaded image. */
export type ImageAssets = ReadonlyMap<string, LoadedImage>;

/** An image that could not be loaded or understood; the message names the URL (never its data). */
export class ImageError extends KindedError {
  get kind() {
    return 'image-invalid' as const;
  }

  constructor(
    readonly url: string,
    problem: string,
  ) {
    super(`image ${shortUrl(url)}: ${problem}`);
    this.name = 'ImageError';
  }
}

/** An image declaring more pixels than the budget allows (checked on its header, before any decode). */
export class ImageTooLarge extends ImageError {
  override name = 'ImageTooLarge';
}

/** data: URLs can be megabytes; messages show their start only. */
export function shortUrl(url: string): string {
  return url.startsWith('data:')
    ? `${url.slice(0, url.indexOf(',') + 1 || 30)}…`
    : url.length > 200
      ? `${url.slice(0, 200)}…`
      : url;
}

/** Every distinct image URL of the visible image elements of these markups. */
export function collectImageUrls(markups: readonly Markup[]): string[] {
  const urls = new Set<string>();
  for (const m of markups) {
    for (const el of m.elements) if (el.type === 'image' && el.visible !== false && el.url) urls.add(el.url);
  }
  return [...urls];
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Decodes a `data:` URL. Throws ImageError for anything malformed. */
export function decodeDataUrl(url: string): { mime: string; data: Uint8Array } {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0) throw new ImageError(url, 'not a valid data: URL');
  const meta = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  const mime = (meta.split(';')[0] || 'text/plain').toLowerCase();
  try {
    if (meta.endsWith(';base64')) return { mime, data: base64ToBytes(payload.replace(/\s+/g, '')) };
    return { mime, data: new TextEncoder().encode(decodeURIComponent(payload)) };
  } catch {
    throw new ImageError(url, 'its data is not valid base64 or URL encoding');
  }
}

/**
 * How many pixels an image may ask a decoder for. Checked on the declared size in the header (image-size.ts),
 * before anything decodes it: a 93 KB 1-bit PNG can declare 24000 × 24000, 2.3 GB as RGBA.
 */
export interface ImageBudget {
  /** Absolute cap on one image's declared width × height, whatever the label (16 Mpx = 64 MB as RGBA). */
  maxPixels: number;
  /** An image may have this many times the dots of its whole label at the target dpi (2× the print resolution each way). */
  labelAreaFactor: number;
  /** …but always at least this many pixels, so a small label still takes an ordinary logo. */
  minPixels: number;
}

export const DEFAULT_IMAGE_BUDGET: ImageBudget = {
  maxPixels: 16_000_000,
  labelAreaFactor: 4,
  minPixels: 4_000_000,
};

/** PDF and SVG are vector: their images are budgeted as if printed at this resolution. */
const VECTOR_BUDGET_DPI = 300;

/** Every `href` (any namespace prefix) of an SVG's elements, quoted either way. */
const HREF = /(?:^|[\s"'])(?:[\w.-]+:)?href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** An attribute value as the XML parser reads it (character and predefined entities). */
function xmlValue(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
    if (name[0] !== '#') return XML_ENTITIES[name.toLowerCase()] ?? all;
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function tooManyPixels(url: string, width: number, height: number, limit: number, where: string): ImageError {
  return new ImageTooLarge(
    url,
    `declares ${width} × ${height} pixels (${fmt(width * height)}); the limit ${where} is ${fmt(limit)} pixels, so scale the image down`,
  );
}

/**
 * Sum of the declared pixels of the raster images an SVG embeds as data: URLs (recursively, 4 levels). Any
 * other reference is refused: resvg reads an `<image href="/some/file.png">` from the disk, which would let a
 * value read any image on the server (and decode it at its own size), whatever the image file rules say.
 */
function embeddedPixels(url: string, svg: Uint8Array, maxPixels: number, depth = 0): number {
  if (depth > 3) throw new ImageError(url, 'nests SVG images more than 4 levels deep');
  const text = new TextDecoder().decode(svg);
  if (/<!ENTITY/i.test(text))
    throw new ImageError(url, 'is an SVG declaring XML entities, which images may not');
  let total = 0;
  for (const match of text.matchAll(HREF)) {
    const ref = xmlValue(match[1] ?? match[2] ?? '').trim();
    if (ref === '' || ref.startsWith('#')) continue;
    if (!/^data:/i.test(ref)) {
      throw new ImageError(
        url,
        'is an SVG referring to another file or URL; an SVG image may embed only data: images',
      );
    }
    let nested: Uint8Array;
    try {
      nested = decodeDataUrl(ref).data;
    } catch {
      continue; // resvg skips an image it cannot decode
    }
    const size = declaredSize(nested);
    if (!size) continue;
    total +=
      size.format === 'svg' ? embeddedPixels(url, nested, maxPixels, depth + 1) : size.width * size.height;
    if (total > maxPixels) {
      throw new ImageTooLarge(
        url,
        `embeds images of ${fmt(total)} pixels or more; the limit is ${fmt(maxPixels)} pixels, so scale them down`,
      );
    }
  }
  return total;
}

/**
 * Sniffs the format from the bytes (the declared type is often wrong), reads the natural size from the header
 * and refuses an image declaring more than `maxPixels` (an SVG: embedding more), all before any decode.
 */
export function inspectImage(
  url: string,
  data: Uint8Array,
  maxPixels: number = DEFAULT_IMAGE_BUDGET.maxPixels,
): LoadedImage {
  let size: DeclaredSize | undefined;
  try {
    size = declaredSize(data);
  } catch (e) {
    if (e instanceof ImageHeaderError) throw new ImageError(url, e.message);
    throw e;
  }
  if (!size || size.format === 'gif' || size.format === 'webp') {
    throw new ImageError(url, 'is not a PNG, JPEG or SVG image');
  }
  const { width, height } = size;
  if (size.format === 'svg') {
    const pixels = embeddedPixels(url, data, maxPixels);
    return { mime: 'image/svg+xml', data, width, height, ...(pixels ? { embeddedPixels: pixels } : {}) };
  }
  if (width * height > maxPixels) throw tooManyPixels(url, width, height, maxPixels, 'for any image');
  return { mime: size.format === 'png' ? 'image/png' : 'image/jpeg', data, width, height };
}

/** The pixels decoding `image` allocates: a raster's width × height, an SVG's embedded rasters. */
export const decodedPixels = (image: LoadedImage): number =>
  image.mime === 'image/svg+xml' ? (image.embeddedPixels ?? 0) : image.width * image.height;

/**
 * The pixels an image on a label of `labelDots` dots (width × height at the target dpi) may decode to:
 * `labelAreaFactor` times them, at least `minPixels`, at most `maxPixels`.
 */
export function imagePixelLimit(labelDots: number, budget: ImageBudget = DEFAULT_IMAGE_BUDGET): number {
  return Math.floor(
    Math.min(budget.maxPixels, Math.max(budget.minPixels, budget.labelAreaFactor * labelDots)),
  );
}

/**
 * Refuses (ImageError) an image with more pixels than its label can use: `labelAreaFactor` times the label's
 * dots at the target dpi (PDF/SVG: at 300 dpi), at least `minPixels`, at most `maxPixels`. Run after loading,
 * before layout: no image has been decoded yet.
 */
export function checkImageBudget(
  images: ImageAssets,
  markups: readonly Markup[],
  target: { unit: 'px' } | { unit: 'dots'; dpi: number },
  budget: ImageBudget = DEFAULT_IMAGE_BUDGET,
): void {
  const dpi = target.unit === 'dots' ? target.dpi : VECTOR_BUDGET_DPI;
  const labelDots = new Map<string, number>();
  for (const m of markups) {
    const dots =
      stageToInches(m.stage.width, m.stage.unit) * dpi * stageToInches(m.stage.height, m.stage.unit) * dpi;
    for (const el of m.elements) {
      if (el.type === 'image' && el.url) labelDots.set(el.url, Math.max(labelDots.get(el.url) ?? 0, dots));
    }
  }
  for (const [url, image] of images) {
    const limit = imagePixelLimit(labelDots.get(url) ?? 0, budget);
    const pixels = decodedPixels(image);
    if (pixels <= limit) continue;
    const where = `for this label at ${dpi} dpi`;
    if (image.mime === 'image/svg+xml') {
      throw new ImageTooLarge(
        url,
        `embeds images of ${fmt(pixels)} pixels; the limit ${where} is ${fmt(limit)} pixels, so scale them down`,
      );
    }
    throw tooManyPixels(url, image.width, image.height, limit, where);
  }
}
