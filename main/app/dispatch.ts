/**
 * One IPC call, as both shells make it (Electron's ipcMain handler, web mode's POST /ipc/<channel>): the channel
 * named, the payload parsed by the contract, the handler run, and the answer as an envelope — the result, or
 * the error as a sentence (never a stack).
 */
import { isChannelName } from '../../src/ipc/contract';
import { BadRequest, IpcError, parseRequest } from '../../src/ipc/errors';
import type { IpcEnvelope } from '../../src/ipc/bridge';
import { toIpcErrorBody } from './ipc-error-body';
import type { AppServices } from './services';

export async function dispatch(
  services: Pick<AppServices, 'handlers'>,
  channel: unknown,
  payload: unknown,
  log?: (line: string) => void,
): Promise<IpcEnvelope> {
  try {
    if (!isChannelName(channel)) throw new IpcError('bad-request', `No channel "${String(channel)}".`);
    const handler = services.handlers[channel] as (request: unknown) => Promise<unknown>;
    return { ok: true, result: await handler(parseRequest(channel, payload)) };
  } catch (e) {
    const error = toIpcErrorBody(e);
    if (error.code === 'internal') log?.(`${String(channel)}: ${e instanceof Error ? e.message : String(e)}`);
    // The channel and the property path are for the log; the user reads the field's label (#42 item 13).
    if (e instanceof BadRequest) log?.(`refused ${e.logLine}`);
    return { ok: false, error };
  }
}
