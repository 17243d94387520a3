/**
 * The Electron preload's bridge. Class instances do not survive `contextBridge` (an IpcError arrives as a
 * bare Error with only its message), so the preload exposes `window.labeldesk` answering with envelopes, and
 * the renderer wraps it into a `LabelDeskApi` here, the same way web mode unwraps its HTTP answers.
 */
import type { AppEvent, ChannelName, LabelDeskApi, RequestOf, ResponseOf } from './contract';
import { IpcError, IpcErrorBodySchema, type IpcErrorBody } from './errors';

/** What main answers on every call: the result, or the error as data. */
export type IpcEnvelope = { ok: true; result: unknown } | { ok: false; error: IpcErrorBody };

/** `window.labeldesk` in the Electron renderer. */
export interface IpcBridge {
  invoke(channel: string, request: unknown): Promise<IpcEnvelope>;
  onEvent(listener: (event: AppEvent) => void): () => void;
}

/** The result of an envelope, or its error thrown as an IpcError. `status` only words unreadable answers. */
export function unwrapEnvelope(body: unknown, status?: number): unknown {
  if (typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === true) {
    return (body as { result: unknown }).result;
  }
  const error = IpcErrorBodySchema.safeParse((body as { error?: unknown } | null)?.error);
  if (error.success) throw IpcError.fromBody(error.data);
  throw new IpcError('internal', `LabelDesk gave an answer it cannot read${status ? ` (${status})` : ''}.`);
}

export function apiFromBridge(bridge: IpcBridge): LabelDeskApi {
  return {
    async invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
      return unwrapEnvelope(await bridge.invoke(channel, request ?? {})) as ResponseOf<C>;
    },
    onEvent: (listener) => bridge.onEvent(listener),
  };
}
