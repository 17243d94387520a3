/**
 * Errors of the HTTP face (spec §7): every failure becomes a status and a message naming the problem and, when
 * there is one, the request field. The mapping from domain errors lives here, in one place, so each route
 * answers the same way for the same cause.
 */
import type { z } from 'zod';
import { assertNever } from '../base/assert-never';
import { formatPath } from '../model/errors';
import { parseRefs } from '../model/refs';
import { referenceAttributes } from '../model/elements';
import type { Markup, Template } from '../model/schema';
import type { ErrorBody } from '../label-api/contract';
import { kindOf } from '../base/error-kind';
import { ElementError } from '../layout/element-context';
import { ImageError } from '../layout/images';
import { ResolveError } from '../resolve/resolve';
import { PrinterRefusesFormat, UnknownPrinter } from './printer-gateway';

/**
 * The statuses the spec allows (§7), plus 405 for a wrong method and 403 for a CORS preflight from an unlisted
 * origin; a site server's template routes add 403 (the key may not save templates) and 412 (saved meanwhile).
 */
export type ApiStatus = 401 | 403 | 404 | 405 | 412 | 422 | 429 | 500 | 503;

/** Retry-After of a 503 while a site server's database does not answer. */
export const STORE_RETRY_SECONDS = 5;

/**
 * A failure as the HTTP face answers it: a status and a message naming the problem and the request field. (The
 * client side has its own, unrelated `ApiError` in src/backends/errors.ts: what a hosted service answered.)
 */
export class HttpError extends Error {
  constructor(
    readonly status: ApiStatus,
    message: string,
    /** Path of the offending request field. */
    readonly field?: string,
    extras: {
      /** Extra response headers (Retry-After, Allow). */
      headers?: Record<string, string>;
      /** The error behind a 500, for the server's log (never sent to the client). */
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: extras.cause });
    this.name = 'HttpError';
    this.headers = extras.headers ?? {};
  }

  readonly headers: Record<string, string>;

  toBody(): ErrorBody {
    return this.field === undefined
      ? { message: this.message }
      : { message: this.message, field: this.field };
  }
}

/** A zod failure on a request body → 422 naming every problem; `field` is the first one's path. */
export function invalidRequest(error: z.ZodError): HttpError {
  const problems = error.issues.map((issue) => {
    const path = formatPath(issue.path);
    return { path, text: path ? `${path}: ${issue.message}` : issue.message };
  });
  const first = problems[0];
  return new HttpError(
    422,
    problems.map((p) => p.text).join('; ') || 'invalid request',
    first?.path || undefined,
  );
}

/** The request fields an element's value came from: `apiData.<name>` for each field reference it holds. */
function fieldsOfElement(template: Template, index: number): string[] {
  const element = template.elements[index];
  if (!element) return [];
  const names = new Set<string>();
  for (const attr of referenceAttributes(element.type)) {
    const source = (element as Record<string, unknown>)[attr];
    if (typeof source !== 'string') continue;
    for (const seg of parseRefs(source)) if (seg.kind === 'field') names.add(seg.name);
  }
  return [...names].map((n) => `apiData.${n}`);
}

/** What went wrong while the request was being served, for the mapping below. */
export interface FailureContext {
  /** Status for an unknown label_name on this route (spec §7 rule 1). */
  unknownTemplateStatus: 404 | 422;
  template?: Template;
  markups?: readonly Markup[];
}

/**
 * Any thrown value → the API's answer, one case per kind of the one union (src/base/error-kind.ts):
 *  - unknown template → 404 on routes 01–05, 422 on 06–07;
 *  - bad amount/apiData, RFID on a PDF or SVG route, an element that cannot be drawn (bad barcode value, image
 *    that cannot be loaded) → 422, the field being the apiData key the element's value came from when there is
 *    one, else `label_name` (the template itself is at fault);
 *  - a template that fails validation → 422 on `label_name` (the server validates its templates when it lists
 *    them, so no route raises it today; were one to, the template is at fault, not the server);
 *  - a printer_id that names no printer, or one that cannot take the job's format → 422 on `printer_id`;
 *  - a printer that cannot be reached or refuses the job → 500 naming the printer (a retry may succeed);
 *  - anything else → 500 without details (they stay in the server's log): a transport's own error (the gateway
 *    wraps those in PrinterUnavailable), the backends' and the jobs' kinds (the server raises none of them; one
 *    arriving here is our bug), and `internal`.
 */
export function toHttpError(e: unknown, ctx: FailureContext): HttpError {
  if (e instanceof HttpError) return e;
  const kind = kindOf(e);
  const message = e instanceof Error ? e.message : String(e);
  switch (kind) {
    case 'template-not-found':
      return new HttpError(ctx.unknownTemplateStatus, message, 'label_name');
    case 'template-invalid':
    case 'rfid-requires-zpl':
      return new HttpError(422, message, 'label_name');
    case 'request-invalid':
      return new HttpError(422, message, e instanceof ResolveError ? e.field : undefined);
    case 'element-invalid': {
      if (!(e instanceof ElementError)) return new HttpError(422, message, 'label_name');
      const fields = ctx.template ? fieldsOfElement(ctx.template, e.element) : [];
      const from = fields.length ? ` (value from ${fields.join(', ')})` : '';
      return new HttpError(422, `${message}${from}`, fields[0] ?? 'label_name');
    }
    case 'image-invalid': {
      // Images are loaded before layout, so the error knows the URL only; name the element(s) showing it.
      const url = e instanceof ImageError ? e.url : undefined;
      const index = ctx.markups?.[0]?.elements.findIndex((el) => el.type === 'image' && el.url === url) ?? -1;
      if (index < 0) return new HttpError(422, message, 'label_name');
      const fields = ctx.template ? fieldsOfElement(ctx.template, index) : [];
      const from = fields.length ? ` (value from ${fields.join(', ')})` : '';
      return new HttpError(422, `elements[${index}] (image): ${message}${from}`, fields[0] ?? 'label_name');
    }
    case 'unknown-printer':
      return new HttpError(
        422,
        e instanceof UnknownPrinter
          ? `printer_id: no printer ${e.id} is registered in the printers file`
          : `printer_id: ${message}`,
        'printer_id',
      );
    case 'printer-refuses-format': {
      if (!(e instanceof PrinterRefusesFormat))
        return new HttpError(422, `printer_id: ${message}`, 'printer_id');
      const { id, name, uri } = e.printer;
      return new HttpError(
        422,
        e.format === 'zpl'
          ? `printer_id: printer ${id} ("${name}") does not take ZPL; use print-relay-pdf`
          : `printer_id: printer ${id} ("${name}", ${uri}) is a ZPL printer and cannot print a PDF; use print-relay (03), or register a cups:// queue for it`,
        'printer_id',
      );
    }
    case 'printer-unavailable':
      return new HttpError(500, message, 'printer_id', { cause: e });
    // A site server whose database does not answer: not this request's fault, nor for ever (a load balancer or
    // a client retries; the message names no host or address).
    case 'store-unavailable':
      return new HttpError(503, `${message}; retry in ${STORE_RETRY_SECONDS} s`, undefined, {
        headers: { 'Retry-After': String(STORE_RETRY_SECONDS) },
        cause: e,
      });
    case 'printer-transport':
    case 'auth':
    case 'rate-limited':
    case 'render-failed':
    case 'wrong-host':
    case 'unreachable':
    case 'malformed-response':
    case 'unexpected-status':
    case 'cancelled':
    case 'expired':
    case 'no-printers':
    case 'job-not-found':
    case 'job-refused':
    case 'batch-invalid':
    case 'internal':
      return new HttpError(
        500,
        'the render failed on the server; retry once, then report it with the time of the request',
        undefined,
        { cause: e },
      );
  }
  return assertNever(kind, 'error kind');
}
