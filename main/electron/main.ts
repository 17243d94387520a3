/**
 * The Electron main process: one window, hardened, over the same services web mode serves (main/app).
 * Kept thin on purpose: Electron cannot run in CI here, so everything it does beyond wiring is in main/app
 * and in the small modules beside this one, tested there.
 *
 * Security (STYLE.md §9, the Electron checklist): contextIsolation, sandbox, no nodeIntegration; the renderer
 * served from the privileged `app://labeldesk` scheme (app-protocol.ts), so the file-protocol fuse is off;
 * a CSP without 'unsafe-inline' on every response; in every web contents new windows, navigation, redirects
 * and webviews refused, nothing opened externally; every permission check and request refused; IPC only from
 * the main frame of our window showing our page, every payload parsed by the contract (guards.ts). The hosted
 * API secret is encrypted with safeStorage — refused where that protects nothing (Linux `basic_text`), then
 * kept for the session only if the user asks — and never sent to the renderer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session } from 'electron';
import { IpcError } from '../../src/ipc/errors';
import { dispatch } from '../app/dispatch';
import type { IpcEnvelope } from '../../src/ipc/bridge';
import { packageRoot } from '../../src/node/assets';
import { parseAppOptions, AppOptionError } from '../app/options';
import { createAppServices, type AppServices } from '../app/services';
import { safeStorageCipher } from './safe-storage-cipher';
import { RENDERER_CSP_HEADER } from '../app/csp';
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, rendererHandler } from './app-protocol';
import { denyAllPermissions, fromOurMainFrame, guardWebContents } from './guards';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels';

function rendererDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 640,
    title: 'LabelDesk',
    show: false,
    backgroundColor: '#f4f5f7',
    webPreferences: {
      preload: join(packageRoot(), 'dist', 'electron', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      // Middle-click opens links in a new window without a click event the page could cancel.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
  // Its web contents got the guards when it was created (web-contents-created, below).
  void win.loadURL(APP_INDEX_URL);
  return win;
}

/** Our options (`--data-dir`, `--printers`, `--file-printer-folder`, or `--opt=value`) out of any argv. */
function ourOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = /^--(data-dir|printers|file-printer-folder)(=.*)?$/.exec(arg);
    if (!name) continue;
    if (name[2]) out.push(arg);
    else if (argv[i + 1] !== undefined) out.push(arg, argv[++i]!);
  }
  return out;
}

async function start(): Promise<void> {
  // Only our own options: Chromium and launchers add switches of their own (--no-sandbox, --enable-features…).
  const args = ourOptions(process.argv.slice(app.isPackaged ? 1 : 2));
  let options;
  try {
    options = await parseAppOptions(args, process.env);
  } catch (e) {
    if (e instanceof AppOptionError) {
      process.stderr.write(`LabelDesk: ${e.message}\n`);
      app.exit(2);
      return;
    }
    throw e;
  }
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  const services: AppServices = await createAppServices({
    dataDir: options.dataDir,
    shell: 'electron',
    version: pkg.version,
    cipher: safeStorageCipher(safeStorage, process.platform),
    chooseFolder: async (current) => {
      const dialogOptions = {
        title: 'Folder for file printers',
        properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'>,
        ...(current ? { defaultPath: current } : {}),
      };
      const picked = win
        ? await dialog.showOpenDialog(win, dialogOptions)
        : await dialog.showOpenDialog(dialogOptions);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
    printers: options.printers,
    ...(options.filePrinterFolder !== undefined ? { filePrinterFolder: options.filePrinterFolder } : {}),
    warn: (message) => process.stderr.write(`LabelDesk: ${message}\n`),
  });

  protocol.handle(APP_SCHEME, rendererHandler(rendererDir()));
  denyAllPermissions(session.defaultSession);
  // app:// answers carry the CSP themselves; anything fetched over the network would get it too.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP_HEADER] },
    });
  });

  let win: BrowserWindow | undefined = createWindow();
  win.on('closed', () => (win = undefined));

  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, payload: unknown): Promise<IpcEnvelope> => {
    if (!fromOurMainFrame(event, win)) {
      return { ok: false, error: new IpcError('bad-request', 'Refused: not LabelDesk’s own page.').toBody() };
    }
    return dispatch(services, channel, payload, (line) => process.stderr.write(`LabelDesk: ${line}\n`));
  });
  services.onEvent((event) => win?.webContents.send(EVENT_CHANNEL, event));

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (!win) win = createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Wait for the services to close (print tally saved, job store closed) before quitting for real.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void services.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
}

// Before ready: app:// must be a standard, secure origin for the renderer's ES modules.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
app.enableSandbox();
app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
// One LabelDesk per user: two would print the same job queue to the same printers.
if (!app.requestSingleInstanceLock()) app.quit();
else {
  // A start that fails (a data folder that cannot be opened, a damaged jobs.sqlite) is told, not left as an
  // unhandled rejection behind a window that never opens.
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      dialog.showErrorBox('LabelDesk could not start', message);
      app.exit(1);
    });
}
