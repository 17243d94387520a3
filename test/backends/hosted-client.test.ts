/**
 * The hosted API client against a misbehaving HTTP server (real sockets on 127.0.0.1). Waits go through a
 * virtual clock, so no test depends on timing; only the per-request timeout uses real (short) time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  HostedApiClient,
  parseRetryAfter,
  type ApiLogEvent,
  type HostedApiOptions,
} from '../../src/backends/hosted-client';
import { virtualClock } from '../../src/base/clock';
import {
  AuthError,
  CancelledError,
  HostedTemplateNotFound,
  MalformedResponseError,
  RateLimitedError,
  RenderFailedError,
  RfidError,
  UnexpectedStatusError,
  UnreachableError,
  ValidationError,
  WrongHostError,
  apiErrorKind,
} from '../../src/backends/errors';
import { ROUTES, ROUTE_NAMES } from '../../src/label-api/routes';
import { UsageTally, memoryUsageStorage } from '../../src/backends/usage';
import { TemplateNotFound } from '../../src/model/errors';
import { closedPortUrl, json, okBody, startServer, type TestServer } from './support/http-server';

const KEY = 'key-123';
const SECRET = 'sk_live_9f8e7d6c5b4a';
const REQ = { label_name: 'shipping-4x6', amount: 1, apiData: { tracking: '1Z999' } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => json(res, 200, okBody(req.path)));
});
afterAll(() => server.close());
afterEach(() => {
  server.received.length = 0;
  server.handle((req, res) => json(res, 200, okBody(req.path, JSON.parse(req.body).amount)));
});

function client(extra: Partial<HostedApiOptions> = {}) {
  const clock = virtualClock();
  const sleeps: number[] = [];
  const recording = {
    ...clock,
    sleep: (ms: number, signal?: AbortSignal) => (sleeps.push(ms), clock.sleep(ms, signal)),
  };
  const log: ApiLogEvent[] = [];
  const c = new HostedApiClient({
    baseUrl: server.url + '/',
    apiKey: KEY,
    apiSecret: SECRET,
    fetch: globalThis.fetch,
    clock: recording,
    random: () => 0.5,
    log: (e) => log.push(e),
    ...extra,
  });
  return { c, clock, sleeps, log };
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('requests', () => {
  it.each(ROUTE_NAMES)(
    '%s: POST to its path with the key, the secret and a JSON body; the answer is validated',
    async (route) => {
      const { c } = client();
      const body = route === 'print-relay' || route === 'print-relay-pdf' ? { ...REQ, printer_id: 7 } : REQ;
      const result = await c.call(route, body);
      expect(result).toMatchObject(okBody(ROUTES[route].path) as object); // markup gains its schema defaults
      const [req] = server.received;
      expect(req?.method).toBe('POST');
      expect(req?.path).toBe(ROUTES[route].path);
      expect(req?.headers['x-api-key']).toBe(KEY);
      expect(req?.headers['x-api-secret']).toBe(SECRET);
      expect(req?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req?.body ?? '')).toEqual(body);
    },
  );

  it('renderZpl sends dpi and max_width_dots', async () => {
    const { c } = client();
    await c.renderZpl({ ...REQ, dpi: 300, max_width_dots: 1200 });
    expect(JSON.parse(server.received[0]?.body ?? '')).toMatchObject({ dpi: 300, max_width_dots: 1200 });
  });
});

describe('errors a UI can act on', () => {
  it('401 → AuthError pointing at Settings', async () => {
    server.handle((_q, res) => json(res, 401, { message: 'Unauthenticated.' }));
    const e = await failure(client().c.fetchMarkups(REQ));
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toContain('check the API key and secret in Settings');
  });

  it('404 → HostedTemplateNotFound, which is a TemplateNotFound', async () => {
    server.handle((_q, res) => json(res, 404, { message: 'Label not found' }));
    const e = await failure(client().c.exportSvg(REQ));
    expect(e).toBeInstanceOf(HostedTemplateNotFound);
    expect(e).toBeInstanceOf(TemplateNotFound);
    expect((e as HostedTemplateNotFound).templateName).toBe('shipping-4x6');
    expect(apiErrorKind(e)).toBe('template-not-found');
  });

  it.each([
    ['render-zpl', { message: 'Template not found.' }],
    [
      'render-pdf',
      {
        message: 'The selected label name is invalid.',
        errors: { label_name: ['The selected label name is invalid.'] },
      },
    ],
    ['render-zpl', { message: 'No label named "shipping-4x6" exists' }],
    ['render-pdf', { message: 'label_name: unknown template "shipping-4x6"', field: 'label_name' }],
  ] as const)('%s 422 for an unknown name (%j) → HostedTemplateNotFound', async (route, body) => {
    server.handle((_q, res) => json(res, 422, body));
    const e = await failure(client().c.call(route, REQ));
    expect(e).toBeInstanceOf(HostedTemplateNotFound);
  });

  it.each([
    [{ message: 'RFID labels must be rendered as ZPL because PDF cannot encode RFID tags' }, 'render-pdf'],
    [{ message: 'Template contains an RFID element', field: 'label_name' }, 'print-relay-pdf'],
  ] as const)('RFID 422 %j → RfidError', async (body, route) => {
    server.handle((_q, res) => json(res, 422, body));
    const e = await failure(client().c.call(route, { ...REQ, printer_id: 1 }));
    expect(e).toBeInstanceOf(RfidError);
    expect(e.message).toContain('RFID labels print as ZPL');
  });

  it.each([
    [
      { message: 'amount: must be at least 1, got 0', field: 'amount' },
      'amount',
      'amount: must be at least 1, got 0',
    ],
    [
      { message: 'The given data was invalid.', errors: { dpi: ['The dpi must be between 100 and 1200.'] } },
      'dpi',
      'The given data was invalid.',
    ],
    [{ message: 'The label_name field is required.' }, 'label_name', 'The label_name field is required.'],
    [{ error: 'max_width_dots out of range' }, 'max_width_dots', 'max_width_dots out of range'],
    [{}, undefined, 'the hosted API refused the request as invalid (422)'],
  ] as const)('other 422 %j → ValidationError with field %s', async (body, field, message) => {
    server.handle((_q, res) => json(res, 422, body));
    const e = await failure(client().c.renderZpl(REQ));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).field).toBe(field);
    expect(e.message).toBe(message);
  });

  it('a 200 with an HTML page → WrongHostError', async () => {
    server.handle((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body>Sign in</body></html>');
    });
    const e = await failure(client().c.fetchMarkups(REQ));
    expect(e).toBeInstanceOf(WrongHostError);
    expect(e.message).toMatch(
      /^the base URL points at the web-app host, not the API host \(it answered with text\/html/,
    );
  });

  it('a 404 HTML page (no such route on this host) → WrongHostError, not template-not-found', async () => {
    server.handle((_q, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    expect(await failure(client().c.fetchMarkups(REQ))).toBeInstanceOf(WrongHostError);
  });

  it('a redirect is not followed (it would carry the secret elsewhere) → WrongHostError', async () => {
    const other = await startServer((_q, res) => json(res, 200, okBody('/custom-labels/fetch-markups')));
    try {
      server.handle((_q, res) => {
        res.writeHead(302, { Location: `${other.url}/login` });
        res.end();
      });
      const e = await failure(client().c.fetchMarkups(REQ));
      expect(e).toBeInstanceOf(WrongHostError);
      expect(e.message).toContain(`a redirect to ${other.url}/login`);
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('malformed JSON → MalformedResponseError', async () => {
    server.handle((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"stage": ');
    });
    const e = await failure(client().c.fetchMarkups(REQ));
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect(e.message).toMatch(/not valid JSON/);
  });

  it('JSON of the wrong shape → MalformedResponseError naming the path', async () => {
    server.handle((_q, res) =>
      json(res, 200, { dpi: '203', max_width_dots: 832, count: 1, labels: ['^XA^XZ'] }),
    );
    const e = (await failure(client().c.renderZpl(REQ))) as MalformedResponseError;
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect(e.problems).toEqual(['dpi: expected number, got a string']);
  });

  it('a ZPL label that is not a job from ^XA to ^XZ, and fewer copies than asked → MalformedResponseError', async () => {
    server.handle((_q, res) =>
      json(res, 200, { dpi: 203, max_width_dots: 832, count: 1, labels: ['garbage'] }),
    );
    expect(((await failure(client().c.renderZpl(REQ))) as MalformedResponseError).problems).toEqual([
      'labels[0]: expected a ZPL job from ^XA to ^XZ',
    ]);
    server.handle((_q, res) => json(res, 200, okBody('/custom-labels/render-pdf', 1)));
    const e = (await failure(client().c.renderPdf({ ...REQ, amount: 3 }))) as MalformedResponseError;
    expect(e.problems).toEqual(['1 copies for amount 3 (expected one per copy)']);
  });

  it('a status the spec does not list → UnexpectedStatusError with the server message', async () => {
    server.handle((_q, res) => json(res, 403, { message: 'Your plan does not include API access' }));
    const e = await failure(client().c.fetchMarkups(REQ));
    expect(e).toBeInstanceOf(UnexpectedStatusError);
    expect(e.message).toBe('the hosted API answered 403: Your plan does not include API access');
  });
});

describe('retries', () => {
  it('429 with Retry-After seconds: waits that long (on the clock), then succeeds', async () => {
    let n = 0;
    server.handle((req, res) =>
      n++ === 0
        ? json(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '7' })
        : json(res, 200, okBody(req.path)),
    );
    const { c, clock, sleeps } = client();
    const t0 = clock.now();
    await c.fetchMarkups(REQ);
    expect(server.received).toHaveLength(2);
    expect(sleeps).toContain(7000);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(7000);
  });

  it('429 with an HTTP-date Retry-After', async () => {
    const { c, clock, sleeps } = client();
    const at = new Date(clock.now() + 12_000).toUTCString();
    let n = 0;
    server.handle((req, res) =>
      n++ === 0 ? json(res, 429, {}, { 'Retry-After': at }) : json(res, 200, okBody(req.path)),
    );
    await c.fetchMarkups(REQ);
    expect(sleeps.some((ms) => ms >= 11_000 && ms <= 12_000)).toBe(true);
  });

  it('429 without Retry-After: exponential backoff with jitter, then succeeds', async () => {
    let n = 0;
    server.handle((req, res) => (n++ < 2 ? json(res, 429, {}) : json(res, 200, okBody(req.path))));
    const { c, sleeps } = client({ backoffBaseMs: 1000 });
    await c.fetchMarkups(REQ);
    // ceiling 1 s then 2 s; random 0.5 → three quarters of each.
    expect(sleeps.filter((ms) => ms > 0)).toEqual([750, 1500]);
  });

  it('429 that persists: gives up after 3 retries with RateLimitedError', async () => {
    server.handle((_q, res) => json(res, 429, {}, { 'Retry-After': '1' }));
    const e = await failure(client().c.fetchMarkups(REQ));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(server.received).toHaveLength(4);
  });

  it('a Retry-After beyond maxRetryAfterMs is not waited for', async () => {
    server.handle((_q, res) => json(res, 429, {}, { 'Retry-After': '3600' }));
    const e = (await failure(client().c.fetchMarkups(REQ))) as RateLimitedError;
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.retryAfterMs).toBe(3_600_000);
    expect(e.message).toContain('try again in 3600 s');
    expect(server.received).toHaveLength(1);
  });

  it('500 once, then 200: retried once, succeeds', async () => {
    let n = 0;
    server.handle((req, res) =>
      n++ === 0 ? json(res, 500, { message: 'boom' }) : json(res, 200, okBody(req.path)),
    );
    await client().c.renderPdf(REQ);
    expect(server.received).toHaveLength(2);
  });

  it('500 twice → RenderFailedError after exactly one retry', async () => {
    server.handle((_q, res) => json(res, 500, { message: 'Render failed' }));
    const e = await failure(client().c.renderPdf(REQ));
    expect(e).toBeInstanceOf(RenderFailedError);
    expect(e.message).toBe('the service failed to render the label (500, also on retry)');
    expect((e as RenderFailedError).serverMessage).toBe('Render failed');
    expect(server.received).toHaveLength(2);
  });

  it('503 twice → UnreachableError (a gateway in front of a service that is down)', async () => {
    server.handle((_q, res) => json(res, 503, { message: 'maintenance' }));
    const e = await failure(client().c.renderZpl(REQ));
    expect(e).toBeInstanceOf(UnreachableError);
    expect(server.received).toHaveLength(2);
  });

  it('parseRetryAfter: seconds, HTTP-date, garbage', () => {
    expect(parseRetryAfter('30', 0)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 20_000)).toBe(0);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });
});

describe('network failures and cancellation', () => {
  it('no answer within the timeout → UnreachableError (timeout), not retried', async () => {
    server.handle(() => new Promise(() => {})); // never answers
    const e = (await failure(client({ timeoutMs: 150 }).c.fetchMarkups(REQ))) as UnreachableError;
    expect(e).toBeInstanceOf(UnreachableError);
    expect(e.reason).toBe('timeout');
    expect(e.message).toBe('the hosted API service is unreachable: no complete answer within 0.15 s');
    expect(server.received).toHaveLength(1);
  });

  it('headers on time but a body that stalls past the timeout → UnreachableError (timeout)', async () => {
    server.handle((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('[');
    });
    const e = (await failure(client({ timeoutMs: 150 }).c.fetchMarkups(REQ))) as UnreachableError;
    expect(e.reason).toBe('timeout');
  });

  it('a connection reset mid-response → UnreachableError (network)', async () => {
    server.handle((_q, res, raw) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000' });
      res.write('[{"stage":', () => raw.socket.destroy());
    });
    const e = (await failure(client().c.fetchMarkups(REQ))) as UnreachableError;
    expect(e).toBeInstanceOf(UnreachableError);
    expect(e.reason).toBe('network');
    expect(e.message).toMatch(
      /^the hosted API service is unreachable: the connection was (lost mid-response|lost)$/,
    );
  });

  it('a refused connection → UnreachableError', async () => {
    const c = new HostedApiClient({
      baseUrl: await closedPortUrl(),
      apiKey: KEY,
      apiSecret: SECRET,
      fetch: globalThis.fetch,
    });
    const e = await failure(c.fetchMarkups(REQ));
    expect(e).toBeInstanceOf(UnreachableError);
    expect(e.message).toBe('the hosted API service is unreachable: the connection was refused');
  });

  it('AbortSignal mid-request → CancelledError', async () => {
    const controller = new AbortController();
    server.handle(() => {
      controller.abort();
      return new Promise(() => {});
    });
    const e = await failure(client().c.fetchMarkups(REQ, { signal: controller.signal }));
    expect(e).toBeInstanceOf(CancelledError);
  });

  it('AbortSignal already aborted → CancelledError without a request', async () => {
    const e = await failure(client().c.fetchMarkups(REQ, { signal: AbortSignal.abort() }));
    expect(e).toBeInstanceOf(CancelledError);
    expect(server.received).toHaveLength(0);
  });

  it('AbortSignal during a Retry-After wait → CancelledError, no second request', async () => {
    const controller = new AbortController();
    server.handle((_q, res) => json(res, 429, {}, { 'Retry-After': '5' }));
    const clock = virtualClock();
    const c = new HostedApiClient({
      baseUrl: server.url,
      apiKey: KEY,
      apiSecret: SECRET,
      fetch: globalThis.fetch,
      clock: { now: clock.now, sleep: (ms, signal) => (controller.abort(), clock.sleep(ms, signal)) },
    });
    const e = await failure(c.fetchMarkups(REQ, { signal: controller.signal }));
    expect(e).toBeInstanceOf(CancelledError);
    expect(server.received).toHaveLength(1);
  });
});

describe('prints used', () => {
  it('counts every successful request per key and route, requests and copies, and saves it', async () => {
    const storage = memoryUsageStorage();
    const tally = await UsageTally.open(storage);
    const { c } = client({ tally });
    await c.fetchMarkups({ ...REQ, amount: 2 });
    await c.exportSvg(REQ);
    await c.renderZpl({ ...REQ, amount: 3 });
    server.handle((_q, res) => json(res, 422, { message: 'amount: must be at least 1', field: 'amount' }));
    await failure(c.renderZpl(REQ));
    await tally.flush();
    expect(tally.usage(KEY)).toEqual({
      total: { requests: 3, labels: 6 },
      byRoute: {
        'fetch-markups': { requests: 1, labels: 2 },
        'export-svg': { requests: 1, labels: 1 },
        'render-zpl': { requests: 1, labels: 3 },
      },
    });
    expect(storage.data?.keys[KEY]?.['render-zpl']).toEqual({ requests: 1, labels: 3 });
    const reopened = await UsageTally.open(storage);
    expect(reopened.usage(KEY).total).toEqual({ requests: 3, labels: 6 });
  });

  it('a stored tally of the wrong shape is reported and starts from zero', async () => {
    const messages: string[] = [];
    const tally = await UsageTally.open({ load: async () => ({ version: 9 }), save: async () => {} }, (m) =>
      messages.push(m),
    );
    expect(tally.usage(KEY).total).toEqual({ requests: 0, labels: 0 });
    expect(messages[0]).toMatch(/^the saved print tally is not valid and starts again from zero/);
  });
});
