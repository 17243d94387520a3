/**
 * The hosted Label and Document Rendering API client: the seven routes of spec §4 with the headers of §5,
 * every 200 body validated with zod, and every failure turned into an error of ./errors a UI can act on.
 *
 *  - 401 → AuthError; 404, or the unknown-name 422 of 06/07 → HostedTemplateNotFound; RFID 422 → RfidError;
 *    other 422 → ValidationError (message and field); non-JSON answer → WrongHostError.
 *  - 429 → wait (Retry-After seconds or HTTP-date, else exponential backoff with jitter) and retry, at most
 *    `rateLimitRetries` times; the pacer is held for the same time, so a batch backs off as a whole.
 *  - 500 → retry once (spec §7), then RenderFailedError. 502/503/504 (a proxy in front of a service that is
 *    down) → retry once, then UnreachableError, which lets the app fall back to the local engine.
 *  - Network failure or no complete answer within `timeoutMs` → UnreachableError; caller's AbortSignal →
 *    CancelledError. Network failures are not retried: a print-relay request may already have printed.
 *
 * Pure: `fetch` and the clock are injected; no node:* imports. The secret is held in a private field, sent
 * only as the X-API-SECRET header, and redacted from anything the service sends back.
 */
import type { z } from 'zod';
import { problemsOf } from '../model/errors';
import type { Markup } from '../model/schema';
import { systemClock, type Clock } from '../base/clock';
import { isRfidRefusal, isUnknownTemplate, readErrorBody } from '../label-api/error-body';
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
  type ApiErrorContext,
} from './errors';
import { Pacer } from './pacer';
import { errorCode, redact, safeCause } from './redact';
import {
  RESPONSE_SCHEMAS,
  ROUTES,
  copiesIn,
  type LabelRequest,
  type PdfResult,
  type PrintRelayRequest,
  type PrintRelayResult,
  type RenderZplRequest,
  type ResponseOf,
  type RouteName,
  type SvgExportResult,
  type ZplResult,
} from '../label-api/routes';
import type { UsageTally } from './usage';

/** What the client tells a log. Never the secret, never a request body or an exported file's URL. */
export type ApiLogEvent =
  | { type: 'paced'; route: RouteName; waitedMs: number }
  | { type: 'response'; route: RouteName; status: number; attempt: number; ms: number }
  | { type: 'retry'; route: RouteName; status: number; attempt: number; waitMs: number }
  | { type: 'failed'; route: RouteName; attempt: number; error: string };

export interface HostedApiOptions {
  /** `{base_url}` (spec §1); routes are appended to it. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  fetch: typeof fetch;
  /** Pacing, backoff and Retry-After waits; default the system clock. */
  clock?: Clock;
  /** Per attempt, until the whole body has arrived; default 30 s. */
  timeoutMs?: number;
  /** Shared per process (the limit is per key); default a pacer of the client's own at 60/min. */
  pacer?: Pacer;
  /** "Prints used"; nothing is counted without one. */
  tally?: UsageTally;
  /** 429 retries before giving up, default 3. */
  rateLimitRetries?: number;
  /** First backoff when a 429 has no Retry-After, default 1 s; doubles per retry, jittered, capped at 30 s. */
  backoffBaseMs?: number;
  /** A Retry-After longer than this is not waited for: RateLimitedError at once. Default 120 s. */
  maxRetryAfterMs?: number;
  /** Pause before the single retry of a 500, default 1 s. */
  serverErrorRetryDelayMs?: number;
  /** Jitter source, default Math.random. */
  random?: () => number;
  log?: (event: ApiLogEvent) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

type Outcome<T> = { done: true; value: T } | { done: false; waitMs: number; status: number };

/** Parses a Retry-After header: delay-seconds or an HTTP-date, relative to `now`. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const isJsonType = (contentType: string): boolean =>
  /^application\/(?:[\w.-]+\+)?json\b/i.test(contentType.trim());

export function describeNetworkFailure(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name cannot be resolved (offline, or a wrong API URL)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'the connection was lost';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'its TLS certificate is not trusted';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

export class HostedApiClient {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly #secret: string;
  readonly #fetch: typeof fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  /** The pacer this client waits on (shared or its own). */
  readonly pacer: Pacer;
  readonly tally: UsageTally | undefined;
  private readonly rateLimitRetries: number;
  private readonly backoffBaseMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly serverErrorRetryDelayMs: number;
  private readonly random: () => number;
  private readonly log: (event: ApiLogEvent) => void;

  constructor(options: HostedApiOptions) {
    if (!/^https?:\/\//i.test(options.baseUrl))
      throw new TypeError('the API URL must start with http:// or https://');
    if (!options.apiKey || !options.apiSecret)
      throw new TypeError('the hosted API needs an API key and an API secret');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.#secret = options.apiSecret;
    this.#fetch = options.fetch;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.pacer = options.pacer ?? new Pacer({ clock: this.clock });
    this.tally = options.tally;
    this.rateLimitRetries = options.rateLimitRetries ?? 3;
    this.backoffBaseMs = options.backoffBaseMs ?? 1_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
    this.serverErrorRetryDelayMs = options.serverErrorRetryDelayMs ?? 1_000;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => {});
  }

  /** 01: the resolved label as markup, one per copy. */
  fetchMarkups(request: LabelRequest, options?: CallOptions): Promise<Markup[]> {
    return this.call('fetch-markups', request, options);
  }

  /** 02: the markup the browser SDK draws (same as 01). */
  print(request: LabelRequest, options?: CallOptions): Promise<Markup[]> {
    return this.call('print', request, options);
  }

  /** 03: ZPL to a printer through the print relay. */
  printRelay(request: PrintRelayRequest, options?: CallOptions): Promise<PrintRelayResult> {
    return this.call('print-relay', request, options);
  }

  /** 04: a PDF to a printer through the print relay (status reads `sent_to_printer_png`). */
  printRelayPdf(request: PrintRelayRequest, options?: CallOptions): Promise<PrintRelayResult> {
    return this.call('print-relay-pdf', request, options);
  }

  /** 05: one hosted SVG per copy, valid `ttl_hours`. See downloadSvgFiles to keep copies. */
  exportSvg(request: LabelRequest, options?: CallOptions): Promise<SvgExportResult> {
    return this.call('export-svg', request, options);
  }

  /** 06: one ZPL job per copy. */
  renderZpl(request: RenderZplRequest, options?: CallOptions): Promise<ZplResult> {
    return this.call('render-zpl', request, options);
  }

  /** 07: one base64 PDF per copy. */
  renderPdf(request: LabelRequest, options?: CallOptions): Promise<PdfResult> {
    return this.call('render-pdf', request, options);
  }

  /** Milliseconds until `n` more requests could have started at this key's pace (progress UIs). */
  eta(n: number): number {
    return this.pacer.eta(this.apiKey, n);
  }

  /** One route, with pacing and the retries of the module comment. */
  async call<R extends RouteName>(
    route: R,
    request: LabelRequest | PrintRelayRequest | RenderZplRequest,
    options: CallOptions = {},
  ): Promise<ResponseOf<R>> {
    const { signal } = options;
    let rateLimited = 0;
    let serverErrors = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const waitedMs = await this.pacer.acquire(this.apiKey, signal);
        if (waitedMs > 0) this.log({ type: 'paced', route, waitedMs });
      } catch {
        throw new CancelledError({ route });
      }
      let outcome: Outcome<ResponseOf<R>>;
      try {
        outcome = await this.attempt(route, request, attempt, signal, { rateLimited, serverErrors });
      } catch (e) {
        this.log({ type: 'failed', route, attempt, error: e instanceof Error ? e.name : 'Error' });
        throw e;
      }
      if (outcome.done) return outcome.value;
      if (outcome.status === 429) rateLimited++;
      else serverErrors++;
      this.log({ type: 'retry', route, status: outcome.status, attempt, waitMs: outcome.waitMs });
      try {
        await this.clock.sleep(outcome.waitMs, signal);
      } catch {
        throw new CancelledError({ route });
      }
    }
  }

  private async attempt<R extends RouteName>(
    route: R,
    request: LabelRequest,
    attempt: number,
    signal: AbortSignal | undefined,
    retries: { rateLimited: number; serverErrors: number },
  ): Promise<Outcome<ResponseOf<R>>> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const started = this.clock.now();
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(this.baseUrl + ROUTES[route].path, {
        method: 'POST',
        headers: {
          'X-API-KEY': this.apiKey,
          'X-API-SECRET': this.#secret,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(request),
        signal: combined,
        // A redirect would carry X-API-SECRET to wherever it points; report it instead (WrongHostError).
        redirect: 'manual',
      });
      text = await response.text();
    } catch (e) {
      throw this.networkError(route, e, signal, timeout);
    }
    const status = response.status;
    this.log({ type: 'response', route, status, attempt, ms: this.clock.now() - started });
    const contentType = response.headers.get('content-type') ?? '';
    const context: ApiErrorContext = { route, status };

    if (status >= 200 && status < 300)
      return { done: true, value: this.parseSuccess(route, request, text, contentType, context) };
    if (status >= 300 && status < 400) {
      const location = response.headers.get('location');
      throw new WrongHostError(
        location ? `a redirect to ${redact(location, [this.#secret])}` : `a redirect (${status})`,
        context,
      );
    }
    const body = readErrorBody(redact(text, [this.#secret]));
    const withMessage: ApiErrorContext = {
      ...context,
      ...(body.message ? { serverMessage: body.message } : {}),
    };
    switch (status) {
      case 401:
        throw new AuthError(withMessage);
      case 404:
        if (contentType && !isJsonType(contentType))
          throw new WrongHostError(contentType.split(';')[0] ?? contentType, context);
        throw new HostedTemplateNotFound(request.label_name, withMessage);
      case 422:
        if (isRfidRefusal(body)) throw new RfidError(withMessage);
        if (isUnknownTemplate(body, request.label_name))
          throw new HostedTemplateNotFound(request.label_name, withMessage);
        throw new ValidationError(
          body.message || 'the hosted API refused the request as invalid (422)',
          body.field,
          withMessage,
        );
      case 429: {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.clock.now());
        // Hold the whole key, not just this request: a batch backs off together.
        if (retryAfter !== undefined) this.pacer.pause(this.apiKey, this.clock.now() + retryAfter);
        if (retryAfter !== undefined && retryAfter > this.maxRetryAfterMs)
          throw new RateLimitedError(retryAfter, withMessage);
        if (retries.rateLimited >= this.rateLimitRetries) throw new RateLimitedError(retryAfter, withMessage);
        const waitMs = retryAfter ?? this.backoff(retries.rateLimited);
        this.pacer.pause(this.apiKey, this.clock.now() + waitMs);
        return { done: false, waitMs, status };
      }
      case 500:
        if (retries.serverErrors < 1) return { done: false, waitMs: this.serverErrorRetryDelayMs, status };
        throw new RenderFailedError(undefined, withMessage);
      case 502:
      case 503:
      case 504:
        if (retries.serverErrors < 1) return { done: false, waitMs: this.serverErrorRetryDelayMs, status };
        throw new UnreachableError('network', `a gateway in front of it answered ${status}`, withMessage);
      default:
        throw new UnexpectedStatusError(status, withMessage);
    }
  }

  /** Exponential backoff with jitter: base·2ⁿ capped at 30 s, then a random point in its upper half. */
  private backoff(retry: number): number {
    const ceiling = Math.min(30_000, this.backoffBaseMs * 2 ** retry);
    return Math.round(ceiling / 2 + this.random() * (ceiling / 2));
  }

  private networkError(
    route: RouteName,
    e: unknown,
    signal: AbortSignal | undefined,
    timeout: AbortSignal,
  ): Error {
    if (signal?.aborted) return new CancelledError({ route });
    const cause = safeCause(e, [this.#secret]);
    if (timeout.aborted) {
      return new UnreachableError('timeout', `no complete answer within ${this.timeoutMs / 1000} s`, {
        route,
        cause,
      });
    }
    const code = errorCode(e);
    const lostMidway = (e as Error | undefined)?.message === 'terminated';
    return new UnreachableError(
      'network',
      lostMidway ? 'the connection was lost mid-response' : describeNetworkFailure(code),
      { route, cause },
    );
  }

  private parseSuccess<R extends RouteName>(
    route: R,
    request: LabelRequest,
    text: string,
    contentType: string,
    context: ApiErrorContext,
  ): ResponseOf<R> {
    if (contentType && !isJsonType(contentType))
      throw new WrongHostError(contentType.split(';')[0] ?? contentType, context);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      if (!contentType && /^\s*</.test(text)) throw new WrongHostError('an HTML page', context);
      throw new MalformedResponseError(
        [`not valid JSON (${redact((e as Error).message, [this.#secret])})`],
        context,
      );
    }
    const schema = RESPONSE_SCHEMAS[route] as unknown as z.ZodType<ResponseOf<R>>;
    const parsed = schema.safeParse(json, { reportInput: true });
    if (!parsed.success) {
      throw new MalformedResponseError(
        problemsOf(parsed.error).map((p) => `${p.path || '(body)'}: ${redact(p.message, [this.#secret])}`),
        context,
      );
    }
    const copies = copiesIn(route, parsed.data);
    const declared = (parsed.data as { count?: number }).count;
    const problems: string[] = [];
    if (copies !== undefined && copies !== request.amount)
      problems.push(`${copies} copies for amount ${request.amount} (expected one per copy)`);
    if (declared !== undefined && copies !== undefined && declared !== copies)
      problems.push(`count is ${declared} but there are ${copies} labels`);
    if (problems.length) throw new MalformedResponseError(problems, context);
    this.tally?.record(this.apiKey, route, request.amount);
    return parsed.data;
  }
}
