/**
 * TSPL / TSPL2 (TSC, and the Rollo, Munbyn, iDPRT, Xprinter clones that speak it), after the TSC "TSPL/TSPL2
 * Programming Language" manual: SIZE, GAP / BLINE, DENSITY, SPEED, DIRECTION, REFERENCE, CLS, BITMAP, PRINT.
 * Commands are ASCII lines ending in CR LF.
 *
 *   SIZE 4.000,6.000          label width and length in inches (3 decimals: exact to a dot up to 1000 dpi)
 *   GAP 0.118,0               gap between labels; BLINE for a black mark; GAP 0,0 for continuous media
 *   DENSITY 8                 darkness 0..15 (~SD 0..30 halved), only when the profile sets one
 *   SPEED 4                   inches per second, only when the profile sets one (the printer clamps it)
 *   DIRECTION 0 / REFERENCE 0,0 / CLS
 *   BITMAP 0,0,102,1218,0,<bytes>   x, y, width in bytes, height in dots, mode 0 (overwrite), raw rows
 *   PRINT 1,3                 one set of three copies
 *
 * BITMAP data: rows top to bottom, each `width` bytes, the most significant bit the leftmost dot, and a 0 bit
 * prints a black dot (1 = white) — the inverse of our bitmap, so every byte is inverted and the padding bits of
 * the last byte of a row come out white. The manual does not say whether a CR LF must follow the data; a
 * printer reads exactly width × height bytes, so the CR LF sent here is only the end of the command line.
 * Which end of the label leaves the printer first follows DIRECTION (0 is the factory default); clones differ
 * in what they call 0, which the manual cannot settle: the calibration label is the check.
 */
import type { MonoBitmap } from '../../render/bitmap';
import {
  ByteWriter,
  checkJobOptions,
  scaleDarkness,
  type JobLimits,
  type LabelJobOptions,
} from './job-options';

/** TSC's widest desktop/industrial heads are 8.5 in; BITMAP's height is the label's (up to 10,000 dots here). */
export const TSPL_LIMITS: JobLimits = {
  maxWidthDots: (dpi) => Math.round((dpi * 8.5) / 8) * 8,
  maxLengthDots: 10_000,
};

const inches = (dots: number, dpi: number): string => (dots / dpi).toFixed(3);

export function writeTsplJob(bitmap: MonoBitmap, options: LabelJobOptions): Uint8Array {
  const o = checkJobOptions('TSPL', bitmap, options, TSPL_LIMITS);
  const out = new ByteWriter();
  const line = (text: string) => out.ascii(`${text}\r\n`);
  line(`SIZE ${inches(o.labelWidthDots, o.dpi)},${inches(o.labelLengthDots, o.dpi)}`);
  if (o.media === 'continuous') line('GAP 0,0');
  else line(`${o.media === 'mark' ? 'BLINE' : 'GAP'} ${inches(o.gapDots, o.dpi)},0`);
  if (o.darkness !== undefined) line(`DENSITY ${scaleDarkness(o.darkness, 0, 15)}`);
  if (o.speed !== undefined) line(`SPEED ${o.speed}`);
  line('DIRECTION 0');
  line('REFERENCE 0,0');
  line('CLS');
  out.ascii(`BITMAP 0,0,${bitmap.rowBytes},${bitmap.height},0,`);
  out.bytes(bitmap.data.map((byte) => ~byte & 0xff));
  out.ascii('\r\n');
  line(`PRINT 1,${o.copies}`);
  return out.finish();
}
