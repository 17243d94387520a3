/**
 * LabelDesk in web mode as a child process — the real `main/web.ts`, its own data folder, its printers
 * preconfigured — for the e2e fixtures and the bench's app section. Resolves with the URL it prints (token
 * included) once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export async function startWeb(
  dataDir: string,
  printersFile: string,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'main/web.ts'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--printers',
      printersFile,
    ],
    { cwd: ROOT, env: { ...process.env, LABELDESK_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`web mode did not start in 30 s: ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`web mode exited with ${code}: ${err}`));
    });
  });
  return { child, url, stderr: () => err };
}
