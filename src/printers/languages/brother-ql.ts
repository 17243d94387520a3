/**
 * Brother QL raster (QL-500…QL-820, QL-1050…QL-1110), after Brother's "Raster Command Reference" for the QL
 * series (QL-700/710W/720NW/800/810W/820NWB and QL-1100/1110NWB editions): 300 dpi only.
 *
 *   NUL × 200                 invalidate (the QL-1100 edition says 350; extra NULs are harmless, 350 are sent)
 *   ESC @                     initialize
 *   per page (one per copy):
 *     ESC i a 01              raster mode
 *     ESC i z n1..n10         print information: valid flags, media type (0A continuous, 0B die-cut), media
 *                             width and length in mm, the page's raster line count (little-endian), 0 for the
 *                             first page and 1 after, 0
 *     ESC i M 40              auto cut; ESC i A 01 cut each label; ESC i K 08 cut at the end
 *     ESC i d n1 n2           margin (feed) in dots: 0 on die-cut labels, 35 (3 mm) on continuous tape
 *     M 02                    raster lines compressed (TIFF = PackBits)
 *     g 00 n <n bytes>        one raster line, PackBits of the whole head's line (90 or 162 bytes expanded);
 *     Z                       a blank raster line
 *     FF (0C), the last 1A    print; Control-Z also feeds and ends the job
 *
 * A raster line covers every pin of the head (720 on the 62 mm models, 1296 on the 102 mm ones), 1 = black,
 * MSB first. The manual's "raster line" figure puts the first byte at the far end from pin 0 and the label
 * feeding away from the reader, so the line is the label's row mirrored: the first bits are the offset pins,
 * then the print area from the label's right edge to its left. The offset pins (12 on both 62 mm and 102 mm
 * media) are from the manual's media table; other media widths are not written here because their offsets could
 * not be checked — a label wider than 696 dots goes to a 102 mm printer (1164 dots), anything wider is refused.
 * No black-mark media exists on the QL: `mark` is refused. Darkness and speed are not in the raster language
 * (set on the printer), so they are not sent.
 */
import type { MonoBitmap } from '../../render/bitmap';
import {
  ByteWriter,
  LanguageJobError,
  bitmapRow,
  checkJobOptions,
  type JobLimits,
  type LabelJobOptions,
} from './job-options';
import { packBits } from './packbits';

/** The two head sizes and their widest media (from the manual's media tables). */
export const BROTHER_QL_HEADS = [
  { pins: 720, mediaMm: 62, offsetPins: 12, printAreaPins: 696 },
  { pins: 1296, mediaMm: 102, offsetPins: 12, printAreaPins: 1164 },
] as const;

/** 300 dpi; the 102 mm printers' print area; die-cut labels up to 1 m and continuous tape up to 3 m (manual). */
export const BROTHER_QL_LIMITS: JobLimits = {
  maxWidthDots: () => 1164,
  maxLengthDots: 11_811,
};

const INVALIDATE = 350;

/** One head line: offset pins, then the label's row mirrored into the print area, the rest blank. */
function headLine(row: Uint8Array, width: number, head: (typeof BROTHER_QL_HEADS)[number]): Uint8Array {
  const line = new Uint8Array(head.pins / 8);
  for (let x = 0; x < width; x++) {
    if (!((row[x >> 3] ?? 0) & (0x80 >> (x & 7)))) continue;
    const bit = head.offsetPins + head.printAreaPins - 1 - x;
    line[bit >> 3]! |= 0x80 >> (bit & 7);
  }
  return line;
}

export function writeBrotherQlJob(bitmap: MonoBitmap, options: LabelJobOptions): Uint8Array {
  const o = checkJobOptions('Brother QL', bitmap, options, BROTHER_QL_LIMITS);
  if (o.dpi !== 300) {
    throw new LanguageJobError(`Brother QL printers print at 300 dpi; this label was drawn at ${o.dpi} dpi`);
  }
  if (o.media === 'mark') throw new LanguageJobError('Brother QL printers take no black-mark media');
  // The profile's print width names the printer (696: a 62 mm QL-5xx/7xx/8xx; 1164: a 102 mm QL-10xx/11xx);
  // without one, the narrowest head the label fits.
  const needed = options.printWidthDots ?? bitmap.width;
  const head = BROTHER_QL_HEADS.find((h) => needed <= h.printAreaPins) ?? BROTHER_QL_HEADS[1];
  const continuous = o.media === 'continuous';
  const lengthMm = continuous ? 0 : Math.min(255, Math.round((o.labelLengthDots / o.dpi) * 25.4));
  const rows = bitmap.height;
  // Every raster line once (the copies repeat the same bytes).
  const lines: Uint8Array[] = [];
  for (let y = 0; y < rows; y++) {
    const line = headLine(bitmapRow(bitmap, y), bitmap.width, head);
    lines.push(line.every((b) => b === 0) ? Uint8Array.of(0x5a) : raster(packBits(line)));
  }
  const out = new ByteWriter();
  out.bytes(new Uint8Array(INVALIDATE));
  out.bytes([0x1b, 0x40]);
  for (let page = 0; page < o.copies; page++) {
    out.bytes([0x1b, 0x69, 0x61, 0x01]);
    const valid = 0x80 | 0x02 | 0x04 | (continuous ? 0 : 0x08);
    out.bytes([
      0x1b,
      0x69,
      0x7a,
      valid,
      continuous ? 0x0a : 0x0b,
      head.mediaMm,
      lengthMm,
      rows & 0xff,
      (rows >> 8) & 0xff,
      (rows >> 16) & 0xff,
      (rows >>> 24) & 0xff,
      page === 0 ? 0 : 1,
      0,
    ]);
    out.bytes([0x1b, 0x69, 0x4d, 0x40]);
    out.bytes([0x1b, 0x69, 0x41, 0x01]);
    out.bytes([0x1b, 0x69, 0x4b, 0x08]);
    const margin = continuous ? 35 : 0;
    out.bytes([0x1b, 0x69, 0x64, margin & 0xff, margin >> 8]);
    out.bytes([0x4d, 0x02]);
    for (const line of lines) out.bytes(line);
    out.bytes([page === o.copies - 1 ? 0x1a : 0x0c]);
  }
  return out.finish();
}

function raster(packed: Uint8Array): Uint8Array {
  const command = new Uint8Array(3 + packed.length);
  command.set([0x67, 0x00, packed.length]);
  command.set(packed, 3);
  return command;
}
