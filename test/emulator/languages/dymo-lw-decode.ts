/**
 * A DYMO LabelWriter raster job back to the label it would print, read as the LabelWriter reads it: ESC
 * commands (@ reset, h/i mode, c/d/e/g density, B dot tab, D bytes per line, L label length, E form feed) and
 * raster rows, SYN + bytes-per-line raw bytes or ETB + runs (bit 7 black, bits 6..0 length − 1) adding up to
 * exactly bytes-per-line × 8 dots. Each ESC E ends a label; every label must be the same; their count is the
 * copies.
 */
import { JobReader, LanguageDecodeError, createMonoBitmap, type DecodedLabel } from './decoded-label';

export function decodeDymoLw(job: Uint8Array): DecodedLabel {
  const reader = new JobReader(job);
  const commands: DecodedLabel['commands'] = [];
  let bytesPerLine = 84;
  let dotTab = 0;
  let rows: Uint8Array[] = [];
  const labels: Uint8Array[][] = [];
  while (!reader.done) {
    const b = reader.byte('a command');
    if (b === 0x16) {
      rows.push(Uint8Array.from(reader.take(bytesPerLine, 'SYN row')));
    } else if (b === 0x17) {
      const row = new Uint8Array(bytesPerLine);
      let x = 0;
      while (x < bytesPerLine * 8) {
        const run = reader.byte('ETB runs');
        const n = (run & 0x7f) + 1;
        if (x + n > bytesPerLine * 8) throw new LanguageDecodeError('ETB runs longer than the line');
        if (run & 0x80) for (let k = x; k < x + n; k++) row[k >> 3]! |= 0x80 >> (k & 7);
        x += n;
      }
      rows.push(row);
    } else if (b === 0x1b) {
      const c = String.fromCharCode(reader.byte('ESC command'));
      switch (c) {
        case '@':
        case 'h':
        case 'i':
        case 'c':
        case 'd':
        case 'e':
        case 'g':
          commands.push({ name: `ESC ${c}`, params: '' });
          break;
        case 'B':
          dotTab = reader.byte('ESC B');
          commands.push({ name: 'ESC B', params: String(dotTab) });
          break;
        case 'D':
          bytesPerLine = reader.byte('ESC D');
          commands.push({ name: 'ESC D', params: String(bytesPerLine) });
          break;
        case 'L': {
          const [hi, lo] = reader.take(2, 'ESC L');
          commands.push({ name: 'ESC L', params: String((hi! << 8) | lo!) });
          break;
        }
        case 'E':
          labels.push(rows);
          rows = [];
          break;
        default:
          throw new LanguageDecodeError(`unknown command ESC ${c}`);
      }
    } else throw new LanguageDecodeError(`unknown byte 0x${b.toString(16)}`);
  }
  if (rows.length) throw new LanguageDecodeError('rows after the last ESC E: the label would not be fed out');
  const first = labels[0];
  if (!first) throw new LanguageDecodeError('no label (no ESC E)');
  const label = createMonoBitmap((dotTab + bytesPerLine) * 8, first.length);
  first.forEach((row, y) => label.data.set(row, y * label.rowBytes + dotTab));
  for (const other of labels) {
    if (other.length !== first.length || other.some((row, y) => !row.every((v, i) => v === first[y]![i]))) {
      throw new LanguageDecodeError('labels differ: copies must be the same label');
    }
  }
  return { bitmap: label, copies: labels.length, commands };
}
