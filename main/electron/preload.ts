/**
 * The preload (sandboxed: only `electron`'s contextBridge and ipcRenderer are available). Exposes
 * `window.labeldesk`, an IpcBridge (src/ipc/bridge.ts): calls go to main as (channel, payload), which main
 * checks and parses; events come back on one channel. Nothing else of Electron or Node reaches the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AppEvent } from '../../src/ipc/contract';
import type { IpcBridge, IpcEnvelope } from '../../src/ipc/bridge';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels';

const bridge: IpcBridge = {
  invoke: (channel, request) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, request) as Promise<IpcEnvelope>,
  onEvent(listener) {
    const handler = (_event: IpcRendererEvent, payload: AppEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('labeldesk', bridge);
