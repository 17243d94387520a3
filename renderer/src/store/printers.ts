/**
 * Configured printers and their live status. The status of a printer is asked every ~2 s while something
 * watches it (the selected printer, or the whole list on the Printers screen) and also arrives as
 * `printer-status` events; whichever is newer wins.
 */
import { createStore } from 'zustand/vanilla';
import type {
  CalibrationView,
  DiscoveredPrinterView,
  NetworkScanProgress,
  NetworkScanView,
  LabelDeskApi,
  PrinterInput,
  PrinterStatusView,
  PrinterView,
} from '../../../src/ipc/contract';
import { toUserError, type UserError } from '../ipc/user-error';

export const STATUS_POLL_MS = 2000;

export interface PrintersState {
  printers: PrinterView[];
  /** The site server's printers (site mode): offered by the Print screen, printed through the site. */
  sitePrinters: PrinterView[];
  loaded: boolean;
  statuses: Record<string, PrinterStatusView>;
  discovered: DiscoveredPrinterView[];
  discoverProblems: string[];
  discovering: boolean;
  error: UserError | null;

  load(): Promise<void>;
  /** Lists the site server's printers again (the backend changed, or the site answers again). */
  loadSite(): Promise<void>;
  /** Asks one printer's status now. */
  refreshStatus(printer: string): Promise<void>;
  applyStatus(status: PrinterStatusView): void;
  save(input: PrinterInput): Promise<PrinterView | null>;
  /** Removes a printer; once it is gone from the list its status is dropped and `onRemoved` is told. */
  remove(id: string): Promise<boolean>;
  discover(): Promise<void>;
  /** A network scan under way (its progress), or null. */
  scan: NetworkScanProgress | null;
  /** The last network scan's end, or null. */
  scanned: NetworkScanView | null;
  scanNetwork(range: string, port: number | undefined): Promise<void>;
  applyScanProgress(progress: NetworkScanProgress): void;
  cancelScan(): Promise<void>;
  /** The last calibration of each printer (`calibrating`: under way). */
  calibrations: Record<string, CalibrationView | 'calibrating'>;
  calibrate(id: string): Promise<void>;
  /** Polls these printers' status until the returned stop is called. */
  watch(ids: () => string[], intervalMs?: number): () => void;
}

/**
 * @param onRemoved called with a printer's id once it is no longer configured, so the stores that hold it
 *   as their chosen printer let go of it.
 * @param onStatus called with each newer status of a printer.
 * @param onSaved called with a printer once it is saved and listed (main may have made it the default).
 */
export function createPrintersStore(
  api: LabelDeskApi,
  onRemoved: (id: string) => void = () => undefined,
  onStatus: (status: PrinterStatusView) => void = () => undefined,
  onSaved: (printer: PrinterView) => void = () => undefined,
) {
  return createStore<PrintersState>()((set, get) => ({
    printers: [],
    sitePrinters: [],
    loaded: false,
    statuses: {},
    discovered: [],
    discoverProblems: [],
    discovering: false,
    error: null,
    calibrations: {},
    scan: null,
    scanned: null,

    load: async () => {
      void get().loadSite();
      try {
        set({ printers: await api.invoke('printers.list', {}), loaded: true, error: null });
      } catch (e) {
        set({ loaded: true, error: toUserError(e) });
      }
    },
    loadSite: async () => {
      try {
        set({ sitePrinters: await api.invoke('site.printers', {}) });
      } catch {
        // Not offered while they cannot be listed; printing to one says why.
        set({ sitePrinters: [] });
      }
    },
    refreshStatus: async (printer) => {
      try {
        get().applyStatus(await api.invoke('printers.status', { printer }));
      } catch (e) {
        const error = toUserError(e);
        get().applyStatus({
          printer,
          state: 'no-status',
          message: error.message,
          checkedAt: new Date().toISOString(),
        });
      }
    },
    applyStatus: (status) => {
      const previous = get().statuses[status.printer];
      if (previous && previous.checkedAt > status.checkedAt) return;
      set({ statuses: { ...get().statuses, [status.printer]: status } });
      onStatus(status);
    },
    save: async (input) => {
      try {
        const saved = await api.invoke('printers.save', input);
        set({ error: null });
        await get().load();
        onSaved(saved);
        void get().refreshStatus(saved.id);
        return saved;
      } catch (e) {
        set({ error: toUserError(e) });
        return null;
      }
    },
    remove: async (id) => {
      try {
        const { removed } = await api.invoke('printers.remove', { id });
        await get().load();
        if (!get().printers.some((p) => p.id === id)) {
          const { [id]: _gone, ...statuses } = get().statuses;
          set({ statuses });
          onRemoved(id);
        }
        return removed;
      } catch (e) {
        set({ error: toUserError(e) });
        return false;
      }
    },
    discover: async () => {
      set({ discovering: true, error: null });
      try {
        const { found, problems } = await api.invoke('printers.discover', {});
        set({ discovered: found, discoverProblems: problems });
      } catch (e) {
        set({ error: toUserError(e) });
      } finally {
        set({ discovering: false });
      }
    },
    scanNetwork: async (range, port) => {
      set({ scan: { probed: 0, total: 0, found: 0 }, scanned: null, error: null });
      try {
        const scanned = await api.invoke('printers.scanNetwork', {
          ...(range.trim() ? { range: range.trim() } : {}),
          ...(port ? { port } : {}),
        });
        set({ scanned });
      } catch (e) {
        set({ error: toUserError(e) });
      } finally {
        set({ scan: null });
      }
    },
    applyScanProgress: (progress) => {
      if (get().scan) set({ scan: progress });
    },
    cancelScan: async () => {
      try {
        await api.invoke('printers.cancelScan', {});
      } catch (e) {
        set({ error: toUserError(e) });
      }
    },
    calibrate: async (id) => {
      set({ calibrations: { ...get().calibrations, [id]: 'calibrating' }, error: null });
      try {
        const result = await api.invoke('printers.calibrate', { id });
        set({ calibrations: { ...get().calibrations, [id]: result } });
        get().applyStatus(result.status);
      } catch (e) {
        const { [id]: _gone, ...rest } = get().calibrations;
        set({ calibrations: rest, error: toUserError(e) });
      }
    },
    watch: (ids, intervalMs = STATUS_POLL_MS) => {
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const tick = async () => {
        await Promise.all(ids().map((id) => get().refreshStatus(id)));
        if (!stopped) timer = setTimeout(tick, intervalMs);
      };
      void tick();
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
  }));
}

export type PrintersStore = ReturnType<typeof createPrintersStore>;
