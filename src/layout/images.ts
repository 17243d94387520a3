/**
 * Images in markup are URLs (data:, http(s), or file paths). Layout is pure, so the edge loads every image
 * first (`collectImageUrls` → a loader → `ImageAssets`) and layout only looks them up. What is pure lives
 * here: data: URL decoding and reading a PNG/JPEG's size from its header.
 */
import type { Markup } from '../template/schema';
import type { ImageMime } from './scene';

export interface LoadedImage {
  mime: ImageMime;
  data: Uint8Array;
  /** Natural size in pixels. */
  width: number;
  height: number;
}

/** url → loaded image. */
export type ImageAssets = ReadonlyMap<string, LoadedImage>;

/** An image that could not be loaded or understood; the message names the URL (never its data). */
export class ImageError extends Error {
  constructor(
    readonly url: string,
    problem: string,
  ) {
    super(`image ${shortUrl(url)}: ${problem}`);
    this.name = 'ImageError';
  }
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

const readU32 = (d: Uint8Array, o: number) =>
  (((d[o] ?? 0) << 24) | ((d[o + 1] ?? 0) << 16) | ((d[o + 2] ?? 0) << 8) | (d[o + 3] ?? 0)) >>> 0;
const readU16 = (d: Uint8Array, o: number) => ((d[o] ?? 0) << 8) | (d[o + 1] ?? 0);

/** Sniffs PNG/JPEG/SVG from the bytes (the declared type is often wrong) and reads the natural size. */
export function inspectImage(url: string, data: Uint8Array): LoadedImage {
  if (data.length > 24 && readU32(data, 0) === 0x89504e47 && readU32(data, 12) === 0x49484452) {
    const width = readU32(data, 16);
    const height = readU32(data, 20);
    if (!width || !height) throw new ImageError(url, 'the PNG has no size');
    return { mime: 'image/png', data, width, height };
  }
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) {
    // Walk JPEG segments to the first start-of-frame marker.
    let o = 2;
    while (o + 9 < data.length) {
      if (data[o] !== 0xff) throw new ImageError(url, 'the JPEG is corrupt');
      const marker = data[o + 1] ?? 0;
      const len = readU16(data, o + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { mime: 'image/jpeg', data, width: readU16(data, o + 7), height: readU16(data, o + 5) };
      }
      o += 2 + len;
    }
    throw new ImageError(url, 'the JPEG has no size');
  }
  const head = new TextDecoder().decode(data.subarray(0, 2048));
  if (/<svg[\s>]/i.test(head)) {
    const num = (name: string) => {
      const m = new RegExp(`<svg[^>]*\\s${name}="([\\d.]+)(px)?"`, 'i').exec(head);
      return m?.[1] ? Number(m[1]) : undefined;
    };
    const vb = /<svg[^>]*\sviewBox="[\d.\s-]*?([\d.]+)\s+([\d.]+)"/i.exec(head);
    const width = num('width') ?? (vb?.[1] ? Number(vb[1]) : 100);
    const height = num('height') ?? (vb?.[2] ? Number(vb[2]) : 100);
    return { mime: 'image/svg+xml', data, width, height };
  }
  throw new ImageError(url, 'is not a PNG, JPEG or SVG image');
}
