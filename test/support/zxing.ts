/**
 * Test support: decode barcodes with ZXing (zxing-cpp through zxing-wasm, the reader most phone apps and many
 * scanners descend from), giving the text as a scanner sends it and the symbology identifier (ISO/IEC 15424:
 * `]C1` GS1-128, `]d2` GS1 DataMatrix, `]Q3` GS1 QR…) — what tells a GS1 symbol from a plain one.
 *
 * The WebAssembly is read from node_modules (zxing-wasm would fetch it from a CDN otherwise).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import type { GreyImage } from './draw-rects';

const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({
  overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
});

export interface ZxingRead {
  /** The content as a scanner sends it: for GS1, AIs and data run together, GS (ASCII 29) as separator. */
  text: string;
  /** ISO/IEC 15424 symbology identifier, e.g. `]C1`. */
  symbologyIdentifier: string;
  /** ZXing's format name, e.g. `Code128`, `DataMatrix`, `QRCode`. */
  format: string;
}

const OPTIONS: ReaderOptions = {
  tryHarder: true,
  tryRotate: false,
  tryInvert: false,
  maxNumberOfSymbols: 4,
  // As sent: no HRI brackets, GS kept.
  textMode: 'Plain',
};

/** Every symbol ZXing finds in a grey image (0 = black). */
export async function zxingDecode(image: GreyImage): Promise<ZxingRead[]> {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0; i < image.grey.length; i++) {
    const g = image.grey[i] ?? 255;
    rgba.set([g, g, g, 255], i * 4);
  }
  // zxing-wasm takes anything with data/width/height as ImageData (Node has no ImageData).
  const imageData = { data: rgba, width: image.width, height: image.height } as unknown as ImageData;
  return toReads(await readBarcodes(imageData, OPTIONS));
}

/** Every symbol ZXing finds in a PNG file's bytes. */
export async function zxingDecodePng(png: Uint8Array): Promise<ZxingRead[]> {
  return toReads(await readBarcodes(png, OPTIONS));
}

function toReads(results: Awaited<ReturnType<typeof readBarcodes>>): ZxingRead[] {
  return results
    .filter((r) => r.isValid)
    .map((r) => ({ text: r.text, symbologyIdentifier: r.symbologyIdentifier, format: r.format }));
}
