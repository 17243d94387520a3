/**
 * Test support: decode PDF417 with ZXing's PDF417Reader (@zxing/library) from luminance data. There is no
 * PDF417 command-line decoder in Debian, and ZXing is the decoder most phones and many scanners descend from.
 */
import {
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  PDF417Reader,
  RGBLuminanceSource,
} from '@zxing/library';
import type { GreyImage } from './draw-rects';

/** Every PDF417 symbol ZXing finds in the image, as text; [] when none. */
export function zxingDecodePdf417(image: GreyImage): string[] {
  // RGBLuminanceSource takes 8-bit luminance directly when given width * height bytes.
  const source = new RGBLuminanceSource(new Uint8ClampedArray(image.grey), image.width, image.height);
  const bitmap = new BinaryBitmap(new HybridBinarizer(source));
  const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.PURE_BARCODE, false]]);
  try {
    return new PDF417Reader().decodeMultiple(bitmap, hints).map((r) => r.getText());
  } catch (e) {
    if ((e as Error).name === 'NotFoundException' || /NotFound/.test(String((e as Error).message ?? e)))
      return [];
    throw e;
  }
}
