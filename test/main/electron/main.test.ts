/**
 * The Electron shell's wiring, with a stand-in for the `electron` module (its binary cannot run here): the
 * window's hardening, the app:// scheme, the guards every web contents gets, permissions refused, the one IPC
 * handler — which answers only the main frame of our window and parses every payload with the contract — and
 * the API secret where the keychain protects nothing.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RENDERER_CSP_HEADER } from '../../../main/app/csp';

const fake = vi.hoisted(() => {
  type Listener = (...args: any[]) => unknown;
  const state = {
    windows: [] as any[],
    handlers: new Map<string, Listener>(),
    appEvents: new Map<string, Listener>(),
    protocolHandlers: new Map<string, Listener>(),
    privileged: [] as any[],
    privilegedBeforeReady: false,
    isReady: false,
    permissionHandler: undefined as undefined | Listener,
    permissionCheckHandler: undefined as undefined | Listener,
    deviceHandler: undefined as undefined | Listener,
    headersHandler: undefined as undefined | Listener,
    sandboxEnabled: false,
    ready: undefined as undefined | (() => void),
    backend: 'gnome_libsecret',
    dialogAnswer: { canceled: true, filePaths: [] as string[] },
    openedExternally: [] as string[],
  };
  /** A web contents as Electron makes one: app.on('web-contents-created') sees it first. */
  const webContents = () => {
    const contents = {
      events: new Map<string, Listener>(),
      openHandler: undefined as undefined | Listener,
      sent: [] as unknown[],
      mainFrame: { processId: 7, routingId: 1, parent: null, url: 'app://labeldesk/index.html' },
      on: (name: string, f: Listener) => contents.events.set(name, f),
      setWindowOpenHandler: (f: Listener) => (contents.openHandler = f),
      send: (_channel: string, payload: unknown) => contents.sent.push(payload),
    };
    state.appEvents.get('web-contents-created')?.({}, contents);
    return contents;
  };
  class BrowserWindow {
    options: any;
    events = new Map<string, Listener>();
    loaded: string | undefined;
    webContents = webContents();
    constructor(options: any) {
      this.options = options;
      state.windows.push(this);
    }
    once(name: string, f: Listener) {
      this.events.set(name, f);
    }
    on(name: string, f: Listener) {
      this.events.set(name, f);
    }
    show() {}
    focus() {}
    isMinimized() {
      return false;
    }
    async loadURL(url: string) {
      this.loaded = url;
    }
  }
  const electron = {
    app: {
      isPackaged: false,
      enableSandbox: () => (state.sandboxEnabled = true),
      requestSingleInstanceLock: () => true,
      whenReady: () => new Promise<void>((resolve) => (state.ready = resolve)),
      on: (name: string, f: Listener) => state.appEvents.set(name, f),
      quit: () => undefined,
      exit: () => undefined,
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, f: Listener) => state.handlers.set(channel, f) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: any[]) => {
        state.privileged = schemes;
        state.privilegedBeforeReady = !state.isReady;
      },
      handle: (scheme: string, f: Listener) => state.protocolHandlers.set(scheme, f),
    },
    dialog: { showOpenDialog: async () => state.dialogAnswer },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => state.backend,
      encryptString: (s: string) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
      decryptString: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (f: Listener) => (state.permissionHandler = f),
        setPermissionCheckHandler: (f: Listener) => (state.permissionCheckHandler = f),
        setDevicePermissionHandler: (f: Listener) => (state.deviceHandler = f),
        webRequest: { onHeadersReceived: (f: Listener) => (state.headersHandler = f) },
      },
    },
    shell: { openExternal: async (url: string) => void state.openedExternally.push(url) },
  };
  return { state, electron, webContents };
});

vi.mock('electron', () => ({ ...fake.electron, default: fake.electron }));

let dataDir: string;
const argv = process.argv;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ld-electron-'));
  // Chromium and launchers add switches of their own; the app reads only its options.
  process.argv = ['electron', '.', '--no-sandbox', '--data-dir', dataDir, '--enable-features=X'];
  await import('../../../main/electron/main');
  fake.state.isReady = true;
  fake.state.ready!();
  await vi.waitFor(() => expect(fake.state.handlers.size).toBe(1));
});

afterAll(() => {
  process.argv = argv;
  rmSync(dataDir, { recursive: true, force: true });
});

const win = () => fake.state.windows[0];
const ourPage = () => ({ sender: win().webContents, senderFrame: win().webContents.mainFrame });
const invoke = (event: unknown, channel: unknown, payload: unknown) =>
  [...fake.state.handlers.values()][0]!(event, channel, payload) as Promise<any>;

describe('Electron shell', () => {
  it('opens one hardened window on the renderer served from app://, never file://', () => {
    expect(fake.state.sandboxEnabled).toBe(true);
    const prefs = win().options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(prefs.preload).toMatch(/dist[/\\]electron[/\\]preload\.cjs$/);
    expect(win().loaded).toBe('app://labeldesk/index.html');
  });

  it('registers app:// as a standard, secure scheme before the app is ready, and serves nothing outside the renderer', async () => {
    expect(fake.state.privilegedBeforeReady).toBe(true);
    expect(fake.state.privileged).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    expect(fake.state.privileged[0].privileges).not.toHaveProperty('bypassCSP');
    const serve = fake.state.protocolHandlers.get('app')!;
    for (const url of [
      'app://labeldesk/../package.json',
      'app://labeldesk/%2e%2e/%2e%2e/package.json',
      'app://labeldesk/..%2f..%2fpackage.json',
      'app://other/index.html',
    ]) {
      const res = (await serve({ url })) as Response;
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain('"name": "labeldesk"');
    }
  });

  it('guards every web contents: no new window, no navigation, no redirect, no webview, nothing opened outside', () => {
    // Ours, and any other web contents that could appear later.
    for (const contents of [win().webContents, fake.webContents()]) {
      for (const url of ['https://example.com', 'file:///etc/passwd', 'app://labeldesk/index.html']) {
        expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
      }
      for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
        const event = { preventDefault: vi.fn() };
        contents.events.get(name)!(event, 'https://evil.example');
        expect(event.preventDefault, name).toHaveBeenCalled();
      }
    }
    expect(fake.state.openedExternally).toEqual([]);
  });

  it('refuses every permission: requests, checks, devices', () => {
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation']) {
      const decide = vi.fn();
      fake.state.permissionHandler!(win().webContents, permission, decide);
      expect(decide).toHaveBeenCalledWith(false);
      expect(fake.state.permissionCheckHandler!(win().webContents, permission, 'app://labeldesk', {})).toBe(
        false,
      );
    }
    expect(fake.state.deviceHandler!({ deviceType: 'usb', origin: 'app://labeldesk' })).toBe(false);
  });

  it("sends the page's Content Security Policy, without unsafe-inline, on app:// and network responses", async () => {
    let headers: any;
    fake.state.headersHandler!({ responseHeaders: {} }, (r: any) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy']).toEqual([RENDERER_CSP_HEADER]);
    const res = (await fake.state.protocolHandlers.get('app')!({
      url: 'app://labeldesk/nope.js',
    })) as Response;
    expect(res.headers.get('content-security-policy')).toBe(RENDERER_CSP_HEADER);
    expect(RENDERER_CSP_HEADER).not.toContain('unsafe-inline');
  });

  it('answers our page, parsed by the contract', async () => {
    const info = await invoke(ourPage(), 'app.info', {});
    expect(info).toMatchObject({ ok: true, result: { shell: 'electron' } });
    const bad = await invoke(ourPage(), 'templates.get', { ref: { source: 'nowhere', name: 'x' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-request', field: 'ref.source' } });
    const unknown = await invoke(ourPage(), 'shell.openPath', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad-request' } });
  });

  it('refuses calls from any frame but the main frame of our window showing our page', async () => {
    const main = win().webContents.mainFrame;
    const refused = [
      // An iframe inside our page, even one showing our own URL.
      { ...ourPage(), senderFrame: { ...main, routingId: 2, parent: main } },
      // The main frame, navigated elsewhere.
      { ...ourPage(), senderFrame: { ...main, url: 'https://evil.example/' } },
      { ...ourPage(), senderFrame: { ...main, url: 'file:///home/user/evil.html' } },
      // Another web contents, or a frame already gone.
      { ...ourPage(), sender: {} },
      { ...ourPage(), senderFrame: null },
    ];
    for (const event of refused) {
      expect(await invoke(event, 'settings.get', {})).toMatchObject({
        ok: false,
        error: { code: 'bad-request' },
      });
    }
  });

  it('keeps the secret encrypted at rest and out of every answer', async () => {
    const saved = await invoke(ourPage(), 'settings.update', { apiSecret: 'sk-electron-secret-77' });
    expect(saved.result).toMatchObject({ hasSecret: true, secretKept: 'stored', secretStorageProblem: null });
    expect(JSON.stringify(saved)).not.toContain('sk-electron-secret-77');
    const stored = readFileSync(join(dataDir, 'api-secret.bin'));
    expect(stored.toString()).not.toContain('sk-electron-secret-77');
  });

  it('on a desktop without a keyring (basic_text) refuses to store the secret and offers the session', async () => {
    fake.state.backend = 'basic_text';
    try {
      const view = await invoke(ourPage(), 'settings.get', {});
      expect(view.result.secretStorageProblem).toMatch(/no keyring.*keep it for this session only/);
      const refused = await invoke(ourPage(), 'settings.update', { apiSecret: 'sk-weak-1' });
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'invalid', field: 'apiSecret', action: 'settings' },
      });
      expect(refused.error.message).toBe(view.result.secretStorageProblem);
      const session = await invoke(ourPage(), 'settings.update', {
        apiSecret: 'sk-weak-1',
        secretForSessionOnly: true,
      });
      expect(session.result).toMatchObject({ hasSecret: true, secretKept: 'session' });
      // The secret stored earlier is gone too: nothing on disk under a fixed password.
      expect(existsSync(join(dataDir, 'api-secret.bin'))).toBe(false);
    } finally {
      fake.state.backend = 'gnome_libsecret';
    }
  });

  it('takes the folder for file printers from its own dialog, never from the page', async () => {
    fake.state.dialogAnswer = { canceled: false, filePaths: [dataDir] };
    const chosen = await invoke(ourPage(), 'settings.chooseFilePrinterFolder', {});
    expect(chosen).toMatchObject({ ok: true, result: { filePrinterFolder: dataDir } });
    fake.state.dialogAnswer = { canceled: true, filePaths: [] };
    expect(await invoke(ourPage(), 'settings.chooseFilePrinterFolder', {})).toMatchObject({
      result: { filePrinterFolder: dataDir },
    });
    const saved = await invoke(ourPage(), 'printers.save', {
      name: 'File',
      uri: `file://${join(dataDir, 'a.zpl')}`,
    });
    expect(saved.ok).toBe(true);
    const outside = await invoke(ourPage(), 'printers.save', {
      name: 'Out',
      uri: `file://${join(tmpdir(), 'x.zpl')}`,
    });
    expect(outside).toMatchObject({ ok: false, error: { field: 'uri' } });
  });
});
