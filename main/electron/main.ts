/**
 * The Electron main process: one window, hardened, over the same services web mode serves (main/app).
 * Kept thin on purpose: Electron cannot run in CI here, so everything it does beyond wiring is in main/app
 * and tested there.
 *
 * Security (STYLE.md §9): contextIsolation, sandbox, no nodeIntegration, a strict CSP (index.html's meta tag,
 * and the same header on every response), window.open denied, navigation and new webviews blocked, every
 * permission request refused, IPC only from our own page (sender frame checked) and every payload parsed by
 * the contract. The hosted API secret is encrypted with safeStorage and never sent to the renderer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, safeStorage, session, shell, type IpcMainInvokeEvent } from 'electron';
import { IpcError } from '../../src/ipc/errors';
import { dispatch } from '../app/dispatch';
import type { IpcEnvelope } from '../../src/ipc/bridge';
import { packageRoot } from '../../src/node/assets';
import { parseAppOptions, AppOptionError } from '../app/options';
import { createAppServices, type AppServices } from '../app/services';
import { safeStorageCipher } from './safe-storage-cipher';
import { RENDERER_CSP } from '../app/csp';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels';

const CSP = RENDERER_CSP;

function rendererIndex(): string {
  return join(packageRoot(), 'dist', 'renderer', 'index.html');
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
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links to the web (help, the hosted service) open in the user's browser, never in the app.
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void win.loadFile(rendererIndex());
  return win;
}

/** `--data-dir DIR` and `--printers FILE` (also as `--opt=value`) out of an argv that may hold anything else. */
function ourOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = /^--(data-dir|printers)(=.*)?$/.exec(arg);
    if (!name) continue;
    if (name[2]) out.push(arg);
    else if (argv[i + 1] !== undefined) out.push(arg, argv[++i]!);
  }
  return out;
}

function fromOurPage(event: IpcMainInvokeEvent, win: BrowserWindow | undefined): boolean {
  const frameUrl = event.senderFrame?.url ?? '';
  return (
    !!win && event.sender === win.webContents && frameUrl.startsWith(pathToFileURL(rendererIndex()).href)
  );
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
    printers: options.printers,
    warn: (message) => process.stderr.write(`LabelDesk: ${message}\n`),
  });

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });

  let win: BrowserWindow | undefined = createWindow();
  win.on('closed', () => (win = undefined));

  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, payload: unknown): Promise<IpcEnvelope> => {
    if (!fromOurPage(event, win)) {
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

app.enableSandbox();
// One LabelDesk per user: two would print the same job queue to the same printers.
if (!app.requestSingleInstanceLock()) app.quit();
else void app.whenReady().then(start);
