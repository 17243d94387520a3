/**
 * The client of a site server's own routes (issue #24: `labeldesk serve --database`, src/label-api/site-api.ts):
 * `/ready`, the site's templates and its history. The seven label routes of a site server are the hosted API's,
 * spoken by HostedApiBackend at the site's URL; this client adds the GET routes beside them.
 *
 * Failures are the backends' errors (./errors), worded for the site server: no answer (also a 503: the site's
 * database does not answer) → UnreachableError, 401 → AuthError, a server without the /site/ routes →
 * NotSiteServerError, an unknown template → HostedTemplateNotFound. Pure: `fetch` is injected; the secret is
 * sent only as the X-API-SECRET header and redacted from anything the server sends back.
 */
import type { z } from 'zod';
import { problemsOf, TemplateNotFound } from '../model/errors';
import { readErrorBody } from '../label-api/error-body';
import { SITE_PREFIX, SiteTemplateListSchema, SiteTemplateSchema } from '../label-api/site-api';
import {
  ApiError,
  AuthError,
  HostedTemplateNotFound,
  MalformedResponseError,
  UnexpectedStatusError,
  UnreachableError,
  ValidationError,
  WrongHostError,
  type ApiErrorContext,
} from './errors';
import { describeNetworkFailure, isJsonType } from './hosted-client';
import { errorCode, redact, safeCause } from './redact';

export type SiteTemplateList = z.infer<typeof SiteTemplateListSchema>;
export type SiteTemplateAnswer = z.infer<typeof SiteTemplateSchema>;

export interface SiteClientOptions {
  /** The site server's base URL (what `labeldesk serve` prints). */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  fetch: typeof fetch;
  /** Per request, until the whole body has arrived; default 8 s (an interactive app). */
  timeoutMs?: number;
}

/** A server that answers, but without the site routes: `labeldesk serve` without `--database`, or another API. */
export class NotSiteServerError extends ApiError {
  readonly kind = 'wrong-host';
  constructor(context: ApiErrorContext = {}) {
    super(
      'this server answers, but it is not a site server (it has no /site/ routes): the site URL must be a labeldesk serve --database postgres://… server',
      context,
    );
    this.name = 'NotSiteServerError';
  }
}

/**
 * The hosted client's errors speak of "the hosted API"; for a site server the same failures are the site
 * server's. Rewords a backend error in place (its kind and class stay) and returns it.
 */
export function siteWorded<E>(e: E): E {
  if (!(e instanceof ApiError) && !(e instanceof TemplateNotFound)) return e;
  const err = e as Error & { status?: number };
  if (e instanceof UnreachableError && err.status === 503) {
    err.message =
      "the site server's database is unavailable (503): the server answers but cannot reach PostgreSQL; try again in a moment, or ask whoever runs the site server";
    return e;
  }
  err.message = err.message
    .replace(/the hosted API service/g, 'the site server')
    .replace(/the hosted API/g, 'the site server')
    .replace(/\bAPI URL\b/g, 'site URL')
    .replace(/\bbase URL\b/g, 'site URL');
  return e;
}

export class SiteClient {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly #secret: string;
  readonly #fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: SiteClientOptions) {
    if (!/^https?:\/\//i.test(options.baseUrl))
      throw new TypeError('the site URL must start with http:// or https://');
    if (!options.apiKey || !options.apiSecret)
      throw new TypeError('the site server needs a key id and a secret');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.#secret = options.apiSecret;
    this.#fetch = options.fetch;
    this.timeoutMs = options.timeoutMs ?? 8000;
  }

  /**
   * GET /ready (no key): the server answers and, for a site server, its database does; resolves with the
   * instance's name when it says one. A 503 is UnreachableError (status 503).
   */
  async ready(): Promise<{ instance: string | null }> {
    const { status, json } = await this.request('/ready', { auth: false });
    if (status === 200) {
      const instance = (json as { instance?: unknown } | undefined)?.instance;
      return { instance: typeof instance === 'string' ? instance : null };
    }
    throw this.failure('/ready', status, json === undefined ? '' : JSON.stringify(json), undefined);
  }

  /** GET /site/templates: every template the site renders, with origin and revision. */
  async templates(): Promise<SiteTemplateList> {
    return this.getJson(`${SITE_PREFIX}templates`, SiteTemplateListSchema);
  }

  /** GET /site/templates/{name}: the template as saved now, with its revision. */
  async template(name: string): Promise<SiteTemplateAnswer> {
    return this.getJson(`${SITE_PREFIX}templates/${encodeURIComponent(name)}`, SiteTemplateSchema, name);
  }

  /** GET `path` with the key, its JSON answer checked with `schema`. */
  async getJson<S extends z.ZodType>(path: string, schema: S, templateName?: string): Promise<z.infer<S>> {
    return this.sendJson('GET', path, schema, undefined, templateName);
  }

  /**
   * POST `body` as JSON to `path` with the key, the JSON answer checked with `schema`. `timeoutMs`: longer than
   * the client's for a call that waits on purpose (a print-relay request answers once its printer confirmed).
   */
  async postJson<S extends z.ZodType>(
    path: string,
    schema: S,
    body: unknown,
    options: { timeoutMs?: number; headers?: Record<string, string> } = {},
  ): Promise<z.infer<S>> {
    return this.sendJson('POST', path, schema, body, undefined, options.timeoutMs, options.headers);
  }

  private async sendJson<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: S,
    body?: unknown,
    templateName?: string,
    timeoutMs?: number,
    headers?: Record<string, string>,
  ): Promise<z.infer<S>> {
    const { status, json, text } = await this.request(path, {
      auth: true,
      method,
      body,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(headers ? { headers } : {}),
    });
    if (status < 200 || status >= 300) throw this.failure(path, status, text, templateName);
    const parsed = schema.safeParse(json, { reportInput: true });
    if (!parsed.success) {
      throw siteWorded(
        new MalformedResponseError(
          problemsOf(parsed.error).map((p) => `${p.path || '(body)'}: ${redact(p.message, [this.#secret])}`),
          { route: path, status },
        ),
      );
    }
    return parsed.data;
  }

  private failure(path: string, status: number, text: string, templateName: string | undefined): Error {
    const body = readErrorBody(redact(text, [this.#secret]));
    const context: ApiErrorContext = {
      route: path,
      status,
      ...(body.message ? { serverMessage: body.message } : {}),
    };
    switch (status) {
      case 401:
        return siteWorded(new AuthError(context));
      case 404:
        if (templateName !== undefined && path.startsWith(`${SITE_PREFIX}templates/`))
          return siteWorded(new HostedTemplateNotFound(templateName, context));
        // A site route's own 404 names what is missing (`field`: a job id…); an unknown route's does not.
        if (body.field !== undefined) return siteWorded(new UnexpectedStatusError(status, context));
        return new NotSiteServerError(context);
      case 422:
        return siteWorded(
          new ValidationError(
            body.message || 'the site server refused the request (422)',
            body.field,
            context,
          ),
        );
      case 502:
      case 503:
      case 504:
        return siteWorded(new UnreachableError('network', `it answered ${status}`, context));
      default:
        return siteWorded(new UnexpectedStatusError(status, context));
    }
  }

  private async request(
    path: string,
    how: {
      auth: boolean;
      method?: 'GET' | 'POST';
      body?: unknown;
      timeoutMs?: number;
      /** More request headers (an Idempotency-Key); the key's own are always this client's. */
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; json: unknown; text: string }> {
    const timeoutMs = how.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(this.baseUrl + path, {
        method: how.method ?? 'GET',
        headers: {
          ...how.headers,
          Accept: 'application/json',
          ...(how.auth ? { 'X-API-KEY': this.apiKey, 'X-API-SECRET': this.#secret } : {}),
          ...(how.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(how.body !== undefined ? { body: JSON.stringify(how.body) } : {}),
        signal: timeout,
        // A redirect would carry X-API-SECRET to wherever it points.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (e) {
      const cause = safeCause(e, [this.#secret]);
      const detail = timeout.aborted
        ? `no complete answer within ${timeoutMs / 1000} s`
        : describeNetworkFailure(errorCode(e));
      throw siteWorded(
        new UnreachableError(timeout.aborted ? 'timeout' : 'network', detail, { route: path, cause }),
      );
    }
    const status = response.status;
    const context: ApiErrorContext = { route: path, status };
    if (status >= 300 && status < 400)
      throw siteWorded(new WrongHostError(`a redirect (${status})`, context));
    const contentType = response.headers.get('content-type') ?? '';
    let json: unknown;
    if (isJsonType(contentType)) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (status >= 200 && status < 300 && json === undefined) {
      throw siteWorded(
        new WrongHostError(contentType ? contentType.split(';')[0]! : 'a body that is not JSON', context),
      );
    }
    return { status, json, text };
  }
}
