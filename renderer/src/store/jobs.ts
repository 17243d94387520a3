/**
 * Print jobs: the live ones (submitted here or updated by `job` events, for toasts and the batch progress
 * bar) and the History screen's list, filter, selected job with its labels, and reprints.
 */
import { createStore } from 'zustand/vanilla';
import type { JobFilter, JobView, LabelDeskApi, LabelView } from '../../../src/ipc/contract';
import { assertNever } from '../../../src/base/assert-never';
import { toUserError, type UserError } from '../ipc/user-error';

export interface LiveJob {
  job: JobView;
  etaSeconds: number | null;
  /** Main's sentence about the job now (a printer fault it waits on, say). */
  message: string | null;
}

export interface HistoryFilter {
  /** '' for every state. */
  state: JobFilter['state'] | '';
  printer: string;
  text: string;
}

export interface JobsState {
  live: Record<number, LiveJob>;
  list: JobView[];
  listLoaded: boolean;
  filter: HistoryFilter;
  selected: { job: JobView; labels: LabelView[] } | null;
  /** Label numbers ticked for a reprint. */
  picked: number[];
  /** A reprint request is in flight (a second click must not reprint twice). */
  reprinting: boolean;
  error: UserError | null;

  /**
   * Records a job's newest state (`etaSeconds` omitted: keep the last estimate): a job the history does not
   * list yet and its filter admits is added; the open job's labels are asked again (throttled).
   */
  track(job: JobView, etaSeconds?: number | null, message?: string | null): void;
  loadList(): Promise<void>;
  setFilter(patch: Partial<HistoryFilter>): void;
  open(id: number): Promise<void>;
  close(): void;
  togglePick(label: number): void;
  setPicked(labels: number[]): void;
  /** The whole job or `labels` again: on the job's printer, or on `printer` (another printer's id). */
  reprint(id: number, labels?: number[], printer?: string): Promise<JobView | null>;
  control(action: 'pause' | 'resume' | 'cancel', id: number): Promise<void>;
  /** Gives up on one label (one that cannot be rendered holds its job until it is skipped). */
  skip(id: number, label: number): Promise<void>;
}

export const ACTIVE_JOB_STATES: ReadonlySet<JobView['state']> = new Set([
  'queued',
  'printing',
  'paused',
  'held',
]);

/** How main ends the reason of a job held on a label that cannot be rendered (src/jobs/worker.ts). */
export const SKIP_OR_CANCEL = 'skip that label to print the others, or cancel the job';

/**
 * The label a job is held on because it cannot be rendered ("label 5 (record 5) cannot be printed: …; skip
 * that label to print the others, or cancel the job"), else null.
 */
export function heldOnLabel(job: Pick<JobView, 'state' | 'reason'>): number | null {
  if (job.state !== 'held' || !job.reason?.endsWith(SKIP_OR_CANCEL)) return null;
  const m = /^label (\d+)\b/.exec(job.reason);
  return m ? Number(m[1]) : null;
}

/** Jobs that hold a printer: sending, waiting their turn, or stopped by the printer (paper out). */
const PRINTING_STATES: ReadonlySet<JobView['state']> = new Set(['queued', 'printing', 'paused']);

/**
 * The printer a job is printing on now (the most recently updated such job; one a person paused does not
 * count), else null: the header shows it rather than the Print screen's choice while, say, a batch prints
 * elsewhere or waits there for paper.
 */
export function printingPrinter(live: Record<number, LiveJob>): string | null {
  let newest: JobView | null = null;
  for (const { job } of Object.values(live)) {
    if (!PRINTING_STATES.has(job.state) || job.printerId === null) continue;
    if (!newest || job.updatedAt > newest.updatedAt) newest = job;
  }
  return newest?.printerId ?? null;
}

/** Labels handled so far (sent or confirmed, or failed for good). */
export function jobProgress(job: JobView): { done: number; total: number; fraction: number } {
  const done = job.counts.sent + job.counts.confirmed + job.counts.failed;
  const total = job.labelCount;
  return { done, total, fraction: total > 0 ? Math.min(1, done / total) : 0 };
}

/**
 * How a job reads wherever it is shown (the Batch screen, History, the job notes) — one word for its state in
 * the badge, the note and the button, never "Held" in one place and "Printing…" in another: `button` null means no progress button (a
 * paused job's button is Resume, in its controls).
 */
export function jobRunStatus(job: JobView): {
  badge: string;
  tone: 'neutral' | 'accent' | 'warn' | 'ok' | 'bad';
  note: string | null;
  button: string | null;
} {
  const progress = jobProgress(job);
  const of = `${progress.done} of ${progress.total}`;
  switch (job.state) {
    case 'queued':
      return {
        badge: 'Queued',
        tone: 'neutral',
        note: `Waits for the job before it on ${job.printerName}.`,
        button: `Queued… ${of}`,
      };
    case 'printing':
      return { badge: 'Printing', tone: 'accent', note: null, button: `Printing… ${of}` };
    case 'paused':
      return {
        badge: 'Waiting for printer',
        tone: 'warn',
        note: `${capitalise(job.reason ?? 'The printer is not ready')}: printing goes on by itself when ${job.printerName} is ready (${of} labels printed).`,
        button: `Waiting for printer… ${of}`,
      };
    case 'held':
      return heldOnLabel(job) !== null
        ? { badge: 'Stopped', tone: 'bad', note: capitalise(job.reason ?? ''), button: null }
        : { badge: 'Paused', tone: 'warn', note: `Paused by you after ${of} labels.`, button: null };
    case 'done':
      return { badge: 'Done', tone: 'ok', note: null, button: null };
    case 'cancelled':
      return { badge: 'Cancelled', tone: 'neutral', note: `Cancelled after ${of} labels.`, button: null };
    case 'failed':
      return { badge: 'Failed', tone: 'bad', note: job.reason ? capitalise(job.reason) : null, button: null };
    default:
      return assertNever(job.state, 'job state');
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `1 min 5 s`, `12 s`. */
export function formatEta(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

/** At most one `jobs.get` per this many ms for the open job while its events stream in. */
export const LABELS_REFRESH_MS = 500;

/** Whether the history's filter admits a job (for jobs learnt from events, not from `jobs.list`). */
export function filterAdmits(filter: HistoryFilter, job: JobView): boolean {
  if (filter.state && job.state !== filter.state) return false;
  if (filter.printer && job.printerId !== filter.printer) return false;
  const text = filter.text.trim().toLowerCase();
  if (text && !`${job.id} ${job.template} ${job.printerName}`.toLowerCase().includes(text)) return false;
  return true;
}

/** The newer of two views of one job. */
const newer = (a: JobView, b: JobView): JobView => (b.updatedAt > a.updatedAt ? b : a);

/** The list with `job` inserted before the first older job (the list is newest first). */
function insertJob(list: JobView[], job: JobView): JobView[] {
  const at = list.findIndex((j) => j.id < job.id);
  return at < 0 ? [...list, job] : [...list.slice(0, at), job, ...list.slice(at)];
}

function toRequest(filter: HistoryFilter): JobFilter {
  return {
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.printer ? { printer: filter.printer } : {}),
    ...(filter.text.trim() ? { text: filter.text.trim() } : {}),
    limit: 200,
  };
}

export function createJobsStore(
  api: LabelDeskApi,
  onError: (error: UserError) => void,
  labelsRefreshMs = LABELS_REFRESH_MS,
) {
  let listSeq = 0;
  let openSeq = 0;
  let labelsTimer: ReturnType<typeof setTimeout> | undefined;
  let labelsAskedAt = -Infinity;
  return createStore<JobsState>()((set, get) => {
    /** Asks the open job's labels again, at most once per `labelsRefreshMs`; events in between coalesce. */
    const refreshLabelsSoon = () => {
      if (labelsTimer !== undefined) return;
      const wait = Math.max(0, labelsAskedAt + labelsRefreshMs - Date.now());
      labelsTimer = setTimeout(() => {
        labelsTimer = undefined;
        const id = get().selected?.job.id;
        if (id === undefined) return;
        labelsAskedAt = Date.now();
        const mine = openSeq;
        void api.invoke('jobs.get', { id }).then(
          ({ job, labels }) => {
            const selected = get().selected;
            if (mine !== openSeq || selected?.job.id !== id) return;
            set({ selected: { job: newer(selected.job, job), labels } });
          },
          () => undefined, // the next event asks again; a failed refresh keeps what is shown
        );
      }, wait);
    };

    return {
      live: {},
      list: [],
      listLoaded: false,
      filter: { state: '', printer: '', text: '' },
      selected: null,
      picked: [],
      reprinting: false,
      error: null,

      track: (job, etaSeconds, message) => {
        const previous = get().live[job.id];
        if (previous && previous.job.updatedAt > job.updatedAt) return;
        const live: LiveJob = {
          job,
          etaSeconds: etaSeconds === undefined ? (previous?.etaSeconds ?? null) : etaSeconds,
          message: message === undefined ? (previous?.message ?? null) : message,
        };
        const patch: Partial<JobsState> = { live: { ...get().live, [job.id]: live } };
        const { list, listLoaded, filter, selected } = get();
        if (list.some((j) => j.id === job.id)) {
          patch.list = list.map((j) => (j.id === job.id ? newer(j, job) : j));
        } else if (listLoaded && filterAdmits(filter, job)) {
          patch.list = insertJob(list, job);
        }
        if (selected?.job.id === job.id) patch.selected = { ...selected, job: newer(selected.job, job) };
        set(patch);
        if (selected?.job.id === job.id) refreshLabelsSoon();
      },
      loadList: async () => {
        const mine = ++listSeq;
        try {
          const list = await api.invoke('jobs.list', toRequest(get().filter));
          if (mine === listSeq) set({ list, listLoaded: true, error: null });
        } catch (e) {
          if (mine === listSeq) set({ listLoaded: true, error: toUserError(e) });
        }
      },
      setFilter: (patch) => {
        set({ filter: { ...get().filter, ...patch } });
        void get().loadList();
      },
      open: async (id) => {
        const mine = ++openSeq;
        try {
          const selected = await api.invoke('jobs.get', { id });
          if (mine === openSeq) set({ selected, picked: [], error: null });
        } catch (e) {
          if (mine === openSeq) set({ error: toUserError(e) });
        }
      },
      close: () => {
        openSeq++;
        set({ selected: null, picked: [] });
      },
      togglePick: (label) => {
        const picked = get().picked;
        set({ picked: picked.includes(label) ? picked.filter((n) => n !== label) : [...picked, label] });
      },
      setPicked: (picked) => set({ picked }),
      reprint: async (id, labels, printer) => {
        if (get().reprinting) return null;
        set({ reprinting: true });
        try {
          const { job } = await api.invoke('jobs.reprint', {
            id,
            ...(labels?.length ? { labels } : {}),
            ...(printer ? { printer } : {}),
          });
          get().track(job);
          set({ picked: [] });
          await get().loadList();
          return job;
        } catch (e) {
          onError(toUserError(e));
          return null;
        } finally {
          set({ reprinting: false });
        }
      },
      control: async (action, id) => {
        try {
          const channel =
            action === 'pause' ? 'jobs.pause' : action === 'resume' ? 'jobs.resume' : 'jobs.cancel';
          get().track(await api.invoke(channel, { id }));
        } catch (e) {
          onError(toUserError(e));
        }
      },
      skip: async (id, label) => {
        try {
          get().track(await api.invoke('jobs.skip', { id, labels: [label] }));
        } catch (e) {
          onError(toUserError(e));
        }
      },
    };
  });
}

export type JobsStore = ReturnType<typeof createJobsStore>;
