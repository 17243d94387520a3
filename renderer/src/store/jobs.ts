/**
 * Print jobs: the live ones (submitted here or updated by `job` events, for toasts and the batch progress
 * bar) and the History screen's list, filter, selected job with its labels, and reprints.
 */
import { createStore } from 'zustand/vanilla';
import type { JobFilter, JobView, LabelDeskApi, LabelView } from '../../../src/ipc/contract';
import { toUserError, type UserError } from '../api/user-error';

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
  error: UserError | null;

  /** Records a job's newest state (`etaSeconds` omitted: keep the last estimate). */
  track(job: JobView, etaSeconds?: number | null, message?: string | null): void;
  loadList(): Promise<void>;
  setFilter(patch: Partial<HistoryFilter>): void;
  open(id: number): Promise<void>;
  close(): void;
  togglePick(label: number): void;
  setPicked(labels: number[]): void;
  reprint(id: number, labels?: number[]): Promise<JobView | null>;
  control(action: 'pause' | 'resume' | 'cancel', id: number): Promise<void>;
}

export const ACTIVE_JOB_STATES: ReadonlySet<JobView['state']> = new Set([
  'queued',
  'printing',
  'paused',
  'held',
]);

/** Labels handled so far (sent or confirmed, or failed for good). */
export function jobProgress(job: JobView): { done: number; total: number; fraction: number } {
  const done = job.counts.sent + job.counts.confirmed + job.counts.failed;
  const total = job.labelCount;
  return { done, total, fraction: total > 0 ? Math.min(1, done / total) : 0 };
}

/** `1 min 5 s`, `12 s`. */
export function formatEta(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

function toRequest(filter: HistoryFilter): JobFilter {
  return {
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.printer ? { printer: filter.printer } : {}),
    ...(filter.text.trim() ? { text: filter.text.trim() } : {}),
    limit: 200,
  };
}

export function createJobsStore(api: LabelDeskApi, onError: (error: UserError) => void) {
  let listSeq = 0;
  return createStore<JobsState>()((set, get) => ({
    live: {},
    list: [],
    listLoaded: false,
    filter: { state: '', printer: '', text: '' },
    selected: null,
    picked: [],
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
      const { list, selected } = get();
      if (list.some((j) => j.id === job.id)) patch.list = list.map((j) => (j.id === job.id ? job : j));
      if (selected?.job.id === job.id) patch.selected = { ...selected, job };
      set(patch);
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
      try {
        const selected = await api.invoke('jobs.get', { id });
        set({ selected, picked: [], error: null });
      } catch (e) {
        set({ error: toUserError(e) });
      }
    },
    close: () => set({ selected: null, picked: [] }),
    togglePick: (label) => {
      const picked = get().picked;
      set({ picked: picked.includes(label) ? picked.filter((n) => n !== label) : [...picked, label] });
    },
    setPicked: (picked) => set({ picked }),
    reprint: async (id, labels) => {
      try {
        const { job } = await api.invoke('jobs.reprint', labels?.length ? { id, labels } : { id });
        get().track(job);
        set({ picked: [] });
        await get().loadList();
        return job;
      } catch (e) {
        onError(toUserError(e));
        return null;
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
  }));
}

export type JobsStore = ReturnType<typeof createJobsStore>;
