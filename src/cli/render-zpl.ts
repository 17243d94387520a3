/**
 * `labeldesk render --zpl FILE|@- --format png|pdf|svg|zpl` (issue #33 item 4): every label of a ZPL stream,
 * read by the ZPL reader (src/zpl/read) into Scenes and drawn by the outputs templates use (src/node/zpl-outputs.ts). `--format zpl`
 * gives each label's own bytes unchanged (with the downloads before it), never re-rasterised.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve as resolvePath } from 'node:path';
import { drawZplLabels, ZplLabelIndexError, type ZplOutputFormat } from '../node/zpl-outputs';
import { cliFonts } from './cli-fonts';
import { CliError, UsageError, type CliIo } from './io';

export interface ZplRenderArgs {
  zpl: string;
  format: ZplOutputFormat;
  dpi?: number | undefined;
  labelSize?: string | undefined;
  'data-dir'?: string | undefined;
}

/** `WxH` in `in` or `mm` (e.g. `4x6in`, `100x150mm`) → dots at `dpi`. */
export function parseLabelSize(raw: string, dpi: number): { width: number; height: number } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(in|mm)\s*$/i.exec(raw);
  if (!m)
    throw new UsageError(`--label-size: expected WxH with in or mm (e.g. 4x6in, 100x150mm), got "${raw}"`);
  const perUnit = (m[3] ?? 'in').toLowerCase() === 'in' ? dpi : dpi / 25.4;
  const width = Math.round(Number(m[1]) * perUnit);
  const height = Math.round(Number(m[2]) * perUnit);
  if (width < 1 || height < 1) throw new UsageError(`--label-size: "${raw}" is empty`);
  return { width, height };
}

/** The labels of `--zpl`, rendered: one output per label (`zpl`: the label's bytes as they came). */
export async function renderZplInput(
  args: ZplRenderArgs,
  io: CliIo,
): Promise<{ name: string; outputs: (string | Uint8Array)[] }> {
  const dpi = args.dpi ?? 203;
  if (dpi < 100 || dpi > 1200)
    throw new CliError(`--dpi: expected a whole number from 100 to 1200, got ${dpi}`);
  let bytes: Uint8Array;
  let name: string;
  if (args.zpl === '@-') {
    bytes = new TextEncoder().encode(await io.readStdin());
    name = 'label';
  } else {
    const path = resolvePath(io.cwd, args.zpl);
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(
        `--zpl ${args.zpl}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? e})`}`,
      );
    }
    name = basename(path, extname(path)) || 'label';
  }
  const fonts = cliFonts(args, io);
  let drawn;
  try {
    drawn = await drawZplLabels(bytes, {
      fonts,
      dpi,
      format: args.format,
      ...(args.labelSize ? { labelSize: parseLabelSize(args.labelSize, dpi) } : {}),
    });
  } catch (e) {
    if (e instanceof ZplLabelIndexError) throw new CliError(`--zpl ${args.zpl}: no label (^XA…^XZ) in it`);
    throw e;
  }
  for (const w of drawn.warnings) io.stderr(`labeldesk: warning: ${w}\n`);
  return { name, outputs: drawn.outputs };
}
