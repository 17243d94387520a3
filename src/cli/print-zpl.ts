/**
 * `labeldesk print --zpl FILE|@-` and `labeldesk jobs add --zpl` (issue #33 item 3): a ZPL file made elsewhere (a
 * carrier's label) printed through the job queue as a job of its own labels, each sent as its own bytes
 * (src/zpl/print-plan.ts), confirmed, resumed after faults, in `jobs list` with reprint. The file is read and
 * checked (budgets, the reader's warnings, settings and printer commands) before the printer is touched.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve as resolvePath } from 'node:path';
import { printLanguage } from '../node/printers/language';
import { describeFindings, planZplPrint, type ZplPrintPlan } from '../zpl/print-plan';
import { warningText, ZplBudgetError } from '../zpl/read';
import { CliError, type CliIo } from './io';
import { printAndReport, withJobService, type JobArgs } from './job-run';
import { dpiOption, printerOption } from './printer-args';

/** The options `print --zpl` and `jobs add --zpl` take besides the job options. */
export const zplPrintOptions = {
  zpl: { type: 'string' },
  'keep-settings': { type: 'boolean' },
  'allow-printer-commands': { type: 'boolean' },
} as const;

export const ZPL_PRINT_HELP = `  --zpl FILE|@-          print a ZPL file as it is (a carrier's label): each ^XA…^XZ one label of a
                         job, sent as its own bytes, confirmed, resumed after faults, in jobs list
  --keep-settings        send the printer settings in the file (~SD ^MD ^PR ^MN ^MT ^MM ~TA ^LT);
                         default: they are named and taken out, so the printer's own setup applies
  --allow-printer-commands
                         send commands that reach beyond the label (^JUS, ~JR, ~JA, ^ID, ^NS, flash
                         downloads…); default: they are named and taken out
`;

export interface ZplPrintArgs extends JobArgs {
  zpl?: string | undefined;
  printer?: string | undefined;
  dpi?: string | undefined;
  detach?: boolean | undefined;
  'keep-settings'?: boolean | undefined;
  'allow-printer-commands'?: boolean | undefined;
}

/** The file's bytes and the name it goes by (`label` for standard input). */
async function readZplArg(raw: string, io: CliIo): Promise<{ bytes: Uint8Array; name: string }> {
  if (raw === '@-') return { bytes: new TextEncoder().encode(await io.readStdin()), name: 'stdin.zpl' };
  const path = resolvePath(io.cwd, raw);
  try {
    return { bytes: new Uint8Array(await readFile(path)), name: basename(path) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      `--zpl ${raw}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? e})`}`,
    );
  }
}

/** Reads and plans the file, telling the user what it does to the printer; throws when there is nothing to print. */
export async function planZplFile(
  values: ZplPrintArgs,
  io: CliIo,
): Promise<{ name: string; plan: ZplPrintPlan }> {
  const raw = values.zpl ?? '';
  const { bytes, name } = await readZplArg(raw, io);
  let plan: ZplPrintPlan;
  try {
    plan = planZplPrint(bytes, {
      keepSettings: !!values['keep-settings'],
      allowPrinterCommands: !!values['allow-printer-commands'],
    });
  } catch (e) {
    if (e instanceof ZplBudgetError) throw new CliError(`--zpl ${raw}: ${e.message}`);
    throw e;
  }
  for (const w of plan.warnings) io.stderr(`warning: ${name}: ${warningText(w)}\n`);
  if (!plan.labels.length) throw new CliError(`--zpl ${raw}: no label (^XA…^XZ) in it; nothing was printed`);
  if (plan.settings.length) {
    const how = values['keep-settings']
      ? 'sent as written (--keep-settings)'
      : "taken out, the printer's own setup applies (--keep-settings sends them)";
    io.stderr(`${name}: printer settings in the file: ${describeFindings(plan.settings)}; ${how}\n`);
  }
  if (plan.printerCommands.length) {
    const how = values['allow-printer-commands']
      ? 'SENT as asked (--allow-printer-commands)'
      : 'taken out (--allow-printer-commands sends them)';
    io.stderr(
      `warning: ${name}: commands that reach beyond the label: ${describeFindings(plan.printerCommands)}; ${how}\n`,
    );
  }
  for (const [i, label] of plan.labels.entries()) {
    if (label.carried.length)
      io.stderr(
        `${name}: label ${i + 1} carries a copy of ${label.carried.join(', ')} downloaded earlier in the file\n`,
      );
  }
  return { name, plan };
}

/** Stores the file's labels as a job and prints it (unless `--detach`), with progress and the summary. */
export async function printZplFile(values: ZplPrintArgs, io: CliIo): Promise<number> {
  const { uri, text: printer } = printerOption(values.printer);
  const dpi = dpiOption(values.dpi);
  const { name, plan } = await planZplFile(values, io);
  if ((await printLanguage(uri, { ...process.env, ...io.env })) !== 'zpl') {
    throw new CliError(
      `${printer} takes documents, not ZPL; nothing was printed (labeldesk render --zpl ${values.zpl} --format pdf makes a PDF to print there)`,
    );
  }
  return withJobService(values, io, async (service) => {
    const { job, warnings } = await service.addZplJob({
      name,
      printer,
      labels: plan.labels,
      ...(dpi !== undefined ? { dpi } : {}),
      start: false,
    });
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    const printed = plan.labels.reduce((sum, l) => sum + l.copies, 0);
    const copies =
      printed > plan.labels.length ? ` (${printed} printed: ^PQ copies are made by the printer)` : '';
    io.stdout(`job ${job.id}: ${job.labelCount} labels from ${name} for ${job.printer}${copies}\n`);
    if (values.detach) return 0;
    return printAndReport(service, io, [job.id], () => service.start(job.printer));
  });
}
