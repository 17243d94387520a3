/** Test support: run the CLI in-process with captured output, exactly as a shell would. */
import { runCli } from '../../src/cli/labeldesk';
import type { CliIo } from '../../src/cli/io';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  bytes: Uint8Array;
}

export async function cli(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const chunks: Uint8Array[] = [];
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdoutBytes: (b) => chunks.push(b),
    env: { ...opts.env },
    cwd: opts.cwd ?? process.cwd(),
    readStdin: async () => opts.stdin ?? '',
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr, bytes: Buffer.concat(chunks) };
}
