/**
 * Node-only: the Fastify plumbing of `labeldesk serve` that is not a route: strict JSON bodies, every error and
 * unknown route answered as the spec's JSON, CORS for the SDK, the 429 and warnings headers (server.ts wires
 * them).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, WARNINGS_HEADER } from '../../label-api/contract';
import { kindOf } from '../../base/error-kind';
import { HttpError, toHttpError } from '../../engine/http-errors';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The warnings header: a JSON array, every non-ASCII character escaped so the value is a valid header. */
export function warningsHeader(warnings: readonly string[]): string {
  return JSON.stringify(warnings.slice(0, 50)).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Why a secret was not checked (key-store.ts): a verified secret is never refused this way. */
export const AUTH_THROTTLED = {
  address: 'too many failed authentications from this address',
  key: 'too many failed authentications for this API key',
  busy: 'the server is busy checking secrets',
} as const;

export function tooMany(retryAfterSeconds: number, why: string): HttpError {
  return new HttpError(429, `${why}; retry in ${retryAfterSeconds} s`, undefined, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** JSON bodies only, strictly UTF-8; `__proto__` keys are dropped. Every failure is a 422 naming the problem. */
export function installBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      done(new HttpError(422, 'the request body is not valid UTF-8'), undefined);
      return;
    }
    parseJson(req, text, done);
  });
  app.addContentTypeParser('*', (req, _payload, done) => {
    // A request for no route is answered 404 (naming the routes), whatever its body.
    if (req.is404) done(null, undefined);
    else done(new HttpError(422, 'Content-Type must be application/json'), undefined);
  });
}

/** Maps Fastify's own errors to the spec's statuses; answers everything as JSON. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler(async (req) => {
    throw new HttpError(
      404,
      `no route ${req.method} ${req.url.split('?')[0]?.slice(0, 100)}: the API's routes are POST ${API_PREFIX}<route>`,
    );
  });
  app.setErrorHandler(async (error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    // Outside the operations (authentication, the file routes) a LabelDesk error is mapped as inside them: a
    // site database that does not answer while a key is checked is a 503, not a 500.
    const api =
      error instanceof HttpError
        ? error
        : kindOf(error) !== 'internal'
          ? toHttpError(error, { unknownTemplateStatus: 404 })
          : fromFastifyError(error, app);
    if (api.status === 503) {
      const cause = api.cause as { name?: string; code?: unknown; cause?: { code?: unknown } } | undefined;
      // The operator's signal: which failure, never the database's address (pg's messages can name it).
      req.log.error(
        { route: req.routeOptions.url, error: cause?.name, code: cause?.cause?.code ?? cause?.code },
        'site database unavailable',
      );
    }
    if (api.status === 500) {
      const cause = (api.cause ?? error) as Error | undefined;
      // The class and stack frames, never the message: it may quote a field value or an image URL.
      req.log.error(
        {
          route: req.routeOptions.url,
          error: cause?.name,
          stack: cause?.stack?.split('\n').slice(1, 8).join('\n'),
        },
        'request failed',
      );
    }
    return reply.code(api.status).headers(api.headers).type(JSON_TYPE).send(api.toBody());
  });
}

function fromFastifyError(error: unknown, app: FastifyInstance): HttpError {
  const e = error as { code?: string; statusCode?: number };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(
        422,
        `the request body is too large: the limit is ${app.initialConfig.bodyLimit} bytes`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(422, 'the request body is empty: send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpError(422, 'the request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(422, 'Content-Type must be application/json');
    default:
      if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
        return new HttpError(422, 'the request is malformed');
      }
      return new HttpError(500, 'the server failed; retry once', undefined, { cause: error });
  }
}

/**
 * A request whose body has not all arrived `timeoutMs` after it began (a client that stops half-way, or trickles
 * it) is answered 408 and its connection closed: it holds no socket, no parser and no place in a queue for ever.
 * (Node's own `requestTimeout` stops counting once the headers are in.) The answer's time is not counted.
 */
export function installBodyDeadline(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRequest', async (req) => {
    const raw = req.raw;
    if (raw.complete) return;
    const timer = setTimeout(() => {
      const socket = raw.socket;
      if (raw.complete || socket.destroyed) return;
      const text = `the request body did not arrive within ${Math.round(timeoutMs / 1000)} s\n`;
      socket.end(
        `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      // A client that does not close its side is let go of a moment later.
      setTimeout(() => socket.destroy(), 1000).unref();
    }, timeoutMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
  });
}

/**
 * CORS for the SDK (spec §4.2): its page is on another origin and sends custom headers, so browsers ask first
 * (OPTIONS). Only configured origins get an answer they accept.
 */
export function installCors(app: FastifyInstance, origins: ReadonlySet<string>): void {
  const allowed = (origin: string | undefined): origin is string =>
    origin !== undefined && (origins.has('*') || origins.has(origin));
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (req.url.startsWith(API_PREFIX) && allowed(origin)) {
      reply
        .header('Access-Control-Allow-Origin', origin)
        .header('Vary', 'Origin')
        .header('Access-Control-Expose-Headers', `Retry-After, ${WARNINGS_HEADER}`);
    }
  });
  app.options(`${API_PREFIX}*`, async (req, reply) => {
    const origin = req.headers.origin;
    if (!allowed(origin)) {
      throw new HttpError(
        403,
        `origin ${origin ?? '(none)'} may not call this API from a browser (labeldesk serve --cors-origin)`,
      );
    }
    return reply
      .code(204)
      .header('Access-Control-Allow-Methods', 'GET, POST')
      .header('Access-Control-Allow-Headers', 'Content-Type, X-API-KEY, X-API-SECRET')
      .header('Access-Control-Max-Age', '600')
      .send();
  });
}
