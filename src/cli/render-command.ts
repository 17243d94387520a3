/**
 * `labeldesk render`: one file per copy in --out DIR (named so they sort), or the single output on stdout.
 * Files are written to a temporary name and renamed, so an interrupted run never leaves half a label.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import { checkApiData, resolve } from '../resolve/resolve';
import { renderPdfLabels, renderPngLabels, renderSvgLabels, renderZplLabels, RfidRequiresZpl } from '../engine/render';
import { ElementError } from '../layout/layout';
import { ImageError } from '../layout/images';
import { nodeRenderPorts } from '../node/render-ports';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import { loadTemplateArg, parseAmount, parseOptions, templateOptions, warnAboutValues } from './template-commands';

const FORMATS = ['zpl', 'pdf', 'svg', 'png'] as const;
type Format = (typeof FORMATS)[number];

function intOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new CliError(`${name}: expected a whole number, got "${raw}"`);
  return Number(raw);
}

export const RENDER_HELP = `Usage: labeldesk render --template NAME|FILE --format zpl|pdf|svg|png [options]

  --data JSON|@FILE|@-    field values (a JSON object of strings)
  --amount N              copies (default 1); one output per copy
  --dpi N                 zpl: 100..1200 (default 203); png: default 203
  --max-width-dots N      zpl: printhead width, 100..10000 (default 832); wider labels are cut
  --compression z64|acs|hex   zpl graphic encoding (default z64)
  --out DIR               write one file per copy into DIR (created if missing)
  --single-file           with --out: one multi-page PDF, or all ZPL jobs in one .zpl file

Without --out the output goes to stdout (one copy only).
`;

export async function renderCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...templateOptions,
    data: { type: 'string' },
    amount: { type: 'string' },
    format: { type: 'string' },
    dpi: { type: 'string' },
    'max-width-dots': { type: 'string' },
    compression: { type: 'string' },
    out: { type: 'string' },
    'single-file': { type: 'boolean' },
  });
  if (values.help) {
    io.stdout(RENDER_HELP);
    return 0;
  }
  const format = values.format as Format | undefined;
  if (!format) throw new UsageError('--format zpl|pdf|svg|png is required');
  if (!FORMATS.includes(format)) throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got "${format}"`);
  const compression = values.compression ?? 'z64';
  if (compression !== 'z64' && compression !== 'acs' && compression !== 'hex') {
    throw new UsageError(`--compression: expected z64, acs or hex, got "${compression}"`);
  }
  const template = await loadTemplateArg(values, io);
  const apiData = checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io));
  const amount = parseAmount(values.amount);
  if (!values.out && amount > 1 && !values['single-file']) {
    throw new UsageError(`${amount} copies need --out DIR (one file per copy), or --single-file`);
  }
  const markups = resolve(template, apiData, amount);
  warnAboutValues(template, apiData, io);
  const dpi = intOption('--dpi', values.dpi);
  const ports = nodeRenderPorts({ baseDir: io.cwd });

  let outputs: (string | Uint8Array)[];
  try {
    switch (format) {
      case 'zpl': {
        const result = await renderZplLabels(
          markups,
          { dpi, maxWidthDots: intOption('--max-width-dots', values['max-width-dots']), compression },
          ports,
        );
        outputs = values['single-file'] ? [result.labels.join('')] : result.labels;
        break;
      }
      case 'pdf':
        outputs = await renderPdfLabels(markups, ports, { merge: values['single-file'] ?? false, title: template.name });
        break;
      case 'svg':
        outputs = await renderSvgLabels(markups, ports);
        break;
      case 'png':
        outputs = await renderPngLabels(markups, dpi ?? 203, ports);
        break;
    }
  } catch (e) {
    if (e instanceof RfidRequiresZpl || e instanceof ElementError || e instanceof ImageError || e instanceof RangeError) {
      throw new CliError(e.message);
    }
    throw e;
  }

  if (!values.out) {
    if (outputs.length !== 1) throw new UsageError(`${outputs.length} outputs need --out DIR`);
    const [only] = outputs;
    if (typeof only === 'string') io.stdout(only);
    else if (only) io.stdoutBytes(only);
    return 0;
  }
  const dir = resolvePath(io.cwd, values.out);
  await mkdir(dir, { recursive: true });
  const digits = Math.max(3, String(outputs.length).length);
  const written: string[] = [];
  for (const [i, output] of outputs.entries()) {
    const name = outputs.length === 1 && values['single-file'] ? `${template.name}.${format}` : `${template.name}-${String(i + 1).padStart(digits, '0')}.${format}`;
    const file = join(dir, name);
    const tmp = `${file}.partial-${process.pid}`;
    await writeFile(tmp, output);
    await rename(tmp, file);
    written.push(file);
  }
  io.stderr(`wrote ${written.length} file${written.length === 1 ? '' : 's'} to ${dir}\n`);
  return 0;
}
