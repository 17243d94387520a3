/**
 * The app's stores, made together so they can share the api and follow main's events. Components read them
 * through `stores-context.tsx`; only stores call the api.
 */
import type { AppEvent, ExportedFile, JobView, LabelDeskApi } from '../../../src/ipc/contract';
import type { UserError } from '../ipc/user-error';
import { createBatchStore } from './batch';
import { createCatalogStore, sameRef } from './catalog';
import { createConnectionStore } from './connection';
import { createDesignStore } from './design';
import { DEFAULT_COPIES_SETTINGS, createDocumentStore, type DocumentPorts } from './document';
import { ACTIVE_JOB_STATES, createJobsStore } from './jobs';
import { createPrintersStore } from './printers';
import { createSiteHistoryStore } from './site-history';
import { createUiStore } from './ui';
import { createZplStore } from './zpl';

/** What the stores need from the browser, injected so tests run without a DOM. */
export interface BrowserPorts {
  saveFile(file: ExportedFile): void;
  printSvg(svg: string, page: { width: string; height: string }): void;
  previewEngine?: DocumentPorts['previewEngine'];
}

export function createStores(api: LabelDeskApi, browser: BrowserPorts) {
  const ui = createUiStore();
  const notifyError = (error: UserError) => ui.getState().notify({ kind: 'error', error });
  const jobs = createJobsStore(api, notifyError);
  const trackJob = (job: JobView) => jobs.getState().track(job);
  const catalog = createCatalogStore(api);
  const siteHistory = createSiteHistoryStore(api, trackJob);
  const printers = createPrintersStore(
    api,
    (id) => forgetPrinter(id),
    // A printer answering ready again ends the toasts about it not being ready.
    (status) => {
      if (status.state === 'ready') ui.getState().resolve(`printer:${status.printer}`);
    },
    (saved) => void adoptPrinter(saved.id),
  );
  const connection = createConnectionStore(api);
  const document = createDocumentStore(api, {
    ui,
    trackJob,
    ...browser,
    copiesSettings: () => connection.getState().settings ?? DEFAULT_COPIES_SETTINGS,
    rememberPrinter: (id) => void connection.getState().remember({ lastPrinter: id }),
    printed: () => void connection.getState().reloadSettings(),
  });
  const batch = createBatchStore(api, trackJob, (id) => {
    const live = jobs.getState().live[id];
    return live !== undefined && ACTIVE_JOB_STATES.has(live.job.state);
  });
  /**
   * A removed printer can no longer be printed to: nothing keeps it chosen. Main names another default when it
   * was the default; the screens that had it chosen take that one.
   */
  const forgetPrinter = (id: string) => {
    if (document.getState().printer === id) document.getState().setPrinter(null);
    if (batch.getState().printer === id) batch.getState().setPrinter(null);
    if (jobs.getState().filter.printer === id) jobs.getState().setFilter({ printer: '' });
    void adoptPrinter(null);
  };
  /**
   * After printers change: the settings again (main may have named a new default), and the Print and Batch
   * screens, when they have no printer chosen, choose the default — else the one just saved when it is the only
   * printer — at once, without a reload.
   */
  const adoptPrinter = async (saved: string | null) => {
    await connection.getState().load();
    const list = printers.getState().printers;
    const known = (id: string | null | undefined) => list.find((p) => p.id === id)?.id;
    const choice =
      known(connection.getState().settings?.defaultPrinter) ?? (list.length === 1 ? known(saved) : undefined);
    if (!choice) return;
    if (!document.getState().printer) document.getState().setPrinter(choice);
    if (!batch.getState().printer) batch.getState().setPrinter(choice);
  };
  // A saved template is in the Print screen's picker at once.
  const design = createDesignStore(api, {
    onSaved: (summary) => {
      void catalog.getState().load();
      // The Print screen showing that template shows it as saved.
      if (sameRef(document.getState().ref, summary.ref)) void document.getState().selectTemplate(summary.ref);
    },
  });
  // The templates offered follow the backend: the site server's in site mode, listed again when it answers
  // after it did not (while it is away the local ones are listed).
  connection.subscribe((now, before) => {
    const [a, b] = [now.status, before.status];
    if (!a || !b) return;
    const siteBack = a.backend === 'site' && a.hosted === 'online' && b.hosted !== 'online';
    if (a.backend !== b.backend || siteBack) {
      void catalog.getState().load();
      void printers.getState().loadSite();
    }
  });
  const zpl = createZplStore(api, {
    trackJob,
    saveFile: (file) => browser.saveFile(file),
    printersChanged: () => printers.getState().load(),
  });
  // The designer previews the document being edited with the same engine (it has no saved file to name).
  const previewEngine = browser.previewEngine ?? null;
  return {
    api,
    ui,
    jobs,
    catalog,
    printers,
    connection,
    document,
    batch,
    design,
    siteHistory,
    zpl,
    previewEngine,
  };
}

export type Stores = ReturnType<typeof createStores>;

/** Applies one pushed event to the stores. */
export function applyEvent(stores: Stores, event: AppEvent): void {
  switch (event.kind) {
    case 'job':
      stores.jobs.getState().track(event.job, event.etaSeconds, event.message);
      return;
    case 'printer-status':
      stores.printers.getState().applyStatus(event.status);
      return;
    case 'network-scan':
      stores.printers.getState().applyScanProgress(event.progress);
      return;
    case 'connection':
      stores.connection.getState().applyStatus(event.status);
      return;
  }
}

/**
 * Loads what the first screen shows, picks the printer last chosen (else the default, else the only one) and
 * the most recent template, and subscribes to events. Returns the unsubscribe.
 */
export async function startApp(stores: Stores): Promise<() => void> {
  const unsubscribe = stores.api.onEvent((event) => applyEvent(stores, event));
  await Promise.all([
    stores.connection.getState().load(),
    stores.catalog.getState().load(),
    stores.printers.getState().load(),
  ]);
  const printers = stores.printers.getState().printers;
  const settings = stores.connection.getState().settings;
  const known = (id: string | null | undefined) => printers.find((p) => p.id === id)?.id;
  // A site printer chosen last time, once the site lists it (its list may come after this).
  const lastSite = settings?.lastPrinter?.startsWith('site:') ? settings.lastPrinter : undefined;
  if (lastSite)
    void stores.printers
      .getState()
      .loadSite()
      .then(() => {
        const listed = stores.printers.getState().sitePrinters.some((p) => p.id === lastSite);
        if (listed && !stores.document.getState().printer) stores.document.getState().setPrinter(lastSite);
      });
  const printer =
    known(settings?.lastPrinter) ??
    known(settings?.defaultPrinter) ??
    (printers.length === 1 ? printers[0]!.id : null);
  if (printer && !stores.document.getState().printer) stores.document.getState().setPrinter(printer);
  if (printer && !stores.batch.getState().printer) stores.batch.getState().setPrinter(printer);

  const recent = settings?.recentTemplates[0];
  const templates = stores.catalog.getState().templates;
  const first = templates.find((t) => recent && t.ref.source === recent.source && t.ref.name === recent.name);
  if (first && !stores.document.getState().ref) void stores.document.getState().selectTemplate(first.ref);
  return unsubscribe;
}
