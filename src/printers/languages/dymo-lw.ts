/**
 * DYMO LabelWriter 400/450 series raster, after DYMO's "LabelWriter 450 Series Technical Reference Manual"
 * (and the LabelWriter SE450 Technical Reference for ETB): 300 dpi, 672-dot head (LabelWriter 4XL: 1248).
 *
 *   ESC @                     reset to the power-on settings
 *   ESC h                     text mode: 300 × 300 dpi (ESC i would be 300 × 600, rows half as tall)
 *   ESC c / d / e / g         density light, medium, normal, dark (~SD 0..30 in four steps), only when set
 *   ESC B 0                   dot tab: rows start at the head's left edge
 *   ESC D n                   bytes per line (the label's row bytes)
 *   ESC L n1 n2               label length in dot lines (most significant byte first), so the printer feeds to
 *                             the next label's top even on media without a hole it can see
 *   per row:  SYN d1..dn      n raw bytes, 1 = black, MSB the leftmost dot
 *         or  ETB c1..ck      the same row run-length coded: bit 7 the colour (1 = black), bits 6..0 the run
 *                             length − 1; the runs add up to exactly n × 8 dots (the manual's rule)
 *   ESC E                     form feed to the top of the next label (after each copy)
 *
 * The shorter of SYN and ETB is sent for each row. The manual says rows print in the order received (the first
 * at the label's leading edge); it does not say which side of the head is "left" as the label comes out — the
 * calibration label is the check. Speed is the printer's own (ESC h is its text-quality speed); not sent.
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

export const DYMO_LW_LIMITS: JobLimits = { maxWidthDots: () => 1248, maxLengthDots: 65_535 };

/** A row as ETB runs (only called with rows whose padding bits are white). */
export function dymoRuns(row: Uint8Array, bits: number): number[] {
  const runs: number[] = [];
  let x = 0;
  while (x < bits) {
    const black = ((row[x >> 3] ?? 0) & (0x80 >> (x & 7))) !== 0;
    let n = 1;
    while (n < 128 && x + n < bits && (((row[(x + n) >> 3] ?? 0) & (0x80 >> ((x + n) & 7))) !== 0) === black)
      n++;
    runs.push((black ? 0x80 : 0) | (n - 1));
    x += n;
  }
  return runs;
}

export function writeDymoLwJob(bitmap: MonoBitmap, options: LabelJobOptions): Uint8Array {
  const o = checkJobOptions('DYMO LabelWriter', bitmap, options, DYMO_LW_LIMITS);
  if (o.dpi !== 300) {
    throw new LanguageJobError(
      `DYMO LabelWriter printers print at 300 dpi; this label was drawn at ${o.dpi} dpi`,
    );
  }
  const rowBytes = bitmap.rowBytes;
  const rows: Uint8Array[] = [];
  for (let y = 0; y < bitmap.height; y++) {
    const row = bitmapRow(bitmap, y);
    const runs = dymoRuns(row, rowBytes * 8);
    rows.push(runs.length < rowBytes ? Uint8Array.from([0x17, ...runs]) : Uint8Array.from([0x16, ...row]));
  }
  const out = new ByteWriter();
  out.bytes([0x1b, 0x40, 0x1b, 0x68]);
  if (o.darkness !== undefined)
    out.bytes([0x1b, [0x63, 0x64, 0x65, 0x67][Math.min(3, Math.floor(o.darkness / 8))]!]);
  out.bytes([0x1b, 0x42, 0x00, 0x1b, 0x44, rowBytes]);
  out.bytes([0x1b, 0x4c, (o.labelLengthDots >> 8) & 0xff, o.labelLengthDots & 0xff]);
  for (let copy = 0; copy < o.copies; copy++) {
    for (const row of rows) out.bytes(row);
    out.bytes([0x1b, 0x45]);
  }
  return out.finish();
}
