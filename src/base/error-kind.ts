/**
 * Every failure LabelDesk can name, as one closed union of kinds (ARCHITECTURE.md, "Errors"). Each error class
 * of the engine, the backends and the jobs extends `KindedError` and names its kind; each edge (HTTP in
 * src/engine/http-errors.ts, IPC in main/app/ipc-error-body.ts, the CLI in src/cli/report-error.ts) turns a kind
 * into what it speaks with a `switch` and `assertNever`, no `default:`, so a new kind does not compile until
 * every edge has decided about it. The classes live in their own layers; only the kinds live here, at the
 * bottom, where every layer can reach them.
 */

/** Every kind, grouped by where it is raised; `internal` is anything that is not one of these errors. */
export const ERROR_KINDS = [
  // The engine (src/model, resolve, layout, outputs, printers, engine).
  /** A named template that does not exist (TemplateNotFound, and the hosted client's HostedTemplateNotFound). */
  'template-not-found',
  /** A template or markup that failed validation (TemplateValidationError). */
  'template-invalid',
  /** Bad request input: amount, apiData, a parameter (ResolveError; the hosted API's 422, ValidationError). */
  'request-invalid',
  /** A markup element that cannot be drawn as given: barcode value, RFID hex (ElementError). */
  'element-invalid',
  /** An image that cannot be loaded or is over the budget (ImageError, ImageTooLarge). */
  'image-invalid',
  /** RFID asked for as PDF or SVG (RfidRequiresZpl; the hosted API's 422, RfidError). */
  'rfid-requires-zpl',
  /** A printer transport failed: refused, timeout, disconnected… (PrinterError). */
  'printer-transport',
  /** A printer_id that names no printer of the gateway (UnknownPrinter). */
  'unknown-printer',
  /** A printer that cannot take a job of this format (PrinterRefusesFormat). */
  'printer-refuses-format',
  /** A printer that cannot be reached or refused the job, behind the gateway (PrinterUnavailable, PrinterUnavailableError). */
  'printer-unavailable',
  // A backend (src/backends): the hosted API, or the local engine behind the same port.
  /** 401: the key or secret is wrong (AuthError). */
  'auth',
  /** 429 through the retries (RateLimitedError). */
  'rate-limited',
  /** 500 twice, or a render that failed in the local engine (RenderFailedError). */
  'render-failed',
  /** The base URL answers with a web page, not the API (WrongHostError). */
  'wrong-host',
  /** No answer: DNS, refused, reset, timeout (UnreachableError). */
  'unreachable',
  /** A 2xx that is not the API's JSON shape (MalformedResponseError). */
  'malformed-response',
  /** A status the spec does not list for the route (UnexpectedStatusError). */
  'unexpected-status',
  /** The caller's AbortSignal fired (CancelledError). */
  'cancelled',
  /** An exported SVG past its expiry (SvgExpiredError). */
  'expired',
  /** Routes 03/04 with no printers configured (NoPrintersError). */
  'no-printers',
  // The jobs (src/jobs, src/node/jobs).
  /** A job id that names no job (JobNotFound). */
  'job-not-found',
  /** A job action refused in the job's state, or a job that cannot be made as asked (JobRequestError). */
  'job-refused',
  /** A CSV batch that cannot be read (BatchError). */
  'batch-invalid',
  // A site server (src/node/site): the shared PostgreSQL database.
  /** The site database does not answer: refused, reset, restarting, timed out (SiteUnavailable). */
  'store-unavailable',
  /** Anything else: our bug, not the user's. */
  'internal',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * Base of LabelDesk's error classes. Each class names its literal kind, as a prototype getter (the engine's, so
 * an error's JSON and own properties stay as they were) or a readonly field (the backends', whose JSON has it).
 */
export abstract class KindedError extends Error {
  abstract readonly kind: Exclude<ErrorKind, 'internal'>;
}

/** The kind of any thrown value: a LabelDesk error's own, else `internal`. */
export function kindOf(e: unknown): ErrorKind {
  return e instanceof KindedError ? e.kind : 'internal';
}
