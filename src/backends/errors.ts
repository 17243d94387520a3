/**
 * Errors of the hosted API (and of any LabelBackend) that a UI can act on. Every class carries a closed
 * `kind`, so a UI switches on one field; messages say what to do, never what the secret is.
 *
 * Secret hygiene: no error keeps a reference to a request, its headers or a raw fetch error. A cause, when
 * kept, is a fresh `Error` holding a redacted message and the low-level code (ECONNRESET, TimeoutError).
 */
import { KindedError, type ErrorKind } from '../base/error-kind';
import { TemplateNotFound } from '../model/errors';

/** What went wrong with a backend: its part of the one union of error kinds (src/base/error-kind.ts). */
export type ApiErrorKind = Extract<
  ErrorKind,
  | 'auth'
  | 'template-not-found'
  | 'rfid-requires-zpl'
  | 'request-invalid'
  | 'rate-limited'
  | 'render-failed'
  | 'wrong-host'
  | 'unreachable'
  | 'malformed-response'
  | 'unexpected-status'
  | 'cancelled'
  | 'expired'
  | 'no-printers'
  | 'printer-unavailable'
>;

/** Which route failed, as in spec §4 (`fetch-markups`, `render-zpl`, …), when known. */
export interface ApiErrorContext {
  route?: string;
  /** HTTP status of the final response, when there was one. */
  status?: number;
  /** The service's own message (redacted), when it sent one. */
  serverMessage?: string;
  cause?: Error;
}

/** Base class of every hosted-API error except template-not-found (which extends TemplateNotFound). */
export abstract class ApiError extends KindedError {
  abstract override readonly kind: Exclude<ApiErrorKind, 'template-not-found'>;
  readonly route: string | undefined;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;

  constructor(message: string, context: ApiErrorContext = {}) {
    super(message, context.cause ? { cause: context.cause } : undefined);
    this.route = context.route;
    this.status = context.status;
    this.serverMessage = context.serverMessage;
  }

  /** A plain object for logs and IPC (the secret is never in any field). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      route: this.route,
      status: this.status,
    };
  }
}

/** 401: key or secret missing, wrong, or regenerated (spec §5 rule 5). */
export class AuthError extends ApiError {
  readonly kind = 'auth';
  constructor(context: ApiErrorContext = {}) {
    super('the hosted API refused the credentials (401): check the API key and secret in Settings', context);
    this.name = 'AuthError';
  }
}

/**
 * 404, or the 422 that routes 06/07 send for an unknown `label_name` (spec §7 rule 4). Extends the local
 * TemplateNotFound so one `instanceof TemplateNotFound` covers local and hosted lookups.
 */
export class HostedTemplateNotFound extends TemplateNotFound {
  readonly route: string | undefined;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  constructor(templateName: string, context: ApiErrorContext = {}) {
    super(templateName);
    this.message = `${this.message} on the hosted API`;
    this.name = 'HostedTemplateNotFound';
    this.route = context.route;
    this.status = context.status;
    this.serverMessage = context.serverMessage;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      route: this.route,
      status: this.status,
      templateName: this.templateName,
    };
  }
}

/** 422 for a template with an RFID element on a PDF or SVG route (spec §4.4 rule 3, §4.7 rule 3). */
export class RfidError extends ApiError {
  readonly kind = 'rfid-requires-zpl';
  constructor(context: ApiErrorContext = {}) {
    super(
      'RFID labels print as ZPL: this template has an RFID element, which a PDF or SVG cannot carry',
      context,
    );
    this.name = 'RfidError';
  }
}

/** Any other 422: a missing or invalid parameter. `field` names it when the service (or we) can tell. */
export class ValidationError extends ApiError {
  readonly kind = 'request-invalid';
  constructor(
    message: string,
    /** The request parameter, e.g. `amount`, `dpi`, `apiData.tracking`; undefined when unknown. */
    readonly field?: string,
    context: ApiErrorContext = {},
  ) {
    super(message, context);
    this.name = 'ValidationError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field };
  }
}

/** 429 that persisted through the bounded retries, or a Retry-After longer than we are willing to wait. */
export class RateLimitedError extends ApiError {
  readonly kind = 'rate-limited';
  constructor(
    /** How long the service asked us to wait, when it said. */
    readonly retryAfterMs: number | undefined,
    context: ApiErrorContext = {},
  ) {
    super(
      'the hosted API is rate-limiting this key (429): more than 60 requests a minute' +
        (retryAfterMs !== undefined
          ? `; try again in ${Math.ceil(retryAfterMs / 1000)} s`
          : '; try again in a minute'),
      context,
    );
    this.name = 'RateLimitedError';
  }
}

/** 500 twice (the spec says retry once), or a render that failed in the local engine. */
export class RenderFailedError extends ApiError {
  readonly kind = 'render-failed';
  constructor(
    message = 'the service failed to render the label (500, also on retry)',
    context: ApiErrorContext = {},
  ) {
    super(message, context);
    this.name = 'RenderFailedError';
  }
}

/**
 * A response that is not the API's JSON (typically HTTP 200 with an HTML page, or a redirect to a sign-in
 * page): spec §1 rule 6.
 */
export class WrongHostError extends ApiError {
  readonly kind = 'wrong-host';
  constructor(
    /** What the host answered instead, e.g. `text/html` or `a redirect to https://…`. */
    readonly detail: string,
    context: ApiErrorContext = {},
  ) {
    super(
      `the base URL points at the web-app host, not the API host (it answered with ${detail} instead of JSON): check the API URL in Settings`,
      context,
    );
    this.name = 'WrongHostError';
  }
}

/** No answer: DNS, refused or reset connection, or no complete response within the timeout. */
export class UnreachableError extends ApiError {
  readonly kind = 'unreachable';
  constructor(
    readonly reason: 'network' | 'timeout',
    detail: string,
    context: ApiErrorContext = {},
  ) {
    super(`the hosted API service is unreachable: ${detail}`, context);
    this.name = 'UnreachableError';
  }
}

/** A 2xx JSON body that is not valid JSON or not the shape of spec §2.3–2.7. */
export class MalformedResponseError extends ApiError {
  readonly kind = 'malformed-response';
  constructor(
    /** `path: problem` lines, e.g. `[0].stage.width: expected number, got a string`. */
    readonly problems: string[],
    context: ApiErrorContext = {},
  ) {
    super(
      `the hosted API sent a response LabelDesk cannot use${context.route ? ` (${context.route})` : ''}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}`,
      context,
    );
    this.name = 'MalformedResponseError';
  }
}

/** A status the spec does not list for this route (400, 403, 405, 502 after a retry…). */
export class UnexpectedStatusError extends ApiError {
  readonly kind = 'unexpected-status';
  constructor(status: number, context: ApiErrorContext = {}) {
    super(`the hosted API answered ${status}${context.serverMessage ? `: ${context.serverMessage}` : ''}`, {
      ...context,
      status,
    });
    this.name = 'UnexpectedStatusError';
  }
}

/** The caller's AbortSignal fired. */
export class CancelledError extends ApiError {
  readonly kind = 'cancelled';
  constructor(context: ApiErrorContext = {}) {
    super('the request was cancelled', context);
    this.name = 'CancelledError';
  }
}

/** An exported SVG file past its `expires_at` (spec §3: must not be relied on). */
export class SvgExpiredError extends ApiError {
  readonly kind = 'expired';
  constructor(
    /** 0-based copy index. */
    readonly index: number,
    expiresAt: string,
  ) {
    super(`exported SVG file ${index + 1} expired at ${expiresAt}; export it again`);
    this.name = 'SvgExpiredError';
  }
}

/** Routes 03/04 on the local engine without a printer gateway. */
export class NoPrintersError extends ApiError {
  readonly kind = 'no-printers';
  constructor(route: string) {
    super('no printers configured: add a printer in Settings, or render to ZPL or PDF instead', { route });
    this.name = 'NoPrintersError';
  }
}

/** A local printer that cannot be reached, did not answer, or refused the job (the message names it). */
export class PrinterUnavailableError extends ApiError {
  readonly kind = 'printer-unavailable';
  constructor(message: string, context: ApiErrorContext = {}) {
    super(message, context);
    this.name = 'PrinterUnavailableError';
  }
}

/** The kind of any error a LabelBackend throws, or undefined for anything else (a bug). */
export function apiErrorKind(e: unknown): ApiErrorKind | undefined {
  if (e instanceof ApiError) return e.kind;
  if (e instanceof TemplateNotFound) return 'template-not-found';
  return undefined;
}
