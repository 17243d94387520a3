/**
 * How the renderer reaches main: the Electron preload's bridge (`window.labeldesk`, envelopes unwrapped by
 * `apiFromBridge`), or, in web mode (`npm run web`), the same contract over localhost HTTP with the session
 * token the server printed in the URL. A ready `window.api` (a test harness's) is used as it is.
 */
import type { LabelDeskApi } from '../../../src/ipc/contract';
import { apiFromBridge, type IpcBridge } from '../../../src/ipc/bridge';
import { WEB_TOKEN_PARAM, createHttpApi } from '../../../src/ipc/http-client';

declare global {
  interface Window {
    /** Exposed by the Electron preload (contextBridge); absent in a browser. */
    labeldesk?: IpcBridge;
    /** A LabelDeskApi put there by a test harness. */
    api?: LabelDeskApi;
  }
}

const TOKEN_KEY = 'labeldesk.token';

/**
 * Takes the web-mode token from the address bar (then removes it, so it is not bookmarked or shared) or,
 * after a reload, from sessionStorage.
 */
export function takeWebToken(win: Window): string {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get(WEB_TOKEN_PARAM);
  if (fromUrl) {
    win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete(WEB_TOKEN_PARAM);
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return win.sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** The api for this window: Electron's preload if present, else the web-mode HTTP bridge. */
export function connectApi(win: Window = window): LabelDeskApi {
  if (win.labeldesk) return apiFromBridge(win.labeldesk);
  if (win.api) return win.api;
  return createHttpApi({
    baseUrl: '',
    token: takeWebToken(win),
    EventSource: (win as Window & typeof globalThis).EventSource,
  });
}
