/**
 * pinnedFetch (src/node/pinned-fetch.ts) against a real listener on 127.0.0.1: the reason it gives for each
 * refusal (for the server's own use; clients see one message), the check on resolved names, redirects followed
 * by hand, the byte cap and the deadline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addressPolicy } from '../../src/node/address-policy';
import {
  FetchRefused,
  pinnedFetch,
  type FetchRefusal,
  type PinnedFetchOptions,
} from '../../src/node/pinned-fetch';
import { listen, type Listener } from './serve/hostile';

let host: Listener;

beforeAll(async () => {
  host = await listen((req, res) => {
    const path = req.url ?? '';
    if (path === '/ok') res.writeHead(200).end('hello');
    else if (path === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else if (path === '/to-ok') res.writeHead(303, { location: '/ok' }).end();
    else if (path === '/big') res.writeHead(200).end(Buffer.alloc(5000));
    else if (path === '/stall')
      res.writeHead(200).write('x'); // never ends
    else res.writeHead(404).end();
  });
});

afterAll(async () => {
  await host?.close();
});

const allowLoopback = addressPolicy(['127.0.0.1']);
const options: PinnedFetchOptions = { policy: allowLoopback, timeoutMs: 2000, maxBytes: 1000 };

async function reason(url: string, opts = options): Promise<FetchRefusal | 'fetched'> {
  try {
    await pinnedFetch(url, opts);
    return 'fetched';
  } catch (e) {
    if (e instanceof FetchRefused) return e.reason;
    throw e;
  }
}

describe('pinnedFetch', () => {
  test('an allowed address is fetched, redirects on it followed', async () => {
    expect(Buffer.from(await pinnedFetch(`${host.url}/ok`, options)).toString()).toBe('hello');
    expect(Buffer.from(await pinnedFetch(`${host.url}/to-ok`, options)).toString()).toBe('hello');
  });

  test('by default loopback is refused, by literal and by name, before any connection', async () => {
    const before = host.hits.length;
    const strict = { ...options, policy: addressPolicy() };
    expect(await reason(`${host.url}/ok`, strict)).toBe('address');
    expect(await reason(`${host.url.replace('127.0.0.1', 'localhost')}/ok`, strict)).toBe('address');
    // Allowing another loopback address does not allow this one.
    expect(
      await reason(`${host.url.replace('127.0.0.1', 'localhost')}/ok`, {
        ...options,
        policy: addressPolicy(['::1']),
      }),
    ).toBe('address');
    expect(host.hits.length).toBe(before);
  });

  test('each refusal has its reason', async () => {
    expect(await reason('ftp://127.0.0.1/x')).toBe('scheme');
    expect(await reason(`${host.url}/to-file`)).toBe('scheme');
    expect(await reason(host.url.replace('http://', 'http://user:pw@') + '/ok')).toBe('credentials');
    expect(await reason(`${host.url}/nope`)).toBe('status');
    expect(await reason(`${host.url}/big`)).toBe('too-large');
    expect(await reason('http://127.0.0.1:1/ok')).toBe('unreachable');
    expect(await reason(`${host.url}/to-ok`, { ...options, maxRedirects: 0 })).toBe('redirects');
    expect(await reason(`${host.url}/stall`, { ...options, timeoutMs: 300 })).toBe('timeout');
  });
});
