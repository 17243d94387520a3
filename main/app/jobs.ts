/**
 * Print jobs for the app: every print (one label or a CSV batch) is a job in the job store, printed label by
 * label by a per-printer worker (main/jobs), so paper out, a pulled cable or a crash never lose or silently
 * duplicate a label. Job progress reaches the renderer as `job` events.
 */
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
import type { AppPrinters } from './printers';
import type { Rendering } from './rendering';
import type { AppTemplates } from './templates';

export interface AppJobs {
  print(ref: TemplateRef, values: FieldValues, copies: number, printer: PrinterView): Promise<JobView>;
  planBatch(input: BatchInput): Promise<BatchPlanView>;
  startBatch(
    input: BatchInput,
    printer: PrinterView,
    skipInvalid: boolean,
  ): Promise<{ job: JobView; skipped: number[] }>;
  list(filter: JobFilter): Promise<JobView[]>;
  get(id: number): Promise<{ job: JobView; labels: LabelView[] }>;
  pause(id: number): Promise<JobView>;
  resume(id: number): Promise<JobView>;
  cancel(id: number): Promise<JobView>;
  reprint(id: number, labels?: number[]): Promise<JobView>;
  /** While a job prints on this printer: its view of the printer (no second connection to ask). */
  printerStatus(printerId: string): PrinterStatusView | undefined;
  resumeUnfinished(): void;
  close(): Promise<void>;
}

export function createAppJobs(_deps: {
  dataDir: string;
  templates: AppTemplates;
  printers: AppPrinters;
  rendering: Rendering;
  emit: (event: AppEvent) => void;
}): AppJobs {
  const notYet = async (): Promise<never> => {
    throw new IpcError('internal', 'Print jobs are not wired yet.');
  };
  return {
    print: notYet,
    planBatch: notYet,
    startBatch: notYet,
    list: async () => [],
    get: notYet,
    pause: notYet,
    resume: notYet,
    cancel: notYet,
    reprint: notYet,
    printerStatus: () => undefined,
    resumeUnfinished: () => undefined,
    close: async () => undefined,
  };
}
