/**
 * `labeldesk batch --file FILE --template T --printer URI`: one label per row of a CSV file or a workbook's sheet
 * (.xlsx, .ods; `--sheet`) (times its copies column), as a
 * print job that survives faults (`labeldesk jobs`). Every row is checked against the template's field rules
 * first; when any row is bad, the report names each (row, field, problem) and nothing prints unless
 * `--skip-invalid` says to print the good rows. Progress shows count and ETA; Ctrl+C pauses the job.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { formatRowProblems, planBatch, type BatchPlan, type CsvTable } from '../jobs/batch';
import { isWorkbookBytes, readWorkbook } from '../jobs/workbook';
import { formatMegabytes, looksLikeWorkbookName, WORKBOOK_LIMITS } from '../jobs/workbook-limits';
import { formatLabelList } from '../jobs/model';
import {
  dpiOption,
  OVERSIZE_HELP,
  oversizeOption,
  oversizeOptions,
  printerOption,
  rethrowDoesNotFit,
} from './printer-args';
import { CliError, UsageError, type CliIo } from './io';
import { loadTemplateEntry, parseOptions, templateOptions } from './template-commands';
import { asCliError, printAndReport, withJobService } from './job-run';

export const BATCH_HELP = `Usage: labeldesk batch --file FILE --template NAME|FILE --printer URI [options]

  --file FILE|-          the records: a CSV file (header row first; , ; tab or | delimited; UTF-8, BOM allowed)
                         or a workbook (.xlsx, .ods: the first row with values names the columns; each cell
                         as the spreadsheet shows it); - reads CSV from standard input
  --csv FILE|-           the same as --file
  --sheet NAME|N         the workbook's sheet by name or number (default: the first)
  --map COLUMN=FIELD     read FIELD from COLUMN (repeatable); other columns match fields by name or label
  --copies-column NAME   the column with copies per row (default: a column named "copies", if any)
  --skip-invalid         print the valid records and list the skipped ones (default: print nothing if any is bad)
  --dpi N                render at N dpi (default: printer profile, else asked from the printer, else 203)
${OVERSIZE_HELP}  --detach               store the job and exit (print it with labeldesk jobs resume)
  --by NAME              who prints, for the job and the audit log (default: the OS user)
  --retries N            give up (job stays paused) after N failed reconnects; default: never
  --data-dir DIR         where jobs.sqlite and printer profiles live

Counter fields are numbered by the job, one number per label, continuing per template and printer
(SSCC counters: per company prefix and extension digit, whatever the template or printer).
Ctrl+C pauses the job after the label in flight; labeldesk jobs resume ID continues it.
`;

/** `--map COLUMN=FIELD` options → mapping. */
function mapOption(raw: readonly string[] | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const entry of raw ?? []) {
    const at = entry.lastIndexOf('=');
    if (at <= 0 || at === entry.length - 1) {
      throw new UsageError(`--map: expected COLUMN=FIELD, got "${entry}"`);
    }
    map[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return map;
}

/** The records: CSV text, or a workbook's sheet (by content: a zip or OLE file is a workbook). */
async function readRecords(
  path: string,
  option: string,
  sheet: string | undefined,
  io: CliIo,
): Promise<string | CsvTable> {
  if (path === '-') {
    if (sheet !== undefined) throw new UsageError('--sheet: standard input is read as CSV');
    return io.readStdin();
  }
  const full = isAbsolute(path) ? path : resolvePath(io.cwd, path);
  let bytes: Buffer;
  try {
    // The budget before the work: a workbook's size is checked before it is read.
    const { size } = await stat(full);
    if (looksLikeWorkbookName(path) && size > WORKBOOK_LIMITS.maxBytes) {
      throw new CliError(
        `${option} ${path} is ${formatMegabytes(size)}; a workbook for a batch is at most ${formatMegabytes(WORKBOOK_LIMITS.maxBytes)}`,
      );
    }
    bytes = await readFile(full);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(
      `${option} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  if (isWorkbookBytes(bytes) || looksLikeWorkbookName(path)) {
    return readWorkbook(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), path, sheet);
  }
  if (sheet !== undefined) throw new UsageError(`--sheet: ${path} is a CSV file, not a workbook`);
  return bytes.toString('utf8');
}

function reportMapping(plan: BatchPlan, io: CliIo): void {
  const { mapping } = plan;
  for (const column of mapping.unusedColumns) {
    io.stderr(
      `warning: column "${column}" matches no field of ${plan.templateName} and is ignored (use --map)\n`,
    );
  }
  for (const field of mapping.unmappedFields) {
    if (mapping.missingRequired.includes(field)) continue; // refused once, below
    io.stderr(`warning: no column for field "${field}"; it prints its placeholder (use --map)\n`);
  }
}

export async function batchCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...templateOptions,
    csv: { type: 'string' },
    file: { type: 'string' },
    sheet: { type: 'string' },
    printer: { type: 'string' },
    map: { type: 'string', multiple: true },
    'copies-column': { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    dpi: { type: 'string' },
    detach: { type: 'boolean' },
    by: { type: 'string' },
    retries: { type: 'string' },
    'data-dir': { type: 'string' },
    ...oversizeOptions,
  });
  if (values.help) {
    io.stdout(BATCH_HELP);
    return 0;
  }
  if (values.csv !== undefined && values.file !== undefined) {
    throw new UsageError('--file and --csv are the same option: give one');
  }
  const source = values.file ?? values.csv;
  const option = values.file !== undefined ? '--file' : '--csv';
  if (!source) throw new UsageError('--file FILE is required (a CSV file or an .xlsx/.ods workbook)');
  const printer = printerOption(values.printer).text;
  const dpi = dpiOption(values.dpi);
  const oversize = oversizeOption(values);
  const map = mapOption(values.map);
  const { template, baseDir } = await loadTemplateEntry(values, io);
  try {
    const records = await readRecords(source, option, values.sheet, io);
    const plan = planBatch(records, template, {
      map,
      ...(values['copies-column'] !== undefined ? { copiesColumn: values['copies-column'] } : {}),
    });
    reportMapping(plan, io);
    const missing = plan.mapping.missingRequired;
    if (missing.length) {
      const names = missing.map((f) => `"${f}"`).join(', ');
      throw new CliError(
        `no column feeds the required field${missing.length === 1 ? '' : 's'} ${names}; name ${missing.length === 1 ? 'its column' : 'their columns'} with --map COLUMN=${missing[0]} (nothing was printed)`,
      );
    }
    if (plan.problems.length) {
      const bad = plan.badRecords.length;
      io.stdout(
        `${bad} of ${plan.totalRows} records have problems:\n${formatRowProblems(plan.problems, plan.lineWord)}\n`,
      );
      if (!values['skip-invalid']) {
        io.stderr(
          `labeldesk: nothing was printed. Fix the records, or use --skip-invalid to print the ${plan.rows.length} valid records.\n`,
        );
        return 1;
      }
      io.stdout(`skipping record${bad === 1 ? '' : 's'} ${formatLabelList(plan.badRecords)}\n`);
    }
    if (!plan.rows.length) throw new CliError('no valid records to print');

    return await withJobService(values, io, async (service) => {
      const { job, warnings } = await service
        .addJob({
          template,
          baseDir,
          printer,
          rows: plan.rows.map((r) => ({ data: r.data, copies: r.copies, row: r.record })),
          skippedRows: plan.badRecords,
          ...(dpi !== undefined ? { dpi } : {}),
          ...(oversize ? { oversize } : {}),
          start: false,
        })
        .catch(rethrowDoesNotFit);
      for (const w of warnings) io.stderr(`warning: ${w}\n`);
      io.stdout(
        `job ${job.id}: ${job.labelCount} labels from ${plan.rows.length} records for ${job.printer}\n`,
      );
      if (values.detach) return 0;
      return printAndReport(service, io, [job.id], () => service.start(job.printer));
    });
  } catch (e) {
    throw asCliError(e);
  }
}
