/**
 * `labeldesk render --zpl FILE|@- --format png|pdf|svg|zpl` (issue #33 item 4): every label of a ZPL stream,
 * read by the ZPL reader (src/zpl/read) into Scenes and drawn by the outputs templates use. `--format zpl`
 * gives each label's own bytes unchanged (with the downloads before it), never re-rasterised.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve as resolvePath } from 'node:path';
import { monoToPng } from '../node/mono-png';
import { nodeOutputPorts } from '../node/render-ports';
import { renderPdf } from '../render/pdf';
import { renderSvg } from '../render/svg';
import { readZpl, warningText, type ZplLabel } from '../zpl/read';
import { cliFonts } from './cli-fonts';
import { CliError, UsageError, type CliIo } from './io';

export interface ZplRenderArgs {
  zpl: string;
  format: 'zpl' | 'pdf' | 'svg' | 'png';
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
  const { labels, warnings } = readZpl(bytes, {
    fonts,
    dpi,
    ...(args.labelSize ? { labelSize: parseLabelSize(args.labelSize, dpi) } : {}),
  });
  for (const w of warnings) io.stderr(`labeldesk: warning: ${warningText(w)}\n`);
  labels.forEach((label, i) => {
    for (const w of label.warnings) io.stderr(`labeldesk: warning: label ${i + 1}: ${warningText(w)}\n`);
  });
  if (labels.length === 0) throw new CliError(`--zpl ${args.zpl}: no label (^XA…^XZ) in it`);
  const ports = nodeOutputPorts(fonts);
  const outputs: (string | Uint8Array)[] = [];
  let previousEnd = 0;
  for (const label of labels) {
    outputs.push(await renderOne(label, args.format, dpi, ports, bytes, previousEnd));
    previousEnd = label.source.end;
  }
  return { name, outputs };
}

async function renderOne(
  label: ZplLabel,
  format: ZplRenderArgs['format'],
  dpi: number,
  ports: ReturnType<typeof nodeOutputPorts>,
  bytes: Uint8Array,
  from: number,
): Promise<string | Uint8Array> {
  switch (format) {
    case 'zpl':
      // What a ZPL printer is sent: the label as written, and the downloads (~DG, ~DY…) read before it.
      return bytes.slice(from, label.source.end);
    case 'png':
      // The dots the printer burns, black or white (what the app's printer view shows, dot for dot).
      return monoToPng(ports.toMonoBitmap(label.scene, ports.fonts), dpi);
    case 'pdf':
      return renderPdf([label.scene], ports.fonts, ports.deflate ? { deflate: ports.deflate } : {});
    case 'svg':
      return renderSvg(label.scene, ports.fonts, { unit: 'in' });
  }
}
