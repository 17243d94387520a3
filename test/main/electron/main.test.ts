/**
 * The Electron shell's wiring, with a stand-in for the `electron` module (its binary cannot run here): the
 * window's hardening, the handlers that deny new windows and navigation, permissions refused, and the one IPC
 * handler — which answers only our own page and parses every payload with the contract.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { packageRoot } from '../../../src/node/assets';

const fake = vi.hoisted(() => {
  type Listener = (...args: any[]) => unknown;
  const state = {
    windows: [] as any[],
    handlers: new Map<string, Listener>(),
    appEvents: new Map<string, Listener>(),
    permissionHandler: undefined as undefined | Listener,
    headersHandler: undefined as undefined | Listener,
    sandboxEnabled: false,
    ready: undefined as undefined | (() => void),
  };
  class BrowserWindow {
    options: any;
    events = new Map<string, Listener>();
    openHandler: Listener | undefined;
    loaded: string | undefined;
    webContents = {
      events: new Map<string, Listener>(),
      sent: [] as unknown[],
      on: (name: string, f: Listener) => this.webContents.events.set(name, f),
      setWindowOpenHandler: (f: Listener) => (this.openHandler = f),
      send: (_channel: string, payload: unknown) => this.webContents.sent.push(payload),
    };
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
    async loadFile(path: string) {
      this.loaded = path;
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
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
      decryptString: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (f: Listener) => (state.permissionHandler = f),
        webRequest: { onHeadersReceived: (f: Listener) => (state.headersHandler = f) },
      },
    },
    shell: { openExternal: async () => undefined },
  };
  return { state, electron };
});

vi.mock('electron', () => ({ ...fake.electron, default: fake.electron }));

let dataDir: string;
const argv = process.argv;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ld-electron-'));
  // Chromium and launchers add switches of their own; the app reads only its options.
  process.argv = ['electron', '.', '--no-sandbox', '--data-dir', dataDir, '--enable-features=X'];
  await import('../../../main/electron/main');
  fake.state.ready!();
  await vi.waitFor(() => expect(fake.state.handlers.size).toBe(1));
});

afterAll(() => {
  process.argv = argv;
  rmSync(dataDir, { recursive: true, force: true });
});

const win = () => fake.state.windows[0];
const ourPage = () => ({
  sender: win().webContents,
  senderFrame: { url: pathToFileURL(join(packageRoot(), 'dist', 'renderer', 'index.html')).href },
});
const invoke = (event: unknown, channel: unknown, payload: unknown) =>
  [...fake.state.handlers.values()][0]!(event, channel, payload) as Promise<any>;

describe('Electron shell', () => {
  it('opens one hardened window on the built renderer', () => {
    expect(fake.state.sandboxEnabled).toBe(true);
    const prefs = win().options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(prefs.preload).toMatch(/dist[/\\]electron[/\\]preload\.cjs$/);
    expect(win().loaded).toMatch(/dist[/\\]renderer[/\\]index\.html$/);
  });

  it('denies new windows and navigation, refuses permissions', () => {
    expect(win().openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(win().openHandler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    const navigate = win().webContents.events.get('will-navigate');
    const event = { preventDefault: vi.fn() };
    navigate(event, 'https://evil.example');
    expect(event.preventDefault).toHaveBeenCalled();
    const decide = vi.fn();
    fake.state.permissionHandler!(undefined, 'media', decide);
    expect(decide).toHaveBeenCalledWith(false);
  });

  it('sends the same Content Security Policy as the page declares', () => {
    const html = readFileSync(join(packageRoot(), 'renderer', 'index.html'), 'utf8');
    const declared = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(declared).toContain("script-src 'self'");
    let headers: any;
    fake.state.headersHandler!({ responseHeaders: {} }, (r: any) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy']).toEqual([declared]);
  });

  it('answers our page, parsed by the contract', async () => {
    const info = await invoke(ourPage(), 'app.info', {});
    expect(info).toMatchObject({ ok: true, result: { shell: 'electron' } });
    const bad = await invoke(ourPage(), 'templates.get', { ref: { source: 'nowhere', name: 'x' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-request', field: 'ref.source' } });
    const unknown = await invoke(ourPage(), 'shell.openPath', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad-request' } });
  });

  it('refuses calls from any other page or frame', async () => {
    const foreignFrame = { ...ourPage(), senderFrame: { url: 'https://evil.example/' } };
    expect(await invoke(foreignFrame, 'app.info', {})).toMatchObject({
      ok: false,
      error: { code: 'bad-request' },
    });
    const otherContents = { ...ourPage(), sender: {} };
    expect(await invoke(otherContents, 'settings.get', {})).toMatchObject({ ok: false });
  });

  it('keeps the secret encrypted at rest and out of every answer', async () => {
    const saved = await invoke(ourPage(), 'settings.update', { apiSecret: 'sk-electron-secret-77' });
    expect(saved.result.hasSecret).toBe(true);
    expect(JSON.stringify(saved)).not.toContain('sk-electron-secret-77');
    const stored = readFileSync(join(dataDir, 'api-secret.bin'));
    expect(stored.toString()).not.toContain('sk-electron-secret-77');
  });
});
