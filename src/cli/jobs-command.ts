/**
 * `labeldesk jobs add|list|show|resume|cancel`: print jobs tracked label by label in the data directory's
 * `jobs.sqlite`, so a batch survives paper out, a pulled cable or a killed process (src/jobs/worker.ts says
 * what is guaranteed per transport). `jobs resume` continues every unfinished job and names, by label number,
 * each label that may have printed twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { checkApiData, resolve } from '../resolve/resolve';
import { renderZplLabels } from '../engine/render';
import { nodeRenderPorts } from '../node/render-ports';
import { defaultDataDir } from '../engine/server/data-dir';
import { PrinterError, type PrinterTransport } from '../printers/transport';
import { queryDpi } from '../printers/query';
import { defaultPrintWidthDots, zplJobSettings } from '../printers/profiles';
import { formatPrinterUri } from '../printers/uri';
import { dpiOption, printerOption } from './printer-args';
import { tagLabel, type Job } from '../jobs/model';
import type { JobStore } from '../jobs/store';
import { type JobEvent, type WorkerDeps } from '../jobs/worker';
import { resumeAllJobs, runPrinterQueue } from '../jobs/queue';
import { createTransport } from '../../main/printers/open-transport';
import { createProfileStore } from '../../main/printers/profile-store';
import { openSqliteJobStore, type SqliteJobStore } from '../../main/jobs/sqlite-job-store';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import {
  loadTemplateEntry,
  parseAmount,
  parseOptions,
  templateOptions,
  warnAboutValues,
} from './template-commands';

export const JOBS_HELP = `Usage: labeldesk jobs <add|list|show|resume|cancel> [options]

  jobs add --printer URI --template NAME|FILE [--data JSON] [--amount N] [--dpi N] [--by NAME] [--detach]
                         render the labels (ZPL), store the job, and print it label by label
  jobs list              every job with its state and label counts
  jobs show ID           one job: state, reason, counts, possible duplicates by label number
  jobs resume [ID]       continue every unfinished job (or one), one job at a time per printer
  jobs cancel ID         stop a job; labels not yet sent stay unprinted

Options:
  --data-dir DIR         where jobs.sqlite and printer profiles live
                         (default: $LABELDESK_DATA_DIR or the user data folder)
  --retries N            give up (job stays paused, resume later) after N failed reconnects; default: never
  --json                 machine-readable output (list, show)
`;

const jobOptions = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  retries: { type: 'string' },
} as const;

export async function jobsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'add':
      return addCommand(rest, io);
    case 'list':
      return listCommand(rest, io);
    case 'show':
      return showCommand(rest, io);
    case 'resume':
      return resumeCommand(rest, io);
    case 'cancel':
      return cancelCommand(rest, io);
    case undefined:
    case '-h':
    case '--help':
      io.stdout(JOBS_HELP);
      return sub === undefined ? 2 : 0;
    default:
      throw new UsageError(`jobs: unknown subcommand "${sub}" (add, list, show, resume, cancel)`);
  }
}

const dataDirOf = (values: { 'data-dir'?: string | undefined }, io: CliIo): string =>
  values['data-dir'] ?? defaultDataDir(io.env);

function withStore<T>(
  values: { 'data-dir'?: string | undefined },
  io: CliIo,
  f: (s: SqliteJobStore) => T,
): T {
  const store = openSqliteJobStore(dataDirOf(values, io));
  try {
    return f(store);
  } finally {
    store.close();
  }
}

async function withStoreAsync<T>(
  values: { 'data-dir'?: string | undefined },
  io: CliIo,
  f: (s: SqliteJobStore) => Promise<T>,
): Promise<T> {
  const store = openSqliteJobStore(dataDirOf(values, io));
  try {
    return await f(store);
  } finally {
    store.close();
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

function retriesOf(raw: string | undefined): number {
  if (raw === undefined) return Number.POSITIVE_INFINITY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--retries: expected a whole number, got "${raw}"`);
  return n;
}

async function connect(printer: string): Promise<PrinterTransport> {
  const transport = createTransport(printer);
  try {
    await transport.open({ timeoutMs: 10_000 });
  } catch (e) {
    await transport.close().catch(() => undefined);
    throw e;
  }
  return transport;
}

function workerDeps(store: SqliteJobStore, io: CliIo, retries: number): WorkerDeps {
  return {
    store,
    claimPrinter: (printer) => store.claimPrinter(printer),
    connect,
    sleep: (ms) => sleep(ms),
    onEvent: (e) => reportEvent(e, io),
    timing: { maxConnectFailures: retries },
  };
}

function reportEvent(e: JobEvent, io: CliIo): void {
  switch (e.kind) {
    case 'started':
      io.stderr(`job ${e.jobId}: printing, ${e.pending} label${e.pending === 1 ? '' : 's'} to send\n`);
      return;
    case 'paused':
      io.stderr(`job ${e.jobId}: paused: ${e.reason}\n`);
      return;
    case 'resumed':
      io.stderr(`job ${e.jobId}: resumed\n`);
      return;
    case 'connection-lost':
      io.stderr(`job ${e.jobId}: connection lost (${e.reason}); retry ${e.attempt} in ${e.retryInMs} ms\n`);
      return;
    case 'possible-duplicate':
      io.stderr(`job ${e.jobId}: label ${e.labelNumber} is resent after a fault and may print twice\n`);
      return;
    case 'printer-busy':
      io.stderr(`${e.printer}: another LabelDesk process is printing to it; its jobs continue there\n`);
      return;
    case 'confirmed':
    case 'finished':
      return;
    default:
      return ((x: never) => x)(e);
  }
}

/** The summary line of a job, with possible duplicates by number. */
function summary(store: JobStore, job: Job): string {
  const c = store.counts(job.id);
  const dups = store
    .labels(job.id)
    .filter((l) => l.possibleDuplicate)
    .map((l) => l.number);
  const reason = job.reason ? ` (${job.reason})` : '';
  const dupText = dups.length ? `; possible duplicates: label ${dups.join(', ')}` : '';
  return `job ${job.id} ${job.state}${reason}: ${c.confirmed}/${job.labelCount} confirmed${dupText}`;
}

async function addCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...jobOptions,
    ...templateOptions,
    printer: { type: 'string' },
    data: { type: 'string' },
    amount: { type: 'string' },
    dpi: { type: 'string' },
    by: { type: 'string' },
    detach: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const printer = formatPrinterUri(printerOption(values.printer).uri);
  const dpiArg = dpiOption(values.dpi);
  const retries = retriesOf(values.retries);
  const { template, baseDir } = await loadTemplateEntry(values, io);
  const apiData = checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io));
  const copies = parseAmount(values.amount);
  const markups = resolve(template, apiData, copies);
  warnAboutValues(template, apiData, io);

  const profile = await createProfileStore(dataDirOf(values, io)).get(printer);
  let dpi = dpiArg ?? profile?.dpi;
  if (dpi === undefined) {
    try {
      const transport = await connect(printer);
      try {
        if (transport.capabilities.status) dpi = (await queryDpi(transport)).dpi;
      } finally {
        await transport.close();
      }
    } catch (e) {
      if (!(e instanceof PrinterError)) throw e;
      io.stderr(`warning: ${printer}: ${e.message}; the job is stored and waits for the printer\n`);
    }
  }
  if (dpi === undefined) {
    dpi = 203;
    io.stderr(`warning: ${printer} did not report its resolution; rendering at 203 dpi (use --dpi)\n`);
  }
  const settings =
    profile && profile.dpi === dpi ? zplJobSettings(profile) : { maxWidthDots: defaultPrintWidthDots(dpi) };
  const rendered = await renderZplLabels(markups, { dpi, ...settings }, nodeRenderPorts({ baseDir }));

  return withStoreAsync(values, io, async (store) => {
    const job = store.createJob(
      {
        printer,
        format: 'zpl',
        templateName: template.name,
        template,
        rows: [apiData],
        copies,
        dpi,
        createdBy: values.by ?? io.env.USER ?? io.env.USERNAME ?? 'unknown',
      },
      (jobId) => rendered.labels.map((zpl, i) => tagLabel(zpl, jobId, i + 1)),
    );
    io.stdout(`job ${job.id}: ${job.labelCount} labels for ${printer}\n`);
    if (values.detach) return 0;
    await runPrinterQueue(printer, workerDeps(store, io, retries));
    const ended = store.getJob(job.id) ?? job;
    io.stdout(`${summary(store, ended)}\n`);
    return ended.state === 'done' ? 0 : 1;
  });
}

function listCommand(args: string[], io: CliIo): number {
  const { values } = parseOptions(args, jobOptions);
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  return withStore(values, io, (store) => {
    const jobs = store.listJobs();
    if (values.json) {
      const out = jobs.map(({ template: _t, ...job }) => ({ ...job, counts: store.counts(job.id) }));
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else if (!jobs.length) {
      io.stdout('no jobs\n');
    } else {
      for (const job of jobs) {
        io.stdout(`${summary(store, job)}  ${job.templateName} → ${job.printer}  ${job.createdAt}\n`);
      }
    }
    return 0;
  });
}

function showCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseOptions(args, jobOptions, true);
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const id = jobIdArg(positionals);
  return withStore(values, io, (store) => {
    const job = store.getJob(id);
    if (!job) throw new CliError(`no job ${id}`);
    const counts = store.counts(id);
    const possibleDuplicates = store
      .labels(id)
      .filter((l) => l.possibleDuplicate)
      .map((l) => l.number);
    if (values.json) {
      const { template: _t, ...rest } = job;
      io.stdout(`${JSON.stringify({ ...rest, counts, possibleDuplicates }, null, 2)}\n`);
      return 0;
    }
    io.stdout(
      [
        `job ${job.id}: ${job.state}${job.reason ? ` (${job.reason})` : ''}`,
        `  printer     ${job.printer} (${job.format}, ${job.dpi} dpi)`,
        `  template    ${job.templateName}, ${job.rows.length} row(s) × ${job.copies} copies = ${job.labelCount} labels`,
        `  created     ${job.createdAt} by ${job.createdBy}`,
        `  labels      ${Object.entries(counts)
          .map(([s, n]) => `${n} ${s}`)
          .join(', ')}`,
        `  possible duplicates: ${possibleDuplicates.length ? `label ${possibleDuplicates.join(', ')}` : 'none'}`,
        '',
      ].join('\n'),
    );
    return 0;
  });
}

async function resumeCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(args, jobOptions, true);
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const retries = retriesOf(values.retries);
  return withStoreAsync(values, io, async (store) => {
    const deps = workerDeps(store, io, retries);
    let jobs: Job[];
    if (positionals.length) {
      const id = jobIdArg(positionals);
      const job = store.getJob(id);
      if (!job) throw new CliError(`no job ${id}`);
      jobs = await runPrinterQueue(job.printer, deps, id);
    } else {
      jobs = await resumeAllJobs(deps);
    }
    if (!jobs.length) io.stdout('no unfinished jobs\n');
    for (const job of jobs) io.stdout(`${summary(store, job)}\n`);
    return jobs.every((j) => j.state === 'done' || j.state === 'cancelled') ? 0 : 1;
  });
}

function cancelCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseOptions(args, jobOptions, true);
  if (values.help) {
    io.stdout(JOBS_HELP);
    return 0;
  }
  const id = jobIdArg(positionals);
  return withStore(values, io, (store) => {
    const job = store.getJob(id);
    if (!job) throw new CliError(`no job ${id}`);
    if (job.state === 'done' || job.state === 'cancelled') {
      io.stdout(`job ${id} is already ${job.state}\n`);
      return 0;
    }
    const cancelled = store.setJobState(id, 'cancelled', 'cancelled by the user');
    io.stdout(`${summary(store, cancelled)}\n`);
    return 0;
  });
}
