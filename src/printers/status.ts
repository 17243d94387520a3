/**
 * Parsers for what a Zebra answers on its data channel (reference/zpl.md, "Status and settings"): `~HS` host
 * status, `~HI` identification and SGD `getvar` replies. Pure and strict: anything that is not a well-formed
 * answer throws StatusParseError, and no path turns garbage or silence into "ready".
 */
import { dotsPerMmToDpi } from '../units/units';

/** One printer condition, the most important first when several apply. */
export type PrinterState =
  'ready' | 'paper-out' | 'head-open' | 'paused' | 'ribbon-out' | 'buffer-full' | 'offline' | 'unknown';

/** What the user sees for a printer. `ready` only comes from a complete, well-formed ~HS with no fault. */
export interface PrinterStatus {
  state: PrinterState;
  /** Every problem found, for people; empty exactly when `state` is `ready`. */
  reasons: string[];
  /** Formats waiting in the printer's receive buffer (~HS string 1), null when unknown. */
  formatsInBuffer: number | null;
  /** Labels left in the batch being printed (~HS string 2), null when unknown. */
  labelsRemaining: number | null;
  /**
   * The label length the printer works with (~HS string 1), when it answered `~HS`: right after a `~JC`
   * calibration, the length of the labels it measured; after a format, that format's `^LL`.
   */
  labelLengthDots?: number;
}

/** The fields of a `~HS` answer that LabelDesk reads. Flags are the printer's 0/1 as booleans. */
export interface HostStatus {
  paperOut: boolean;
  paused: boolean;
  /** Label length in dots. */
  labelLengthDots: number;
  formatsInBuffer: number;
  bufferFull: boolean;
  diagnosticMode: boolean;
  partialFormat: boolean;
  corruptRam: boolean;
  underTemperature: boolean;
  overTemperature: boolean;
  headUp: boolean;
  ribbonOut: boolean;
  thermalTransfer: boolean;
  /** 0 rewind, 1 peel-off, 2 tear-off, 3 cutter, 4 applicator (and more on newer models). */
  printMode: number;
  /** A printed label waits to be taken (peel-off mode); the next one prints after that. */
  labelWaiting: boolean;
  labelsRemaining: number;
}

/** `~HI`: `MODEL,Vx.y.z,dots_per_mm,memory,options`. */
export interface HostIdentification {
  model: string;
  firmware: string;
  dotsPerMm: number;
  /** As the printer says it, e.g. `8192KB`. */
  memory: string;
  /** Option letters (may be empty). */
  options: string;
}

/** A reply that is not a well-formed answer; `received` is what came, for logs. */
export class StatusParseError extends Error {
  override name = 'StatusParseError';
  constructor(
    message: string,
    readonly received: string,
  ) {
    super(message);
  }
}

const STX = '\u0002';
const ETX = '\u0003';

/** Splits `<STX>...<ETX>` frames, allowing CR/LF (and nothing else) around them. */
export function splitFrames(text: string): string[] {
  const frames: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\r' || ch === '\n') {
      i++;
      continue;
    }
    if (ch !== STX) throw new StatusParseError(`expected <STX> at offset ${i}, got ${describe(ch)}`, text);
    const end = text.indexOf(ETX, i + 1);
    if (end < 0) throw new StatusParseError('frame not closed by <ETX>', text);
    const body = text.slice(i + 1, end);
    if (body.includes(STX)) throw new StatusParseError('<STX> inside a frame', text);
    frames.push(body);
    i = end + 1;
  }
  return frames;
}

/** Whether `received` holds `count` complete frames (request completion test for ~HS: 3, ~HI: 1). */
export function hasFrames(received: Uint8Array, count: number): boolean {
  let seen = 0;
  for (const byte of received) if (byte === 0x03 && ++seen >= count) return true;
  return false;
}

/** Parses the three `~HS` strings. Throws StatusParseError unless all three are well formed. */
export function parseHostStatus(reply: Uint8Array | string): HostStatus {
  const text = asText(reply);
  const frames = splitFrames(text);
  if (frames.length !== 3) throw new StatusParseError(`~HS: expected 3 strings, got ${frames.length}`, text);
  const one = numericFields(frames[0] ?? '', 12, '~HS string 1', text);
  const two = numericFields(frames[1] ?? '', 11, '~HS string 2', text);
  if (!/^\d+,[01]$/.test(frames[2] ?? ''))
    throw new StatusParseError('~HS string 3: expected "password,0|1"', text);
  const flag = (fields: string[], index: number, what: string): boolean => {
    const v = fields[index];
    if (v !== '0' && v !== '1') throw new StatusParseError(`~HS ${what}: expected 0 or 1, got "${v}"`, text);
    return v === '1';
  };
  const num = (fields: string[], index: number): number => Number(fields[index]);
  // String 1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l   String 2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
  return {
    paperOut: flag(one, 1, 'paper out flag'),
    paused: flag(one, 2, 'pause flag'),
    labelLengthDots: num(one, 3),
    formatsInBuffer: num(one, 4),
    bufferFull: flag(one, 5, 'buffer full flag'),
    diagnosticMode: flag(one, 6, 'diagnostic mode flag'),
    partialFormat: flag(one, 7, 'partial format flag'),
    corruptRam: flag(one, 9, 'corrupt RAM flag'),
    underTemperature: flag(one, 10, 'under temperature flag'),
    overTemperature: flag(one, 11, 'over temperature flag'),
    headUp: flag(two, 2, 'head up flag'),
    ribbonOut: flag(two, 3, 'ribbon out flag'),
    thermalTransfer: flag(two, 4, 'thermal transfer flag'),
    printMode: num(two, 5),
    labelWaiting: flag(two, 7, 'label waiting flag'),
    // The 9th field of string 2 (after mmm,n,o,p,q,r,s,t), eight digits.
    labelsRemaining: num(two, 8),
  };
}

/**
 * The user-facing status of a parsed `~HS`. Priority when several conditions hold: head open, paper out,
 * ribbon out, paused, buffer full; corrupt RAM, temperature faults and diagnostic mode give `unknown` (the printer
 * is not printing normally, for a reason outside the main states). Every condition is listed in `reasons`.
 */
export function statusFromHostStatus(hs: HostStatus): PrinterStatus {
  const found: [PrinterState, string][] = [];
  if (hs.headUp) found.push(['head-open', 'print head is open']);
  if (hs.paperOut) found.push(['paper-out', 'out of paper (media)']);
  if (hs.ribbonOut) found.push(['ribbon-out', 'out of ribbon']);
  if (hs.paused) found.push(['paused', 'paused']);
  if (hs.bufferFull) found.push(['buffer-full', 'receive buffer is full']);
  if (hs.overTemperature) found.push(['unknown', 'print head is over temperature']);
  if (hs.underTemperature) found.push(['unknown', 'print head is under temperature']);
  if (hs.corruptRam) found.push(['unknown', 'configuration lost (corrupt RAM)']);
  if (hs.diagnosticMode) found.push(['unknown', 'communications diagnostic mode is on']);
  return {
    state: found[0]?.[0] ?? 'ready',
    reasons: found.map(([, reason]) => reason),
    formatsInBuffer: hs.formatsInBuffer,
    labelsRemaining: hs.labelsRemaining,
    labelLengthDots: hs.labelLengthDots,
  };
}

/**
 * Status from a `~HS` answer, never throwing: a malformed or partial answer is `unknown`. Use
 * `statusFromSilence` when nothing came back at all.
 */
export function interpretHostStatusReply(reply: Uint8Array | string): PrinterStatus {
  if (asText(reply).length === 0) return statusFromSilence();
  try {
    return statusFromHostStatus(parseHostStatus(reply));
  } catch (e) {
    if (!(e instanceof StatusParseError)) throw e;
    return notReady('unknown', `unreadable answer to ~HS: ${e.message}`);
  }
}

/**
 * No answer to `~HS`. Never `ready`: newer Zebra firmware stays silent while media or ribbon is out or the head is
 * open, and a switched-off or hung printer is silent too.
 */
export function statusFromSilence(afterMs?: number): PrinterStatus {
  return notReady(
    'offline',
    `no answer to ~HS${afterMs === undefined ? '' : ` within ${afterMs} ms`} (printer off, hung, or silent because media/ribbon is out or the head is open)`,
  );
}

/** A status that is not ready, with one reason. */
export function notReady(state: Exclude<PrinterState, 'ready'>, reason: string): PrinterStatus {
  return { state, reasons: [reason], formatsInBuffer: null, labelsRemaining: null };
}

/** Parses a `~HI` answer (one `<STX>...<ETX>` frame, or the bare line). */
export function parseHostIdentification(reply: Uint8Array | string): HostIdentification {
  const text = asText(reply);
  const frames = text.includes(STX) ? splitFrames(text) : [text.replace(/[\r\n]+$/, '')];
  if (frames.length !== 1) throw new StatusParseError(`~HI: expected 1 string, got ${frames.length}`, text);
  const fields = (frames[0] ?? '').split(',');
  const [model = '', firmware = '', dpmm = '', memory = '', ...options] = fields;
  if (fields.length < 4)
    throw new StatusParseError(
      `~HI: expected MODEL,VERSION,DOTS_PER_MM,MEMORY[,OPTIONS], got ${fields.length} fields`,
      text,
    );
  if (!/^[\x20-\x7e]+$/.test(model))
    throw new StatusParseError('~HI: model is empty or not printable text', text);
  if (!/^V?\d[\x21-\x7e]*$/.test(firmware))
    throw new StatusParseError(`~HI: "${firmware}" is not a firmware version`, text);
  if (!/^\d{1,2}$/.test(dpmm) || Number(dpmm) < 1)
    throw new StatusParseError(`~HI: dots per mm "${dpmm}" is not a number`, text);
  if (!/^[\x20-\x7e]*$/.test(memory) || !options.every((o) => /^[\x20-\x7e]*$/.test(o))) {
    throw new StatusParseError('~HI: memory or options are not printable text', text);
  }
  return { model, firmware, dotsPerMm: Number(dpmm), memory, options: options.join(',') };
}

/** Print resolutions printers are built with; a dots/mm figure snaps to the nearest. */
export const KNOWN_DPIS = [152, 203, 300, 600] as const;

/** ~HI dots/mm to dpi: 8 → 203, 12 → 300, 24 → 600 (6 → 152 on old models). */
export function dpiFromDotsPerMm(dotsPerMm: number): number {
  const exact = dotsPerMmToDpi(dotsPerMm);
  let best: number = KNOWN_DPIS[0];
  for (const dpi of KNOWN_DPIS) if (Math.abs(dpi - exact) < Math.abs(best - exact)) best = dpi;
  return best;
}

/** An SGD `getvar` answer: the quoted value, or `"?"` for a name the printer does not know. */
export type SgdReply = { kind: 'value'; value: string } | { kind: 'unknown' };

/** Parses `"203"` / `"?"` (surrounding CR/LF allowed). Throws StatusParseError otherwise. */
export function parseSgdReply(reply: Uint8Array | string): SgdReply {
  const text = asText(reply);
  const m = /^[\r\n]*"([^"]*)"[\r\n]*$/.exec(text);
  if (!m) throw new StatusParseError('SGD: expected a quoted value like "203"', text);
  const value = m[1] ?? '';
  return value === '?' ? { kind: 'unknown' } : { kind: 'value', value };
}

/** Whether an SGD answer is complete (both quotes arrived). */
export function isCompleteSgdReply(received: Uint8Array): boolean {
  let quotes = 0;
  for (const byte of received) if (byte === 0x22 && ++quotes >= 2) return true;
  return false;
}

/** Parses the `head.resolution.in_dpi` value (`"203"`). */
export function parseDpiValue(value: string): number {
  if (!/^\d{2,4}$/.test(value) || Number(value) < 100 || Number(value) > 1200) {
    throw new StatusParseError(`head.resolution.in_dpi: "${value}" is not a print resolution`, value);
  }
  return Number(value);
}

function numericFields(frame: string, min: number, what: string, text: string): string[] {
  const fields = frame.split(',');
  if (fields.length < min)
    throw new StatusParseError(`${what}: expected ${min} fields, got ${fields.length}`, text);
  fields.forEach((f, i) => {
    if (!/^\d{1,8}$/.test(f))
      throw new StatusParseError(`${what}: field ${i + 1} "${f}" is not a number`, text);
  });
  return fields;
}

function asText(reply: Uint8Array | string): string {
  if (typeof reply === 'string') return reply;
  // latin1: one char per byte, so offsets in messages are byte offsets and no input fails to decode.
  let text = '';
  for (const byte of reply) text += String.fromCharCode(byte);
  return text;
}

function describe(ch: string | undefined): string {
  return ch === undefined ? 'the end' : `0x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
}
