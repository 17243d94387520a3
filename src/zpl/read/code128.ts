/**
 * `^BC` data → Code 128 symbol values the way a Zebra printer reads them (ZPL II guide, ^BC): mode N takes the
 * invocation codes (`>9` `>:` `>;` start in A, B, C; `>5` `>6` `>7` switch to C, B, A; `>8` FNC1; `><` `>0`
 * `>=` the characters `^` `>` `~`); mode A picks the subsets itself; mode U is the UCC case code (19 digits and
 * a mod-10 check, FNC1, subset C); mode D is UCC/EAN-128 (FNC1, the AIs' parentheses left out of the bars).
 */
import { encodeCode128 } from '../../layout/barcode/code128';
import { WIDTHS } from '../../layout/barcode/code128';

const START_A = 103;
const START_B = 104;
const START_C = 105;
const STOP = 106;
const FNC1 = 102;

/** `>x` → its symbol value. */
const INVOCATION: Record<string, number> = {
  '<': 62,
  '0': 30,
  '=': 94,
  '1': 95,
  '2': 96,
  '3': 97,
  '4': 98,
  '5': 99,
  '6': 100,
  '7': 101,
  '8': 102,
};

export interface Code128Symbol {
  /** Bar/space widths in modules, bar first. */
  sbs: number[];
  /** What a scanner reads (FNC1 as GS, the leading one left out). */
  value: string;
  /** The interpretation line. */
  text: string;
  problems: string[];
}

type Subset = 'A' | 'B' | 'C';

export function zplCode128(data: string, mode: string): Code128Symbol {
  switch (mode) {
    case 'A': {
      const text = data.replace(/>./g, (m) => literalOf(m[1] ?? '') ?? '');
      const sbs = /^[\x20-\x7e]+$/.test(text) ? encodeCode128(text) : undefined;
      if (sbs) return { sbs, value: text, text, problems: [] };
      return manual(data, 'B');
    }
    case 'U': {
      const digits = data.replace(/\D/g, '').slice(0, 19).padStart(19, '0');
      const full = digits + mod10(digits);
      const values = [START_C, FNC1, ...pairs(full)];
      return {
        sbs: widthsOf(values),
        value: full,
        text: `(${full.slice(0, 2)}) ${full.slice(2, 3)} ${full.slice(3, 10)} ${full.slice(10, 19)} ${full.slice(19)}`,
        problems: [],
      };
    }
    case 'D': {
      const plain = data.replace(/[()]/g, '').replace(/>8/g, '');
      const body = manual(/^\d\d/.test(plain) && /^\d+$/.test(plain) ? `>;>8${plain}` : `>:>8${plain}`, 'B');
      return { ...body, text: data.replace(/>8/g, '') };
    }
    default:
      return manual(data, 'B');
  }
}

const literalOf = (c: string): string | undefined =>
  c === '<' ? '^' : c === '0' ? '>' : c === '=' ? '~' : undefined;

function manual(data: string, fallback: Subset): Code128Symbol {
  const problems: string[] = [];
  let i = 0;
  let subset: Subset = fallback;
  let start = START_B;
  const head = data.slice(0, 2);
  if (head === '>9' || head === '>:' || head === '>;') {
    subset = head === '>9' ? 'A' : head === '>:' ? 'B' : 'C';
    start = subset === 'A' ? START_A : subset === 'B' ? START_B : START_C;
    i = 2;
  }
  const values = [start];
  let value = '';
  let text = '';
  while (i < data.length) {
    const c = data[i] as string;
    if (c === '>' && i + 1 < data.length) {
      const code = data[i + 1] as string;
      const v = INVOCATION[code];
      i += 2;
      if (v === undefined) {
        problems.push(`unknown invocation >${code} left out.`);
        continue;
      }
      const literal = literalOf(code);
      if (literal !== undefined && subset !== 'C') {
        values.push(v);
        value += literal;
        text += literal;
        continue;
      }
      values.push(v);
      if (v === FNC1) {
        if (values.length > 2) value += '\x1d';
      } else if (v === 99 && subset !== 'C') subset = 'C';
      else if (v === 100 && subset !== 'B') subset = 'B';
      else if (v === 101 && subset !== 'A') subset = 'A';
      continue;
    }
    if (subset === 'C') {
      const pair = data.slice(i, i + 2);
      if (/^\d\d$/.test(pair)) {
        values.push(Number(pair));
        value += pair;
        text += pair;
        i += 2;
        continue;
      }
      // A lone digit or a letter in subset C: the printer goes on in B for it.
      values.push(100);
      subset = 'B';
      continue;
    }
    const code = c.charCodeAt(0);
    const v = subset === 'A' ? (code < 32 ? code + 64 : code - 32) : code - 32;
    if (v < 0 || v > 95 || (subset === 'A' && code > 95)) {
      problems.push(`character ${JSON.stringify(c)} cannot be in subset ${subset}: left out.`);
      i++;
      continue;
    }
    values.push(v);
    value += c;
    text += c;
    i++;
  }
  return { sbs: widthsOf(values), value, text, problems };
}

function widthsOf(values: number[]): number[] {
  const check = values.reduce((sum, v, i) => sum + v * Math.max(i, 1), 0) % 103;
  const sbs: number[] = [];
  for (const v of [...values, check, STOP]) for (const w of WIDTHS[v] ?? []) sbs.push(w);
  return sbs;
}

function pairs(digits: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < digits.length; i += 2) out.push(Number(digits.slice(i, i + 2)));
  return out;
}

/** GS1 mod-10 check digit of a digit string (weights 3, 1 from the right). */
function mod10(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return String((10 - (sum % 10)) % 10);
}
