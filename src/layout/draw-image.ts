/** An image element → an image node in its box (`fit: contain` keeps the aspect ratio); a missing image is invalid. */
import type { MarkupElementOf } from '../model/elements';
import { ImageError } from './images';
import type { SceneNode } from './scene';
import { invalid, type Ctx } from './element-context';

export function drawImage(
  el: MarkupElementOf<'image'>,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): SceneNode | undefined {
  const image = ctx.opts.images?.get(el.url);
  const k = ctx.k;
  const box = {
    x: at.x,
    y: at.y,
    width: (el.width ?? image?.width ?? 0) * k,
    height: (el.height ?? image?.height ?? 0) * k,
  };
  if (!image)
    return invalid(
      ctx,
      index,
      'image',
      { ...box, width: box.width || 20 * k, height: box.height || 20 * k },
      new ImageError(el.url, 'was not loaded'),
    );
  let { x, y, width, height } = box;
  if (el.fit === 'contain' && image.width > 0 && image.height > 0) {
    const scale = Math.min(width / image.width, height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    x += (width - w) / 2;
    y += (height - h) / 2;
    width = w;
    height = h;
  }
  if (width <= 0 || height <= 0) return undefined;
  return {
    kind: 'image',
    x,
    y,
    width,
    height,
    mime: image.mime,
    data: image.data,
    monochrome: el.monochrome,
    element: index,
  };
}
