/**
 * Barcode geometry for layout: validate a value, encode it once into module geometry (bwip-js raw; QR codes by
 * our own encoder in qr/), place it on a target's grid as a BarcodeNode. Backends only draw the rects they are
 * given.
 */
export {
  BARCODE_FORMATS,
  bwipBcid,
  formatLabel,
  humanReadableByDefault,
  ITF_BEARERS,
  parseBarcodeFormat,
  quietZone,
  symbolKind,
  type BarcodeFormat,
  type ItfBearer,
  type QuietZone,
  type SymbolKind,
} from '../../model/barcode/formats';
export { BarcodeValueError, type BarcodeValueProblem } from '../../model/barcode/errors';
export { clearBarcodeCache, encodeBarcode, validateBarcodeValue } from './encode';
export {
  geometrySize,
  type BarcodeGeometry,
  type EncodeOptions,
  type LinearGeometry,
  type MatrixGeometry,
} from './geometry';
export {
  BEARER_MODULES,
  GUARD_EXTENSION_MODULES,
  placedWidthModules,
  MIN_LINEAR_MODULE_MIL,
  MIN_MATRIX_MODULE_MIL,
  placeBarcode,
  type Box,
  type LayoutText,
  type PlaceOptions,
  type PlacedBarcode,
  type PlacementTarget,
} from './placement';
