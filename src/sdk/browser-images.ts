/**
 * The browser SDK's image loader (the counterpart of src/node/image-loader.ts): data: URLs are decoded,
 * http(s) images fetched (the image server must allow CORS). Local file paths exist only on the server.
 */
import {
  ImageError,
  decodeDataUrl,
  inspectImage,
  type ImageAssets,
  type LoadedImage,
} from '../layout/images';

async function loadOne(url: string): Promise<LoadedImage> {
  if (url.startsWith('data:')) return inspectImage(url, decodeDataUrl(url).data);
  if (!/^https?:\/\//i.test(url))
    throw new ImageError(url, 'the browser SDK loads data: and http(s) images only');
  let response: Response;
  try {
    response = await fetch(url, { mode: 'cors', credentials: 'omit' });
  } catch {
    throw new ImageError(
      url,
      'cannot be fetched (offline, or its server does not allow cross-origin requests)',
    );
  }
  if (!response.ok) throw new ImageError(url, `the server answered ${response.status}`);
  return inspectImage(url, new Uint8Array(await response.arrayBuffer()));
}

export async function loadBrowserImages(urls: readonly string[]): Promise<ImageAssets> {
  return new Map(await Promise.all(urls.map(async (u) => [u, await loadOne(u)] as const)));
}
