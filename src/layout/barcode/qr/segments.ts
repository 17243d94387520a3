/**
 * The QR data bit stream (ISO/IEC 18004 clause 7.4): the message split into numeric, alphanumeric and byte
 * segments so it takes the fewest bits, each segment a mode indicator, a character count and its data.
 * Works on the UTF-8 bytes of the text (what bwip-js encodes too, without an ECI); numeric and alphanumeric
 * modes only ever take ASCII bytes, so a multi-byte character always stays in byte mode.
 */

export type QrMode = 'numeric' | 'alphanumeric' | 'byte';

/** One segment: bytes [start, end) of the message in one mode. */
export interface QrSegment {
  mode: QrMode;
  start: number;
  end: number;
}

const MODES: readonly QrMode[] = ['byte', 'alphanumeric', 'numeric'];
const MODE_INDICATOR: Readonly<Record<QrMode, number>> = {
  numeric: 0b0001,
  alphanumeric: 0b0010,
  byte: 0b0100,
};
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
/** Alphanumeric value of each ASCII byte, -1 when it has none. */
const ALNUM_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHANUMERIC.length; i++) ALNUM_VALUE[ALPHANUMERIC.charCodeAt(i)] = i;

const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;
const isAlphanumeric = (b: number): boolean => b < 128 && (ALNUM_VALUE[b] ?? -1) >= 0;

/** Bits of the character count field (table 3): they grow at versions 10 and 27. */
export function charCountBits(mode: QrMode, version: number): number {
  const group = version <= 9 ? 0 : version <= 26 ? 1 : 2;
  switch (mode) {
    case 'numeric':
      return [10, 12, 14][group] ?? 14;
    case 'alphanumeric':
      return [9, 11, 13][group] ?? 13;
    case 'byte':
      return [8, 16, 16][group] ?? 16;
  }
}

/**
 * The segmentation of `bytes` with the fewest bits for the character count widths of `version` (one answer per
 * version group): a shortest path over (position, mode) where a mode change costs a new segment header.
 * Costs are in sixths of a bit so a digit (10/3 bits) and an alphanumeric (11/2 bits) are whole numbers.
 */
export function optimalSegments(bytes: Uint8Array, version: number): QrSegment[] {
  const n = bytes.length;
  if (n === 0) return [];
  const head = MODES.map((m) => (4 + charCountBits(m, version)) * 6);
  const perChar = [8 * 6, 33, 20];
  // from[i * 3 + j]: the mode byte i is encoded in when the stream is in mode j after it (-1: impossible).
  const from = new Int8Array(n * 3).fill(-1);
  let prev = [...head];
  for (let i = 0; i < n; i++) {
    const b = bytes[i] ?? 0;
    const cur = [Infinity, Infinity, Infinity];
    const fits = [true, isAlphanumeric(b), isDigit(b)];
    for (let j = 0; j < 3; j++) {
      if (!fits[j]) continue;
      cur[j] = (prev[j] ?? Infinity) + (perChar[j] ?? 0);
      from[i * 3 + j] = j;
    }
    // Switching after byte i: the old segment ends on a whole bit, the new one starts with its header.
    const ended = [...cur];
    for (let to = 0; to < 3; to++) {
      for (let k = 0; k < 3; k++) {
        if (from[i * 3 + k] === -1 || k === to) continue;
        const cost = Math.ceil((ended[k] ?? Infinity) / 6) * 6 + (head[to] ?? 0);
        if (cost < (cur[to] ?? Infinity)) {
          cur[to] = cost;
          from[i * 3 + to] = k;
        }
      }
    }
    prev = cur;
  }
  let mode = 0;
  for (let j = 1; j < 3; j++) if ((prev[j] ?? Infinity) < (prev[mode] ?? Infinity)) mode = j;
  const modeOf = new Int8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    mode = from[i * 3 + mode] ?? 0;
    modeOf[i] = mode;
  }
  const segments: QrSegment[] = [];
  for (let i = 0; i < n;) {
    let end = i + 1;
    while (end < n && modeOf[end] === modeOf[i]) end++;
    segments.push({ mode: MODES[modeOf[i] ?? 0] ?? 'byte', start: i, end });
    i = end;
  }
  return segments;
}

/** Exact bits of `segments` at `version`, headers included; Infinity when a count does not fit its field. */
export function segmentBits(segments: readonly QrSegment[], version: number): number {
  let bits = 0;
  for (const s of segments) {
    const count = s.end - s.start;
    const countBits = charCountBits(s.mode, version);
    if (count >= 1 << countBits) return Infinity;
    bits += 4 + countBits + dataBits(s.mode, count);
  }
  return bits;
}

function dataBits(mode: QrMode, count: number): number {
  switch (mode) {
    case 'numeric':
      return Math.floor(count / 3) * 10 + [0, 4, 7][count % 3]!;
    case 'alphanumeric':
      return Math.floor(count / 2) * 11 + (count % 2) * 6;
    case 'byte':
      return count * 8;
  }
}

/** Appends bits to a byte buffer, most significant first. */
export class BitWriter {
  readonly bytes: Uint8Array;
  length = 0;

  constructor(byteCapacity: number) {
    this.bytes = new Uint8Array(byteCapacity);
  }

  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      if ((value >>> i) & 1) this.bytes[this.length >>> 3]! |= 0x80 >>> (this.length & 7);
      this.length++;
    }
  }
}

/** Write `segments` of `bytes` at `version`: mode indicator, character count, data (clause 7.4.3–7.4.5). */
export function writeSegments(
  out: BitWriter,
  bytes: Uint8Array,
  segments: readonly QrSegment[],
  version: number,
): void {
  for (const s of segments) {
    out.write(MODE_INDICATOR[s.mode], 4);
    out.write(s.end - s.start, charCountBits(s.mode, version));
    switch (s.mode) {
      case 'numeric':
        for (let i = s.start; i < s.end; i += 3) {
          const digits = Math.min(3, s.end - i);
          let value = 0;
          for (let k = 0; k < digits; k++) value = value * 10 + (bytes[i + k]! - 0x30);
          out.write(value, digits * 3 + 1);
        }
        break;
      case 'alphanumeric':
        for (let i = s.start; i < s.end; i += 2) {
          const a = ALNUM_VALUE[bytes[i]!]!;
          if (i + 1 < s.end) out.write(a * 45 + ALNUM_VALUE[bytes[i + 1]!]!, 11);
          else out.write(a, 6);
        }
        break;
      case 'byte':
        for (let i = s.start; i < s.end; i++) out.write(bytes[i]!, 8);
        break;
    }
  }
}
