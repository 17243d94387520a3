/**
 * Test support shared by the language decoders: what a printer would print from a job, and a byte reader that
 * walks a job the way a printer's parser does (a command line, then exactly the bytes a graphic declares).
 * Independent of src/printers/languages: nothing here calls a writer.
 */
import { createMonoBitmap, setDot, type MonoBitmap } from '../../../src/render/bitmap';

export class LanguageDecodeError extends Error {
  override name = 'LanguageDecodeError';
}

export interface DecodedLabel {
  /** The dots the printer would print, 1 = black, in our bitmap layout. */
  bitmap: MonoBitmap;
  /** Copies the job asks for. */
  copies: number;
  /** Every command seen, in order (name and raw parameters), for tests of settings. */
  commands: { name: string; params: string }[];
}

export class JobReader {
  at = 0;

  constructor(readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  peek(offset = 0): number | undefined {
    return this.bytes[this.at + offset];
  }

  byte(what: string): number {
    const b = this.bytes[this.at];
    if (b === undefined) throw new LanguageDecodeError(`job ends inside ${what}`);
    this.at++;
    return b;
  }

  take(count: number, what: string): Uint8Array {
    if (this.at + count > this.bytes.length) {
      throw new LanguageDecodeError(
        `${what}: ${count} bytes declared, ${this.bytes.length - this.at} left in the job`,
      );
    }
    const out = this.bytes.subarray(this.at, this.at + count);
    this.at += count;
    return out;
  }

  /** ASCII up to (not including) `stop`, which is consumed. */
  until(stop: number, what: string): string {
    let text = '';
    for (;;) {
      const b = this.byte(what);
      if (b === stop) return text;
      text += String.fromCharCode(b);
    }
  }

  /** One command line up to LF; a CR before it is dropped. */
  line(): string {
    const text = this.until(0x0a, 'a command line');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}

/** A decimal whole number parameter, strictly. */
export function int(name: string, text: string | undefined): number {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) {
    throw new LanguageDecodeError(`${name}: expected a whole number, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** Paints packed rows (MSB = leftmost) onto `target` at (x, y); `black` says which bit value prints. */
export function paintRows(
  target: MonoBitmap,
  x0: number,
  y0: number,
  rowBytes: number,
  rows: number,
  data: Uint8Array,
  black: 0 | 1,
): void {
  for (let r = 0; r < rows; r++) {
    const y = y0 + r;
    if (y >= target.height) break;
    for (let b = 0; b < rowBytes; b++) {
      const byte = (data[r * rowBytes + b] ?? 0) ^ (black ? 0 : 0xff);
      if (byte === 0) continue;
      for (let bit = 0; bit < 8; bit++) {
        const x = x0 + b * 8 + bit;
        if (x < target.width && byte & (0x80 >> bit)) setDot(target, x, y, true);
      }
    }
  }
}

export { createMonoBitmap };
