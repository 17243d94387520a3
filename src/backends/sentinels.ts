/**
 * Sentinel values for template capture: one distinctive value per field, sent in a single fetch-markups call,
 * then looked for in the resolved markup. Designed so that a transform still leaves a trace:
 *  - text sentinels are 12 ASCII letters and digits mixing both cases ("Qm4Tz8Kb2Wx6"), so an upper- or
 *    lower-cased copy is still found (case-insensitively) and recognised as transformed;
 *  - every sentinel's first 6 and last 6 characters are unique among the fields, so a value cut short at
 *    either end is still attributed to its field (and reported as truncated);
 *  - digit sentinels (12 digits, for fields that feed EAN/UPC/ITF barcodes) cannot show case changes.
 */

export type SentinelKind = 'text' | 'digits';

export const SENTINEL_LENGTH = 12;
/** The shortest piece of a sentinel still attributed to its field. */
export const MIN_PARTIAL = 6;

const LOWER = 'abcdefghijkmnpqrstuvwxyz'; // no l, o: easier to read in reports
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ'; // no I, O
const DIGITS = '23456789';

function pick(alphabet: string, random: () => number): string {
  return alphabet[Math.floor(random() * alphabet.length) % alphabet.length] ?? alphabet[0] ?? '';
}

function candidate(kind: SentinelKind, random: () => number): string {
  if (kind === 'digits') {
    let s = pick('123456789', random);
    while (s.length < SENTINEL_LENGTH) s += pick('0123456789', random);
    return s;
  }
  // Upper, lower, digit in turn: every piece of 3+ characters has mixed case.
  const classes = [UPPER, LOWER, DIGITS];
  let s = '';
  for (let i = 0; i < SENTINEL_LENGTH; i++) s += pick(classes[i % 3] as string, random);
  return s;
}

/** One sentinel per field, unique at both ends among the fields (case-insensitively). */
export function makeSentinels(kinds: readonly SentinelKind[], random: () => number = Math.random): string[] {
  const out: string[] = [];
  const ends = new Set<string>();
  for (const kind of kinds) {
    for (let tries = 0; ; tries++) {
      if (tries > 1000) throw new Error('cannot make unique sentinels (is the random source constant?)');
      const s = candidate(kind, random);
      const head = s.slice(0, MIN_PARTIAL).toLowerCase();
      const tail = s.slice(-MIN_PARTIAL).toLowerCase();
      if (ends.has(head) || ends.has(tail) || head === tail) continue;
      ends.add(head);
      ends.add(tail);
      out.push(s);
      break;
    }
  }
  return out;
}

/** How a sentinel showed up in a value. */
export type Appearance =
  | { how: 'exact' }
  | { how: 'case'; transform: 'upper-cased' | 'lower-cased' | 'case-changed' }
  | { how: 'truncated'; kept: 'start' | 'end'; length: number; caseChanged: boolean };

export interface Match {
  /** Index into the sentinel list. */
  field: number;
  start: number;
  end: number;
  appearance: Appearance;
}

function indexesOf(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/**
 * Every appearance of any sentinel in `value`, left to right, without overlaps. Exact matches win over
 * case-changed ones, which win over truncated pieces; longer pieces win over shorter.
 */
export function findSentinels(value: string, sentinels: readonly string[]): Match[] {
  const lower = value.toLowerCase();
  const candidates: (Match & { rank: number })[] = [];
  sentinels.forEach((s, field) => {
    for (const start of indexesOf(value, s))
      candidates.push({
        field,
        start,
        end: start + s.length,
        appearance: { how: 'exact' },
        rank: 3 * 100 + s.length,
      });
    for (const start of indexesOf(lower, s.toLowerCase())) {
      const seen = value.slice(start, start + s.length);
      if (seen === s) continue;
      const transform =
        seen === s.toUpperCase() ? 'upper-cased' : seen === s.toLowerCase() ? 'lower-cased' : 'case-changed';
      candidates.push({
        field,
        start,
        end: start + s.length,
        appearance: { how: 'case', transform },
        rank: 2 * 100 + s.length,
      });
    }
    for (let length = s.length - 1; length >= MIN_PARTIAL; length--) {
      for (const kept of ['start', 'end'] as const) {
        const piece = kept === 'start' ? s.slice(0, length) : s.slice(s.length - length);
        for (const start of indexesOf(lower, piece.toLowerCase())) {
          const caseChanged = value.slice(start, start + length) !== piece;
          candidates.push({
            field,
            start,
            end: start + length,
            appearance: { how: 'truncated', kept, length, caseChanged },
            rank: 100 + length,
          });
        }
      }
    }
  });
  candidates.sort((a, b) => b.rank - a.rank || a.start - b.start);
  const chosen: Match[] = [];
  for (const c of candidates) {
    if (chosen.some((m) => c.start < m.end && m.start < c.end)) continue;
    chosen.push({ field: c.field, start: c.start, end: c.end, appearance: c.appearance });
  }
  return chosen.sort((a, b) => a.start - b.start);
}
