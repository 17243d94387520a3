/** Test support: decode Data Matrix symbols in an image file with the real dmtxread (Debian dmtx-utils). */
import { execFileSync } from 'node:child_process';

/** Every Data Matrix found in the image, as raw decoded bytes read as Latin-1 (one string per symbol). */
export function dmtxDecode(imagePath: string): string[] {
  let out: Buffer;
  try {
    // -n: newline after each symbol so several symbols can be told apart; -m caps a failed scan's time.
    out = execFileSync('dmtxread', ['-n', '-m', '20000', imagePath], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    // dmtxread exits 1 when it finds nothing.
    const err = e as { status?: number };
    if (err.status === 1) return [];
    throw e;
  }
  return out
    .toString('latin1')
    .split('\n')
    .filter((s) => s !== '');
}
