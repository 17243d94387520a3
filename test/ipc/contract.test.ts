/**
 * The IPC contract: every channel has a request schema that main can parse; payloads that are not what a
 * channel expects are refused with `bad-request` naming the field (never another error type, never a crash),
 * fuzzed with fast-check; envelopes unwrap to results or IpcErrors the same way for Electron and web mode.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, CHANNELS, isChannelName } from '../../src/ipc/contract';
import type { BadRequest } from '../../src/ipc/errors';
import { IpcError, parseRequest } from '../../src/ipc/errors';
import { apiFromBridge, unwrapEnvelope, type IpcBridge } from '../../src/ipc/bridge';
import { createHttpApi } from '../../src/ipc/http-client';

describe('IPC contract', () => {
  it('declares each channel once, with a schema', () => {
    expect(CHANNEL_NAMES.length).toBeGreaterThanOrEqual(25);
    for (const name of CHANNEL_NAMES) {
      expect(isChannelName(name)).toBe(true);
      expect(typeof CHANNELS[name].request.safeParse).toBe('function');
    }
    expect(isChannelName('toString')).toBe(false);
    expect(isChannelName('__proto__')).toBe(false);
  });

  it('parses good payloads and names the field of a bad one', () => {
    expect(
      parseRequest('print.submit', {
        ref: { source: 'bundled', name: 'shipping-4x6' },
        values: { tracking: '1Z' },
        copies: 2,
        printer: '1',
      }),
    ).toMatchObject({ copies: 2 });
    const cases: [Parameters<typeof parseRequest>[0], unknown, string][] = [
      [
        'print.submit',
        { ref: { source: 'bundled', name: 'x' }, values: {}, copies: 0, printer: '1' },
        'copies',
      ],
      [
        'print.submit',
        { ref: { source: 'bundled', name: 'x' }, values: {}, copies: 1001, printer: '1' },
        'copies',
      ],
      ['preview.scene', { ref: { source: 'ftp', name: 'x' }, values: {} }, 'ref.source'],
      ['preview.scene', { ref: { source: 'user', name: 'x' }, values: { a: 7 } }, 'values.a'],
      ['settings.update', { apiBaseUrl: 'javascript:alert(1)' }, 'apiBaseUrl'],
      ['jobs.get', { id: -1 }, 'id'],
      ['jobs.list', { state: 'exploded' }, 'state'],
      ['printers.list', { extra: true }, ''],
    ];
    for (const [channel, payload, field] of cases) {
      try {
        parseRequest(channel, payload);
        expect.unreachable(`${channel} accepted ${JSON.stringify(payload)}`);
      } catch (e) {
        expect(e).toBeInstanceOf(IpcError);
        expect((e as IpcError).code).toBe('bad-request');
        // The log names the channel and the path; the user's sentence names neither (#42 item 13).
        expect((e as BadRequest).logLine.startsWith(`${channel}: ${field}`)).toBe(true);
        expect((e as IpcError).field ?? '').toBe(field);
        expect((e as IpcError).message).not.toContain(channel);
      }
    }
  });

  it('never throws anything but a bad-request IpcError, whatever arrives', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CHANNEL_NAMES), fc.anything(), (channel, payload) => {
        try {
          parseRequest(channel, payload);
        } catch (e) {
          expect(e).toBeInstanceOf(IpcError);
          expect((e as IpcError).code).toBe('bad-request');
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('unwraps envelopes to results, or to the IpcError main sent', () => {
    expect(unwrapEnvelope({ ok: true, result: { a: 1 } })).toEqual({ a: 1 });
    const error = { code: 'auth', message: 'Check the key', field: null, action: 'settings' };
    expect(() => unwrapEnvelope({ ok: false, error })).toThrow(
      expect.objectContaining({ code: 'auth', message: 'Check the key', action: 'settings' }),
    );
    expect(() => unwrapEnvelope('<html>proxy error</html>', 502)).toThrow(/cannot read \(502\)/);
  });

  it('gives Electron and web mode the same api', async () => {
    const bridge: IpcBridge = {
      invoke: async (channel) =>
        channel === 'app.info'
          ? { ok: true, result: { version: '1', shell: 'electron', platform: 'linux' } }
          : {
              ok: false,
              error: { code: 'not-found', message: 'No such template', field: null, action: null },
            },
      onEvent: () => () => undefined,
    };
    const electron = apiFromBridge(bridge);
    expect(await electron.invoke('app.info', {})).toMatchObject({ shell: 'electron' });
    await expect(
      electron.invoke('templates.get', { ref: { source: 'user', name: 'x' } }),
    ).rejects.toMatchObject({
      code: 'not-found',
    });

    const seen: { url: string; headers: Record<string, string> }[] = [];
    const web = createHttpApi({
      baseUrl: 'http://127.0.0.1:1',
      token: 'tok',
      fetch: (async (url: string, init: RequestInit) => {
        seen.push({ url, headers: init.headers as Record<string, string> });
        return new Response(JSON.stringify(await bridge.invoke(url.split('/ipc/')[1]!, {})), { status: 200 });
      }) as typeof fetch,
    });
    expect(await web.invoke('app.info', {})).toMatchObject({ shell: 'electron' });
    await expect(web.invoke('templates.get', { ref: { source: 'user', name: 'x' } })).rejects.toMatchObject({
      code: 'not-found',
    });
    expect(seen[0]).toMatchObject({
      url: 'http://127.0.0.1:1/ipc/app.info',
      headers: { 'x-labeldesk-token': 'tok' },
    });
    const down = createHttpApi({
      baseUrl: '',
      token: 't',
      fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
    });
    await expect(down.invoke('app.info', {})).rejects.toMatchObject({ code: 'unreachable' });
  });
});
