/**
 * Print jobs for the app: every print (one label or a CSV batch) is a job of the job service (src/node/jobs), printed
 * label by label by a per-printer worker, so paper out, a pulled cable or a crash never lose a label or
 * duplicate one silently. Job progress reaches the renderer as `job` events; while a job holds a printer, its
 * view of the printer answers the status poll (no second connection competing for the printer).
 */
import type { Oversize } from '../../src/outputs/fit';
import { createHash } from 'node:crypto';
import { BatchError, type BatchPlan, type CsvTable } from '../../src/jobs/batch';
import { readWorkbook, type SheetTable } from '../../src/jobs/workbook';
import type { JobServiceEvent } from '../../src/jobs/events';
import type { Markup, Template } from '../../src/model/schema';
import type {
  AppEvent,
  BatchInput,
  BatchPlanView,
  FieldValues,
  JobFilter,
  JobView,
  LabelView,
  PrinterStatusView,
  PrinterView,
  TemplateRef,
} from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { openJobService, type JobDetail, type JobService } from '../../src/node/jobs/job-service';
import type { AppPrinters } from './printers';
import { checkLabel, type Rendering } from './rendering';
import { filled } from '../../src/ipc/preview-label';
import { createTransport } from '../../src/node/printers/open-transport';

export interface AppJobs {
  /** A tracked job for label printers; one PDF straight to the spooler for OS queues that want documents. */
  /** `oversize`: what to do with a label wider than the printer's head (without it such a label is refused). */
  print(
    ref: TemplateRef,
    values: FieldValues,
    copies: number,
    printer: PrinterView,
    oversize?: Oversize,
  ): Promise<{ job: JobView | null; message: string }>;
  /**
   * Labels resolved elsewhere (a site server's reprint: the same counter values) printed as given: a tracked job
   * for label printers, one PDF for OS queues.
   */
  printMarkups(
    ref: TemplateRef,
    markups: readonly Markup[],
    printer: PrinterView,
  ): Promise<{ job: JobView | null; message: string }>;
  /** A ZPL file's labels (src/zpl/print-plan.ts), each sent as its own bytes, as a job named after the file. */
  printZpl(
    name: string,
    printer: PrinterView,
    labels: readonly { bytes: Uint8Array; copies: number }[],
  ): Promise<JobView>;
  planBatch(input: BatchInput): Promise<BatchPlanView>;
  startBatch(
    input: BatchInput,
    printer: PrinterView,
    skipInvalid: boolean,
    oversize?: Oversize,
  ): Promise<{ job: JobView; skipped: number[] }>;
  list(filter: JobFilter): Promise<JobView[]>;
  get(id: number): Promise<{ job: JobView; labels: LabelView[] }>;
  pause(id: number): Promise<JobView>;
  resume(id: number): Promise<JobView>;
  cancel(id: number): Promise<JobView>;
  skip(id: number, labels: number[]): Promise<JobView>;
  /** On `printer` when given (drawn again at its dpi), else the same bytes on the job's own printer. */
  reprint(id: number, labels?: number[], printer?: PrinterView): Promise<JobView>;
  /** While a job prints on this printer: its view of the printer (no second connection to ask). */
  printerStatus(printerId: string): PrinterStatusView | undefined;
  resumeUnfinished(): void;
  close(): Promise<void>;
}

/** One batch: its file's content, its template and its printer. */
function batchKey(input: BatchInput, printer: PrinterView): string {
  const csv = createHash('sha256')
    .update(input.csv ?? `${input.workbook?.sheet ?? ''}\n${input.workbook?.base64 ?? ''}`)
    .digest('hex');
  return `${csv} ${input.ref.source}/${input.ref.name} ${printer.id}`;
}

/** "No column feeds EAN-13 (required): choose its column." — one sentence for the mapping, not one per record. */
export function missingRequiredSentence(p: BatchPlan, template: Template): string {
  const labels = p.mapping.missingRequired.map(
    (name) => template.fields.find((f) => f.name === name)?.label ?? name,
  );
  const one = labels.length === 1;
  return `No column feeds ${labels.join(', ')} (required): choose ${one ? 'its column' : 'their columns'} before printing.`;
}

/** A document to an OS queue (its driver renders it); the spooler reports and retries from there. */
async function sendDocument(printer: PrinterView, pdf: Uint8Array, title: string): Promise<void> {
  const transport = createTransport(printer.uri, { cups: { contentType: 'pdf', title } });
  try {
    await transport.open({ timeoutMs: 10_000 });
    await transport.write(pdf, { timeoutMs: 60_000 });
  } finally {
    await transport.close().catch(() => undefined);
  }
}

export function createAppJobs(deps: {
  dataDir: string;
  printers: AppPrinters;
  rendering: Rendering;
  /** Whether labels of this template come from the hosted API (else the bundled engine resolves them). */
  isHosted: (ref: TemplateRef) => Promise<boolean>;
  /** Throws when this computer may not number the template's counters (the site server hands them out). */
  refuseLocalCounters: (template: Template, how: 'print' | 'batch') => Promise<void>;
  emit: (event: AppEvent) => void;
}): AppJobs {
  const service: JobService = openJobService({ dataDir: deps.dataDir });
  /** Printer URI → id and name, for views (jobs store URIs). */
  const names = new Map<string, { id: string; name: string }>();
  /** Printer id → what the job printing on it last said about the printer. */
  const busy = new Map<string, PrinterStatusView>();

  const refreshNames = async () => {
    for (const p of await deps.printers.list()) names.set(p.uri, { id: p.id, name: p.name });
  };
  // Names only make views friendlier (a job shows its URI until they are known): a failure here is not one.
  refreshNames().catch(() => undefined);

  const view = (job: JobDetail): JobView => ({
    id: job.id,
    state: job.state,
    reason: job.reason,
    template: job.templateName,
    printer: job.printer,
    printerId: names.get(job.printer)?.id ?? null,
    printerName: names.get(job.printer)?.name ?? job.printer,
    labelCount: job.labelCount,
    counts: job.counts,
    possibleDuplicates: job.possibleDuplicates,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    createdBy: job.createdBy,
    reprintOf: job.reprintOf,
    onIt: service.summary(job.id),
  });

  const detail = (id: number): JobDetail => {
    const job = service.getJob(id);
    if (!job) throw new IpcError('not-found', `There is no job ${id}.`);
    return job;
  };

  const setBusy = (id: string, state: PrinterStatusView['state'], message: string, announce: boolean) => {
    const status: PrinterStatusView = { printer: id, state, message, checkedAt: new Date().toISOString() };
    busy.set(id, status);
    if (announce) deps.emit({ kind: 'printer-status', status });
  };

  /** What a job's events say about its printer, while the job holds it. */
  const statusFromJob = (printer: string, event: JobServiceEvent): void => {
    const who = names.get(printer);
    if (!who) return;
    switch (event.kind) {
      case 'started':
      case 'resumed':
      case 'progress':
        setBusy(who.id, 'ready', 'Printing', event.kind !== 'progress');
        return;
      case 'paused':
        if (event.byUser) {
          // A person held the job: the printer itself is fine, and free for a status poll again.
          busy.delete(who.id);
          return;
        }
        setBusy(who.id, event.printerState ?? 'paused', `Job paused: ${event.reason}`, true);
        return;
      case 'connection-lost':
        setBusy(who.id, 'offline', `Connection lost (${event.reason}): retrying`, true);
        return;
      case 'done':
        busy.delete(who.id);
        return;
      default:
        return;
    }
  };

  service.onEvent((event) => {
    if (event.kind === 'error') {
      // The printer's worker stopped: its jobs stay unfinished; let the status poll ask the printer again.
      const who = names.get(event.printer);
      if (who) busy.delete(who.id);
      return;
    }
    if (!('jobId' in event)) return;
    const job = service.getJob(event.jobId);
    if (!job) return;
    statusFromJob(job.printer, event);
    const etaSeconds =
      event.kind === 'progress' && event.etaMs !== null ? Math.round(event.etaMs / 1000) : null;
    const message =
      event.kind === 'paused'
        ? `Paused: ${event.reason}`
        : event.kind === 'connection-lost'
          ? `Connection lost (${event.reason}); retrying`
          : event.kind === 'possible-duplicate'
            ? `Label ${event.labelNumber} was resent after a fault and may have printed twice`
            : null;
    deps.emit({ kind: 'job', job: view(job), etaSeconds, message });
  });

  /** The file as a table: CSV text, or a workbook's sheet read within its budgets (src/jobs/workbook.ts). */
  const tableOf = (input: BatchInput): string | SheetTable => {
    if (input.workbook === undefined) return input.csv ?? '';
    const { name, base64, sheet } = input.workbook;
    return readWorkbook(Buffer.from(base64, 'base64'), name, sheet);
  };

  const plan = async (
    input: BatchInput,
  ): Promise<{ plan: BatchPlan; template: Template; baseDir?: string; table: string | CsvTable }> => {
    const { template, baseDir } = await deps.rendering.entry(input.ref);
    try {
      const table = tableOf(input);
      const result = service.planBatch(table, template, {
        ...(input.mapping ? { map: input.mapping } : {}),
        ...(input.copiesColumn ? { copiesColumn: input.copiesColumn } : {}),
      });
      return { plan: result, template, table, ...(baseDir ? { baseDir } : {}) };
    } catch (e) {
      if (e instanceof BatchError) throw new IpcError('invalid', e.message);
      throw e;
    }
  };

  const planView = (p: BatchPlan, table: string | CsvTable, template: Template): BatchPlanView => {
    const mapping: Record<string, string> = {};
    for (const [field, column] of Object.entries(p.mapping.fields)) mapping[column] = field;
    const byName = new Map(template.fields.map((f) => [f.name, f]));
    const missing = new Set(p.mapping.missingRequired);
    const sheet = typeof table === 'string' ? null : ((table as Partial<SheetTable>).sheet ?? null);
    return {
      // The file's own order: choosing a field for a column moves nothing.
      columns: p.columns,
      mapping,
      copiesColumn: p.mapping.copiesColumn,
      fields: template.fields
        .filter((f) => f.type !== 'counter')
        .map((f) => ({ name: f.name, label: f.label })),
      unmappedFields: p.mapping.unmappedFields
        .filter((name) => !missing.has(name))
        .map((name) => ({
          name,
          label: byName.get(name)?.label ?? name,
          placeholder: byName.get(name)?.placeholder ?? '',
        })),
      missingRequired: p.mapping.missingRequired.map((name) => ({
        name,
        label: byName.get(name)?.label ?? name,
      })),
      sheets: sheet === null ? null : ((table as SheetTable).sheets ?? [sheet]),
      sheet,
      lineWord: p.lineWord,
      rows: p.totalRows,
      validRows: p.rows.length,
      labels: p.labelCount,
      problems: p.problems.map((x) => ({
        record: x.record,
        line: x.line,
        field: x.label ?? '(whole record)',
        value: x.value,
        problem: x.problem,
      })),
    };
  };

  /** Batches whose job is being created now, by `batchKey`. */
  const startingBatches = new Set<string>();

  const startBatchOnce = async (
    input: BatchInput,
    printer: PrinterView,
    skipInvalid: boolean,
    oversize: Oversize | undefined,
  ): Promise<{ job: JobView; skipped: number[] }> => {
    await refreshNames();
    if (printer.language === 'pdf') {
      throw new IpcError(
        'printer',
        `${printer.name} is an office printer queue: batches print label by label on label printers. Save the labels as PDF to print them there.`,
        null,
        'printers',
      );
    }
    const { plan: p, template, baseDir } = await plan(input);
    // A batch numbers its counters in the local job queue: not while the site server hands them out.
    await deps.refuseLocalCounters(template, 'batch');
    if (p.mapping.missingRequired.length) {
      throw new IpcError('invalid', missingRequiredSentence(p, template));
    }
    if (p.problems.length && !skipInvalid) {
      throw new IpcError(
        'invalid',
        `${p.badRecords.length} record${p.badRecords.length === 1 ? ' has' : 's have'} problems: fix the file, or print the valid records and skip them.`,
      );
    }
    if (!p.rows.length) throw new IpcError('invalid', 'No valid rows to print.');
    const { job } = await service.addJob({
      template,
      ...(baseDir ? { baseDir } : {}),
      printer: printer.uri,
      rows: p.rows.map((r) => ({ data: r.data, copies: r.copies, row: r.record })),
      skippedRows: p.badRecords,
      ...(oversize ? { oversize } : {}),
    });
    return { job: view(job), skipped: p.badRecords };
  };

  /** Prints being made now (their labels asked for, their job not yet added): template, values, copies, printer. */
  const startingPrints = new Set<string>();

  const printOnce: AppJobs['print'] = async (ref, values, copies, printer, oversize) => {
    await refreshNames();
    const entry = await deps.rendering.entry(ref);
    const { template, baseDir } = entry;
    const plural = `${copies} ${copies === 1 ? 'label' : 'labels'}`;
    if (printer.language === 'pdf') {
      // An office printer's queue: its driver prints documents, and the OS spooler tracks the job.
      const pdf = await deps.rendering.pdf(entry, await deps.rendering.markups(entry, ref, values, copies));
      await sendDocument(printer, pdf, template.name);
      return { job: null, message: `Sent ${plural} as one PDF to ${printer.name}.` };
    }
    // Hosted: the API resolves the labels (one call, counted as `copies` prints; the bundled engine stands in
    // when it is unreachable), and the job prints them at the printer's own dpi. `markups` checks the form's
    // rules; without it they are checked here.
    const markups = (await deps.isHosted(ref))
      ? await deps.rendering.markups(entry, ref, values, copies)
      : undefined;
    if (!markups) {
      checkLabel(template, values);
      await deps.refuseLocalCounters(template, 'print');
    }
    // With markups (hosted API, site server) the job prints them as given: its retries, resumes and reprints
    // send the same labels, and no counter is numbered here.
    const { job } = await service.addJob({
      template,
      ...(baseDir ? { baseDir } : {}),
      printer: printer.uri,
      rows: [{ data: filled(values) }],
      copies,
      ...(markups ? { markups } : {}),
      ...(oversize ? { oversize } : {}),
    });
    return { job: view(job), message: `Printing ${plural} on ${printer.name}.` };
  };

  return {
    async print(ref, values, copies, printer, oversize) {
      // The same label while its print is being made (a second click, a second window): one print, not two —
      // with the site server, each would reserve its own counter numbers.
      const key = JSON.stringify([ref.source, ref.name, values, copies, printer.id]);
      if (startingPrints.has(key)) {
        throw new IpcError(
          'conflict',
          `This label is already being sent to ${printer.name}: wait for its job (it prints it once).`,
        );
      }
      startingPrints.add(key);
      try {
        return await printOnce(ref, values, copies, printer, oversize);
      } finally {
        startingPrints.delete(key);
      }
    },
    async planBatch(input) {
      const { plan: p, template, table } = await plan(input);
      return planView(p, table, template);
    },
    async startBatch(input, printer, skipInvalid, oversize) {
      // The same file, template and printer while its job is being created: a second click, not a second batch.
      const key = batchKey(input, printer);
      if (startingBatches.has(key)) {
        throw new IpcError(
          'conflict',
          `This batch is already starting on ${printer.name}: wait for its job, it prints every record once.`,
        );
      }
      startingBatches.add(key);
      try {
        return await startBatchOnce(input, printer, skipInvalid, oversize);
      } finally {
        startingBatches.delete(key);
      }
    },
    async list(filter) {
      await refreshNames();
      let printer: string | undefined;
      if (filter.printer !== undefined) printer = (await deps.printers.get(filter.printer)).uri;
      const { state } = filter;
      return service
        .listJobs({
          ...(state ? { state } : {}),
          ...(printer ? { printer } : {}),
          ...(filter.template ? { templateName: filter.template } : {}),
          ...(filter.text ? { text: filter.text } : {}),
          limit: filter.limit ?? 200,
        })
        .map(view);
    },
    async get(id) {
      await refreshNames();
      const job = view(detail(id));
      const batch = detail(id).rowCount > 1;
      const labels = service.labels(id).map((l) => ({
        number: l.number,
        record: batch ? l.row : null,
        values: l.values.map(({ label, value }) => ({ label, value })),
        state: l.state,
        possibleDuplicate: l.possibleDuplicate,
        attempts: l.attempts,
        updatedAt: l.updatedAt,
      }));
      return { job, labels };
    },
    pause: async (id) => view(service.pause(id)),
    resume: async (id) => view(service.resume(id)),
    cancel: async (id) => view(service.cancel(id)),
    skip: async (id, labels) => view(service.skip(id, labels)),
    async reprint(id, labels, printer) {
      detail(id);
      if (printer?.language === 'pdf') {
        throw new IpcError(
          'printer',
          `${printer.name} is an office printer queue: labels are reprinted on label printers. Save the labels as PDF to print them there.`,
          null,
          'printers',
        );
      }
      return view(await service.reprint(id, labels, printer ? { printer: printer.uri } : {}));
    },
    async printZpl(name, printer, labels) {
      await refreshNames();
      const { job } = await service.addZplJob({ name, printer: printer.uri, labels });
      return view(job);
    },
    async printMarkups(ref, markups, printer) {
      await refreshNames();
      const entry = await deps.rendering.entry(ref);
      const plural = `${markups.length} ${markups.length === 1 ? 'label' : 'labels'}`;
      if (printer.language === 'pdf') {
        await sendDocument(printer, await deps.rendering.pdf(entry, markups), entry.template.name);
        return { job: null, message: `Sent ${plural} as one PDF to ${printer.name}.` };
      }
      const { job } = await service.addJob({
        template: entry.template,
        ...(entry.baseDir ? { baseDir: entry.baseDir } : {}),
        printer: printer.uri,
        rows: [{ data: {} }],
        copies: markups.length,
        markups,
      });
      return { job: view(job), message: `Printing ${plural} again on ${printer.name}.` };
    },
    printerStatus: (id) => busy.get(id),
    // A job that cannot be resumed now stays listed as unfinished; History resumes it later.
    resumeUnfinished: () => void service.resumeAll().catch(() => undefined),
    close: () => service.close(),
  };
}
