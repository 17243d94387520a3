/**
 * Test support: a small label bitmap with a Code 128 drawn bar by bar (geometry from src/layout/barcode, bars as
 * whole-dot rects), and the check a user would make on what a printer received: it decodes to the same value.
 */
import { join } from 'node:path';
import { encodeBarcode } from '../../src/layout/barcode';
import { createMonoBitmap, setDot, type MonoBitmap } from '../../src/render/bitmap';
import { decodeZplToPgm } from './zpl-decode';
import { zbarValues } from './zbar';

/** A label `width` dots wide with `value` as Code 128 at `moduleDots` per module, 120 dots tall, 20 dots down. */
export function code128Label(
  value: string,
  options: { moduleDots?: number; width?: number; height?: number } = {},
): MonoBitmap {
  const moduleDots = options.moduleDots ?? 3;
  const geometry = encodeBarcode('code128', value);
  if (geometry.kind !== 'linear') throw new Error('code128 is linear');
  const width = options.width ?? Math.max(geometry.totalModules * moduleDots + 40, 400);
  const height = options.height ?? 160;
  const bitmap = createMonoBitmap(width, height);
  const left = 20;
  for (const [start, modules] of geometry.bars) {
    for (let x = left + start * moduleDots; x < left + (start + modules) * moduleDots; x++) {
      for (let y = 20; y < 140; y++) setDot(bitmap, x, y, true);
    }
  }
  return bitmap;
}

/** Decodes a received ZPL job as a printer would print it and scans it with zbarimg. */
export function scanZplJob(zpl: string, dir: string, name = 'received'): string[] {
  const path = join(dir, `${name}.pgm`);
  decodeZplToPgm(zpl, path);
  return zbarValues(path);
}
