/**
 * The Batch screen: a CSV file (read as text here), a template and a printer; `batch.plan` says how columns
 * feed fields and which rows main refuses; `batch.start` prints, and the job's events drive the progress.
 */
import { createStore } from 'zustand/vanilla';
import type { BatchPlanView, JobView, LabelDeskApi, PrintFit, TemplateRef } from '../../../src/ipc/contract';
import type { Oversize } from '../../../src/outputs/fit';
import { toUserError, type UserError } from '../ipc/user-error';

export interface BatchState {
  fileName: string | null;
  csv: string | null;
  ref: TemplateRef | null;
  printer: string | null;
  /** Column → field choices the user made (sent as `mapping`). */
  mapping: Record<string, string>;
  copiesColumn: string | null;
  plan: BatchPlanView | null;
  planning: boolean;
  /** The user agreed to print only the valid rows. */
  skipInvalid: boolean;
  jobId: number | null;
  starting: boolean;
  error: UserError | null;

  setFile(fileName: string, csv: string): Promise<void>;
  setTemplate(ref: TemplateRef | null): Promise<void>;
  setPrinter(printer: string | null): void;
  mapColumn(column: string, field: string): Promise<void>;
  setCopiesColumn(column: string | null): Promise<void>;
  setSkipInvalid(skip: boolean): void;
  replan(): Promise<void>;
  /**
   * Starts the batch; a label wider than the printer's head waits for the user's choice (`confirmingOversize`),
   * given again as `oversize` (#42 item 1).
   */
  start(oversize?: Oversize): Promise<JobView | null>;
  /** The batch's label is wider than the printer: what print.fit said, while the user chooses. */
  confirmingOversize: PrintFit | null;
  cancelOversizeConfirm(): void;
  reset(): void;
}

/** Why printing cannot start yet, or null when it can. */
export function startBlocker(
  state: Pick<BatchState, 'csv' | 'ref' | 'printer' | 'plan' | 'skipInvalid' | 'planning'>,
): string | null {
  if (!state.csv) return 'Choose a CSV file.';
  if (!state.ref) return 'Choose a template.';
  if (!state.printer) return 'Choose a printer.';
  if (state.planning || !state.plan) return 'Checking the file…';
  if (state.plan.validRows === 0) return 'No row can be printed: fix the file and choose it again.';
  if (state.plan.problems.length > 0 && !state.skipInvalid) {
    return 'Some rows have problems: fix the file, or choose to skip those rows.';
  }
  return null;
}

/** Rows with at least one problem. */
export function invalidRowCount(plan: BatchPlanView): number {
  return plan.rows - plan.validRows;
}

/**
 * @param jobActive whether a job is still queued, printing, paused or held (so its batch is not started twice).
 */
export function createBatchStore(
  api: LabelDeskApi,
  trackJob: (job: JobView) => void,
  jobActive: (id: number) => boolean = () => false,
) {
  let planSeq = 0;
  return createStore<BatchState>()((set, get) => {
    const input = () => {
      const { ref, csv, mapping, copiesColumn } = get();
      if (!ref || csv === null) return null;
      return {
        ref,
        csv,
        ...(Object.keys(mapping).length ? { mapping } : {}),
        ...(copiesColumn ? { copiesColumn } : {}),
      };
    };
    return {
      fileName: null,
      csv: null,
      ref: null,
      printer: null,
      mapping: {},
      copiesColumn: null,
      plan: null,
      planning: false,
      skipInvalid: false,
      jobId: null,
      starting: false,
      error: null,

      setFile: async (fileName, csv) => {
        set({ fileName, csv, mapping: {}, copiesColumn: null, plan: null, skipInvalid: false, jobId: null });
        await get().replan();
      },
      setTemplate: async (ref) => {
        set({ ref, mapping: {}, plan: null, skipInvalid: false });
        await get().replan();
      },
      setPrinter: (printer) => set({ printer }),
      mapColumn: async (column, field) => {
        set({ mapping: { ...get().mapping, [column]: field } });
        await get().replan();
      },
      setCopiesColumn: async (copiesColumn) => {
        set({ copiesColumn });
        await get().replan();
      },
      setSkipInvalid: (skipInvalid) => set({ skipInvalid }),
      replan: async () => {
        const request = input();
        const mine = ++planSeq;
        if (!request) return;
        set({ planning: true, error: null });
        try {
          const plan = await api.invoke('batch.plan', request);
          if (mine === planSeq) set({ plan, planning: false });
        } catch (e) {
          if (mine === planSeq) set({ plan: null, planning: false, error: toUserError(e) });
        }
      },
      confirmingOversize: null,
      cancelOversizeConfirm: () => set({ confirmingOversize: null }),
      start: async (oversize) => {
        const request = input();
        const { printer, skipInvalid, starting, jobId } = get();
        // A second click while the first starts, or while its job prints, must not print the batch again.
        if (starting || (jobId !== null && jobActive(jobId))) return null;
        if (!request || !printer || startBlocker(get())) return null;
        set({ starting: true, error: null, confirmingOversize: null });
        try {
          // A label wider than the printer's head is never cut without the user's choice.
          if (oversize === undefined) {
            const fit = await api.invoke('print.fit', { ref: request.ref, values: {}, printer });
            if (!fit.fits) {
              set({ confirmingOversize: fit });
              return null;
            }
          }
          const { job } = await api.invoke('batch.start', {
            ...request,
            printer,
            skipInvalid,
            ...(oversize ? { oversize } : {}),
          });
          trackJob(job);
          set({ jobId: job.id });
          return job;
        } catch (e) {
          set({ error: toUserError(e) });
          return null;
        } finally {
          set({ starting: false });
        }
      },
      reset: () =>
        set({
          fileName: null,
          csv: null,
          mapping: {},
          copiesColumn: null,
          plan: null,
          skipInvalid: false,
          jobId: null,
          error: null,
          confirmingOversize: null,
        }),
    };
  });
}

export type BatchStore = ReturnType<typeof createBatchStore>;
