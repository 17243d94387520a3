/**
 * The site server's history (issue #24, site mode): its jobs (who, where, when, first counter numbers), a page
 * at a time, and a reprint of one on this computer's printer with the same counter values.
 */
import { createStore } from 'zustand/vanilla';
import type { JobView, LabelDeskApi, SiteJobView } from '../../../src/ipc/contract';
import { toUserError, type UserError } from '../ipc/user-error';

export interface SiteHistoryState {
  jobs: SiteJobView[];
  nextBefore: number | null;
  loaded: boolean;
  error: UserError | null;
  /** The job being reprinted now. */
  reprinting: number | null;
  /** What the last reprint said. */
  message: string | null;

  load(): Promise<void>;
  more(): Promise<void>;
  reprint(id: number, printer: string | null): Promise<void>;
}

export function createSiteHistoryStore(api: LabelDeskApi, trackJob: (job: JobView) => void) {
  return createStore<SiteHistoryState>()((set, get) => ({
    jobs: [],
    nextBefore: null,
    loaded: false,
    error: null,
    reprinting: null,
    message: null,

    load: async () => {
      try {
        const page = await api.invoke('site.jobs', {});
        set({ jobs: page.jobs, nextBefore: page.nextBefore, loaded: true, error: null });
      } catch (e) {
        set({ loaded: true, error: toUserError(e) });
      }
    },
    more: async () => {
      const before = get().nextBefore;
      if (before === null) return;
      try {
        const page = await api.invoke('site.jobs', { before });
        set({ jobs: [...get().jobs, ...page.jobs], nextBefore: page.nextBefore, error: null });
      } catch (e) {
        set({ error: toUserError(e) });
      }
    },
    reprint: async (id, printer) => {
      if (get().reprinting !== null) return;
      if (!printer) {
        const error: UserError = {
          code: 'client',
          message: 'Choose a printer on the Print screen first.',
          field: null,
          action: 'choose-printer',
        };
        set({ message: null, error });
        return;
      }
      set({ reprinting: id, error: null, message: null });
      try {
        const sent = await api.invoke('site.reprint', { id, printer });
        if (sent.job) trackJob(sent.job);
        set({ message: sent.message });
        await get().load();
      } catch (e) {
        set({ error: toUserError(e) });
      } finally {
        set({ reprinting: null });
      }
    },
  }));
}

export type SiteHistoryStore = ReturnType<typeof createSiteHistoryStore>;
