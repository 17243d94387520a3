/**
 * Our Code 128 encoder (ISO/IEC 15417) for printable ASCII: bwip-js runs BWIPP's PostScript in an emulation,
 * the largest barcode cost in a batch. A label must print the same bars as before, so this makes the code set
 * choices of BWIPP's default ("legacy") encoder; for printable ASCII they always give one of the shortest
 * symbols, and these rules are its picks where several are as short:
 *
 * - start in C when the value begins with 4+ digits, or is exactly 2 digits; otherwise in B (printable ASCII
 *   never needs set A: all of A's printable characters are in B too);
 * - in B, a run of 4+ digits latches to C; an odd run first takes one digit in B so the rest pair up;
 * - in C, a non-digit or a lone last digit of a run latches back to B. BWIPP never shifts for printable ASCII.
 */

/** Bar/space widths of symbol values 0–105 (bar first), then the stop pattern with its final bar. */
const PATTERNS: readonly string[] = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 ' +
  '221312 231212 112232 122132 122231 113222 123122 123221 223211 221132 ' +
  '221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 ' +
  '212123 212321 232121 111323 131123 131321 112313 132113 132311 211313 ' +
  '231113 231311 112133 112331 132131 113123 113321 133121 313121 211331 ' +
  '231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 ' +
  '314111 221411 431111 111224 111422 121124 121421 141122 141221 112214 ' +
  '112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 ' +
  '111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 ' +
  '214121 412121 111143 111341 131141 114113 114311 411113 411311 113141 ' +
  '114131 311141 411131 211412 211214 211232 2331112'
).split(' ');

/** Bar/space widths of every symbol value (bar first), the stop last: also the ZPL reader's (src/zpl/read). */
export const WIDTHS: readonly (readonly number[])[] = PATTERNS.map((p) => Array.from(p, Number));

const CODE_C = 99; // latch to C, as a set B value
const CODE_B = 100; // latch to B, as a set C value
const START_B = 104;
const START_C = 105;
const STOP = 106;

/** BWIPP refuses longer input; leaving it to bwip-js keeps its error message. */
const MAX_LENGTH = 500;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The bar/space widths in modules (bar first: start, data, check symbol, stop) that bwip-js gives for `text`,
 * or undefined for a value this encoder leaves to bwip-js (empty, too long, or not printable ASCII).
 */
export function encodeCode128(text: string): number[] | undefined {
  if (text.length > MAX_LENGTH || !PRINTABLE_ASCII.test(text)) return undefined;
  const values = symbolValues(text);
  values.push(checkValue(values), STOP);
  const sbs: number[] = [];
  for (const v of values) for (const w of WIDTHS[v] ?? []) sbs.push(w);
  return sbs;
}

/** Start symbol and data symbol values, with BWIPP's code set choices (see the top of this file). */
function symbolValues(text: string): number[] {
  const runs = digitRuns(text);
  const first = runs[0] ?? 0;
  let inC = first >= 4 || (first === 2 && text.length === 2);
  const values = [inC ? START_C : START_B];
  for (let i = 0; i < text.length;) {
    const run = runs[i] ?? 0;
    if (inC) {
      if (run >= 2) {
        values.push(Number(text.slice(i, i + 2)));
        i += 2;
        continue;
      }
      values.push(CODE_B);
      inC = false;
    } else if (run >= 4) {
      if (run % 2 === 1) values.push(setBValue(text, i++));
      values.push(CODE_C);
      inC = true;
      continue;
    }
    values.push(setBValue(text, i++));
  }
  return values;
}

/** For each position, how many digits follow from there (itself included). */
function digitRuns(text: string): number[] {
  const runs = new Array<number>(text.length + 1).fill(0);
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) runs[i] = (runs[i + 1] ?? 0) + 1;
  }
  return runs;
}

const setBValue = (text: string, i: number): number => text.charCodeAt(i) - 0x20;

/** Mod-103 check over start and data values; the start symbol weighs 1, like the first data symbol. */
function checkValue(values: readonly number[]): number {
  return values.reduce((sum, v, i) => sum + v * Math.max(i, 1), 0) % 103;
}
