/**
 * The app's link to the hosted API and its settings: connection status (asked at start, then pushed as
 * `connection` events), the settings view (the secret never comes back: only `hasSecret`), and the
 * "Test connection" result.
 */
import { createStore } from 'zustand/vanilla';
import type {
  AppInfo,
  ConnectionStatus,
  HostedTyped,
  SiteTyped,
  LabelDeskApi,
  SettingsPatch,
  SettingsView,
  TemplateRef,
} from '../../../src/ipc/contract';
import { assertNever } from '../../../src/base/assert-never';
import { toUserError, type UserError } from '../ipc/user-error';

export type TestTarget = 'hosted' | 'site';

export interface ConnectionState {
  info: AppInfo | null;
  status: ConnectionStatus | null;
  settings: SettingsView | null;
  saving: boolean;
  testing: boolean;
  /** The last "Test connection": of the hosted API's card or the site server's. */
  testResult: { ok: boolean; message: string; target: TestTarget } | null;
  error: UserError | null;
  /** Why choosing the folder for file printers failed (shown by that card, not the hosted API's). */
  folderError: UserError | null;

  load(): Promise<void>;
  applyStatus(status: ConnectionStatus): void;
  save(patch: SettingsPatch): Promise<boolean>;
  /**
   * Keeps a choice the user made elsewhere (the Print screen's printer) without the Settings form's state: a
   * failure only means it is not remembered next time, so it is not shown.
   */
  remember(patch: Pick<SettingsPatch, 'lastPrinter'>): Promise<void>;
  /** Reads the settings again (main keeps the recent templates: a print moves its template to the front). */
  reloadSettings(): Promise<void>;
  /** Pins a template to the top of the Print screen's list, or unpins it (kept in Settings); why not, if not. */
  togglePin(ref: TemplateRef): Promise<UserError | null>;
  /**
   * Tests the hosted API (default) or the site server; with `unsaved` (the form's changes) saves them first, so
   * what is typed is tested.
   */
  test(unsaved?: SettingsPatch, target?: TestTarget): Promise<void>;
  /** Tests the hosted API with the URL, key and secret as typed, without saving them (#42 item 8). */
  testTyped(typed: HostedTyped): Promise<void>;
  /** Tests the site server with the URL, key id and secret as typed, without saving them. */
  testSiteTyped(typed: SiteTyped): Promise<void>;
  /** Main shows its own folder dialog; the folder picked is the only one file printers may write into. */
  chooseFilePrinterFolder(): Promise<void>;
}

/** The status bar's words for the connection. */
export function describeConnection(status: ConnectionStatus | null): {
  tone: 'ok' | 'warn' | 'neutral';
  label: string;
  /** Where the user fixes it, when the user has to. */
  action: 'settings' | null;
} {
  if (!status) return { tone: 'neutral', label: 'Connecting…', action: null };
  if (status.backend === 'site') {
    switch (status.hosted) {
      case 'refused':
        return { tone: 'warn', label: 'Site server refused the key — open Settings', action: 'settings' };
      case 'online':
        return { tone: 'ok', label: 'Site server online', action: null };
      case 'offline':
        return { tone: 'warn', label: 'Site server unreachable', action: null };
      case 'unconfigured':
        return { tone: 'warn', label: 'Site server not set up — open Settings', action: 'settings' };
      case 'unknown':
        return { tone: 'neutral', label: 'Site server: not checked yet', action: null };
      default:
        return assertNever(status.hosted, 'site connection state');
    }
  }
  if (status.hosted === 'refused') {
    return { tone: 'warn', label: 'Hosted API refused the key — open Settings', action: 'settings' };
  }
  if (status.backend === 'local' && status.hosted !== 'offline') {
    return { tone: 'neutral', label: 'Local: bundled engine', action: null };
  }
  switch (status.hosted) {
    case 'online':
      return { tone: 'ok', label: 'Hosted API online', action: null };
    case 'offline':
      return { tone: 'warn', label: 'Offline: printing with the bundled engine', action: null };
    case 'unconfigured':
      return { tone: 'neutral', label: 'Local: hosted API not set up', action: null };
    case 'unknown':
      return { tone: 'neutral', label: 'Hosted API: not checked yet', action: null };
    default:
      return assertNever(status.hosted, 'hosted connection state');
  }
}

export function createConnectionStore(api: LabelDeskApi) {
  const store = createStore<ConnectionState>()((set, get) => ({
    info: null,
    status: null,
    settings: null,
    saving: false,
    testing: false,
    testResult: null,
    error: null,
    folderError: null,

    load: async () => {
      try {
        const [info, settings, status] = await Promise.all([
          api.invoke('app.info', {}),
          api.invoke('settings.get', {}),
          api.invoke('connection.status', {}),
        ]);
        set({ info, settings, status, error: null });
      } catch (e) {
        set({ error: toUserError(e) });
      }
    },
    applyStatus: (status) => set({ status }),
    save: async (patch) => {
      set({ saving: true, error: null, testResult: null });
      try {
        const settings = await api.invoke('settings.update', patch);
        set({ settings });
        set({ status: await api.invoke('connection.status', {}) });
        return true;
      } catch (e) {
        set({ error: toUserError(e) });
        return false;
      } finally {
        set({ saving: false });
      }
    },
    remember: async (patch) => {
      try {
        set({ settings: await api.invoke('settings.update', patch) });
      } catch {
        // Not remembered: the next start picks the default printer instead.
      }
    },
    reloadSettings: async () => {
      try {
        set({ settings: await api.invoke('settings.get', {}) });
      } catch {
        // The list keeps its order until the next start.
      }
    },
    togglePin: async (ref) => {
      const pinned = get().settings?.pinnedTemplates ?? [];
      const has = pinned.some((p) => p.source === ref.source && p.name === ref.name);
      const next = has
        ? pinned.filter((p) => p.source !== ref.source || p.name !== ref.name)
        : [...pinned, ref].slice(-20);
      try {
        set({ settings: await api.invoke('settings.update', { pinnedTemplates: next }) });
        return null;
      } catch (e) {
        return toUserError(e);
      }
    },
    chooseFilePrinterFolder: async () => {
      set({ folderError: null });
      try {
        set({ settings: await api.invoke('settings.chooseFilePrinterFolder', {}) });
      } catch (e) {
        set({ folderError: toUserError(e) });
      }
    },
    test: (unsaved, target = 'hosted') => runTest(target, unsaved),
    testTyped: (typed) => runTest('hosted', undefined, { typed }),
    testSiteTyped: (siteTyped) => runTest('site', undefined, { siteTyped }),
  }));

  async function runTest(
    target: TestTarget,
    unsaved?: SettingsPatch,
    typed: { typed?: HostedTyped; siteTyped?: SiteTyped } = {},
  ): Promise<void> {
    const { getState: get, setState: set } = store;
    if (get().testing || get().saving) return;
    if (unsaved && !(await get().save(unsaved))) return;
    set({ testing: true, testResult: null, error: null });
    try {
      const result = await api.invoke(
        'connection.test',
        target === 'site'
          ? { target, ...(typed.siteTyped ? { siteTyped: typed.siteTyped } : {}) }
          : typed.typed
            ? { typed: typed.typed }
            : {},
      );
      set({ testResult: { ok: result.ok, message: result.message, target }, status: result.status });
    } catch (e) {
      const error = toUserError(e);
      set({ testResult: { ok: false, message: error.message, target } });
    } finally {
      set({ testing: false });
    }
  }
  return store;
}

export type ConnectionStore = ReturnType<typeof createConnectionStore>;
