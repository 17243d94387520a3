/** Test support: decode Data Matrix symbols in an image file with the real dmtxread (Debian dmtx-utils). */
import { execFile, execFileSync } from 'node:child_process';

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

/** dmtxDecode without blocking the test process (several images in parallel with Promise.all). */
export function dmtxDecodeAsync(imagePath: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('dmtxread', ['-n', '-m', '20000', imagePath], { encoding: 'latin1' }, (error, stdout) => {
      // dmtxread exits 1 when it finds nothing.
      if (error && error.code !== 1) reject(error);
      else resolve(error ? [] : stdout.split('\n').filter((s) => s !== ''));
    });
  });
}
