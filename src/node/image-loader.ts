/**
 * Node-only: loads the images markup refers to. data: URLs are decoded; file paths and file:// URLs are read
 * (relative paths against `baseDir`); http(s) URLs are fetched with a timeout and a size cap and kept in a
 * memory cache bounded in bytes, so a batch fetches each logo once. Offline, a failed fetch names the URL.
 * Every image's declared pixels are checked against `maxPixels` from its header, before any decode.
 *
 * With an address `policy` (labeldesk serve, where URLs come from clients) fetches go through pinnedFetch:
 * private and loopback addresses refused after resolution and on every redirect, and one message for every
 * failure, so a client learns nothing about hosts it cannot reach.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_IMAGE_BUDGET,
  ImageError,
  ImageTooLarge,
  decodeDataUrl,
  inspectImage,
  shortUrl,
  type ImageAssets,
  type LoadedImage,
} from '../layout/images';
import type { AddressPolicy } from './address-policy';
import { pinnedFetch } from './pinned-fetch';

export interface ImageLoaderOptions {
  /** Folder relative paths resolve against (the template's folder or the working directory). */
  baseDir?: string;
  /** Per request, default 10 s. */
  timeoutMs?: number;
  /** Largest image accepted, default 10 MiB. */
  maxBytes?: number;
  /** Injected for tests of other modules; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Remote images kept, default 64. */
  cacheSize?: number;
  /** Bytes of remote images kept, default 32 MiB. */
  cacheBytes?: number;
  /** Largest width × height an image may declare (default DEFAULT_IMAGE_BUDGET.maxPixels). */
  maxPixels?: number;
  /** Fetch under this address policy, redirects followed by hand (see pinned-fetch.ts); `fetch` is then unused. */
  policy?: AddressPolicy;
  /** Redirects followed under a policy, default 3. */
  maxRedirects?: number;
}

export type ImageLoader = (urls: readonly string[]) => Promise<ImageAssets>;

async function readCapped(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new ImageError(url, `is ${declared} bytes; the limit is ${maxBytes}`);
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new ImageError(url, `is larger than the limit of ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function createImageLoader(options: ImageLoaderOptions = {}): ImageLoader {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const doFetch = options.fetch ?? fetch;
  const cacheSize = options.cacheSize ?? 64;
  const cacheBytes = options.cacheBytes ?? 32 * 1024 * 1024;
  const maxPixels = options.maxPixels ?? DEFAULT_IMAGE_BUDGET.maxPixels;
  const remote = new Map<string, LoadedImage>();
  let remoteBytes = 0;

  function remember(url: string, image: LoadedImage): void {
    if (image.data.byteLength > cacheBytes) return;
    remote.set(url, image);
    remoteBytes += image.data.byteLength;
    while (remote.size > cacheSize || remoteBytes > cacheBytes) {
      const [oldest, entry] = remote.entries().next().value as [string, LoadedImage];
      remote.delete(oldest);
      remoteBytes -= entry.data.byteLength;
    }
  }

  /** Under a policy: one message for every failure (refused, unreachable, 404, too big, not an image). */
  async function fetchUnderPolicy(url: string, policy: AddressPolicy): Promise<LoadedImage> {
    const mib = maxBytes / 1024 / 1024;
    const size = mib >= 1 ? `${Math.round(mib * 10) / 10} MiB` : `${Math.ceil(maxBytes / 1024)} KiB`;
    const uniform = new ImageError(
      url,
      `cannot be fetched as an image: the server fetches only public http(s) addresses that answer with a PNG, JPEG or SVG of up to ${size} within ${timeoutMs / 1000} s`,
    );
    let body: Uint8Array;
    try {
      body = await pinnedFetch(url, {
        policy,
        timeoutMs,
        maxBytes,
        ...(options.maxRedirects !== undefined ? { maxRedirects: options.maxRedirects } : {}),
      });
    } catch {
      throw uniform;
    }
    try {
      return inspectImage(url, body, maxPixels);
    } catch (e) {
      // Too many pixels is the image's own fault and worth saying; anything else looks like any failure.
      if (e instanceof ImageTooLarge) throw e;
      throw uniform;
    }
  }

  async function loadOne(url: string): Promise<LoadedImage> {
    if (url.startsWith('data:')) {
      const { data } = decodeDataUrl(url);
      if (data.byteLength > maxBytes)
        throw new ImageError(url, `is larger than the limit of ${maxBytes} bytes`);
      return inspectImage(url, data, maxPixels);
    }
    if (/^https?:\/\//i.test(url)) {
      const hit = remote.get(url);
      if (hit) {
        remote.delete(url);
        remote.set(url, hit); // most recently used last
        return hit;
      }
      if (options.policy) {
        const image = await fetchUnderPolicy(url, options.policy);
        remember(url, image);
        return image;
      }
      let response: Response;
      try {
        response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
      } catch (e) {
        const timedOut = (e as Error).name === 'TimeoutError';
        throw new ImageError(
          url,
          timedOut
            ? `no answer within ${timeoutMs / 1000} s`
            : `cannot be fetched (offline or host unreachable)`,
        );
      }
      if (!response.ok) throw new ImageError(url, `the server answered ${response.status}`);
      let body: Uint8Array;
      try {
        body = await readCapped(response, url, maxBytes);
      } catch (e) {
        // The timeout also covers the body: a download that stalls or breaks off after the headers.
        if (e instanceof ImageError) throw e;
        const timedOut = (e as Error).name === 'TimeoutError';
        throw new ImageError(
          url,
          timedOut
            ? `no answer within ${timeoutMs / 1000} s (the download stalled)`
            : 'cannot be fetched (the download broke off)',
        );
      }
      const image = inspectImage(url, body, maxPixels);
      remember(url, image);
      return image;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('file:') && !/^[a-z]:[\\/]/i.test(url)) {
      throw new ImageError(url, 'only data:, http(s):, file: URLs and file paths are supported');
    }
    const path = url.startsWith('file:')
      ? fileURLToPath(url)
      : isAbsolute(url)
        ? url
        : resolvePath(options.baseDir ?? process.cwd(), url);
    let data: Uint8Array;
    try {
      data = await readFile(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Serving others (under a policy), the message names the file as asked, not where this machine keeps it.
      if (options.policy) throw new ImageError(url, code === 'ENOENT' ? 'no such file' : 'cannot be read');
      throw new ImageError(
        url,
        code === 'ENOENT' ? `no such file (${path})` : `cannot be read (${code ?? (e as Error).message})`,
      );
    }
    if (data.byteLength > maxBytes)
      throw new ImageError(url, `is larger than the limit of ${maxBytes} bytes`);
    return inspectImage(shortUrl(url), data, maxPixels);
  }

  return async (urls) => {
    const loaded = await Promise.all(urls.map(async (u) => [u, await loadOne(u)] as const));
    return new Map(loaded);
  };
}
