/** Test support: a connected pair of pseudo-terminals from socat, standing in for a null-modem serial cable. */
import { spawn } from 'node:child_process';

export interface PtyPair {
  /** The two tty paths; bytes written to one are read from the other. */
  a: string;
  b: string;
  close(): Promise<void>;
}

/** `socat -d -d pty,raw,echo=0 pty,raw,echo=0`, paths parsed from its log ("PTY is /dev/pts/N"). */
export async function openPtyPair(): Promise<PtyPair> {
  const child = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const paths = await new Promise<string[]>((resolve, reject) => {
    let log = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`socat exited (${code}): ${log}`)));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      log += d;
      const found = [...log.matchAll(/PTY is (\S+)/g)].map((m) => m[1] ?? '');
      // "starting data transfer loop" comes once both ends exist.
      if (found.length >= 2 && /starting data transfer loop/.test(log)) resolve(found);
    });
  });
  return {
    a: paths[0] ?? '',
    b: paths[1] ?? '',
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
