/**
 * `labeldesk render`: one file per copy in --out DIR (named so they sort), or the single output on stdout.
 * Files are written to a temporary name and renamed, so an interrupted run never leaves half a label.
 */
import { join, resolve as resolvePath } from 'node:path';
import {
  hasRfid,
  renderPdfLabels,
  renderPngLabels,
  renderSvgLabels,
  renderZplLabels,
} from '../outputs/render';
import { isPrinterLanguage, PRINTER_LANGUAGES, type PrinterLanguage } from '../printers/languages';
import { renderLanguageLabels } from '../printers/languages/render-labels';
import { FileWriteError, makeDirectory, writeFileAtomic } from '../node/files/atomic-file';
import { CliError, UsageError, type CliIo } from './io';
import { parseOptions, templateOptions } from './template-commands';
import { HOSTED_HELP, hostedApiOptions, hostedSetup } from './hosted-options';
import { renderHosted } from './render-hosted';
import { checkMarkupExclusive, labelsFromArgs, markupOptions } from './markup-input';
import { renderZplInput } from './render-zpl';

const FORMATS = ['zpl', 'pdf', 'svg', 'png', ...PRINTER_LANGUAGES] as const;
type Format = (typeof FORMATS)[number];
const LANGUAGE_FORMATS = PRINTER_LANGUAGES.join('|');

function intOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new CliError(`${name}: expected a whole number, got "${raw}"`);
  return Number(raw);
}

export const RENDER_HELP = `Usage: labeldesk render --template NAME|FILE --format zpl|pdf|svg|png|LANGUAGE [options]
       labeldesk render --markup FILE|@- --format zpl|pdf|svg|png [options]
       labeldesk render --zpl FILE|@- --format zpl|pdf|svg|png [--dpi N] [--label-size WxH(in|mm)] [--out DIR]

  --markup FILE|@-        Markup JSON instead of a template: one object, or the array fetch-markups returns
                          (one output per element); rendered locally, no template, --data or --amount
  --zpl FILE|@-           a ZPL file (carrier labels…): one output per label (^XA…^XZ), drawn at --dpi
                          (default 203); --format zpl gives each label's own bytes unchanged
  --label-size WxH(in|mm) with --zpl: the label size when the ZPL has no ^PW/^LL (default 4x6in)
  --data JSON|@FILE|@-    field values (a JSON object of strings)
  --amount N              copies (default 1); one output per copy
  --strict                fail when an image cannot be loaded (default: leave it out with a warning)
  --dpi N                 zpl: 100..1200 (default 203); png: default 203
  --max-width-dots N      zpl: printhead width, 100..10000 (default 832); wider labels are cut
  --compression z64|acs|hex   zpl graphic encoding (default z64)
  --format ${LANGUAGE_FORMATS}
                          one complete job per copy in that printer language (TSPL, EPL2, DPL, SBPL, DYMO
                          LabelWriter raster, Brother QL raster), the same dots as zpl at --dpi (dymo-lw and
                          brother-ql: 300) and --max-width-dots; a label wider than the language's printers
                          is refused (docs/printer-languages.md)
  --out DIR               write one file per copy into DIR (created if missing); files of the same
                          name there are replaced
  --single-file           with --out: one multi-page PDF, or all ZPL (or language) jobs in one file

Without --out the output goes to stdout (one copy only).
${HOSTED_HELP}  With the hosted API: zpl, pdf and svg are rendered by the service (svg files are downloaded
  while valid); png is drawn locally from the service's markup; --compression and --single-file pdf need
  the local engine.
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
    ...markupOptions,
    ...hostedApiOptions,
    zpl: { type: 'string' },
    'label-size': { type: 'string' },
  });
  if (values.help) {
    io.stdout(RENDER_HELP);
    return 0;
  }
  const format = values.format as Format | undefined;
  if (!format) throw new UsageError(`--format zpl|pdf|svg|png|${LANGUAGE_FORMATS} is required`);
  if (!FORMATS.includes(format))
    throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got "${format}"`);
  const language = isPrinterLanguage(format) ? format : undefined;
  if (language && values.zpl !== undefined) {
    throw new UsageError(
      `--zpl goes with --format zpl|pdf|svg|png; a ${language} job is drawn from a template`,
    );
  }
  if (values.zpl !== undefined && !language) {
    const v = values as Record<string, unknown>;
    for (const option of [
      'template',
      'templates',
      'data',
      'amount',
      'markup',
      ...Object.keys(hostedApiOptions),
    ]) {
      if (v[option] !== undefined)
        throw new UsageError(`--${option} cannot be used with --zpl: the labels are the ZPL's`);
    }
    const { name, outputs } = await renderZplInput(
      {
        zpl: values.zpl,
        format: format as 'zpl' | 'pdf' | 'svg' | 'png',
        dpi: intOption('--dpi', values.dpi),
        labelSize: values['label-size'],
      },
      io,
    );
    if (!values.out && outputs.length > 1 && !values['single-file']) {
      throw new UsageError(`${outputs.length} labels need --out DIR (one file per label)`);
    }
    return writeOutputs(outputs, { name, format, out: values.out, singleFile: false }, io);
  }
  if (values['label-size'] !== undefined) throw new UsageError('--label-size goes with --zpl');
  if (values.markup !== undefined) {
    checkMarkupExclusive(values, ['template', 'templates', 'data', 'amount']);
    checkMarkupExclusive(values, Object.keys(hostedApiOptions), 'markup is always rendered locally');
  }
  const hosted = values.markup === undefined ? await hostedSetup(values, io) : undefined;
  if (hosted && language) {
    await hosted.close();
    throw new UsageError(`--format ${language} needs the local engine: the hosted API renders zpl, pdf, svg`);
  }
  if (hosted) {
    try {
      const sizes = {
        dpi: intOption('--dpi', values.dpi),
        maxWidthDots: intOption('--max-width-dots', values['max-width-dots']),
      };
      const { name, outputs } = await renderHosted(
        values,
        format as 'zpl' | 'pdf' | 'svg' | 'png',
        sizes,
        hosted.backend,
        io,
      );
      return await writeOutputs(
        outputs,
        { name, format, out: values.out, singleFile: values['single-file'] ?? false },
        io,
      );
    } finally {
      await hosted.close();
    }
  }
  const compression = values.compression ?? 'z64';
  if (compression !== 'z64' && compression !== 'acs' && compression !== 'hex') {
    throw new UsageError(`--compression: expected z64, acs or hex, got "${compression}"`);
  }
  const { name, markups, ports } = await labelsFromArgs(values, io);
  if (!values.out && markups.length > 1 && !values['single-file']) {
    throw new UsageError(`${markups.length} copies need --out DIR (one file per copy), or --single-file`);
  }
  const dpi = intOption('--dpi', values.dpi);

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
        outputs = await renderPdfLabels(markups, ports, {
          merge: values['single-file'] ?? false,
          title: name,
        });
        break;
      case 'svg':
        outputs = await renderSvgLabels(markups, ports);
        break;
      case 'png':
        outputs = await renderPngLabels(markups, dpi ?? 203, ports);
        break;
      default:
        outputs = await renderLanguage(markups, format, {
          dpi,
          maxWidthDots: intOption('--max-width-dots', values['max-width-dots']),
          singleFile: values['single-file'] ?? false,
          ports,
        });
    }
  } catch (e) {
    // Out-of-range dpi or head width from the command line; the engine's own user errors go to reportError.
    if (e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }

  return writeOutputs(
    outputs,
    { name, format, out: values.out, singleFile: values['single-file'] ?? false },
    io,
  );
}

/** One job per copy in a printer language (src/printers/languages), or all of them in one file. */
async function renderLanguage(
  markups: Parameters<typeof renderLanguageLabels>[0],
  language: PrinterLanguage,
  opts: {
    dpi: number | undefined;
    maxWidthDots: number | undefined;
    singleFile: boolean;
    ports: Parameters<typeof renderLanguageLabels>[3];
  },
): Promise<Uint8Array[]> {
  if (hasRfid(markups)) {
    throw new CliError(`RFID labels must be rendered as ZPL because ${language} cannot encode RFID tags`);
  }
  const jobs = await renderLanguageLabels(
    markups,
    language,
    {
      ...(opts.dpi !== undefined ? { dpi: opts.dpi } : {}),
      ...(opts.maxWidthDots !== undefined ? { maxWidthDots: opts.maxWidthDots } : {}),
    },
    opts.ports,
  );
  if (!opts.singleFile) return jobs;
  const all = new Uint8Array(jobs.reduce((n, job) => n + job.length, 0));
  let at = 0;
  for (const job of jobs) {
    all.set(job, at);
    at += job.length;
  }
  return [all];
}

/** Writes one file per copy into `out` (or the single output to stdout). */
export async function writeOutputs(
  outputs: readonly (string | Uint8Array)[],
  opts: { name: string; format: string; out: string | undefined; singleFile: boolean },
  io: CliIo,
): Promise<number> {
  const { name: templateName, format } = opts;
  if (!opts.out) {
    if (outputs.length !== 1) throw new UsageError(`${outputs.length} outputs need --out DIR`);
    const [only] = outputs;
    if (typeof only === 'string') io.stdout(only);
    else if (only) io.stdoutBytes(only);
    return 0;
  }
  const dir = resolvePath(io.cwd, opts.out);
  const digits = Math.max(3, String(outputs.length).length);
  const written: string[] = [];
  try {
    await makeDirectory(dir);
    for (const [i, output] of outputs.entries()) {
      const name =
        outputs.length === 1 && opts.singleFile
          ? `${templateName}.${format}`
          : `${templateName}-${String(i + 1).padStart(digits, '0')}.${format}`;
      const file = join(dir, name);
      await writeFileAtomic(file, output); // 0600: labels hold names and addresses
      written.push(file);
    }
  } catch (e) {
    if (!(e instanceof FileWriteError)) throw e;
    const hint = e.path === dir && e.code === 'ENOTDIR' ? '; --out takes a folder, one file per copy' : '';
    throw new CliError(`--out ${opts.out}: ${e.message}${hint}`);
  }
  io.stderr(`wrote ${written.length} file${written.length === 1 ? '' : 's'} to ${dir}\n`);
  return 0;
}
