/**
 * Node-only: the Labelary-shaped route of `labeldesk serve --labelary` (issue #33 item 5), so a client written
 * for Labelary's ZPL web service (labelary.com/service.html) renders on this server with only its base URL
 * changed:
 *
 *   POST /v1/printers/{dpmm}dpmm/labels/{width}x{height}/{index}/   ZPL as the body, or form field `file`
 *   POST /v1/printers/{dpmm}dpmm/labels/{width}x{height}/           PDF of every label
 *   GET  /v1/printers/{dpmm}dpmm/labels/{width}x{height}/{index}/{zpl}
 *
 * `Accept: image/png` (the default; one label: the index is required) or `application/pdf` (every label, or the
 * one at the index); `X-Total-Count` is the number of labels in the ZPL. Errors are plain text, as Labelary's.
 *
 * Labelary clients send no key. A request with `X-API-KEY` is authenticated as on every other route (and counted
 * against that key's rate); one without is limited per client address (requests per second). Either way the
 * request's budgets are checked before the work: the label's size in the URL (400), the body's size (413,
 * Fastify stops reading past it), the labels in the ZPL (413, counted by the parser before any label is laid
 * out), then a place among the server's renders (429).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WARNINGS_HEADER } from '../../label-api/contract';
import { LABELARY_DPMM, LABELARY_PREFIX } from '../../label-api/labelary-api';
import { HttpError } from '../../engine/http-errors';
import type { FontSet } from '../../layout/fonts';
import { ZplBudgetError } from '../../zpl/read';
import { drawZplLabels, ZplLabelIndexError } from '../zpl-outputs';
import { slidingWindowLimiter } from './rate-limit';
import type { WorkGate } from './work-gate';
import { warningsHeader } from './http-plumbing';

/** What one client address may ask of the route (a key's requests are counted against the key instead). */
export interface LabelaryLimits {
  /** Requests per second per client address without a key (Labelary: 5). */
  perSecond: number;
  /** Labels (`^XA…^XZ`) in one request's ZPL (Labelary: 50). */
  labels: number;
  /** Bytes of one request's body. */
  bodyBytes: number;
  /** Largest label side in the URL, inches (Labelary: 15). */
  inches: number;
}

export const LABELARY_DEFAULTS: LabelaryLimits = {
  perSecond: 5,
  labels: 50,
  bodyBytes: 1024 * 1024,
  inches: 15,
};

/** A refusal of the Labelary route: its status and a sentence naming the problem (the plain-text body). */
export class LabelaryError extends Error {
  override name = 'LabelaryError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 406 | 413 | 429 | 500 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface LabelaryRouteDeps {
  limits: LabelaryLimits;
  /** serve's own authentication of X-API-KEY / X-API-SECRET (401, the key's 429). */
  authenticate: (req: FastifyRequest) => Promise<void>;
  /** The server's renders (one queue for every route). */
  renders: WorkGate;
  fonts: FontSet;
  now: () => number;
}

interface Params {
  dpmm: string;
  size: string;
  index?: string;
  '*'?: string;
}

interface Request {
  dpi: number;
  width: number;
  height: number;
  index: number | undefined;
  format: 'png' | 'pdf';
}

/** The URL's parameters and the Accept header, checked (400, 406) before the body is read. */
function requestOf(req: FastifyRequest, limits: LabelaryLimits): Request {
  const params = req.params as Params;
  const dpmm = /^(\d+)dpmm$/.exec(params.dpmm)?.[1];
  const dpi = dpmm !== undefined ? LABELARY_DPMM[dpmm] : undefined;
  if (dpi === undefined)
    throw new LabelaryError(
      400,
      `the print density "${params.dpmm.slice(0, 20)}" is not one of 6dpmm, 8dpmm, 12dpmm, 24dpmm`,
    );
  const size = /^(\d+(?:\.\d+)?|\.\d+)x(\d+(?:\.\d+)?|\.\d+)$/.exec(params.size);
  if (!size)
    throw new LabelaryError(
      400,
      `the label size "${params.size.slice(0, 20)}" is not WIDTHxHEIGHT in inches (e.g. 4x6, 2.25x1.25)`,
    );
  const width = Number(size[1]);
  const height = Number(size[2]);
  if (!(width > 0 && height > 0))
    throw new LabelaryError(400, `the label size ${params.size} is empty: both sides must be above 0 inches`);
  if (width > limits.inches || height > limits.inches)
    throw new LabelaryError(
      400,
      `the label size ${width} x ${height} inches is larger than this server draws: at most ${limits.inches} x ${limits.inches} inches`,
    );
  let index: number | undefined;
  if (params.index !== undefined && params.index !== '') {
    if (!/^\d{1,6}$/.test(params.index))
      throw new LabelaryError(
        400,
        `the label index "${params.index.slice(0, 20)}" is not a whole number from 0`,
      );
    index = Number(params.index);
  }
  const format = formatOf(req.headers.accept);
  if (format === 'png' && index === undefined)
    throw new LabelaryError(
      400,
      'a PNG is one label: give its index in the URL (…/labels/4x6/0/), or ask for application/pdf for every label',
    );
  return { dpi, width, height, index, format };
}

/** `Accept`: PNG unless PDF is asked for; anything this route cannot answer with is a 406. */
function formatOf(accept: string | undefined): 'png' | 'pdf' {
  if (!accept) return 'png';
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  if (types.includes('application/pdf')) return 'pdf';
  if (types.some((t) => t === 'image/png' || t === 'image/*' || t === '*/*' || t === '')) return 'png';
  throw new LabelaryError(
    406,
    `Accept: ${accept.slice(0, 60)} cannot be answered: this server draws image/png and application/pdf`,
  );
}

/** The ZPL of a request: the raw body, or the `file` field of a multipart form (what Labelary clients send). */
function zplOf(req: FastifyRequest, fromPath: string | undefined): Uint8Array {
  if (fromPath !== undefined) return new TextEncoder().encode(fromPath);
  const body = req.body;
  if (!(body instanceof Buffer) || body.length === 0)
    throw new LabelaryError(400, 'the request has no ZPL: send it as the body or as the form field "file"');
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) return body;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) throw new LabelaryError(400, 'the multipart body names no boundary in its Content-Type');
  const file = multipartField(body, mark, 'file');
  if (!file) throw new LabelaryError(400, 'the multipart body has no field "file" holding the ZPL');
  return file;
}

/** The bytes of the form field `name` in a multipart/form-data body (RFC 7578), or undefined. */
function multipartField(body: Buffer, boundary: string, name: string): Uint8Array | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const headersStart = at + delimiter.length + 2; // past CRLF (or "--" at the end)
    if (body.subarray(at + delimiter.length, at + delimiter.length + 2).toString() === '--') return undefined;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd < 0) return undefined;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headersEnd + 4);
    if (next < 0) return undefined;
    const headers = body.subarray(headersStart, headersEnd).toString('latin1');
    const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers);
    if (disposition?.[1] === name) return new Uint8Array(body.subarray(headersEnd + 4, next));
    at = next + 2;
  }
  return undefined;
}

export function installLabelaryRoute(app: FastifyInstance, deps: LabelaryRouteDeps): void {
  const { limits } = deps;
  const perAddress = slidingWindowLimiter({ limit: limits.perSecond, windowMs: 1000, now: deps.now });

  /** Before the body is read: the key (when sent) or the address's rate, then the URL and Accept. */
  async function admit(req: FastifyRequest): Promise<void> {
    if (req.headers['x-api-key'] !== undefined) await deps.authenticate(req);
    else {
      const rate = perAddress.take(req.ip);
      if (!rate.allowed)
        throw new LabelaryError(
          429,
          `more than ${limits.perSecond} requests per second from this address; retry in ${rate.retryAfterSeconds} s (or send an API key)`,
          { 'Retry-After': String(rate.retryAfterSeconds) },
        );
    }
    requestOf(req, limits);
  }

  async function answer(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const asked = requestOf(req, limits);
    const zpl = zplOf(req, (req.params as Params)['*']);
    const owner = req.apiKey ?? `address ${req.ip}`;
    const pending = deps.renders.run(
      () =>
        drawZplLabels(zpl, {
          dpi: asked.dpi,
          format: asked.format,
          labelSize: {
            width: Math.round(asked.width * asked.dpi),
            height: Math.round(asked.height * asked.dpi),
          },
          sizeFrom: 'label',
          index: asked.index,
          onePdf: true,
          fonts: deps.fonts,
          budgets: { maxInputBytes: limits.bodyBytes, maxLabels: limits.labels },
        }),
      owner,
    );
    if (typeof pending === 'string')
      throw new LabelaryError(429, 'the server is busy with other renders; retry in 1 s', {
        'Retry-After': '1',
      });
    const drawn = await pending;
    if (drawn.warnings.length > 0) reply.header(WARNINGS_HEADER, warningsHeader(drawn.warnings));
    return reply
      .header('X-Total-Count', String(drawn.labelCount))
      .type(asked.format === 'png' ? 'image/png' : 'application/pdf')
      .send(Buffer.from(drawn.outputs[0] as Uint8Array));
  }

  // A context of its own: its bodies are ZPL (any Content-Type, read as bytes) and its errors plain text.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.setErrorHandler(async (error: unknown, req, reply) => {
      const refusal = labelaryRefusal(error, limits);
      if (refusal.status === 500)
        req.log.error({ route: req.routeOptions.url, error: (error as Error)?.name }, 'request failed');
      return reply
        .code(refusal.status)
        .headers(refusal.headers)
        .type('text/plain; charset=utf-8')
        .send(`ERROR: ${refusal.message}`);
    });
    const route = { onRequest: admit, bodyLimit: limits.bodyBytes };
    const base = `${LABELARY_PREFIX}:dpmm/labels/:size`;
    for (const path of [`${base}/:index/`, `${base}/:index`, `${base}/`, base])
      scope.post(path, route, answer);
    scope.get(`${base}/:index/*`, route, answer);
  });
}

/** Any error of the route as Labelary's status and a sentence. */
function labelaryRefusal(error: unknown, limits: LabelaryLimits): LabelaryError {
  if (error instanceof LabelaryError) return error;
  if (error instanceof HttpError)
    return new LabelaryError(
      error.status === 422 || error.status === 405 || error.status === 412 ? 400 : error.status,
      error.message,
      error.headers,
    );
  if (error instanceof ZplBudgetError && error.budget === 'labels')
    return new LabelaryError(
      413,
      `the ZPL holds more than ${error.limit} label${error.limit === 1 ? '' : 's'}: this server draws at most ${error.limit} a request`,
    );
  if (error instanceof ZplBudgetError)
    return new LabelaryError(error.budget === 'commands-per-label' ? 400 : 413, error.message);
  if (error instanceof ZplLabelIndexError) return new LabelaryError(400, error.message);
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new LabelaryError(
      413,
      `the request body is larger than this server reads: at most ${Math.floor(limits.bodyBytes / 1024)} KB`,
    );
  const status = (error as { statusCode?: number } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new LabelaryError(400, 'the request is malformed');
  return new LabelaryError(500, 'the server failed to draw the label; retry once');
}
