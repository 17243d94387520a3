/**
 * ^SN and ^SF serialisation (issue #33): the value a serialised field prints on each copy ^PQ asks for, by the
 * ZPL II guide's rules.
 *
 * - `^SNv,n,z`: the right-most run of digits of v (at most 12 of them) is a counter that changes by n (a minus
 *   sign decrements) from one copy to the next; the text around it stays. z = Y adds leading zeros so the
 *   counter keeps the width it was written with; N (the default) adds none.
 * - `^SFa,b` on a `^FD` string: the mask a is aligned with the data's last character; each mask character gives
 *   its position's digits (D decimal, H hexadecimal, O octal, A letters with A as zero, N 0–9 then A–Z, `%` a
 *   position left alone). The increment b, aligned the same way, is added per copy; a carry moves to the next
 *   position on the left that is not `%`. A character that is not one of its position's digits counts as zero.
 */

export type SerialRule =
  { kind: 'SN'; step: bigint; pad: boolean } | { kind: 'SF'; mask: string; increment: string };

/** ^SN's parameters: the starting value is the field's data; the rule is the step and the padding. */
export function snRule(step: string | undefined, pad: string | undefined): SerialRule {
  const s = (step ?? '').trim();
  const digits = /^([+-]?)(\d{1,12})/.exec(s);
  const value = digits ? BigInt(digits[2] as string) * (digits[1] === '-' ? -1n : 1n) : 1n;
  return { kind: 'SN', step: value, pad: (pad ?? '').trim().toUpperCase() === 'Y' };
}

export function sfRule(mask: string | undefined, increment: string | undefined): SerialRule | undefined {
  const m = mask ?? '';
  if (!m) return undefined;
  return { kind: 'SF', mask: m, increment: increment === undefined || increment === '' ? '1' : increment };
}

/** The data of copy `copy` (0 = the first, which prints the data as written). */
export function serialValue(data: string, rule: SerialRule, copy: number): string {
  if (copy <= 0) return data;
  return rule.kind === 'SN' ? snValue(data, rule, copy) : sfValue(data, rule, copy);
}

function snValue(data: string, rule: Extract<SerialRule, { kind: 'SN' }>, copy: number): string {
  const run = /(\d{1,12})(?=\D*$)/.exec(data);
  if (!run) return data;
  const digits = run[1] as string;
  const width = digits.length;
  const modulus = 10n ** BigInt(Math.max(width, 12));
  let value = (BigInt(digits) + rule.step * BigInt(copy)) % modulus;
  if (value < 0n) value += modulus;
  let text = value.toString();
  if (rule.pad) text = text.padStart(width, '0');
  return data.slice(0, run.index) + text + data.slice(run.index + width);
}

interface Place {
  radix: number;
  /** The digit's value, or -1 when the character is not one of the position's digits. */
  value: (c: string) => number;
  char: (v: number, like: string) => string;
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function placeOf(maskChar: string): Place | undefined {
  const upper = (v: number, like: string, digits: string) => {
    const c = digits[v] ?? '0';
    return like === like.toLowerCase() && like !== like.toUpperCase() ? c.toLowerCase() : c;
  };
  switch (maskChar.toUpperCase()) {
    case 'D':
      return { radix: 10, value: (c) => ALNUM.slice(0, 10).indexOf(c), char: (v) => ALNUM[v] ?? '0' };
    case 'O':
      return { radix: 8, value: (c) => ALNUM.slice(0, 8).indexOf(c), char: (v) => ALNUM[v] ?? '0' };
    case 'H':
      return {
        radix: 16,
        value: (c) => ALNUM.slice(0, 16).indexOf(c.toUpperCase()),
        char: (v, like) => upper(v, like, ALNUM),
      };
    case 'A': {
      const letters = ALNUM.slice(10);
      return {
        radix: 26,
        value: (c) => letters.indexOf(c.toUpperCase()),
        char: (v, like) => upper(v, like, letters),
      };
    }
    case 'N':
      return {
        radix: 36,
        value: (c) => ALNUM.indexOf(c.toUpperCase()),
        char: (v, like) => upper(v, like, ALNUM),
      };
    default:
      return undefined;
  }
}

function sfValue(data: string, rule: Extract<SerialRule, { kind: 'SF' }>, copy: number): string {
  const chars = [...data];
  const mask = [...rule.mask];
  const inc = [...rule.increment];
  // Positions from the right: the data's last character is mask's last.
  const places: Array<{ at: number; place: Place; inc: number }> = [];
  for (let i = 1; i <= mask.length && i <= chars.length; i++) {
    const place = placeOf(mask[mask.length - i] as string);
    if (!place) continue;
    const incChar = inc[inc.length - i];
    const incValue = incChar === undefined ? 0 : Math.max(0, place.value(incChar));
    places.push({ at: chars.length - i, place, inc: incValue });
  }
  if (!places.length) return data;
  const values = places.map(({ at, place }) => Math.max(0, place.value(chars[at] as string)));
  for (let n = 0; n < copy; n++) {
    let carry = 0;
    for (let k = 0; k < places.length; k++) {
      const { place, inc: step } = places[k] as (typeof places)[number];
      const sum = (values[k] as number) + step + carry;
      values[k] = sum % place.radix;
      carry = Math.floor(sum / place.radix);
    }
  }
  places.forEach(({ at, place }, k) => {
    chars[at] = place.char(values[k] as number, chars[at] as string);
  });
  return chars.join('');
}
