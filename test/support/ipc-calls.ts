/**
 * Test support for the app's services in plain Node: a channel called through `dispatch` as the renderer's IPC
 * would, its answer unwrapped (`call`) or its refusal returned (`refused`). `services` is read at each call, so a
 * test file may make its services in beforeAll.
 */
import { dispatch } from '../../main/app/dispatch';
import type { AppServices } from '../../main/app/services';
import type { ChannelName, RequestOf, ResponseOf } from '../../src/ipc/contract';
import type { IpcErrorBody } from '../../src/ipc/errors';

export function ipcCalls(services: () => AppServices): {
  call<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  refused<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<IpcErrorBody>;
} {
  return {
    async call(channel, request) {
      const answer = await dispatch(services(), channel, request);
      if (!answer.ok) throw answer.error;
      return answer.result as ResponseOf<typeof channel>;
    },
    async refused(channel, request) {
      const answer = await dispatch(services(), channel, request);
      if (answer.ok) throw new Error(`${channel} was expected to fail`);
      return answer.error;
    },
  };
}
