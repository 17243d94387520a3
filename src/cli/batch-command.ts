/**
 * `labeldesk batch --csv FILE --template T --printer URI`: one label per CSV row (times its copies column), as a
 * print job that survives faults (`labeldesk jobs`). Every row is checked against the template's field rules
 * first; when any row is bad, the report names each (row, field, problem) and nothing prints unless
 * `--skip-invalid` says to print the good rows. Progress shows count and ETA; Ctrl+C pauses the job.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { formatRowProblems, planBatch, type BatchPlan } from '../jobs/batch';
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

export const BATCH_HELP = `Usage: labeldesk batch --csv FILE --template NAME|FILE --printer URI [options]

  --csv FILE|-           the CSV file (header row first; , ; tab or | delimited; UTF-8, BOM allowed)
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

async function readCsv(path: string, io: CliIo): Promise<string> {
  if (path === '-') return io.readStdin();
  try {
    return await readFile(isAbsolute(path) ? path : resolvePath(io.cwd, path), 'utf8');
  } catch (e) {
    throw new CliError(
      `--csv ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
}

function reportMapping(plan: BatchPlan, io: CliIo): void {
  const { mapping } = plan;
  for (const column of mapping.unusedColumns) {
    io.stderr(
      `warning: column "${column}" matches no field of ${plan.templateName} and is ignored (use --map)\n`,
    );
  }
  for (const field of mapping.unmappedFields) {
    io.stderr(`warning: no column for field "${field}"; it prints its placeholder (use --map)\n`);
  }
}

export async function batchCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...templateOptions,
    csv: { type: 'string' },
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
  if (!values.csv) throw new UsageError('--csv FILE is required');
  const printer = printerOption(values.printer).text;
  const dpi = dpiOption(values.dpi);
  const oversize = oversizeOption(values);
  const map = mapOption(values.map);
  const { template, baseDir } = await loadTemplateEntry(values, io);
  const text = await readCsv(values.csv, io);

  try {
    const plan = planBatch(text, template, {
      map,
      ...(values['copies-column'] !== undefined ? { copiesColumn: values['copies-column'] } : {}),
    });
    reportMapping(plan, io);
    if (plan.problems.length) {
      const bad = plan.badRecords.length;
      io.stdout(`${bad} of ${plan.totalRows} records have problems:\n${formatRowProblems(plan.problems)}\n`);
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
