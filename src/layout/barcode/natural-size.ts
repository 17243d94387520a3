/**
 * The size a barcode gets when its markup element has no width or height (the hosted service's documentation
 * shows such barcodes). The hosted SDK then draws bwip-js's image as it comes, 2 px per module at its default
 * scale; we take the same 2 px (96 dpi) module — 0.0208 in, above every scanner's minimum and a whole 4 dots
 * at 203 dpi — and a 0.5 in bar height for linear symbols, plus a line for the digits when they are shown.
 */
import { humanReadableByDefault, type ItfBearer } from '../../model/barcode/formats';
import { geometrySize, type BarcodeGeometry } from './geometry';
import { placedWidthModules } from './placement';

/** px at 96 dpi per module. */
export const NATURAL_MODULE_PX = 2;
/** Bar height of a linear symbol, px at 96 dpi (0.5 in). */
export const NATURAL_BAR_HEIGHT_PX = 48;
/** Room for the human-readable line under the bars, px at 96 dpi. */
const TEXT_ROW_PX = 16;

/**
 * The box (px at 96 dpi) a barcode takes at its natural size, for the sides the element leaves out: `modulePx`
 * a module (the element's moduleWidth when it has one).
 */
export function naturalBarcodeBox(
  geometry: BarcodeGeometry,
  humanReadable: boolean | undefined,
  bearer?: ItfBearer,
  modulePx: number = NATURAL_MODULE_PX,
): { width: number; height: number } {
  const size = geometrySize(geometry);
  const width = placedWidthModules(geometry, bearer) * modulePx;
  if (geometry.kind === 'matrix') return { width, height: size.height * modulePx };
  const text = (humanReadable ?? humanReadableByDefault(geometry.format)) ? TEXT_ROW_PX : 0;
  return { width, height: NATURAL_BAR_HEIGHT_PX + text };
}
