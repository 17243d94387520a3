/**
 * GS1 element strings as people write them: `(00)350123451234567894(02)05012345678900(37)12(10)ABC123` —
 * Application Identifiers in brackets, each followed by its data — parsed and checked against the AI table
 * (gs1-ais.ts): lengths, digits or characters, check digits (SSCC, GTIN, GLN…: GS1 mod-10), dates, and the AIs
 * that cannot go together. Every problem is reported, one message each, naming the AI.
 *
 * Pure and cheap: it runs per keystroke in the form, per row of a batch and before every encode.
 */
import { gs1CheckDigit } from './check-digits';
import { listBadChars } from './errors';
import {
  AI_ROWS,
  ISO3166_ALPHA2,
  ISO3166_NUMERIC,
  ISO4217_NUMERIC,
  MEASURE_ROWS,
  PREDEFINED_LENGTH_PREFIXES,
} from './gs1-ais';

/** One element string: an AI and its data (check digit completed when that was asked for). */
export interface Gs1Element {
  ai: string;
  data: string;
}

/** A problem with the value, in words for the person who typed it. */
export interface Gs1Problem {
  kind: 'syntax' | 'check-digit';
  message: string;
  /** For `check-digit`: the digit the AI's data should end with. */
  expected?: string;
}

export interface Gs1Options {
  /**
   * An AI that is only a key with its check digit (SSCC, GTIN, GLN, GSIN, GSRN) typed one digit short gets the
   * check digit computed, as a 12-digit EAN-13 does.
   */
  completeCheckDigits?: boolean;
  /**
   * Check that each AI has the AIs it needs with it (a batch/lot needs a GTIN…). GS1 asks it of a symbol that
   * carries a whole item's data (GS1 DataMatrix, GS1 QR); a GS1-128 label often splits the data over symbols.
   */
  requisites?: boolean;
}

export interface Gs1Parsed {
  elements: Gs1Element[];
  problems: Gs1Problem[];
}

/** The group separator (ASCII 29) a scanner sends for FNC1 between element strings. */
export const GS = '\u001d';

type CharSet = 'N' | 'X' | 'Y' | 'Z';
type Check =
  | 'csum'
  | 'date0'
  | 'date'
  | 'date8'
  | 'hhmi'
  | 'hh'
  | 'mi'
  | 'ss'
  | 'yesno'
  | 'piece'
  | 'hyphen'
  | 'zero'
  | 'nonzero'
  | 'winding'
  | 'nozero'
  | 'country'
  | 'country999'
  | 'country2'
  | 'currency'
  | 'gcp'
  | 'csumalpha'
  | 'iban'
  | 'lat'
  | 'long'
  | 'nondigit'
  | 'sex'
  | 'media'
  | 'importer';

interface Part {
  set: CharSet;
  min: number;
  max: number;
  optional: boolean;
  checks: Check[];
}

interface AiSpec {
  ai: string;
  title: string;
  parts: Part[];
  exclusive: string[];
  /** Groups that must each be satisfied by one of their alternatives (AIs that must all be present). */
  requisites: string[][][];
}

// GS1 character sets (GS1 General Specifications, figures 7.11-1 to 7.11-3).
const CSET82 = `!"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;
const CSET39 = '#-/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const CSET64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=';
const CSET32 = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const SET_CHARS: Record<CharSet, string> = { N: '0123456789', X: CSET82, Y: CSET39, Z: CSET64 };
const SET_WORDS: Record<CharSet, string> = {
  N: 'digits only',
  X: `letters A–Z a–z, digits and ! " % & ' * + , - . / : ; < = > ? _ (no spaces, no accents)`,
  Y: 'capital letters, digits and # - /',
  Z: 'letters, digits and - _ =',
};

const CHECKS = new Set<string>([
  'csum',
  'date0',
  'date',
  'date8',
  'hhmi',
  'hh',
  'mi',
  'ss',
  'yesno',
  'piece',
  'hyphen',
  'zero',
  'nonzero',
  'winding',
  'nozero',
  'country',
  'country999',
  'country2',
  'currency',
  'gcp',
  'csumalpha',
  'iban',
  'lat',
  'long',
  'nondigit',
  'sex',
  'media',
  'importer',
]);

function parsePart(text: string): Part {
  const optional = text.startsWith('[');
  const [format = '', ...checks] = text.replace(/^\[|\]$/g, '').split(' ');
  const m = /^([NXYZ])(\d*)(\.\.(\d+))?$/.exec(format);
  if (!m) throw new Error(`GS1 AI table: bad part "${text}"`);
  for (const c of checks) if (!CHECKS.has(c)) throw new Error(`GS1 AI table: unknown check "${c}"`);
  const fixed = m[3] === undefined;
  return {
    set: m[1] as CharSet,
    min: fixed ? Number(m[2]) : Number(m[2] || 1),
    max: fixed ? Number(m[2]) : Number(m[4]),
    optional,
    checks: checks as Check[],
  };
}

const parseRequisites = (text: string | undefined): string[][][] =>
  text ? text.split(' & ').map((group) => group.split('|').map((alt) => alt.split('+'))) : [];

/** The table, by AI (ranges and measures expanded). Built once, on first use. */
let table: Map<string, AiSpec> | undefined;
function aiTable(): Map<string, AiSpec> {
  if (table) return table;
  table = new Map();
  const add = (ai: string, title: string, parts: string, exclusive = '', requisites = ''): void => {
    table?.set(ai, {
      ai,
      title,
      parts: parts.split(', ').map(parsePart),
      exclusive: exclusive ? exclusive.split(' ') : [],
      requisites: parseRequisites(requisites),
    });
  };
  for (const [ai, title, parts, exclusive, requisites] of AI_ROWS) {
    const range = /^(\d+)-(\d+)$/.exec(ai);
    if (!range) {
      add(ai, title, parts, exclusive, requisites);
      continue;
    }
    const width = range[1]?.length ?? 0;
    for (let n = Number(range[1]); n <= Number(range[2]); n++) {
      add(String(n).padStart(width, '0'), title, parts, exclusive, requisites);
    }
  }
  for (const [prefix, title, parts, decimals, exclusive, requisites] of MEASURE_ROWS) {
    for (let n = 0; n <= decimals; n++) {
      const what = n === 0 ? `${title}` : `${title}, ${n} decimal${n > 1 ? 's' : ''}`;
      add(`${prefix}${n}`, what, parts, exclusive, requisites);
    }
  }
  return table;
}

/** Whether an AI's data has a predefined length, so no FNC1 separator follows it. */
export function hasPredefinedLength(ai: string): boolean {
  return PREDEFINED_LENGTH_PREFIXES.has(ai.slice(0, 2));
}

/** What a person calls the AI in a message: `AI (00) SSCC`, or `AI (8040)` where it has no common name. */
export function aiName(ai: string): string {
  const title = aiTable().get(ai)?.title;
  return title ? `AI (${ai}) ${title}` : `AI (${ai})`;
}

/** The value as bwip-js and people write it: `(01)09501101530003(10)ABC`. */
export function gs1Bracketed(elements: readonly Gs1Element[]): string {
  return elements.map((e) => `(${e.ai})${e.data}`).join('');
}

/**
 * The element string a scanner sends (after its symbology identifier): AIs and data run together, a GS after
 * every element string whose length is not predefined, except the last.
 */
export function gs1ElementString(elements: readonly Gs1Element[]): string {
  return elements
    .map((e, i) => e.ai + e.data + (i < elements.length - 1 && !hasPredefinedLength(e.ai) ? GS : ''))
    .join('');
}

/**
 * Parses `(AI)data(AI)data…`. Spaces around the brackets are ignored (people write `(01) 0950… (10) AB1`);
 * anything else that is not the AI's data is a problem. Never throws for any input.
 */
export function parseGs1(raw: string, options: Gs1Options = {}): Gs1Parsed {
  const problems: Gs1Problem[] = [];
  const syntax = (message: string): void => {
    problems.push({ kind: 'syntax', message });
  };
  const text = raw.trim();
  if (!text.startsWith('(')) {
    syntax(
      'GS1 values are Application Identifiers in brackets, each followed by its data, e.g. (01)09501101530003(17)250101.',
    );
    return { elements: [], problems };
  }
  const elements: Gs1Element[] = [];
  let pos = 0;
  while (pos < text.length) {
    // text[pos] is "(" here.
    const close = text.indexOf(')', pos + 1);
    const nextOpen = text.indexOf('(', pos + 1);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      syntax(`the bracket before "${text.slice(pos + 1, pos + 6).trim()}" is not closed.`);
      if (nextOpen < 0) break;
      pos = nextOpen;
      continue;
    }
    const ai = text.slice(pos + 1, close).trim();
    const end = nextOpen < 0 ? text.length : nextOpen;
    const data = text.slice(close + 1, end).trim();
    pos = end;
    const spec = aiTable().get(ai);
    if (!spec) {
      syntax(unknownAi(ai));
      continue;
    }
    const checked = checkData(spec, data, options, problems);
    elements.push({ ai, data: checked });
  }
  checkCombination(elements, options, problems);
  return { elements, problems };
}

function unknownAi(ai: string): string {
  if (ai === '') return 'empty brackets (): an AI is 2 to 4 digits.';
  if (/^\d{4}$/.test(ai)) {
    const measure = MEASURE_ROWS.find(([prefix]) => ai.startsWith(prefix));
    if (measure) {
      return `unknown AI (${ai}): the last digit of (${measure[0]}n) ${measure[1]} is the number of decimals, 0 to ${measure[3]}.`;
    }
  }
  return `unknown AI (${ai}).`;
}

/** Checks one AI's data; pushes at most one problem (the first found). Returns the data, completed if asked. */
function checkData(spec: AiSpec, typed: string, options: Gs1Options, problems: Gs1Problem[]): string {
  const name = aiName(spec.ai);
  const syntax = (message: string): string => {
    problems.push({ kind: 'syntax', message: `${name}: ${message}` });
    return typed;
  };
  if (typed === '') return syntax('no data after the AI.');
  let data = typed;
  const [only] = spec.parts;
  const isKey =
    spec.parts.length === 1 && only?.set === 'N' && only.min === only.max && only.checks[0] === 'csum';
  if (options.completeCheckDigits && isKey && /^\d+$/.test(data) && data.length === only.min - 1) {
    data += gs1CheckDigit(data);
  }
  const lengthProblem = checkLength(spec.parts, data);
  if (lengthProblem) return syntax(lengthProblem);
  let at = 0;
  for (const [i, part] of spec.parts.entries()) {
    const remaining = data.length - at;
    if (remaining === 0 && part.optional) break;
    const required = spec.parts.slice(i + 1).reduce((n, p) => n + (p.optional ? 0 : p.min), 0);
    const take = part.min === part.max ? part.max : Math.min(part.max, remaining - required);
    const value = data.slice(at, at + take);
    const where = spec.parts.length > 1 ? characters(at, at + take) : '';
    const bad = listBadChars(value, (ch) => SET_CHARS[part.set].includes(ch));
    if (bad) {
      const them = where ? ` in ${where}: they take` : ': it takes';
      return syntax(`${bad} cannot be used${them} ${SET_WORDS[part.set]}.`);
    }
    for (const check of part.checks) {
      const problem = runCheck(check, value);
      if (problem === undefined) continue;
      if (typeof problem === 'string') {
        // Most messages quote the value they are about; the few that do not say where it is.
        return syntax(where && /^(cannot|should)/.test(problem) ? `${where} ${problem}` : problem);
      }
      problems.push({
        kind: 'check-digit',
        message: `${name}: ${problem.message}`,
        expected: problem.expected,
      });
      return data;
    }
    at += take;
  }
  return data;
}

/** "characters 1–3" of the data, for a problem in one part of an AI with several. */
function characters(from: number, to: number): string {
  return to - from === 1 ? `character ${from + 1}` : `characters ${from + 1}–${to}`;
}

/** A length the parts cannot make, worded; undefined when the data's length fits. */
function checkLength(parts: readonly Part[], data: string): string | undefined {
  const allDigits = parts.every((p) => p.set === 'N');
  const unit = allDigits ? 'digits' : 'characters';
  const got = `got ${data.length}`;
  const first = parts[0];
  if (parts.length === 1 && first) {
    if (first.min === first.max && data.length !== first.min) return `${first.min} ${unit}, ${got}.`;
    if (data.length > first.max) return `at most ${first.max} ${unit}, ${got}.`;
    return undefined;
  }
  // Several parts: every length a prefix of required parts plus optional ones can make.
  let min = 0;
  let max = 0;
  let variable = false;
  for (const p of parts) {
    if (!p.optional) min += p.min;
    max += p.max;
    if (p.min !== p.max) variable = true;
  }
  if (data.length < min || data.length > max) {
    return `${describe(parts)}, ${got} ${unit}.`;
  }
  if (!variable) {
    // Fixed parts, some optional (7007 harvest date: 6 or 12 digits): only sums of whole parts fit.
    // Required parts come first in every row, so the lengths are the sums up to each optional part.
    const fits = new Set<number>();
    let sum = 0;
    for (const p of parts) {
      sum += p.max;
      if (p.optional || sum === min) fits.add(sum);
    }
    if (!fits.has(data.length)) return `${describe(parts)}, ${got} ${unit}.`;
  }
  return undefined;
}

/** The parts in words: "13 digits, then up to 17 characters (optional)". */
function describe(parts: readonly Part[]): string {
  return parts
    .map((p) => {
      const unit = p.set === 'N' ? 'digits' : 'characters';
      const n =
        p.min === p.max ? `${p.min} ${p.min === 1 ? unit.slice(0, -1) : unit}` : `up to ${p.max} ${unit}`;
      return p.optional ? `optionally ${n}` : n;
    })
    .join(', then ');
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The century of a 2-digit GS1 year: within 49 years ahead or 50 behind 2021 (BWIPP's fixed reference). */
function fullYear(yy: number): number {
  const d = yy - 21;
  return d >= 51 ? 1900 + yy : d <= -50 ? 2100 + yy : 2000 + yy;
}

function dateProblem(
  value: string,
  year: number,
  monthDay: string,
  dayZero: boolean,
  form: string,
): string | undefined {
  const month = Number(monthDay.slice(0, 2));
  const day = Number(monthDay.slice(2, 4));
  if (month < 1 || month > 12)
    return `${value} is not a date: there is no month ${monthDay.slice(0, 2)} (${form}).`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 31);
  if (day === 0 && !dayZero) return `${value} is not a date: day 00 is not allowed here (${form}).`;
  if (day > days) {
    return `${value} is not a date: ${MONTHS[month - 1]} ${year} has ${days} days (${form}).`;
  }
  return undefined;
}

function runCheck(check: Check, v: string): string | { message: string; expected: string } | undefined {
  switch (check) {
    case 'csum': {
      const expected = gs1CheckDigit(v.slice(0, -1));
      const given = v.slice(-1);
      return given === expected
        ? undefined
        : { message: `the check digit should be ${expected}, not ${given}.`, expected };
    }
    case 'date0':
      return dateProblem(v, fullYear(Number(v.slice(0, 2))), v.slice(2, 6), true, 'YYMMDD');
    case 'date':
      return dateProblem(v, fullYear(Number(v.slice(0, 2))), v.slice(2, 6), false, 'YYMMDD');
    case 'date8':
      return dateProblem(v, Number(v.slice(0, 4)), v.slice(4, 8), false, 'YYYYMMDD');
    case 'hhmi':
      if (Number(v.slice(0, 2)) > 23) return `${v} is not a time: there is no hour ${v.slice(0, 2)} (HHMM).`;
      if (Number(v.slice(2, 4)) > 59)
        return `${v} is not a time: there is no minute ${v.slice(2, 4)} (HHMM).`;
      return undefined;
    case 'hh':
      return Number(v) > 23 ? `there is no hour ${v}.` : undefined;
    case 'mi':
      return Number(v) > 59 ? `there is no minute ${v}.` : undefined;
    case 'ss':
      return Number(v) > 59 ? `there is no second ${v}.` : undefined;
    case 'yesno':
      return v === '0' || v === '1' ? undefined : `${v} should be 0 (no) or 1 (yes).`;
    case 'piece': {
      const half = v.length / 2;
      const piece = Number(v.slice(0, half));
      const total = Number(v.slice(half));
      if (piece === 0 || total === 0)
        return `piece ${v.slice(0, half)} of ${v.slice(half)}: neither can be 00.`;
      return piece > total
        ? `piece ${v.slice(0, half)} of ${v.slice(half)}: the piece is beyond the total.`
        : undefined;
    }
    case 'hyphen':
      return v === '-' ? undefined : `only "-" (below zero) may follow the temperature, not "${v}".`;
    case 'zero':
      return v === '0' ? undefined : `should be 0, not ${v}.`;
    case 'nonzero':
      return /^0+$/.test(v) ? `cannot be all zeros.` : undefined;
    case 'winding':
      return v === '0' || v === '1' || v === '9'
        ? undefined
        : `the winding direction is 0, 1 or 9, not ${v}.`;
    case 'nozero':
      return v.startsWith('0') ? 'cannot start with 0.' : undefined;
    case 'country':
      return ISO3166_NUMERIC.has(v)
        ? undefined
        : `${v} is not a country code (ISO 3166 numeric, e.g. 250 France).`;
    case 'country999':
      return v === '999' || ISO3166_NUMERIC.has(v)
        ? undefined
        : `${v} is not a country code (ISO 3166 numeric) or 999.`;
    case 'country2':
      return ISO3166_ALPHA2.has(v) ? undefined : `${v} is not a country code (ISO 3166 alpha-2, e.g. FR).`;
    case 'currency':
      return ISO4217_NUMERIC.has(v)
        ? undefined
        : `${v} is not a currency code (ISO 4217 numeric, e.g. 978 euro).`;
    case 'gcp':
      return /^\d\d/.test(v) ? undefined : 'starts with a GS1 Company Prefix, so with at least 2 digits.';
    case 'csumalpha':
      return alphaCheckProblem(v);
    case 'iban':
      return ibanProblem(v);
    case 'lat':
      return v > '1800000000' ? `${v} is not a latitude (0 to 1800000000: degrees + 90, × 10⁷).` : undefined;
    case 'long':
      return v > '3600000000'
        ? `${v} is not a longitude (0 to 3600000000: degrees + 180, × 10⁷).`
        : undefined;
    case 'nondigit':
      return /^\d+$/.test(v) ? 'needs at least one character that is not a digit.' : undefined;
    case 'sex':
      return '0129'.includes(v) ? undefined : `${v} should be 0, 1, 2 or 9 (ISO/IEC 5218).`;
    case 'media': {
      const n = Number(v);
      return (n >= 1 && n <= 10) || n >= 80 ? undefined : `${v} is not an AIDC media type (01–10, 80–99).`;
    }
    case 'importer':
      return /^[-0-9A-Za-z_]$/.test(v)
        ? undefined
        : `the importer index is a letter, digit, - or _, not "${v}".`;
  }
}

// Weights of the alphanumeric check pair, the rightmost character first (GS1 General Specifications 7.9.5).
const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83];

/** The two check characters of a GMN / MUDI: mod 1021 over CSET 82 values, written in CSET 32. */
function alphaCheckProblem(v: string): { message: string; expected: string } | string | undefined {
  if (v.length < 3) return 'too short for its two check characters.';
  const body = v.slice(0, -2);
  if (body.length > PRIMES.length) return `at most ${PRIMES.length + 2} characters with the check pair.`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    sum += CSET82.indexOf(body.charAt(body.length - 1 - i)) * (PRIMES[i] ?? 0);
  }
  const c = sum % 1021;
  const expected = (CSET32[c >> 5] ?? '') + (CSET32[c & 31] ?? '');
  const given = v.slice(-2);
  return given === expected
    ? undefined
    : { message: `the check characters should be ${expected}, not ${given}.`, expected };
}

/** IBAN: country letters, 2 check digits, then letters and digits; mod 97 of the rearranged number is 1. */
function ibanProblem(v: string): string | undefined {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(v))
    return `${v} is not an IBAN (2 capital letters, 2 check digits, then capital letters and digits).`;
  const moved = v.slice(4) + v.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const n = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of n) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1 ? undefined : `${v} is not an IBAN: its check digits do not match.`;
}

/** Whether `ai` matches `pattern`, `n` standing for any digit (`310n`, `31nn`). */
const matches = (pattern: string, ai: string): boolean =>
  pattern.length === ai.length && [...pattern].every((p, i) => p === 'n' || p === ai[i]);

/** Repeated AIs with different data, AIs that exclude each other, and (if asked) missing requisites. */
function checkCombination(
  elements: readonly Gs1Element[],
  options: Gs1Options,
  problems: Gs1Problem[],
): void {
  const syntax = (message: string): void => {
    problems.push({ kind: 'syntax', message });
  };
  const seen = new Map<string, string>();
  const repeated = new Set<string>();
  for (const e of elements) {
    const before = seen.get(e.ai);
    if (before !== undefined && before !== e.data && !repeated.has(e.ai)) {
      repeated.add(e.ai);
      syntax(`${aiName(e.ai)} is given twice, with different data (${before} and ${e.data}).`);
    }
    seen.set(e.ai, e.data);
  }
  const ais = [...seen.keys()];
  const reported = new Set<string>();
  for (const [i, ai] of ais.entries()) {
    for (const pattern of aiTable().get(ai)?.exclusive ?? []) {
      for (const [j, other] of ais.entries()) {
        if (other === ai || !matches(pattern, other)) continue;
        const [first, second] = i < j ? [ai, other] : [other, ai];
        if (reported.has(`${first} ${second}`)) continue;
        reported.add(`${first} ${second}`);
        syntax(`${aiName(first)} and ${aiName(second)} cannot be in the same symbol.`);
      }
    }
  }
  if (!options.requisites) return;
  const present = (pattern: string): boolean => ais.some((ai) => matches(pattern, ai));
  for (const ai of ais) {
    for (const group of aiTable().get(ai)?.requisites ?? []) {
      if (group.some((alternative) => alternative.every(present))) continue;
      const words = group.map((alt) => alt.map((a) => `(${a})`).join(' with '));
      const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
      syntax(`${aiName(ai)} needs AI ${list} in the same symbol.`);
    }
  }
}
