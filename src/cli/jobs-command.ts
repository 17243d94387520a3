/**
 * `labeldesk jobs add|list|show|labels|resume|pause|cancel|skip|reprint|audit`: print jobs tracked label by label in
 * the data directory's `jobs.sqlite`, so a batch survives paper out, a pulled cable or a killed process
 * (src/jobs/worker.ts says what is guaranteed per transport). A thin face over the job service
 * (src/node/jobs/job-service.ts), which the desktop app uses too. `jobs resume` continues every interrupted job
 * and names, by label number, each label that may have printed twice.
 */
import { formatLabelList, JOB_STATES, type JobState } from '../jobs/model';
import { formatPrinterUri } from '../printers/uri';
import { checkApiData } from '../resolve/resolve';
import type { JobService } from '../node/jobs/job-service';
import { dpiOption, oversizeOption, oversizeOptions, printerOption, rethrowDoesNotFit } from './printer-args';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import { asCliError, printAndReport, summary, withJobService } from './job-run';
import { printZplFile, zplPrintOptions } from './print-zpl';
import {
  loadTemplateEntry,
  parseAmount,
  parseOptions,
  templateOptions,
  warnAboutValues,
} from './template-commands';

export const JOBS_HELP = `Usage: labeldesk jobs <add|list|show|labels|resume|pause|cancel|skip|reprint|audit> [options]

  jobs add --printer URI --template NAME|FILE [--data JSON] [--amount N] [--dpi N] [--by NAME] [--detach]
           [--fit|--allow-cut]
                         render the labels (ZPL), store the job, and print it label by label; a label
                         wider than the printer's head is refused unless --fit (scaled) or --allow-cut
  jobs add --printer URI --zpl FILE|@- [--keep-settings] [--allow-printer-commands] [--as-is] [--detach]
                         a ZPL file as it is: each ^XA…^XZ one label, sent as its own bytes
                         (settings and commands beyond the label are named and taken out unless kept)
  jobs list [--state S] [--printer URI] [--template NAME] [--text T]
                         jobs, newest first, with their state and label counts
  jobs show ID           one job: state, reason, counts, possible duplicates by label number
  jobs labels ID         every label of a job: state, attempts, CSV row, counter values
  jobs resume [ID]       continue every interrupted job (or one, also one paused with Ctrl+C or jobs pause)
  jobs pause ID          hold a job after the label in flight (jobs resume ID continues it)
  jobs cancel ID         stop a job; labels not yet sent stay unprinted (counter numbers are not reused)
  jobs skip ID --labels 5[,7-9]
                         give up on labels not yet sent (a label that cannot be rendered holds its job
                         until it is skipped or the job cancelled); the rest of the job then prints
  jobs reprint ID [--labels 3,7-9] [--printer URI [--dpi N]]
                         print the whole job, or the given labels, again: the same bytes, as a new job;
                         with --printer, on another printer: the same labels drawn at its dpi
  jobs audit [--job ID]  the audit log: who created, printed, paused, resumed, cancelled, reprinted what

Options:
  --data-dir DIR         where jobs.sqlite and printer profiles live
                         (default: $LABELDESK_DATA_DIR or the user data folder)
  --retries N            give up (job stays paused, resume later) after N failed reconnects; default: never
  --by NAME              who is acting, for the job and the audit log (default: the OS user)
  --json                 machine-readable output (list, show, labels, audit)
`;

const jobOptions = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  retries: { type: 'string' },
  by: { type: 'string' },
} as const;

export async function jobsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  try {
    switch (sub) {
      case 'add':
        return await addCommand(rest, io);
      case 'list':
        return await listCommand(rest, io);
      case 'show':
        return await showCommand(rest, io);
      case 'labels':
        return await labelsCommand(rest, io);
      case 'resume':
        return await resumeCommand(rest, io);
      case 'pause':
        return await pauseCommand(rest, io);
      case 'cancel':
        return await cancelCommand(rest, io);
      case 'skip':
        return await skipCommand(rest, io);
      case 'reprint':
        return await reprintCommand(rest, io);
      case 'audit':
        return await auditCommand(rest, io);
      case undefined:
      case '-h':
      case '--help':
        io.stdout(JOBS_HELP);
        return sub === undefined ? 2 : 0;
      default:
        throw new UsageError(
          `jobs: unknown subcommand "${sub}" (add, list, show, labels, resume, pause, cancel, reprint, audit)`,
        );
    }
  } catch (e) {
    throw asCliError(e);
  }
}

function jobIdArg(positionals: string[]): number {
  const raw = positionals[0];
  if (raw === undefined) throw new UsageError('a job id is required');
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1)
    throw new UsageError(`expected a job id (a whole number), got "${raw}"`);
  return id;
}

/** `3,7-9` → [3, 7, 8, 9]. */
export function parseLabelList(raw: string): number[] {
  const out: number[] = [];
  for (const part of raw.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new UsageError(`--labels: expected numbers and ranges like 3,7-9, got "${raw}"`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from || to - from > 100_000)
      throw new UsageError(`--labels: bad range "${part.trim()}"`);
    for (let n = from; n <= to; n++) out.push(n);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

async function addCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...jobOptions,
    ...templateOptions,
    printer: { type: 'string' },
    data: { type: 'string' },
    amount: { type: 'string' },
    dpi: { type: 'string' },
    detach: { type: 'boolean' },
    ...zplPrintOptions,
    ...oversizeOptions,
  });
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  if (values.zpl !== undefined) {
    const other = ['template', 'data', 'amount'].find((o) => values[o as keyof typeof values] !== undefined);
    if (other) throw new UsageError(`--zpl prints the file as it is; --${other} cannot go with it`);
    return printZplFile(values, io);
  }
  const printer = printerOption(values.printer).text;
  const dpi = dpiOption(values.dpi);
  const oversize = oversizeOption(values);
  const { template, baseDir } = await loadTemplateEntry(values, io);
  const data = checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io));
  const copies = parseAmount(values.amount);
  warnAboutValues(template, data, io);
  return withJobService(values, io, async (service) => {
    const { job, warnings } = await service
      .addJob({
        template,
        baseDir,
        printer,
        rows: [{ data }],
        copies,
        ...(dpi !== undefined ? { dpi } : {}),
        ...(oversize ? { oversize } : {}),
        start: false,
      })
      .catch(rethrowDoesNotFit);
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    io.stdout(`job ${job.id}: ${job.labelCount} labels for ${job.printer}\n`);
    if (values.detach) return 0;
    return printAndReport(service, io, [job.id], () => service.start(job.printer));
  });
}

function stateOption(raw: string | undefined): JobState | undefined {
  if (raw === undefined) return undefined;
  if (!(JOB_STATES as readonly string[]).includes(raw)) {
    throw new UsageError(`--state: expected one of ${JOB_STATES.join(', ')}, got "${raw}"`);
  }
  return raw as JobState;
}

async function listCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...jobOptions,
    state: { type: 'string' },
    printer: { type: 'string' },
    template: { type: 'string' },
    text: { type: 'string' },
  });
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const state = stateOption(values.state);
  // Jobs keep printer URIs in their canonical spelling.
  const printer =
    values.printer === undefined ? undefined : formatPrinterUri(printerOption(values.printer).uri);
  return withJobService(values, io, (service) => {
    const jobs = service.listJobs({
      ...(state ? { state } : {}),
      ...(printer ? { printer } : {}),
      ...(values.template ? { templateName: values.template } : {}),
      ...(values.text ? { text: values.text } : {}),
    });
    if (values.json) {
      io.stdout(`${JSON.stringify(jobs, null, 2)}\n`);
    } else if (!jobs.length) {
      io.stdout('no jobs\n');
    } else {
      for (const job of jobs) {
        const reprint = job.reprintOf === null ? '' : `  reprint of job ${job.reprintOf}`;
        io.stdout(`${summary(job)}  ${job.templateName} → ${job.printer}  ${job.createdAt}${reprint}\n`);
      }
    }
    return 0;
  });
}

/** A subcommand on one job (`jobs show|labels|pause|cancel ID`): options, help, the id, then the service. */
async function onOneJob(
  args: string[],
  io: CliIo,
  run: (service: JobService, id: number, values: { json?: boolean | undefined }) => number,
): Promise<number> {
  const { values, positionals } = parseOptions(args, jobOptions, true);
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const id = jobIdArg(positionals);
  return withJobService(values, io, (service) => run(service, id, values));
}

function showCommand(args: string[], io: CliIo): Promise<number> {
  return onOneJob(args, io, (service, id, values) => {
    const job = service.getJob(id);
    if (!job) throw new CliError(`no job ${id}`);
    if (values.json) {
      io.stdout(`${JSON.stringify(job, null, 2)}\n`);
      return 0;
    }
    const dups = job.possibleDuplicates;
    io.stdout(
      [
        `job ${job.id}: ${job.state}${job.reason ? ` (${job.reason})` : ''}`,
        `  printer     ${job.printer} (zpl, ${job.dpi} dpi)`,
        job.reprintOf === null
          ? `  template    ${job.templateName}, ${job.rowCount} row(s) × ${job.copies} copies = ${job.labelCount} labels`
          : `  template    ${job.templateName}, reprint of job ${job.reprintOf}: ${job.labelCount} labels`,
        `  created     ${job.createdAt} by ${job.createdBy}`,
        `  labels      ${Object.entries(job.counts)
          .map(([s, n]) => `${n} ${s}`)
          .join(', ')}`,
        `  possible duplicates: ${dups.length ? `label ${dups.join(', ')}` : 'none'}`,
        '',
      ].join('\n'),
    );
    return 0;
  });
}

function labelsCommand(args: string[], io: CliIo): Promise<number> {
  return onOneJob(args, io, (service, id, values) => {
    const labels = service.labels(id);
    if (values.json) {
      io.stdout(`${JSON.stringify(labels, null, 2)}\n`);
      return 0;
    }
    for (const l of labels) {
      const row = l.row === null ? '' : `  record ${l.row}`;
      const counters = Object.entries(l.counters)
        .map(([k, v]) => `  ${k}=${v}`)
        .join('');
      const dup = l.possibleDuplicate ? '  possible duplicate' : '';
      const of = l.reprintOf === null ? '' : `  (label ${l.reprintOf} of the original)`;
      io.stdout(`label ${l.number}: ${l.state}, ${l.attempts} attempt(s)${row}${counters}${dup}${of}\n`);
    }
    return 0;
  });
}

async function resumeCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(args, jobOptions, true);
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  return withJobService(values, io, async (service) => {
    if (positionals.length) {
      const id = jobIdArg(positionals);
      const job = service.getJob(id);
      if (!job) throw new CliError(`no job ${id}`);
      if (job.state === 'done' || job.state === 'cancelled' || job.state === 'failed') {
        io.stdout(`${summary(job)}\n`);
        return job.state === 'failed' ? 1 : 0;
      }
      return printAndReport(service, io, [id], async () => void service.resume(id));
    }
    const unfinished = service
      .listJobs()
      .filter((j) => ['queued', 'printing', 'paused', 'held'].includes(j.state));
    for (const held of unfinished.filter((j) => j.state === 'held')) {
      io.stderr(`job ${held.id} is paused by a person; labeldesk jobs resume ${held.id} continues it\n`);
    }
    const ids = unfinished
      .filter((j) => j.state !== 'held')
      .map((j) => j.id)
      .sort((a, b) => a - b);
    if (!ids.length) {
      io.stdout('no unfinished jobs\n');
      return 0;
    }
    return printAndReport(service, io, ids, () => service.resumeAll());
  });
}

function pauseCommand(args: string[], io: CliIo): Promise<number> {
  return onOneJob(args, io, (service, id) => {
    io.stdout(`${summary(service.pause(id))}\n`);
    return 0;
  });
}

function cancelCommand(args: string[], io: CliIo): Promise<number> {
  return onOneJob(args, io, (service, id) => {
    const job = service.getJob(id);
    if (!job) throw new CliError(`no job ${id}`);
    if (job.state === 'done' || job.state === 'cancelled') {
      io.stdout(`job ${id} is already ${job.state}\n`);
      return 0;
    }
    io.stdout(`${summary(service.cancel(id))}\n`);
    return 0;
  });
}

async function skipCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { ...jobOptions, labels: { type: 'string' }, detach: { type: 'boolean' } },
    true,
  );
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const id = jobIdArg(positionals);
  if (values.labels === undefined) throw new UsageError('--labels N[,M-K] is required: which labels to skip');
  const labels = parseLabelList(values.labels);
  return withJobService(values, io, async (service) => {
    const job = service.skip(id, labels);
    io.stdout(`job ${id}: skipped label${labels.length === 1 ? '' : 's'} ${formatLabelList(labels)}\n`);
    if (values.detach || job.state === 'held') return 0;
    return printAndReport(service, io, [id], () => service.start(id));
  });
}

async function reprintCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      ...jobOptions,
      labels: { type: 'string' },
      detach: { type: 'boolean' },
      printer: { type: 'string' },
      dpi: { type: 'string' },
    },
    true,
  );
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const id = jobIdArg(positionals);
  const labels = values.labels === undefined ? undefined : parseLabelList(values.labels);
  const printer = values.printer === undefined ? undefined : printerOption(values.printer).text;
  return withJobService(values, io, async (service) => {
    const dpi = dpiOption(values.dpi);
    if (dpi !== undefined && !printer)
      throw new UsageError('--dpi goes with --printer (a reprint on its own printer sends the same bytes)');
    const job = await service.reprint(id, labels, {
      start: false,
      ...(printer ? { printer } : {}),
      ...(dpi !== undefined ? { dpi } : {}),
      warn: (w) => io.stderr(`warning: ${w}\n`),
    });
    const on = printer ? ` on ${job.printer}` : '';
    io.stdout(
      `job ${job.id}: reprint of job ${id}, ${job.labelCount} label${job.labelCount === 1 ? '' : 's'}${on}\n`,
    );
    if (values.detach) return 0;
    return printAndReport(service, io, [job.id], () => service.start(job.id));
  });
}

async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { ...jobOptions, job: { type: 'string' } });
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const jobId = values.job === undefined ? undefined : jobIdArg([values.job]);
  return withJobService(values, io, (service) => {
    const entries = service.audit(jobId === undefined ? {} : { jobId });
    if (values.json) {
      io.stdout(`${JSON.stringify(entries, null, 2)}\n`);
    } else if (!entries.length) {
      io.stdout('the audit log is empty\n');
    } else {
      for (const e of entries) {
        const detail = e.detail ? `  (${e.detail})` : '';
        io.stdout(
          `${e.at}  ${e.user}@${e.machine}  ${e.action} job ${e.jobId}  ${e.template} → ${e.printer}  ${e.labels} label(s)${detail}\n`,
        );
      }
    }
    return 0;
  });
}
