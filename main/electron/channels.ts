/** The two Electron IPC channels the whole contract travels on (src/ipc names the contract's own channels). */
export const INVOKE_CHANNEL = 'labeldesk:invoke';
export const EVENT_CHANNEL = 'labeldesk:event';
