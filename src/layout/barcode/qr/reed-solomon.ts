/**
 * Reed-Solomon error correction over GF(256) with the QR field polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D),
 * generator roots α^0 … α^(n-1) (ISO/IEC 18004 clause 7.5.2).
 */

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  // Doubled so a sum of two logs indexes without a modulo.
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255] ?? 0;
}

const generators = new Map<number, Uint8Array>();

/** Generator polynomial of `degree`, coefficients high to low without the leading 1. */
function generator(degree: number): Uint8Array {
  const hit = generators.get(degree);
  if (hit) return hit;
  // (x - α^0)(x - α^1)…; in GF(256) minus is plus.
  const poly = new Uint8Array(degree);
  poly[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      poly[j] = multiply(poly[j] ?? 0, root) ^ (poly[j + 1] ?? 0);
    }
    root = multiply(root, 2);
  }
  generators.set(degree, poly);
  return poly;
}

function multiply(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  return EXP[(LOG[a] ?? 0) + (LOG[b] ?? 0)] ?? 0;
}

/** The `degree` error correction codewords of `data` (the remainder of data·x^degree divided by the generator). */
export function reedSolomonRemainder(data: Uint8Array, degree: number): Uint8Array {
  const gen = generator(degree);
  const rem = new Uint8Array(degree);
  for (const byte of data) {
    const factor = byte ^ (rem[0] ?? 0);
    rem.copyWithin(0, 1);
    rem[degree - 1] = 0;
    if (factor === 0) continue;
    const logFactor = LOG[factor] ?? 0;
    for (let i = 0; i < degree; i++) {
      const g = gen[i] ?? 0;
      if (g !== 0) rem[i] = (rem[i] ?? 0) ^ (EXP[(LOG[g] ?? 0) + logFactor] ?? 0);
    }
  }
  return rem;
}
