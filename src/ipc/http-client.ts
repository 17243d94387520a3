/**
 * Web mode's side of the IPC contract (`npm run web`): the same `LabelDeskApi` as Electron's preload, over
 * localhost HTTP. Requests are `POST /ipc/<channel>` with a JSON body and the session token in a header;
 * events arrive over Server-Sent Events at `/events?token=…` (EventSource cannot send headers).
 * Responses are `{ ok: true, result }` or `{ ok: false, error: IpcErrorBody }`.
 */
import type { AppEvent, ChannelName, LabelDeskApi, RequestOf, ResponseOf } from './contract';
import { IpcError } from './errors';
import { unwrapEnvelope } from './bridge';

export const WEB_IPC_PATH = '/ipc/';
export const WEB_EVENTS_PATH = '/events';
export const WEB_TOKEN_HEADER = 'x-labeldesk-token';
export const WEB_TOKEN_PARAM = 'token';

export interface HttpApiOptions {
  /** Origin of the web-mode server, e.g. `http://127.0.0.1:5170` ('' for same origin). */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** EventSource constructor (the browser's); events are not delivered without one. */
  EventSource?: new (url: string) => EventSource;
}

export function createHttpApi(options: HttpApiOptions): LabelDeskApi {
  const doFetch = options.fetch ?? fetch;
  return {
    async invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
      let response: Response;
      try {
        response = await doFetch(`${options.baseUrl}${WEB_IPC_PATH}${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [WEB_TOKEN_HEADER]: options.token },
          body: JSON.stringify(request ?? {}),
        });
      } catch {
        throw new IpcError('unreachable', 'LabelDesk is not running any more: start it again and reload.');
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new IpcError('internal', `LabelDesk answered ${response.status} without a readable body.`);
      }
      return unwrapEnvelope(body, response.status) as ResponseOf<C>;
    },
    onEvent(listener: (event: AppEvent) => void): () => void {
      const Source = options.EventSource;
      if (!Source) return () => undefined;
      const url = `${options.baseUrl}${WEB_EVENTS_PATH}?${WEB_TOKEN_PARAM}=${encodeURIComponent(options.token)}`;
      const source = new Source(url);
      source.onmessage = (message: MessageEvent<string>) => {
        try {
          listener(JSON.parse(message.data) as AppEvent);
        } catch {
          // A malformed event is dropped; the next refresh shows the truth.
        }
      };
      return () => source.close();
    },
  };
}
