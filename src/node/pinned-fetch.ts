/**
 * Node-only: an HTTP(S) GET under an address policy, for a server fetching URLs its clients name. The policy is
 * checked on the addresses the name resolves to, inside the connection's own DNS lookup, so the address
 * checked is the address connected to (a second resolution cannot rebind it to 127.0.0.1). Redirects are
 * followed by hand, each target checked the same way, at most `maxRedirects`; one deadline covers every hop
 * and the body; the body is capped in bytes. Every failure is a FetchRefused whose reason is for the server's
 * own use: callers show users one message whatever the reason.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy';

export interface PinnedFetchOptions {
  policy: AddressPolicy;
  /** Whole fetch (every redirect and the body), ms. */
  timeoutMs: number;
  maxBytes: number;
  /** Default 3. */
  maxRedirects?: number;
}

export type FetchRefusal =
  'scheme' | 'credentials' | 'address' | 'unreachable' | 'status' | 'redirects' | 'too-large' | 'timeout';

/** Why a fetch was refused or failed; `reason` never reaches a client. */
export class FetchRefused extends Error {
  constructor(readonly reason: FetchRefusal) {
    super(`fetch refused: ${reason}`);
    this.name = 'FetchRefused';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A lookup for http.request that only hands the socket addresses the policy allows. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      const allowed = err ? [] : addresses.filter((a) => policy.allows(hostname, a.address));
      const first = allowed[0];
      if (!first) {
        callback(err ?? new FetchRefused('address'), '', 0);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

function get(url: URL, policy: AddressPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(policy),
      signal,
      headers: { accept: 'image/png, image/jpeg, image/svg+xml', 'accept-encoding': 'identity' },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  if (Number(res.headers['content-length'] ?? '0') > maxBytes) throw new FetchRefused('too-large');
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new FetchRefused('too-large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** GETs `url` under `options.policy`; the body's bytes, or FetchRefused. */
export async function pinnedFetch(url: string, options: PinnedFetchOptions): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const maxRedirects = options.maxRedirects ?? 3;
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new FetchRefused('scheme');
    if (target.username || target.password) throw new FetchRefused('credentials');
    // The socket skips the lookup for an IP literal, so check it here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !options.policy.allows(literal, literal)) throw new FetchRefused('address');
    let res: IncomingMessage;
    try {
      res = await get(target, options.policy, signal);
    } catch (e) {
      if (e instanceof FetchRefused) throw e;
      throw new FetchRefused(signal.aborted ? 'timeout' : 'unreachable');
    }
    try {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        if (hop >= maxRedirects) throw new FetchRefused('redirects');
        target = new URL(location, target);
        continue;
      }
      if (status !== 200) throw new FetchRefused('status');
      return await readCapped(res, options.maxBytes);
    } catch (e) {
      if (e instanceof FetchRefused) throw e;
      throw new FetchRefused(signal.aborted ? 'timeout' : 'unreachable');
    } finally {
      res.destroy();
    }
  }
}
