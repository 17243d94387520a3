/**
 * What every element's drawing shares (layout.ts lays a markup out; draw-*.ts draw one element each): the
 * target, the options, the per-label context (scale, warnings, cut text, RFID writes) and the element error.
 */
import { KindedError } from '../base/error-kind';
import { normaliseColor, isInvisible } from '../model/color';
import type { MarkupElement } from '../model/elements';
import type { FontSet } from './fonts';
import type { ImageAssets } from './images';
import type { RfidWrite, SceneNode, Stroke, TextCut } from './scene';

export type LayoutTarget = { unit: 'px' } | { unit: 'dots'; dpi: number };

export interface LayoutOptions {
  fonts: FontSet;
  /** Every image URL of the markup, loaded (see collectImageUrls). */
  images?: ImageAssets;
  target: LayoutTarget;
  /**
   * 'throw' (outputs: a bad barcode value or a missing image fails the render with a typed error) or 'mark'
   * (live preview: draw a hatched box and add a warning, so typing a half-finished value never blanks it).
   */
  onInvalid?: 'throw' | 'mark';
}

/** A markup element that cannot be drawn as given (bad barcode value, missing image, bad RFID hex). */
export class ElementError extends KindedError {
  get kind() {
    return 'element-invalid' as const;
  }

  constructor(
    readonly element: number,
    readonly elementType: string,
    problem: string,
    override readonly cause?: unknown,
  ) {
    super(`elements[${element}] (${elementType}): ${problem}`);
    this.name = 'ElementError';
  }
}

export const BLACK = '#000000';

/** One label's layout in progress. */
export interface Ctx {
  opts: LayoutOptions;
  /** Scene units per markup px. */
  k: number;
  dpi: number;
  raster: boolean;
  stageWidthPx: number;
  warnings: string[];
  cuts: TextCut[];
  rfid: RfidWrite[];
}

export function color(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const c = normaliseColor(value);
  return isInvisible(c) ? undefined : c;
}

/** Konva's default strokeWidth is 2: hosted markup with a stroke colour and no width relies on it. */
export function strokeOf(el: MarkupElement, ctx: Ctx, fallbackWidth = 2): Stroke | undefined {
  const c = color(el.stroke);
  const width = (el.strokeWidth ?? fallbackWidth) * ctx.k;
  if (!c || width <= 0) return undefined;
  return { color: c, width };
}

/**
 * An element that cannot be drawn: throws ElementError (outputs), or (live preview, `onInvalid: 'mark'`) warns
 * and answers a hatched red box where it would be.
 */
export function invalid(
  ctx: Ctx,
  index: number,
  type: string,
  box: { x: number; y: number; width: number; height: number },
  error: Error,
): SceneNode {
  if (ctx.opts.onInvalid !== 'mark') throw new ElementError(index, type, error.message, error);
  ctx.warnings.push(`elements[${index}] (${type}): ${error.message}`);
  // A hatched red box where the element would be: visible, and obviously not a label to print.
  const { x, y, width: w, height: h } = box;
  return {
    kind: 'path',
    d: `M${x} ${y}h${w}v${h}h${-w}ZM${x} ${y}L${x + w} ${y + h}M${x + w} ${y}L${x} ${y + h}`,
    stroke: { color: '#d00000', width: Math.max(1, ctx.k) },
    element: index,
  };
}
