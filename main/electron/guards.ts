/**
 * The Electron shell's guards, kept apart from the wiring so they read as the checklist they are:
 * every web contents (ours and any other that could appear) opens no window, navigates nowhere, attaches no
 * webview; every permission check and request is refused; IPC answers only the main frame of our window
 * showing our page.
 */
import type { BrowserWindow, IpcMainInvokeEvent, Session, WebContents } from 'electron';
import { isAppUrl } from './app-protocol';

/**
 * For `app.on('web-contents-created')`. LabelDesk opens no links: nothing in the renderer points outside
 * the app (no help or web links), so `shell.openExternal` is not used at all — an allowlist of nothing.
 */
export function guardWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  // In-page navigation (the screens' #/hash routes) does not emit these; loadURL from main does not either.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** No permission for anything: camera, notifications, clipboard reads, USB/HID/serial from the page. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** Whether an IPC call comes from the main frame of our window, showing our page (not an iframe in it). */
export function fromOurMainFrame(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  win: BrowserWindow | undefined,
): boolean {
  const frame = event.senderFrame;
  if (!win || !frame || event.sender !== win.webContents) return false;
  const main = win.webContents.mainFrame;
  return (
    frame.parent === null &&
    frame.processId === main.processId &&
    frame.routingId === main.routingId &&
    isAppUrl(frame.url)
  );
}
