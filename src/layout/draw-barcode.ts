/**
 * A barcode element → the encoded symbol placed on the target's grid (barcode/placement.ts), with its human
 * readable text; a value the symbology refuses is invalid.
 */
import type { MarkupElementOf } from '../model/elements';
import { encodeBarcode, placeBarcode, symbolKind, BarcodeValueError } from './barcode';
import type { EncodeOptions } from './barcode/geometry';
import { naturalBarcodeBox } from './barcode/natural-size';
import { IDENTITY, type SceneNode } from './scene';
import { layoutText } from './text';
import { BLACK, color, invalid, type Ctx } from './element-context';

const DEFAULT_BARCODE_BOX = { linear: { width: 200, height: 80 }, matrix: { width: 100, height: 100 } };

function encodeOptions(el: MarkupElementOf<'barcode'>): EncodeOptions {
  const ec = el.eclevel?.toUpperCase();
  if (el.format === 'qrcode' && (ec === 'L' || ec === 'M' || ec === 'Q' || ec === 'H'))
    return { qrErrorCorrection: ec };
  if (el.format === 'pdf417' && ec !== undefined && /^[0-8]$/.test(ec)) {
    return { pdf417ErrorCorrection: Number(ec) as EncodeOptions['pdf417ErrorCorrection'] };
  }
  return {};
}

export function drawBarcode(
  el: MarkupElementOf<'barcode'>,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): SceneNode | undefined {
  const k = ctx.k;
  const matrix = symbolKind(el.format) === 'matrix' && el.format !== 'pdf417';
  const fallback = matrix ? DEFAULT_BARCODE_BOX.matrix : DEFAULT_BARCODE_BOX.linear;
  let geometry;
  try {
    geometry = encodeBarcode(el.format, el.text, encodeOptions(el));
  } catch (e) {
    if (!(e instanceof BarcodeValueError)) throw e;
    const marked = { width: (el.width ?? fallback.width) * k, height: (el.height ?? fallback.height) * k };
    return invalid(ctx, index, `barcode ${el.format}`, { ...at, ...marked }, e);
  }
  // A side the element leaves out is the symbol's natural size (barcode/natural-size.ts), at its own x/y.
  const natural =
    el.width === undefined || el.height === undefined
      ? naturalBarcodeBox(geometry, el.humanReadable, el.bearer, el.moduleWidth)
      : undefined;
  const box = {
    x: at.x,
    y: at.y,
    width: (el.width ?? natural?.width ?? 0) * k,
    height: (el.height ?? natural?.height ?? 0) * k,
  };
  const font = ctx.opts.fonts.resolve('Arial', 'normal');
  const barColor = color(el.color) ?? color(el.fill) ?? BLACK;
  const placed = placeBarcode(
    geometry,
    box,
    { unit: ctx.raster ? 'dots' : 'px', dpi: ctx.dpi },
    {
      ...(el.humanReadable !== undefined ? { humanReadable: el.humanReadable } : {}),
      ...(el.bearer !== undefined ? { bearer: el.bearer } : {}),
      ...(el.moduleWidth !== undefined ? { module: el.moduleWidth * k } : {}),
      color: barColor,
      element: index,
      layoutText: (text, textBox, size) =>
        layoutText({
          text,
          box: textBox,
          font,
          size,
          color: barColor,
          align: 'center',
          wrap: 'none',
          ellipsis: false,
          element: index,
        }).node,
    },
  );
  ctx.warnings.push(...placed.warnings.map((w) => `elements[${index}]: ${w}`));
  // UPC's outer digits are smaller than node.text's: a second text node, drawn with the symbol.
  if (!placed.smallText) return placed.node;
  return {
    kind: 'group',
    transform: IDENTITY,
    opacity: 1,
    children: [placed.node, placed.smallText],
    element: index,
  };
}
