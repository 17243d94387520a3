/**
 * The Batch screen: a CSV file (read as text here) or a workbook (.xlsx, .ods: its bytes, sent to main in base64
 * within the size budget checked before reading; main reads it), a template and a printer; `batch.plan` says
 * how columns feed fields and which rows main refuses; `batch.start` prints, and the job's events drive the
 * progress.
 */
import { createStore } from 'zustand/vanilla';
import type { BatchPlanView, JobView, LabelDeskApi, PrintFit, TemplateRef } from '../../../src/ipc/contract';
import type { Oversize } from '../../../src/outputs/fit';
import { toUserError, type UserError } from '../ipc/user-error';

export interface BatchState {
  fileName: string | null;
  csv: string | null;
  /** A workbook's bytes in base64 (instead of `csv`), and the sheet chosen (null: the first). */
  workbook: string | null;
  sheet: string | null;
  ref: TemplateRef | null;
  printer: string | null;
  /** Column → field choices the user made (sent as `mapping`). */
  mapping: Record<string, string>;
  copiesColumn: string | null;
  plan: BatchPlanView | null;
  planning: boolean;
  jobId: number | null;
  starting: boolean;
  error: UserError | null;

  setFile(fileName: string, csv: string): Promise<void>;
  setWorkbook(fileName: string, base64: string): Promise<void>;
  /** A problem with the picked file found before sending it (too large). */
  refuseFile(fileName: string, message: string): void;
  setSheet(sheet: string): Promise<void>;
  setTemplate(ref: TemplateRef | null): Promise<void>;
  setPrinter(printer: string | null): void;
  mapColumn(column: string, field: string): Promise<void>;
  setCopiesColumn(column: string | null): Promise<void>;
  replan(): Promise<void>;
  /**
   * Prints; with rows that have problems only when `skipInvalid` (the user confirmed skipping them). A label
   * wider than the printer's head waits for the user's choice (`confirmingOversize`), given again as `oversize`
   * (#42 item 1).
   */
  start(options?: { skipInvalid?: boolean; oversize?: Oversize }): Promise<JobView | null>;
  /** The batch's label is wider than the printer: what print.fit said, and the skip already confirmed. */
  confirmingOversize: { fit: PrintFit; skipInvalid: boolean } | null;
  cancelOversizeConfirm(): void;
  reset(): void;
}

/**
 * Why printing cannot start yet, or null when it can. Rows with problems do not block: the button prints the
 * valid rows after a confirmation that names the others.
 */
export function startBlocker(
  state: Pick<BatchState, 'csv' | 'workbook' | 'ref' | 'printer' | 'plan' | 'planning'>,
): string | null {
  if (state.csv === null && state.workbook === null) return 'Choose a file.';
  if (!state.ref) return 'Choose a template.';
  if (!state.printer) return 'Choose a printer.';
  if (state.planning || !state.plan) return 'Checking the file…';
  const missing = state.plan.missingRequired;
  if (missing.length > 0) {
    return `Choose the column for ${missing.map((f) => f.label).join(', ')} first.`;
  }
  if (state.plan.validRows === 0) return 'No row can be printed: fix the file and choose it again.';
  return null;
}

/** The records a batch with problems skips, as people read them: "4, 9 and 17". */
export function skippedRecords(plan: BatchPlanView): number[] {
  return [...new Set(plan.problems.map((p) => p.record))].sort((a, b) => a - b);
}

/** `4`, `4 and 9`, `4, 9 and 17`. */
export function listNumbers(numbers: readonly number[]): string {
  if (numbers.length <= 1) return numbers.join('');
  return `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/** Rows with at least one problem. */
export function invalidRowCount(plan: BatchPlanView): number {
  return plan.rows - plan.validRows;
}

/**
 * @param jobActive whether a job is still queued, printing, paused or held (so its batch is not started twice).
 */
/** What a new file starts from. */
const freshFile = {
  csv: null,
  workbook: null,
  sheet: null,
  mapping: {},
  copiesColumn: null,
  plan: null,
  jobId: null,
  confirmingOversize: null,
} satisfies Partial<BatchState>;

export function createBatchStore(
  api: LabelDeskApi,
  trackJob: (job: JobView) => void,
  jobActive: (id: number) => boolean = () => false,
) {
  let planSeq = 0;
  return createStore<BatchState>()((set, get) => {
    const input = () => {
      const { ref, csv, workbook, fileName, sheet, mapping, copiesColumn } = get();
      if (!ref || (csv === null && workbook === null)) return null;
      return {
        ref,
        ...(workbook !== null
          ? { workbook: { name: fileName ?? 'workbook', base64: workbook, ...(sheet ? { sheet } : {}) } }
          : { csv: csv ?? '' }),
        ...(Object.keys(mapping).length ? { mapping } : {}),
        ...(copiesColumn ? { copiesColumn } : {}),
      };
    };
    return {
      fileName: null,
      csv: null,
      workbook: null,
      sheet: null,
      ref: null,
      printer: null,
      mapping: {},
      copiesColumn: null,
      plan: null,
      planning: false,
      jobId: null,
      starting: false,
      error: null,

      setFile: async (fileName, csv) => {
        set({ ...freshFile, fileName, csv });
        await get().replan();
      },
      setWorkbook: async (fileName, workbook) => {
        set({ ...freshFile, fileName, workbook });
        await get().replan();
      },
      refuseFile: (fileName, message) => {
        planSeq++;
        set({ ...freshFile, fileName, error: { code: 'client', message, field: null, action: null } });
      },
      setSheet: async (sheet) => {
        // Another sheet has other columns: the choices made for this one do not carry over.
        set({ sheet, mapping: {}, copiesColumn: null, plan: null });
        await get().replan();
      },
      setTemplate: async (ref) => {
        set({ ref, mapping: {}, plan: null });
        await get().replan();
      },
      setPrinter: (printer) => set({ printer }),
      mapColumn: async (column, field) => {
        // One column per field: another column the user had chosen for this field feeds nothing now.
        const mapping = Object.fromEntries(
          Object.entries(get().mapping).filter(([c, f]) => c !== column && (field === '' || f !== field)),
        );
        set({ mapping: { ...mapping, [column]: field } });
        await get().replan();
      },
      setCopiesColumn: async (copiesColumn) => {
        set({ copiesColumn });
        await get().replan();
      },
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
      start: async ({
        skipInvalid = false,
        oversize,
      }: { skipInvalid?: boolean; oversize?: Oversize } = {}) => {
        const request = input();
        const { printer, starting, jobId, plan } = get();
        // A second click while the first starts, or while its job prints, must not print the batch again.
        if (starting || (jobId !== null && jobActive(jobId))) return null;
        if (!request || !printer || startBlocker(get())) return null;
        // Rows with problems print only when the user confirmed skipping them.
        if (plan && plan.problems.length > 0 && !skipInvalid) return null;
        set({ starting: true, error: null, confirmingOversize: null });
        try {
          // A label wider than the printer's head is never cut without the user's choice.
          if (oversize === undefined) {
            const fit = await api.invoke('print.fit', { ref: request.ref, values: {}, printer });
            if (!fit.fits) {
              set({ confirmingOversize: { fit, skipInvalid } });
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
      reset: () => set({ ...freshFile, fileName: null, error: null }),
    };
  });
}

export type BatchStore = ReturnType<typeof createBatchStore>;
