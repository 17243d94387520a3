/**
 * The PDF file layer: numbered objects, streams, the cross-reference table and the trailer, written by hand.
 * Everything here is ASCII except stream data, so text parts are encoded with a plain char-code loop.
 */
import { concatBytes } from '../../bytes';

/** One object body: PDF syntax, with an optional stream whose dictionary gets /Length added. */
export interface PdfObject {
  /** The dictionary (or any other object) as PDF syntax, e.g. `<< /Type /Page ... >>`. */
  body: string;
  /** Stream data: the dictionary in `body` must be a `<< ... >>` without /Length. */
  stream?: Uint8Array;
}

const ascii = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};

/** Collects objects by number and serialises them as one PDF 1.7 file. */
export class PdfFile {
  private readonly objects: (PdfObject | undefined)[] = [];

  /** Reserves the next object number (objects may refer to each other before they are set). */
  reserve(): number {
    this.objects.push(undefined);
    return this.objects.length;
  }

  set(ref: number, obj: PdfObject): void {
    this.objects[ref - 1] = obj;
  }

  add(obj: PdfObject): number {
    const ref = this.reserve();
    this.set(ref, obj);
    return ref;
  }

  /** The whole file: header, objects in number order, xref, trailer with /Root, /Info and /ID. */
  toBytes(root: number, info: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let size = 0;
    const push = (p: Uint8Array): void => {
      parts.push(p);
      size += p.length;
    };
    // The comment with four bytes above 127 tells transfer programs the file is binary.
    push(ascii('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'));
    const offsets: number[] = [];
    this.objects.forEach((obj, i) => {
      if (!obj) throw new Error(`pdf-direct: object ${i + 1} was reserved but never written`);
      offsets.push(size);
      if (obj.stream) {
        const dict = obj.body.replace(/>>\s*$/, `/Length ${obj.stream.length} >>`);
        push(ascii(`${i + 1} 0 obj\n${dict}\nstream\n`));
        push(obj.stream);
        push(ascii('\nendstream\nendobj\n'));
      } else {
        push(ascii(`${i + 1} 0 obj\n${obj.body}\nendobj\n`));
      }
    });
    const xrefAt = size;
    const count = this.objects.length + 1;
    let xref = `xref\n0 ${count}\n0000000000 65535 f \n`;
    for (const off of offsets) xref += `${String(off).padStart(10, '0')} 00000 n \n`;
    const id = fileId(parts);
    xref += `trailer\n<< /Size ${count} /Root ${root} 0 R /Info ${info} 0 R /ID [<${id}> <${id}>] >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    push(ascii(xref));
    return concatBytes(parts);
  }
}

/**
 * A 16-byte file identifier from the file's own bytes (four FNV-1a lanes): identical documents get identical
 * IDs, so the output stays byte-identical for identical input (golden tests).
 */
function fileId(parts: readonly Uint8Array[]): string {
  const h = [0x811c9dc5, 0x01000193 ^ 0x811c9dc5, 0x12345678, 0x9abcdef0];
  for (const p of parts) {
    // Sampling every 7th byte of long streams keeps this cheap; the header objects are read in full.
    const step = p.length > 4096 ? 7 : 1;
    for (let i = 0; i < p.length; i += step) {
      const b = p[i] ?? 0;
      for (let k = 0; k < 4; k++) h[k] = Math.imul((h[k] ?? 0) ^ (b + k), 0x01000193) >>> 0;
    }
  }
  return h.map((v) => v.toString(16).padStart(8, '0')).join('');
}

/** A number as PDF syntax: at most 4 decimals, never exponent notation, no `-0`. */
export function num(v: number): string {
  const r = Math.round(v * 10000) / 10000;
  if (r === 0) return '0';
  if (Number.isInteger(r)) return String(r);
  const s = String(r);
  return s.includes('e') ? r.toFixed(4).replace(/\.?0+$/, '') : s;
}

/** A text string (Info values, ActualText): literal when printable ASCII, else UTF-16BE hex with BOM. */
export function textString(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `(${s.replace(/[\\()]/g, '\\$&')})`;
  let hex = '<FEFF';
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, '0');
  return `${hex}>`;
}

/** `D:YYYYMMDDHHmmSSZ` in UTC (what pdfkit writes). */
export function pdfDate(d: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `(D:${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(
    d.getUTCMinutes(),
  )}${p(d.getUTCSeconds())}Z)`;
}

export { ascii as asciiBytes };
