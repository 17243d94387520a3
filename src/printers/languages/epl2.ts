/**
 * EPL2 (Zebra/Eltron LP/TLP 2844 and the printers that emulate it), after Zebra's "EPL Programming Guide"
 * (14245L-003, and the older EPL2 Programmer's Manual 980352-001). Commands are ASCII lines ending in LF.
 *
 *   (LF)                      an empty line first, so a half-received command before us is closed
 *   N                         clear the image buffer
 *   q812                      label width in dots
 *   Q1218,24                  label length and gap in dots; Q1218,B24 for a black mark; Q1218,0 continuous
 *   D8                        density 0..15 (~SD 0..30 halved), only when the profile sets one
 *   S4                        speed (the printer's own table of ips values), only when the profile sets one
 *   ZT                        print from the top of the image buffer (the default, said explicitly)
 *   GW0,0,102,1218,<bytes>    direct graphic write: x, y, width in bytes, rows, raw rows
 *   P3                        print three copies
 *
 * GW data (the guide, and Zebra's support note on GW): rows top to bottom, width-in-bytes per row, the most
 * significant bit the leftmost dot, and a 1 bit is white, 0 black — the inverse of our bitmap, so every byte is
 * inverted (padding bits print white). The 980352 manual shows no comma before DATA; Zebra's note says that was
 * an error and the comma is right, which is what is sent.
 */
import type { MonoBitmap } from '../../render/bitmap';
import {
  ByteWriter,
  checkJobOptions,
  scaleDarkness,
  type JobLimits,
  type LabelJobOptions,
} from './job-options';

/** EPL2 printers are 4 in desktop printers (2844: 832 dots at 203 dpi; 3842: 1248 at 300 dpi); Q takes up to 65535. */
export const EPL2_LIMITS: JobLimits = {
  maxWidthDots: (dpi) => Math.round((dpi * 4.16) / 8) * 8,
  maxLengthDots: 65_535,
};

export function writeEpl2Job(bitmap: MonoBitmap, options: LabelJobOptions): Uint8Array {
  const o = checkJobOptions('EPL2', bitmap, options, EPL2_LIMITS);
  const out = new ByteWriter();
  const line = (text: string) => out.ascii(`${text}\n`);
  line('');
  line('N');
  line(`q${o.labelWidthDots}`);
  const gap = o.media === 'continuous' ? '0' : o.media === 'mark' ? `B${o.gapDots}` : `${o.gapDots}`;
  line(`Q${o.labelLengthDots},${gap}`);
  if (o.darkness !== undefined) line(`D${scaleDarkness(o.darkness, 0, 15)}`);
  if (o.speed !== undefined) line(`S${o.speed}`);
  line('ZT');
  out.ascii(`GW0,0,${bitmap.rowBytes},${bitmap.height},`);
  out.bytes(bitmap.data.map((byte) => ~byte & 0xff));
  out.ascii('\n');
  line(`P${o.copies}`);
  return out.finish();
}
