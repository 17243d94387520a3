/**
 * The preview worker's image loading: images in data: URLs only, each read once (a template's logo is not decoded
 * again at every keystroke). An image by URL or path is main's to fetch under its policy: the loader refuses it
 * with NotInWorker — not an ImageError, so the incomplete-markup policy does not leave the image out of the
 * preview; the renderer asks main for that label instead.
 */
import { LruCache } from '../../../../src/layout/lru';
import {
  decodeDataUrl,
  inspectImage,
  type ImageAssets,
  type LoadedImage,
} from '../../../../src/layout/images';

export class NotInWorker extends Error {
  override name = 'NotInWorker';
}

/** data: images kept, by URL. */
const KEPT = 8;

export function dataUrlImages(): (urls: readonly string[]) => Promise<ImageAssets> {
  const images = new LruCache<string, LoadedImage>(KEPT);
  return async (urls) => {
    const out = new Map<string, LoadedImage>();
    for (const url of urls) {
      if (!url.startsWith('data:')) throw new NotInWorker('an image by URL or path is loaded by main');
      let image = images.get(url);
      if (!image) {
        image = inspectImage(url, decodeDataUrl(url).data);
        images.set(url, image);
      }
      out.set(url, image);
    }
    return out;
  };
}
