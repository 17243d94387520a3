/**
 * What a render will cost, estimated before it starts, in dots: `labeldesk serve` renders a request whose
 * estimate is above `heavyRenderDots` (budgets.ts) in a worker thread, the others on the event loop. Pure.
 *
 * Measured on the 2-core VM (docs/performance.md, "Renders off the event loop"):
 *  - a label costs ~3–4 ns per dot of the ZPL it becomes (cut at max_width_dots) once past a few ms of layout,
 *    and a fraction of that for the dots past the cut, which are drawn but not encoded: counted as the dots up
 *    to the cut plus an eighth of all (shipping 4×6 in at 203 dpi: ~3–7 ms; A4 at 1200 dpi 832 dots wide
 *    ~50 ms, 10,000 dots wide ~0.4 s). PDF and SVG count the label's dots at 203 dpi. Identical copies are
 *    one label (scenesFor).
 *  - a raster image the 1-bit rasteriser has not seen costs 30–90 ns per dot of the canvas resvg decodes it
 *    on (the label's top-left corner to the image's bottom-right one, twice) and ~300 ns per dot of its own
 *    box (copies, grey, dithering): counted as IMAGE_WEIGHT × (canvas + 4 × box) dots. An image under a rotation,
 *    skew or flip sends the whole label through resvg: counted as a canvas and a box of the whole label.
 *  - every image's bytes are encoded into the output (base64 in SVG, streams in PDF) and decoded: ~15–100 ns
 *    a byte, counted as IMAGE_WEIGHT dots a byte; and its pixels are decoded once whatever the output (the PDF
 *    writer inflates and unfilters a PNG in JavaScript): IMAGE_WEIGHT dots a decoded pixel (a 16 KB PNG can
 *    declare 2000 × 2000).
 */
import { decodedPixels, type ImageAssets } from '../../layout/images';
import type { Markup } from '../../model/schema';
import { stageToInches } from '../../units/units';

/** Dots one image dot or byte counts as (a plain label dot is 1). */
export const IMAGE_WEIGHT = 32;

/** Markup geometry is px at 96 dpi (src/model/elements.ts). */
const MARKUP_DPI = 96;

export type CostTarget =
  /** PDF and SVG, measured at the output budget's 203 dpi. */
  | { dpi: number; raster: false }
  /** ZPL: rasterised at `dpi`, images decoded and dithered per dot; the job cut at `maxWidthDots`. */
  | { dpi: number; raster: true; maxWidthDots: number };

/** The estimated work of rendering `markups` (identical copies once) with their loaded `images`, in dots. */
export function renderCost(markups: readonly Markup[], target: CostTarget, images: ImageAssets): number {
  const distinct = markups.length === 1 ? markups : [...new Set(markups)];
  let dots = 0;
  for (const markup of distinct) {
    const width = stageToInches(markup.stage.width, markup.stage.unit) * target.dpi;
    const height = stageToInches(markup.stage.height, markup.stage.unit) * target.dpi;
    if (!target.raster) {
      dots += width * height;
      continue;
    }
    dots += Math.min(width, target.maxWidthDots) * height + (width * height) / 8;
    const k = target.dpi / MARKUP_DPI;
    for (const el of markup.elements) {
      if (el.type !== 'image' || el.visible === false || !el.url) continue;
      const image = images.get(el.url);
      if (!image) continue; // not loaded: left out
      const boxWidth = Math.abs((el.width ?? image.width) * el.scaleX) * k;
      const boxHeight = Math.abs((el.height ?? image.height) * el.scaleY) * k;
      const turned = el.rotation % 360 !== 0 || el.scaleX < 0 || el.scaleY < 0;
      const canvas = turned
        ? width * height
        : clamp(el.x * k + boxWidth, width) * clamp(el.y * k + boxHeight, height);
      const box = turned ? width * height : Math.min(boxWidth, width) * Math.min(boxHeight, height);
      dots += IMAGE_WEIGHT * (canvas + 4 * box);
    }
  }
  // Every output decodes each image once (PDF: a PNG is inflated and unfiltered in JavaScript), whatever its box.
  for (const image of images.values()) dots += IMAGE_WEIGHT * (image.data.byteLength + decodedPixels(image));
  return dots;
}

const clamp = (value: number, max: number): number => Math.min(max, Math.max(0, value));
