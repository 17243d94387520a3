/**
 * A Brother QL raster job back to the label the printer would print, read as the QL reads it: the invalidate
 * NULs, ESC @, then per page ESC i a / z / M / A / K / d, M (compression), raster lines `g 00 n <PackBits>` or
 * `Z`, and FF (more pages) or Control-Z (the last). Each line expands to the whole head (720 pins on 62 mm
 * media, 1296 on 102 mm), and is un-mirrored out of the print area after the offset pins (the manual's
 * "raster line" figure). Every page must be the same label; their count is the copies.
 */
import { cropMonoBitmap } from '../../../src/render/bitmap';
import { JobReader, LanguageDecodeError, createMonoBitmap, type DecodedLabel } from './decoded-label';

const HEADS: Record<number, { pins: number; offset: number; area: number }> = {
  62: { pins: 720, offset: 12, area: 696 },
  102: { pins: 1296, offset: 12, area: 1164 },
};

/** PackBits back to bytes (independent of the writer's encoder). */
export function unpackBits(data: Uint8Array, size: number): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < data.length) {
    const n = data[i++]!;
    if (n < 128) {
      for (let k = 0; k <= n; k++) out.push(data[i++]!);
    } else if (n > 128) {
      const b = data[i++]!;
      for (let k = 0; k < 257 - n; k++) out.push(b);
    }
  }
  if (out.length !== size)
    throw new LanguageDecodeError(`raster line expands to ${out.length} bytes, not ${size}`);
  return Uint8Array.from(out);
}

export function decodeBrotherQl(job: Uint8Array): DecodedLabel {
  const reader = new JobReader(job);
  const commands: DecodedLabel['commands'] = [];
  let nuls = 0;
  while (reader.peek() === 0) {
    reader.at++;
    nuls++;
  }
  if (nuls < 200) throw new LanguageDecodeError(`${nuls} invalidate NULs, the manual asks for at least 200`);
  if (reader.byte('ESC @') !== 0x1b || reader.byte('ESC @') !== 0x40)
    throw new LanguageDecodeError('no ESC @');
  const pages: { lines: Uint8Array[]; head: (typeof HEADS)[number]; rasterCount: number }[] = [];
  let head: (typeof HEADS)[number] | undefined;
  let rasterCount = 0;
  let compressed = false;
  let lines: Uint8Array[] = [];
  let ended = false;
  while (!reader.done) {
    if (ended) throw new LanguageDecodeError('bytes after Control-Z');
    const b = reader.byte('a command');
    if (b === 0x1b) {
      if (reader.byte('ESC i') !== 0x69) throw new LanguageDecodeError('ESC without i');
      const c = String.fromCharCode(reader.byte('ESC i command'));
      if (c === 'z') {
        const n = reader.take(10, 'ESC i z');
        head = HEADS[n[2]!];
        if (!head) throw new LanguageDecodeError(`media width ${n[2]} mm: not a QL media this decoder knows`);
        rasterCount = n[4]! | (n[5]! << 8) | (n[6]! << 16) | (n[7]! << 24);
        commands.push({ name: 'ESC i z', params: [...n].join(',') });
      } else if (c === 'a' || c === 'M' || c === 'A' || c === 'K') {
        commands.push({ name: `ESC i ${c}`, params: String(reader.byte(`ESC i ${c}`)) });
      } else if (c === 'd') {
        const m = reader.take(2, 'ESC i d');
        commands.push({ name: 'ESC i d', params: String(m[0]! | (m[1]! << 8)) });
      } else throw new LanguageDecodeError(`unknown command ESC i ${c}`);
    } else if (b === 0x4d) {
      compressed = reader.byte('M') === 0x02;
    } else if (b === 0x67 || b === 0x5a) {
      if (!head) throw new LanguageDecodeError('raster line before ESC i z');
      const size = head.pins / 8;
      if (b === 0x5a) lines.push(new Uint8Array(size));
      else {
        if (reader.byte('g') !== 0) throw new LanguageDecodeError('g: second byte must be 00');
        const data = reader.take(reader.byte('g length'), 'g data');
        lines.push(
          compressed ? unpackBits(data, size) : Uint8Array.from({ length: size }, (_, i) => data[i] ?? 0),
        );
      }
    } else if (b === 0x0c || b === 0x1a) {
      if (!head) throw new LanguageDecodeError('print before ESC i z');
      if (lines.length !== rasterCount) {
        throw new LanguageDecodeError(
          `ESC i z said ${rasterCount} raster lines, the page has ${lines.length}`,
        );
      }
      pages.push({ lines, head, rasterCount });
      lines = [];
      ended = b === 0x1a;
    } else throw new LanguageDecodeError(`unknown byte 0x${b.toString(16)}`);
  }
  if (!ended) throw new LanguageDecodeError('job does not end with Control-Z');
  const first = pages[0]!;
  const label = createMonoBitmap(first.head.area, first.lines.length);
  first.lines.forEach((line, y) => {
    for (let x = 0; x < first.head.area; x++) {
      const pin = first.head.offset + first.head.area - 1 - x;
      if (line[pin >> 3]! & (0x80 >> (pin & 7)))
        label.data[y * label.rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  });
  for (const page of pages) {
    if (page.lines.some((line, y) => !line.every((v, i) => v === first.lines[y]![i]))) {
      throw new LanguageDecodeError('pages differ: copies must be the same label');
    }
  }
  return { bitmap: label, copies: pages.length, commands };
}

export { cropMonoBitmap };
