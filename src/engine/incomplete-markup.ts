/**
 * The incomplete-markup policy (README "Incomplete markup"): markup from the hosted service may name an image
 * that cannot be loaded (its own documentation's example does). The hosted SDK leaves such an image out and
 * prints the rest; so do we, with a warning naming the element and the URL, unless the caller asks for strict
 * mode, where the first image that cannot be loaded fails the render as before (ImageError).
 *
 * Pure over the render ports: each distinct URL is loaded once through `ports.loadImages`, and the ports
 * returned hand the loaded images to the renderer, so nothing is fetched twice.
 */
import {
  collectImageUrls,
  ImageError,
  ImageTooLarge,
  type ImageAssets,
  type LoadedImage,
} from '../layout/images';
import type { Markup } from '../model/schema';
import type { RenderPorts } from '../outputs/render';

/** `omit`: leave out an image that cannot be loaded, with a warning (default). `strict`: fail the render. */
export type ImagePolicy = 'omit' | 'strict';

/** What loads images: the render ports, or just a loader (the browser SDK). */
export type ImageLoading = Pick<RenderPorts, 'loadImages'>;

export interface PreparedMarkups<P extends ImageLoading = RenderPorts> {
  /** The markups, with every image that could not be loaded made invisible (the same objects when none). */
  markups: Markup[];
  /** The ports given, whose loadImages now answers from what was loaded here. */
  ports: P;
  /** One message per image left out: `elements[2] (image): image https://…: the server answered 404; left out`. */
  warnings: string[];
}

/** Loads every image of `markups` once and applies the policy. Throws ImageError in strict mode. */
export async function prepareImages<P extends ImageLoading>(
  markups: readonly Markup[],
  ports: P,
  policy: ImagePolicy,
): Promise<PreparedMarkups<P>> {
  // Copies of one request are often one object repeated (resolveShared): look at each object once.
  const distinct = markups.length === 1 ? markups : [...new Set(markups)];
  const urls = collectImageUrls(distinct);
  if (urls.length === 0) return { markups: [...markups], ports, warnings: [] };
  if (policy === 'strict') {
    const assets = await ports.loadImages(urls);
    return { markups: [...markups], ports: withAssets(ports, assets), warnings: [] };
  }
  const loaded = new Map<string, LoadedImage>();
  const failed = new Map<string, ImageError>();
  await Promise.all(
    urls.map(async (url) => {
      try {
        const image = (await ports.loadImages([url])).get(url);
        if (image) loaded.set(url, image);
        else failed.set(url, new ImageError(url, 'was not loaded'));
      } catch (e) {
        // Too many pixels is never "cannot be loaded": the request can never succeed as sent (422).
        if (!(e instanceof ImageError) || e instanceof ImageTooLarge) throw e;
        failed.set(url, e);
      }
    }),
  );
  if (failed.size === 0) return { markups: [...markups], ports: withAssets(ports, loaded), warnings: [] };
  const warnings = new Set<string>();
  const without = new Map<Markup, Markup>();
  for (const markup of distinct) {
    if (!markup.elements.some((el) => el.type === 'image' && failed.has(el.url))) {
      without.set(markup, markup);
      continue;
    }
    without.set(markup, {
      ...markup,
      elements: markup.elements.map((el, index) => {
        const error = el.type === 'image' && el.visible !== false ? failed.get(el.url) : undefined;
        if (!error) return el;
        warnings.add(`elements[${index}] (image): ${error.message}; left out`);
        return { ...el, visible: false };
      }),
    });
  }
  // The same object repeated stays one object repeated.
  const out = markups.map((markup) => without.get(markup) as Markup);
  return { markups: out, ports: withAssets(ports, loaded), warnings: [...warnings] };
}

function withAssets<P extends ImageLoading>(ports: P, assets: ImageAssets): P {
  return {
    ...ports,
    loadImages: async (urls: readonly string[]) => {
      const out = new Map<string, LoadedImage>();
      for (const url of urls) {
        const image = assets.get(url);
        if (image) out.set(url, image);
      }
      return out;
    },
  };
}
