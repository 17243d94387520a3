/**
 * PackBits (Apple Technical Note TN1023; the "TIFF compression" of the Brother raster command reference): a
 * header byte n, then n + 1 literal bytes (0..127), or one byte repeated 1 − n times (n as signed −1..−127).
 * −128 is never written.
 */
export function packBits(input: ArrayLike<number>): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < input.length) {
    let run = 1;
    while (i + run < input.length && run < 128 && input[i + run] === input[i]) run++;
    if (run >= 2) {
      out.push(257 - run, input[i] as number);
      i += run;
      continue;
    }
    // A literal stretch, up to 128 bytes, stopping before a run of two or more.
    const start = i;
    while (i < input.length && i - start < 128 && !(i + 1 < input.length && input[i + 1] === input[i])) i++;
    if (i === start) i++;
    out.push(i - start - 1);
    for (let k = start; k < i; k++) out.push(input[k] as number);
  }
  return Uint8Array.from(out);
}
