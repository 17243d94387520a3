/**
 * DPL (Datamax-O'Neil / Honeywell), after the "DPL Programmer's Manual" (Datamax 88-2051-01 and the
 * Honeywell/Datamax E-Class, I-Class and M-Class editions): the label's dots are downloaded as an image in the
 * manual's own 7-bit ASCII image format (Appendix "Image Loading"), then a label format prints it.
 *
 *   STX e | STX r | STX c nnnn  media sensor: edge (gap), reflective (black mark), or continuous with its
 *                               length in hundredths of an inch
 *   STX I D A F LDLABEL CR      image download to module D (RAM), 7-bit ASCII data, format F (Datamax image)
 *     80 nn <hex> CR            one dot row: nn = its byte count in hex, then the bytes in hex
 *     0000FF nn CR              repeat the previous row nn more times (the format's run-length)
 *     FFFF CR                   end of the image
 *   STX L CR                    label formatting
 *   D11 CR                      1 × 1 dot size
 *   H nn CR                     heat 00..30 (the ~SD scale itself), only when the profile sets one
 *   P c CR                      print speed letter ('A' 1 ips, +0.5 ips per letter), only when set
 *   1Y1100000000000LDLABEL CR   the image: rotation 1, font Y (image), ×1 ×1, row 0000, column 0000
 *   Q nnnn CR                   copies
 *   E CR                        end of the format: print
 *
 * Dot data: MSB the leftmost dot, 1 = black. The manual does not say in words which record is the image's top
 * row; DPL places a record at its lower-left corner (row counted up from the label's bottom edge), and the
 * image format keeps the rows in the order sent, top first, which is what the BMP "flipped" variants exist to
 * avoid — the calibration label is the check. nn is two hex digits, so a row is at most 255 bytes (2040 dots).
 */
import type { MonoBitmap } from '../../render/bitmap';
import { ByteWriter, bitmapRow, checkJobOptions, type JobLimits, type LabelJobOptions } from './job-options';

export const DPL_LIMITS: JobLimits = {
  maxWidthDots: (dpi) => Math.min(255 * 8, Math.round((dpi * 8.5) / 8) * 8),
  maxLengthDots: 9999,
};

export const DPL_IMAGE_NAME = 'LDLABEL';

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

export function writeDplJob(bitmap: MonoBitmap, options: LabelJobOptions): Uint8Array {
  const o = checkJobOptions('DPL', bitmap, options, DPL_LIMITS);
  const stx = '\x02';
  const out = new ByteWriter();
  const line = (text: string) => out.ascii(`${text}\r`);
  if (o.media === 'continuous') {
    line(`${stx}c${String(Math.round((o.labelLengthDots / o.dpi) * 100)).padStart(4, '0')}`);
  } else out.ascii(`${stx}${o.media === 'mark' ? 'r' : 'e'}`);
  line(`${stx}IDAF${DPL_IMAGE_NAME}`);
  let previous: string | undefined;
  let repeats = 0;
  const flush = () => {
    if (repeats > 0) line(`0000FF${hex(repeats)}`);
    repeats = 0;
  };
  for (let y = 0; y < bitmap.height; y++) {
    const row = `80${hex(bitmap.rowBytes)}${[...bitmapRow(bitmap, y)].map(hex).join('')}`;
    if (row === previous && repeats < 255) {
      repeats++;
      continue;
    }
    flush();
    line(row);
    previous = row;
  }
  flush();
  line('FFFF');
  line(`${stx}L`);
  line('D11');
  if (o.darkness !== undefined) line(`H${String(o.darkness).padStart(2, '0')}`);
  if (o.speed !== undefined) line(`P${String.fromCharCode(0x41 + Math.min(25, (o.speed - 1) * 2))}`);
  line(`1Y1100000000000${DPL_IMAGE_NAME}`);
  line(`Q${String(o.copies).padStart(4, '0')}`);
  line('E');
  return out.finish();
}
