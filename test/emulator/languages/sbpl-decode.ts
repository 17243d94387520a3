/**
 * An SBPL job back to the label a SATO would print, read as SBPL is read: ESC and a command name, its fixed
 * digits, and for ESC GB exactly bbb × ccc × 8 bytes (bbb, ccc: 8 × 8 blocks across and down, 1 = black). The
 * label is ESC A … ESC Z, its size from ESC A1 (length, then width, four digits each).
 */
import {
  JobReader,
  LanguageDecodeError,
  createMonoBitmap,
  int,
  paintRows,
  type DecodedLabel,
} from './decoded-label';

export function decodeSbpl(job: Uint8Array): DecodedLabel {
  const reader = new JobReader(job);
  const commands: DecodedLabel['commands'] = [];
  const digits = (n: number, what: string) => int(what, new TextDecoder().decode(reader.take(n, what)));
  /** Digits up to the next ESC (ESC Q, ESC CS). */
  const number = (what: string) => {
    let text = '';
    while (!reader.done && reader.peek() !== 0x1b) text += String.fromCharCode(reader.byte(what));
    return int(what, text);
  };
  let label: ReturnType<typeof createMonoBitmap> | undefined;
  let started = false;
  let copies: number | undefined;
  let v = 0;
  let h = 0;
  let ended = false;
  while (!reader.done) {
    if (ended) throw new LanguageDecodeError('bytes after ESC Z');
    if (reader.byte('ESC') !== 0x1b) throw new LanguageDecodeError('expected ESC');
    const c = String.fromCharCode(reader.byte('command'));
    if (c === 'A' && reader.peek() === 0x31) {
      reader.at++;
      const length = digits(4, 'ESC A1 length');
      label = createMonoBitmap(digits(4, 'ESC A1 width'), length);
      commands.push({ name: 'A1', params: `${length},${label.width}` });
    } else if (c === 'A') {
      started = true;
    } else if (!started) {
      throw new LanguageDecodeError(`ESC ${c} before ESC A`);
    } else if (c === '#') {
      if (reader.byte('#E') !== 0x45) throw new LanguageDecodeError('ESC # without E');
      commands.push({ name: '#E', params: String(digits(1, 'ESC #E')) });
    } else if (c === 'C') {
      if (reader.byte('CS') !== 0x53) throw new LanguageDecodeError('ESC C without S');
      commands.push({ name: 'CS', params: String(number('ESC CS')) });
    } else if (c === 'V') v = digits(4, 'ESC V');
    else if (c === 'H') h = digits(4, 'ESC H');
    else if (c === 'G') {
      if (reader.byte('GB') !== 0x42) throw new LanguageDecodeError('only ESC GB (binary) is sent');
      const across = digits(3, 'ESC GB bbb');
      const down = digits(3, 'ESC GB ccc');
      if (!label) throw new LanguageDecodeError('ESC GB before ESC A1');
      paintRows(label, h, v, across, down * 8, reader.take(across * down * 8, 'ESC GB data'), 1);
      commands.push({ name: 'GB', params: `${across},${down}` });
    } else if (c === 'Q') copies = number('ESC Q');
    else if (c === 'Z') ended = true;
    else throw new LanguageDecodeError(`unknown command ESC ${c}`);
  }
  if (!ended || !label || copies === undefined)
    throw new LanguageDecodeError('no complete ESC A … ESC Q … ESC Z label');
  return { bitmap: label, copies, commands };
}
