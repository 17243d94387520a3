/**
 * An EPL2 job back to the label a 2844 would print: N clears the image buffer, q sets its width and Q the label
 * length (and gap), each GW x,y,widthBytes,rows,<raw> is painted (0 bit = black), P n prints. Read the way the
 * printer reads: a command line, and for GW exactly widthBytes × rows bytes after the fourth comma. Only the
 * commands src/printers/languages/epl2.ts may send are accepted.
 */
import {
  JobReader,
  LanguageDecodeError,
  createMonoBitmap,
  int,
  paintRows,
  type DecodedLabel,
} from './decoded-label';

export function decodeEpl2(job: Uint8Array): DecodedLabel {
  const reader = new JobReader(job);
  const commands: DecodedLabel['commands'] = [];
  let width: number | undefined;
  let length: number | undefined;
  let label: ReturnType<typeof createMonoBitmap> | undefined;
  let copies: number | undefined;
  const buffer = () => {
    if (width === undefined || length === undefined) throw new LanguageDecodeError('graphic before q and Q');
    label ??= createMonoBitmap(width, length);
    return label;
  };
  while (!reader.done) {
    if (reader.peek() === 0x0a || reader.peek() === 0x0d) {
      reader.at++;
      continue;
    }
    if (copies !== undefined) throw new LanguageDecodeError('bytes after P');
    if (reader.peek() === 0x47 && reader.peek(1) === 0x57) {
      reader.take(2, 'GW');
      const params = [0, 1, 2, 3].map(() => reader.until(0x2c, 'GW parameters'));
      const [x, y, rowBytes, rows] = params.map((p, i) => int(`GW p${i + 1}`, p));
      paintRows(buffer(), x!, y!, rowBytes!, rows!, reader.take(rowBytes! * rows!, 'GW data'), 0);
      commands.push({ name: 'GW', params: params.join(',') });
      continue;
    }
    const text = reader.line();
    const name = text.slice(0, 1);
    const params = text.slice(1);
    commands.push({ name, params });
    switch (name) {
      case 'N':
        label = undefined;
        break;
      case 'q':
        width = int('q', params);
        label = undefined;
        break;
      case 'Q': {
        const [p1, p2 = ''] = params.split(',');
        length = int('Q p1', p1);
        if (!/^B?\d+$/.test(p2))
          throw new LanguageDecodeError(`Q p2: expected a gap, got ${JSON.stringify(p2)}`);
        label = undefined;
        break;
      }
      case 'D':
      case 'S':
        int(name, params);
        break;
      case 'Z':
        if (params !== 'T' && params !== 'B') throw new LanguageDecodeError(`Z${params}: expected ZT or ZB`);
        break;
      case 'P':
        copies = int('P', params);
        break;
      default:
        throw new LanguageDecodeError(`unknown EPL2 command ${JSON.stringify(text.slice(0, 20))}`);
    }
  }
  if (copies === undefined) throw new LanguageDecodeError('job has no P');
  return { bitmap: buffer(), copies, commands };
}
