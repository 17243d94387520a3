/**
 * The job service's API (src/node/jobs/job-service.ts implements it): what the CLI and the desktop app code against.
 * Events are plain JSON objects (src/jobs/events.ts), so they can cross IPC as they are.
 */
import { KindedError } from '../../base/error-kind';
import type { FitCheck, Oversize } from '../../outputs/fit';
import type { Clock } from '../../base/clock';
import type { BatchOptions, BatchPlan, CsvTable } from '../../jobs/batch';
import type { JobServiceEvent } from '../../jobs/events';
import type { Label, LabelCounts } from '../../jobs/model';
import type { WorkerTiming } from '../../jobs/worker';
import type { RenderPorts } from '../../outputs/render';
import type { PrinterTransport } from '../../printers/transport';
import type { ApiData } from '../../resolve/resolve';
import type { Markup, Template } from '../../model/schema';
import type { RenderLabels } from './label-renderer';
import type { AuditEntry, AuditFilter } from './sqlite-audit-log';
import type { JobFilter, JobSummary } from './sqlite-job-store';

export type { JobServiceEvent } from '../../jobs/events';
export type { AuditEntry, AuditFilter } from './sqlite-audit-log';
export type { JobFilter, JobSummary } from './sqlite-job-store';

/** A request the service refuses (a job in the wrong state, a label number out of range): for people. */
export class JobRequestError extends KindedError {
  override name = 'JobRequestError';
  get kind() {
    return 'job-refused' as const;
  }
}

/**
 * A label wider than the printer's head (or longer than its labels), and nobody said what to do (#42 item 1):
 * `problem` names both sizes ("packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832
 * dots) at 203 dpi"); each edge adds how its user chooses (the CLI's --fit / --allow-cut, the app's question).
 */
export class LabelDoesNotFit extends JobRequestError {
  override name = 'LabelDoesNotFit';
  constructor(
    readonly problem: string,
    readonly check: FitCheck,
  ) {
    super(`${problem}: choose to scale it to fit, or to print it cut`);
  }
}

export interface JobServiceOptions {
  /** Where jobs.sqlite (jobs, labels, counters, audit log) and printer-profiles.json live. */
  dataDir: string;
  /** An open transport for a printer URI; rejects with a PrinterError. Default: TCP/USB/serial/CUPS/file. */
  openTransport?: (printer: string) => Promise<PrinterTransport>;
  /** Render ports for templates whose relative image paths start in `baseDir`. Default: Node's. */
  renderPorts?: (baseDir: string | undefined) => RenderPorts;
  /** Markup → ZPL per label. Default: the engine's renderZplLabels. */
  renderLabels?: RenderLabels;
  /** Milliseconds and sleeping, injected so tests can run the clock. Default: the system clock. */
  clock?: Clock;
  /** Who is acting, for jobs and the audit log. Default: the OS user. */
  user?: string;
  /** Default: os.hostname(). */
  machine?: string;
  timing?: Partial<WorkerTiming>;
  /** Labels rendered at a time (default 50). */
  chunkSize?: number;
}

/** One data row of a new job. */
export interface JobRowInput {
  data: ApiData;
  /** Copies of this row (default: the request's `copies`). */
  copies?: number;
  /** The CSV record it came from (1 = the first after the header), for reports. */
  row?: number;
}

export interface NewJob {
  template: Template;
  /** Folder of the template file: relative image paths start here. */
  baseDir?: string;
  printer: string;
  rows: readonly JobRowInput[];
  /** Copies per row when the row does not say (default 1). */
  copies?: number;
  /** Render at this dpi; default: printer profile, else asked from the printer, else 203 (src/node/printers/setup.ts). */
  dpi?: number;
  /** Default: the service's user. */
  user?: string;
  /** CSV records left out as invalid, for the audit log. */
  skippedRows?: readonly number[];
  /** Start printing right away in the background (default true). */
  start?: boolean;
  /**
   * A label wider than the printer's head (or longer than its labels): `fit`, `rotate` (when turned it fits)
   * or `cut`. Without it such a label is refused with LabelDoesNotFit (src/outputs/fit.ts decides).
   */
  oversize?: Oversize;
  /**
   * The labels as the hosted API resolved them (fetch-markups), one per label, in order: printed as given
   * (at the printer's dpi), instead of resolving `template` with `rows`. Their count must equal the labels
   * the rows and copies make. Counter fields are not numbered for such a job: the hosted API decided the text.
   */
  markups?: readonly Markup[];
}

/** A ZPL file printed as it came (`labeldesk print --zpl`): one job label per `^XA…^XZ`, its bytes unchanged. */
export interface NewZplJob {
  /** The file's name, shown where a template's name is. */
  name: string;
  printer: string;
  /** Each label's bytes (src/zpl/print-plan.ts) and its `^PQ` copies. */
  labels: readonly { bytes: Uint8Array; copies: number }[];
  dpi?: number;
  user?: string;
  start?: boolean;
}

export interface JobDetail extends JobSummary {
  counts: LabelCounts;
  possibleDuplicates: number[];
  /** Label numbers of the original job, for a reprint. */
  reprintedLabels: number[] | null;
}

export interface JobLabel extends Label {
  /** The CSV record (or 1-based row) the label was made from; null for a job without rows. */
  row: number | null;
  /** Counter values printed on it, formatted, by field name. */
  counters: Record<string, string>;
  /** What is on it as typed (its row's data and its counters): non-empty values in the template's field order. */
  values: { field: string; label: string; value: string }[];
  /** For a reprint: the label number in the original job. */
  reprintOf: number | null;
}

export interface JobService {
  /** Parses, maps and checks a batch: CSV text or a sheet's table (nothing is stored or printed). Throws BatchError. */
  planBatch(input: string | CsvTable, template: Template, options?: BatchOptions): BatchPlan;
  /** Stores a job (reserving its counter numbers) and, unless `start: false`, prints it in the background. */
  addJob(request: NewJob): Promise<{ job: JobDetail; warnings: string[] }>;
  /** Stores a ZPL file's labels as a job (their bytes sent unchanged) and, unless `start: false`, prints it. */
  addZplJob(request: NewZplJob): Promise<{ job: JobDetail; warnings: string[] }>;
  /** Runs a printer's queue (URI) or one job (id) in the background; resolves when that worker is idle. */
  start(target: string | number): Promise<void>;
  /** Continues every interrupted job (not those paused by a person), one worker per printer. */
  resumeAll(): Promise<void>;
  /** Holds a job: its worker stops after the label in flight. */
  pause(jobId: number): JobDetail;
  /** Continues a held or paused job in the background. */
  resume(jobId: number): JobDetail;
  /** Cancels an unfinished job: labels not yet sent stay unprinted; its counter numbers are burned. */
  cancel(jobId: number): JobDetail;
  /**
   * Gives up on labels not yet sent (a label that cannot be rendered holds its job until then): they are marked
   * `failed` and never print; the rest of the job continues unless a person holds it for another reason.
   */
  skip(jobId: number, labels: readonly number[]): JobDetail;
  /**
   * A new job of the whole job or the given label numbers, printed in the background: the same bytes on the
   * job's printer; on `printer` (another URI), the same labels (values, counter numbers) drawn again at that
   * printer's dpi and settings.
   */
  reprint(
    jobId: number,
    labels?: readonly number[],
    options?: {
      start?: boolean;
      printer?: string;
      /** On another printer: render at this dpi (default: its profile, else asked, else 203 with a warning). */
      dpi?: number;
      /** What the caller should tell the user (the dpi detected, or guessed for a printer that did not answer). */
      warn?: (warning: string) => void;
    },
  ): Promise<JobDetail>;
  listJobs(filter?: JobFilter): JobDetail[];
  getJob(jobId: number): JobDetail | undefined;
  labels(jobId: number): JobLabel[];
  /** What is on a job in short: the first one or two non-empty values of its first label, labelled. */
  summary(jobId: number): { label: string; value: string }[];
  audit(filter?: AuditFilter): AuditEntry[];
  onEvent(listener: (event: JobServiceEvent) => void): () => void;
  /** Resolves when no printer's worker is running. */
  idle(): Promise<void>;
  /** Stops the workers at their next wait (jobs stay unfinished, resumed next time) and closes the store. */
  close(): Promise<void>;
}
