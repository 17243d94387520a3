/**
 * A TSPL job back to the label a TSC printer would print: SIZE sets the label in inches (or mm), CLS clears it,
 * each BITMAP x,y,widthBytes,height,mode,<raw> is painted (mode 0 overwrite: 0 bit = black), PRINT m,n ends it.
 * Read the way the printer reads: a command line, and for BITMAP exactly width × height bytes after the sixth
 * comma. Only the commands src/printers/languages/tspl.ts may send are accepted; anything else is an error.
 */
import {
  JobReader,
  LanguageDecodeError,
  createMonoBitmap,
  int,
  paintRows,
  type DecodedLabel,
} from './decoded-label';

const KNOWN = new Set(['SIZE', 'GAP', 'BLINE', 'DENSITY', 'SPEED', 'DIRECTION', 'REFERENCE', 'CLS']);

function dimension(name: string, text: string | undefined, dpi: number): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$/.exec(text ?? '');
  if (!m) throw new LanguageDecodeError(`${name}: expected a size, got ${JSON.stringify(text)}`);
  const value = Number(m[1]);
  return Math.round(m[2] ? (value / 25.4) * dpi : value * dpi);
}

export function decodeTspl(job: Uint8Array, dpi: number): DecodedLabel {
  const reader = new JobReader(job);
  const commands: DecodedLabel['commands'] = [];
  let label: ReturnType<typeof createMonoBitmap> | undefined;
  let copies: number | undefined;
  while (!reader.done) {
    if (reader.peek() === 0x0d || reader.peek() === 0x0a) {
      reader.at++;
      continue;
    }
    if (copies !== undefined) throw new LanguageDecodeError('bytes after PRINT');
    const head = new TextDecoder().decode(job.subarray(reader.at, reader.at + 7));
    if (head === 'BITMAP ') {
      reader.take(7, 'BITMAP');
      const params = [0, 1, 2, 3, 4].map(() => reader.until(0x2c, 'BITMAP parameters'));
      const [x, y, width, height, mode] = params.map((p, i) => int(`BITMAP parameter ${i + 1}`, p));
      if (mode !== 0) throw new LanguageDecodeError(`BITMAP mode ${mode}: only 0 (overwrite) is sent`);
      if (!label) throw new LanguageDecodeError('BITMAP before SIZE and CLS');
      const data = reader.take(width! * height!, 'BITMAP data');
      paintRows(label, x!, y!, width!, height!, data, 0);
      commands.push({ name: 'BITMAP', params: params.join(',') });
      continue;
    }
    const text = reader.line();
    const space = text.indexOf(' ');
    const name = space < 0 ? text : text.slice(0, space);
    const params = space < 0 ? '' : text.slice(space + 1);
    commands.push({ name, params });
    if (name === 'PRINT') {
      const [sets, each = '1'] = params.split(',');
      if (int('PRINT m', sets) !== 1) throw new LanguageDecodeError('PRINT: one set expected');
      copies = int('PRINT n', each);
      if (!label) throw new LanguageDecodeError('PRINT before SIZE');
    } else if (!KNOWN.has(name)) {
      throw new LanguageDecodeError(`unknown TSPL command ${JSON.stringify(text.slice(0, 20))}`);
    } else if (name === 'SIZE') {
      const [w, h] = params.split(',');
      label = createMonoBitmap(dimension('SIZE width', w, dpi), dimension('SIZE length', h, dpi));
    } else if (name === 'CLS') {
      if (!label) throw new LanguageDecodeError('CLS before SIZE');
      label.data.fill(0);
    }
  }
  if (!label || copies === undefined) throw new LanguageDecodeError('job has no SIZE or no PRINT');
  return { bitmap: label, copies, commands };
}
