/**
 * SBPL (SATO), after SATO's "SBPL Programming Reference" (GL408e/GL412e edition, 2009, and the e-series /
 * CL4NX editions): one label is ESC A … ESC Z.
 *
 *   ESC A                     start of the label
 *   ESC A1 VVVV HHHH          media size: label length (V) and width (H) in dots
 *   ESC #E n                  print darkness 1..5 (~SD 0..30 in five steps), only when the profile sets one
 *   ESC CS nn                 print speed in inches per second, only when the profile sets one; which values a
 *                             model takes differs (the reference lists them per model), the printer clamps
 *   ESC V 0000 ESC H 0000     the graphic's top-left corner
 *   ESC GB bbb ccc <bytes>    custom graphic, binary: bbb horizontal and ccc vertical blocks of 8 × 8 dots,
 *                             then ccc × 8 rows of bbb bytes, top row first, MSB the leftmost dot, 1 = black
 *                             (the reference's Appendix C example: an all-ones row prints a black line)
 *   ESC Q n                   copies
 *   ESC Z                     end of the label: print
 *
 * The graphic is whole 8 × 8 blocks, so the label's last rows are padded with white to a multiple of 8 (the
 * media size keeps the label's length). Gap, black mark or continuous media is a printer setting in SBPL (no
 * command in the label), so `media` is not sent. The reference wraps jobs in STX … ETX only for its status
 * protocols 3 and 4; which one a printer runs is its own setting, so neither is sent here.
 */
import type { MonoBitmap } from '../../render/bitmap';
import { ByteWriter, checkJobOptions, type JobLimits, type LabelJobOptions } from './job-options';

/** ESC A1 and ESC V/H take four digits; ESC GB three digits of 8-dot blocks. */
export const SBPL_LIMITS: JobLimits = {
  maxWidthDots: (dpi) => Math.min(999 * 8, Math.round((dpi * 8.5) / 8) * 8),
  maxLengthDots: 7992,
};

const digits = (n: number, width: number) => String(n).padStart(width, '0');

export function writeSbplJob(bitmap: MonoBitmap, options: LabelJobOptions): Uint8Array {
  const o = checkJobOptions('SBPL', bitmap, options, SBPL_LIMITS);
  const esc = '\x1b';
  const blocksAcross = bitmap.rowBytes;
  const blocksDown = Math.ceil(bitmap.height / 8);
  const out = new ByteWriter();
  out.ascii(`${esc}A`);
  out.ascii(`${esc}A1${digits(o.labelLengthDots, 4)}${digits(o.labelWidthDots, 4)}`);
  if (o.darkness !== undefined) out.ascii(`${esc}#E${Math.min(5, 1 + Math.floor(o.darkness / 6))}`);
  if (o.speed !== undefined) out.ascii(`${esc}CS${o.speed}`);
  out.ascii(`${esc}V0000${esc}H0000`);
  out.ascii(`${esc}GB${digits(blocksAcross, 3)}${digits(blocksDown, 3)}`);
  const data = new Uint8Array(blocksAcross * blocksDown * 8);
  data.set(bitmap.data);
  out.bytes(data);
  out.ascii(`${esc}Q${o.copies}${esc}Z`);
  return out.finish();
}
