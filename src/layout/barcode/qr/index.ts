/**
 * Our QR code encoder (ISO/IEC 18004:2015, model 2, versions 1–40, levels L/M/Q/H): bwip-js evaluates the masks
 * in its PostScript emulation at 3–6 ms a symbol, which dominated a batch of shipping labels; this takes about
 * a fifteenth of that. Like bwip-js it encodes the UTF-8 bytes of the text without an ECI, splits them into
 * numeric, alphanumeric and byte segments, picks the smallest version that holds them at the level asked, and
 * then raises the level as far as that version still holds them (bwip-js does too: more protection, same size).
 */
import { buildMatrix } from './matrix';
import { reedSolomonRemainder } from './reed-solomon';
import { BitWriter, optimalSegments, segmentBits, writeSegments, type QrSegment } from './segments';
import {
  dataCodewords,
  ecBlocks,
  ecCodewordsPerBlock,
  MAX_VERSION,
  MIN_VERSION,
  symbolSize,
  totalCodewords,
  type QrEcLevel,
} from './tables';

export type { QrEcLevel } from './tables';

/** A QR symbol without its quiet zone. */
export interface QrSymbol {
  version: number;
  level: QrEcLevel;
  /** Modules per side (version × 4 + 17). */
  size: number;
  /** Row-major `size * size`, 1 = dark. */
  modules: Uint8Array;
}

const utf8 = new TextEncoder();

const LEVELS_UP: readonly QrEcLevel[] = ['L', 'M', 'Q', 'H'];

/**
 * Encode `text` in the smallest version that holds it at error correction `level` (at least; see above), or
 * undefined when even version 40 is too small (the caller words that for the user).
 */
export function encodeQr(text: string, level: QrEcLevel): QrSymbol | undefined {
  const bytes = utf8.encode(text);
  let segments: QrSegment[] = [];
  for (let version = MIN_VERSION; version <= MAX_VERSION; version++) {
    // Character count fields widen at versions 10 and 27, which can change the best segmentation.
    if (version === 1 || version === 10 || version === 27) segments = optimalSegments(bytes, version);
    const bits = segmentBits(segments, version);
    if (bits > dataCodewords(version, level) * 8) continue;
    let boosted = level;
    for (const higher of LEVELS_UP.slice(LEVELS_UP.indexOf(level) + 1)) {
      if (bits <= dataCodewords(version, higher) * 8) boosted = higher;
    }
    const data = dataStream(bytes, segments, version, dataCodewords(version, boosted));
    const modules = buildMatrix(version, boosted, withErrorCorrection(data, version, boosted));
    return { version, level: boosted, size: symbolSize(version), modules };
  }
  return undefined;
}

/** Segments, terminator, zero bits to a whole byte, then the pad codewords 0xEC 0x11 … (clause 7.4.9–7.4.10). */
function dataStream(
  bytes: Uint8Array,
  segments: readonly QrSegment[],
  version: number,
  capacity: number,
): Uint8Array {
  const out = new BitWriter(capacity);
  writeSegments(out, bytes, segments, version);
  out.write(0, Math.min(4, capacity * 8 - out.length));
  out.write(0, (8 - (out.length % 8)) % 8);
  for (let i = out.length / 8, pad = 0xec; i < capacity; i++, pad ^= 0xec ^ 0x11) out.bytes[i] = pad;
  return out.bytes;
}

/**
 * Split the data codewords into the version's blocks (the later ones one codeword longer when they do not divide
 * evenly), add each block's Reed-Solomon codewords, and interleave: data column by column, then EC (clause 7.6).
 */
function withErrorCorrection(data: Uint8Array, version: number, level: QrEcLevel): Uint8Array {
  const blocks = ecBlocks(version, level);
  const ecLength = ecCodewordsPerBlock(version, level);
  const total = totalCodewords(version);
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecLength;
  const dataBlocks: Uint8Array[] = [];
  const ecParts: Uint8Array[] = [];
  for (let b = 0, at = 0; b < blocks; b++) {
    const length = shortData + (b < shortBlocks ? 0 : 1);
    const block = data.subarray(at, at + length);
    at += length;
    dataBlocks.push(block);
    ecParts.push(reedSolomonRemainder(block, ecLength));
  }
  const result = new Uint8Array(total);
  let k = 0;
  for (let i = 0; i <= shortData; i++) {
    for (const block of dataBlocks) if (i < block.length) result[k++] = block[i] ?? 0;
  }
  for (let i = 0; i < ecLength; i++) {
    for (const ec of ecParts) result[k++] = ec[i] ?? 0;
  }
  return result;
}
