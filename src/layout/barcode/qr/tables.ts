/**
 * QR code symbol facts per version and error correction level (ISO/IEC 18004:2015 tables 1, 9 and annex E).
 * Sizes are in modules, capacities in 8-bit codewords.
 */

/** Error correction level: L 7 %, M 15 %, Q 25 %, H 30 % of the codewords can be restored. */
export type QrEcLevel = 'L' | 'M' | 'Q' | 'H';

export const MIN_VERSION = 1;
export const MAX_VERSION = 40;

/** The two bits that name the level in the format information (table 12): not in L, M, Q, H order. */
export const EC_LEVEL_BITS: Readonly<Record<QrEcLevel, number>> = { L: 1, M: 0, Q: 3, H: 2 };

// Table 9, indexed [level][version]; index 0 is unused so a version number indexes directly.
const EC_CODEWORDS_PER_BLOCK: Readonly<Record<QrEcLevel, readonly number[]>> = {
  L: [
    0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  M: [
    0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  ],
  Q: [
    0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  H: [
    0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
};

const EC_BLOCKS: Readonly<Record<QrEcLevel, readonly number[]>> = {
  L: [
    0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16,
    17, 18, 19, 19, 20, 21, 22, 24, 25,
  ],
  M: [
    0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28,
    29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
  ],
  Q: [
    0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35,
    38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
  ],
  H: [
    0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42,
    45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
  ],
};

/** Width and height of a version's symbol, quiet zone excluded. */
export const symbolSize = (version: number): number => version * 4 + 17;

/** Error correction codewords in each block. */
export const ecCodewordsPerBlock = (version: number, level: QrEcLevel): number =>
  EC_CODEWORDS_PER_BLOCK[level][version] ?? 0;

/** Number of Reed-Solomon blocks the codewords are split into. */
export const ecBlocks = (version: number, level: QrEcLevel): number => EC_BLOCKS[level][version] ?? 0;

/** Modules left for codewords (data + EC + remainder bits) once the function patterns are drawn. */
export function rawDataModules(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    modules -= (25 * align - 10) * align - 55;
    if (version >= 7) modules -= 36; // two version information blocks of 18 modules
  }
  return modules;
}

/** All codewords of a version (data and error correction). */
export const totalCodewords = (version: number): number => Math.floor(rawDataModules(version) / 8);

/** Data codewords of a version at a level: what the encoded message may fill. */
export const dataCodewords = (version: number, level: QrEcLevel): number =>
  totalCodewords(version) - ecCodewordsPerBlock(version, level) * ecBlocks(version, level);

/** Row/column centres of the alignment patterns (annex E), ascending; empty for version 1. */
export function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  // Evenly spaced from the last one back towards 6, with an even step (annex E's table follows this rule).
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const centres = [6];
  for (let pos = symbolSize(version) - 7; centres.length < count; pos -= step) centres.splice(1, 0, pos);
  return centres;
}
