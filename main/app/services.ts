/**
 * The app's main-side services behind the IPC contract: one handler per channel (src/ipc/contract.ts), the
 * same for the Electron shell (ipcMain) and web mode (localhost HTTP). The composition root of main/app:
 * settings, the secret, templates, the hosted/local connection, rendering, printers and print jobs.
 */
import { join } from 'node:path';
import { captureTemplate } from '../../src/backends/capture';
import type { ConfiguredPrinter } from '../../src/printers/printers-file';
import { isBundledFamily } from '../../src/layout/fonts';
import { machineFonts } from '../../src/node/fonts';
import { nodeRenderPorts } from '../../src/node/render-ports';
import type { RenderPorts } from '../../src/outputs/render';
import type { AppEvent, AppInfo, Handlers, PrinterStatusView } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { appSettings } from './settings';
import { fileSecretStore, type SecretCipher } from './secret-store';
import { appTemplates } from './templates';
import { createConnection, type Connection } from './connection';
import { siteTemplates } from './site-templates';
import { siteHistory } from './site-history';
import { folderStore } from '../../src/node/template-store';
import { bundledTemplatesDir } from '../../src/node/assets';
import { createRendering } from './rendering';
import { createAppZplFiles } from './zpl-files';
import { appPrinters } from './printers';
import { appSitePrinters, isSitePrinterId } from './site-printers';
import { createAppJobs } from './jobs';

export interface AppServicesOptions {
  dataDir: string;
  shell: AppInfo['shell'];
  version: string;
  /** How the hosted API secret is protected at rest (Electron: safeStorage). */
  cipher: SecretCipher;
  /** Printers to add at start (`--printers FILE`). */
  printers?: readonly ConfiguredPrinter[];
  /**
   * Main's own folder dialog for "Folder for file printers" (Electron); resolves null when cancelled. Without
   * it (web mode) the folder is only set at start, with `filePrinterFolder`.
   */
  chooseFolder?: (current: string | null) => Promise<string | null>;
  /** A folder for file printers given at start (`--file-printer-folder DIR`). */
  filePrinterFolder?: string;
  fetch?: typeof fetch;
  /** For messages that are not errors of a request (a print tally that cannot be saved). */
  warn?: (message: string) => void;
}

export interface AppServices {
  handlers: Handlers;
  /** Subscribes to pushed events; returns the unsubscribe. */
  onEvent(listener: (event: AppEvent) => void): () => void;
  close(): Promise<void>;
}

export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const { dataDir } = options;
  const listeners = new Set<(event: AppEvent) => void>();
  const emit = (event: AppEvent) => {
    for (const l of listeners) l(event);
  };

  // Fonts load on first use, then stay: one set of ports per image folder (a template's own folder).
  const portsByDir = new Map<string, RenderPorts>();
  const getPorts = (baseDir = dataDir): RenderPorts => {
    let ports = portsByDir.get(baseDir);
    // The user's fonts (<data dir>/fonts) and the machine's; generic families stay the bundled faces. A font
    // added to the folder since makes a new set (machineFonts), and new ports with it.
    const fonts = machineFonts({ dataDir, system: true }).fonts;
    if (!ports || ports.fonts !== fonts)
      portsByDir.set(baseDir, (ports = nodeRenderPorts({ baseDir }, fonts)));
    return ports;
  };

  const secret = fileSecretStore(join(dataDir, 'api-secret.bin'), options.cipher);
  const siteSecret = fileSecretStore(join(dataDir, 'site-secret.bin'), options.cipher);
  const settings = appSettings(dataDir, secret, siteSecret);
  // The site's templates ask the connection, made after the templates (it renders from their store).
  const late: { connection?: Connection } = {};
  const templates = appTemplates(
    dataDir,
    siteTemplates({
      withSite: async (call) => (late.connection ? late.connection.withSite(call) : undefined),
      bundled: folderStore(bundledTemplatesDir(), 'bundled', { fixed: true }),
    }),
  );
  if (options.filePrinterFolder !== undefined) await settings.setFilePrinterFolder(options.filePrinterFolder);
  const printers = appPrinters(dataDir, {
    filePrinterFolder: async () => (await settings.get()).filePrinterFolder,
  });
  if (options.printers?.length) await printers.preconfigure(options.printers);
  const connection = await createConnection({
    dataDir,
    store: templates.store,
    bundled: templates.bundled,
    ports: getPorts,
    settings: () => settings.get(),
    secret,
    siteSecret,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    onChange: (status) => emit({ kind: 'connection', status }),
    ...(options.warn ? { warn: options.warn } : {}),
  });
  late.connection = connection;
  const rendering = createRendering({ templates, printers, connection, ports: getPorts });
  const jobs = createAppJobs({
    dataDir,
    printers,
    rendering,
    isHosted: async (ref) => (await connection.backendFor(ref.source)).kind === 'hosted',
    refuseLocalCounters: (template, how) => connection.refuseLocalCounters(template, how),
    emit,
  });

  const zplFiles = createAppZplFiles({
    ports: () => getPorts(),
    dpiOf: async (printer) => (await printers.profileDpi(printer)) ?? null,
    printWidth: (printer, dpi) => printers.printWidth(printer, dpi),
    fileOptions: (printer, keepSettings) => printers.zplFileOptions(printer, keepSettings),
    rememberSettings: (printer, keep) => printers.rememberZplSettings(printer, keep),
    addZplJob: (name, printer, labels) => jobs.printZpl(name, printer, labels),
  });

  const site = siteHistory({ connection, jobs });
  // The site server's printers (site mode): printed through the site, never through this computer's job queue.
  const sitePrinters = appSitePrinters({ connection });
  /** One of this computer's printers; a site printer's id is refused where only those can print. */
  const localPrinter = async (id: string) => {
    if (isSitePrinterId(id))
      throw new IpcError(
        'invalid',
        "A printer of the site server prints from the Print screen only: choose one of this computer's printers here.",
        'printer',
      );
    return printers.get(id);
  };

  // A site printer's view has no dpi: previews and files are drawn at the default one.
  const printerOrUndefined = async (id: string | undefined) =>
    id === undefined || isSitePrinterId(id) ? undefined : printers.get(id);
  const lastStatus = new Map<string, PrinterStatusView>();

  const handlers: Handlers = {
    'app.info': async () => ({ version: options.version, shell: options.shell, platform: process.platform }),
    'fonts.families': async () => {
      const { fonts, skipped } = machineFonts({ dataDir, system: true });
      return { families: fonts.families().filter((f) => !isBundledFamily(f)), skipped };
    },
    'settings.get': () => settings.get(),
    'settings.update': async (patch) => {
      const view = await settings.update(patch);
      emit({ kind: 'connection', status: await connection.status() });
      return view;
    },
    'settings.chooseFilePrinterFolder': async () => {
      const current = await settings.get();
      if (!options.chooseFolder) {
        throw new IpcError(
          'invalid',
          'Folder for file printers: web mode cannot show a folder dialog: start it with --file-printer-folder DIR.',
          'filePrinterFolder',
        );
      }
      const folder = await options.chooseFolder(current.filePrinterFolder);
      return folder === null ? current : settings.setFilePrinterFolder(folder);
    },
    'connection.status': () => connection.status(),
    'connection.test': ({ target, typed, siteTyped }) => connection.test(target, typed, siteTyped),

    'templates.list': async () => templates.list((await settings.get()).recentTemplates),
    'templates.get': ({ ref }) => templates.detail(ref),
    'templates.import': ({ fileName, text }) => templates.importFile(fileName, text),
    'templates.save': ({ template, overwrite }) => templates.save(template, overwrite),
    'templates.revisions': ({ name }) => templates.revisions(name),
    'templates.restoreRevision': ({ name, revision }) => templates.restoreRevision(name, revision),
    'templates.duplicate': ({ ref, name }) => templates.duplicate(ref, name),
    'templates.export': ({ ref }) => templates.exportFile(ref),
    'templates.capture': async ({ name, fields }) => {
      const backend = await connection.hostedOnly();
      if (!backend) {
        throw new IpcError(
          'invalid',
          'Capturing needs the hosted API: set it up in Settings first.',
          null,
          'settings',
        );
      }
      const result = await connection.track(() =>
        captureTemplate({
          backend,
          templateName: name,
          fields: fields.map((f) => ({
            name: f.name,
            ...(f.label ? { label: f.label } : {}),
            ...(f.digits ? { digits: true } : {}),
          })),
        }),
      );
      return {
        summary: await templates.saveCaptured(result.template),
        notes: result.notes.map((n) => n.message),
      };
    },

    'preview.scene': ({ ref, values, since }) => rendering.preview(ref, values, since),
    'preview.raster': async ({ ref, values, printer }) =>
      rendering.raster(ref, values, await printerOrUndefined(printer)),
    'preview.templateRaster': ({ template, values, dpi }) => rendering.templateRaster(template, values, dpi),
    'preview.templateScene': ({ template, values }) => rendering.templateScene(template, values),
    'output.export': async ({ ref, values, copies, format, printer }) =>
      rendering.export(ref, values, copies, format, await printerOrUndefined(printer)),
    'print.fit': async ({ ref, printer }) =>
      // A site printer's labels are drawn by the site server for its own printer (its relay warns).
      isSitePrinterId(printer)
        ? { fits: true, problem: '', cut: '', rotates: false, fitPercent: 100 }
        : rendering.fit(ref, await printers.get(printer)),
    'print.submit': async ({ ref, values, copies, printer, oversize }) => {
      const sent = isSitePrinterId(printer)
        ? await sitePrinters.print(ref, values, copies, await sitePrinters.get(printer))
        : await jobs.print(ref, values, copies, await printers.get(printer), oversize);
      // Best effort: the labels are on their way; a settings file that cannot be written must not say otherwise.
      await settings
        .touchTemplate(ref)
        .catch((e: unknown) => options.warn?.(`recent templates: ${String(e)}`));
      return sent;
    },

    'printers.list': () => printers.list(),
    'printers.status': async ({ printer }) => {
      if (isSitePrinterId(printer)) return sitePrinters.status(printer);
      const status = await printers.status(printer, jobs.printerStatus(printer));
      const before = lastStatus.get(printer);
      lastStatus.set(printer, status);
      if (before?.state !== status.state) emit({ kind: 'printer-status', status });
      return status;
    },
    'printers.save': async (input) => {
      const saved = await printers.save(input);
      // The first printer added becomes the default (as it is the only one, nothing else could be).
      const { defaultPrinter } = await settings.get();
      const list = await printers.list();
      if (list.length === 1 && defaultPrinter !== saved.id)
        await settings.update({ defaultPrinter: saved.id });
      return saved;
    },
    'printers.remove': async ({ id }) => {
      const removed = await printers.remove(id);
      const { defaultPrinter, lastPrinter } = await settings.get();
      if (defaultPrinter === id) {
        // Another one takes its place: the printer last chosen on the Print screen, else the first listed.
        const list = await printers.list();
        const next = list.find((p) => p.id === lastPrinter) ?? list[0];
        await settings.update({ defaultPrinter: next?.id ?? null });
      }
      lastStatus.delete(id);
      return { removed };
    },
    'printers.discover': () => printers.discover(),
    'printers.scanNetwork': (request) =>
      printers.scanNetwork(
        {
          ...(request.range ? { range: request.range } : {}),
          ...(request.port ? { port: request.port } : {}),
        },
        (progress) => emit({ kind: 'network-scan', progress }),
      ),
    'printers.cancelScan': async () => ({ cancelled: printers.cancelScan() }),
    'printers.calibrate': async ({ id }) => {
      if (isSitePrinterId(id))
        throw new IpcError('invalid', "A site server's printer is calibrated at the site.", null);
      // One data channel: a printer that is printing is calibrated once its job is done.
      const busy = jobs.printerStatus(id);
      if (busy) {
        const { name } = await printers.get(id);
        throw new IpcError('conflict', `${name} is printing: calibrate it once the job is done.`);
      }
      const result = await printers.calibrate(id);
      lastStatus.set(id, result.status);
      emit({ kind: 'printer-status', status: result.status });
      return result;
    },

    'batch.plan': (input) => jobs.planBatch(input),
    'batch.start': async ({ printer, skipInvalid, oversize, ...input }) =>
      jobs.startBatch(input, await localPrinter(printer), skipInvalid, oversize),

    'site.jobs': ({ before, limit }) => site.list(before, limit),
    'site.reprint': async ({ id, printer }) => site.reprint(id, await localPrinter(printer)),
    'site.printers': () => sitePrinters.list(),

    'zpl.open': async ({ fileName, base64, printer }) =>
      zplFiles.open(fileName, base64, await printerOrUndefined(printer)),
    'zpl.label': async ({ token, number, printer }) =>
      zplFiles.label(token, number, await printerOrUndefined(printer)),
    'zpl.print': async ({ token, printer, copies, keepSettings, asIs, remember }) =>
      zplFiles.print(token, await localPrinter(printer), copies, keepSettings, asIs ?? false, remember),
    'zpl.export': async ({ token, format, number, printer }) =>
      zplFiles.export(token, format, number, await printerOrUndefined(printer)),
    'jobs.list': (filter) => jobs.list(filter),
    'jobs.get': ({ id }) => jobs.get(id),
    'jobs.pause': ({ id }) => jobs.pause(id),
    'jobs.resume': ({ id }) => jobs.resume(id),
    'jobs.cancel': ({ id }) => jobs.cancel(id),
    'jobs.skip': ({ id, labels }) => jobs.skip(id, labels),
    'jobs.reprint': async ({ id, labels, printer }) => ({
      job: await jobs.reprint(id, labels, printer === undefined ? undefined : await localPrinter(printer)),
    }),
  };

  // Jobs a previous run left unfinished continue at start (their printers may print again).
  jobs.resumeUnfinished();

  return {
    handlers,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await jobs.close();
      await connection.close();
    },
  };
}
