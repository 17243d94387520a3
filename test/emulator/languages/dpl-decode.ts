/**
 * A DPL job back to the label a Datamax would print, read as DPL is read: CR-ended records; STX system commands
 * (e, r, c nnnn; I to download an image, followed by its 7-bit ASCII records `80 nn <hex>`, `0000FF nn`
 * repeats and the `FFFF` terminator); STX L opens a label format whose records (D11, H, P, the image record
 * `1Y11000rrrrccccNAME`, Q, E) are read up to E. The image is placed with its lower-left corner at the record's
 * row (counted up from the label's bottom) and column; the label is as long as the continuous length or the
 * image.
 */
import { cropMonoBitmap } from '../../../src/render/bitmap';
import {
  JobReader,
  LanguageDecodeError,
  createMonoBitmap,
  int,
  paintRows,
  type DecodedLabel,
} from './decoded-label';

export function decodeDpl(job: Uint8Array, dpi: number): DecodedLabel {
  const reader = new JobReader(job);
  const commands: DecodedLabel['commands'] = [];
  const images = new Map<string, { rowBytes: number; rows: Uint8Array[] }>();
  let lengthDots: number | undefined;
  let placed: { name: string; row: number; column: number } | undefined;
  let copies: number | undefined;
  let ended = false;
  const record = () => reader.until(0x0d, 'a record');
  while (!reader.done) {
    if (ended) throw new LanguageDecodeError('bytes after E');
    if (reader.byte('STX') !== 0x02) throw new LanguageDecodeError('expected STX');
    const c = String.fromCharCode(reader.byte('system command'));
    if (c === 'e' || c === 'r') commands.push({ name: `STX ${c}`, params: '' });
    else if (c === 'c') {
      const text = record();
      lengthDots = Math.round((int('STX c', text) / 100) * dpi);
      commands.push({ name: 'STX c', params: text });
    } else if (c === 'I') {
      const head = record();
      const m = /^([A-Z])A?F(.{1,16})$/.exec(head);
      if (!m) throw new LanguageDecodeError(`STX I${head}: only 7-bit Datamax images (F) are read`);
      const rows: Uint8Array[] = [];
      let rowBytes = 0;
      for (;;) {
        const r = record();
        if (r === 'FFFF') break;
        if (r.startsWith('0000FF')) {
          const last = rows.at(-1);
          if (!last) throw new LanguageDecodeError('repeat record before any row');
          for (let k = 0; k < parseInt(r.slice(6), 16); k++) rows.push(last);
        } else if (r.startsWith('80')) {
          const n = parseInt(r.slice(2, 4), 16);
          if (r.length !== 4 + 2 * n)
            throw new LanguageDecodeError(`row record of ${n} bytes has ${(r.length - 4) / 2}`);
          rows.push(Uint8Array.from({ length: n }, (_, i) => parseInt(r.slice(4 + 2 * i, 6 + 2 * i), 16)));
          rowBytes = Math.max(rowBytes, n);
        } else throw new LanguageDecodeError(`unknown image record ${JSON.stringify(r.slice(0, 10))}`);
      }
      images.set(m[2]!, { rowBytes, rows });
    } else if (c === 'L') {
      record();
      for (;;) {
        const r = record();
        commands.push({ name: r.slice(0, 1), params: r.slice(1) });
        if (r === 'E') {
          ended = true;
          break;
        }
        const image = /^1Y11000(\d{4})(\d{4})(.+)$/.exec(r);
        if (image) placed = { row: int('row', image[1]), column: int('column', image[2]), name: image[3]! };
        else if (r.startsWith('Q')) copies = int('Q', r.slice(1));
        else if (!/^(D11|H\d\d|P[A-Z])$/.test(r)) throw new LanguageDecodeError(`unknown format record ${r}`);
      }
    } else throw new LanguageDecodeError(`unknown command STX ${c}`);
  }
  if (!ended || !placed || copies === undefined)
    throw new LanguageDecodeError('no complete STX L … E format');
  const image = images.get(placed.name);
  if (!image) throw new LanguageDecodeError(`the format prints image ${placed.name}, never downloaded`);
  const length = lengthDots ?? placed.row + image.rows.length;
  const label = createMonoBitmap(placed.column + image.rowBytes * 8, length);
  const data = new Uint8Array(image.rowBytes * image.rows.length);
  image.rows.forEach((row, y) => data.set(row, y * image.rowBytes));
  paintRows(
    label,
    placed.column,
    length - placed.row - image.rows.length,
    image.rowBytes,
    image.rows.length,
    data,
    1,
  );
  return { bitmap: cropMonoBitmap(label, label.width, length), copies, commands };
}
