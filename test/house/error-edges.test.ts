/**
 * One error classification, decided at every edge (issue #20): a sample error of every kind in
 * src/base/error-kind.ts (the Record below does not compile while a kind lacks one), and for each edge — HTTP,
 * IPC, the CLI — what a user gets for it. A new kind fails here until every edge's row says what it means.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, kindOf, type ErrorKind } from '../../src/base/error-kind';
import {
  AuthError,
  CancelledError,
  HostedTemplateNotFound,
  MalformedResponseError,
  NoPrintersError,
  PrinterUnavailableError,
  RateLimitedError,
  RenderFailedError,
  RfidError,
  SvgExpiredError,
  UnexpectedStatusError,
  UnreachableError,
  ValidationError,
  WrongHostError,
} from '../../src/backends/errors';
import { TemplateNotFound, TemplateValidationError } from '../../src/model/errors';
import { ResolveError } from '../../src/resolve/resolve';
import { ElementError } from '../../src/layout/element-context';
import { ImageError, ImageTooLarge } from '../../src/layout/images';
import { RfidRequiresZpl } from '../../src/outputs/render';
import { PrinterDisconnected } from '../../src/printers/transport';
import { PrinterRefusesFormat, PrinterUnavailable, UnknownPrinter } from '../../src/engine/printer-gateway';
import { JobNotFound } from '../../src/jobs/store';
import { BatchError } from '../../src/jobs/batch';
import { JobRequestError } from '../../src/node/jobs/job-service-types';
import { toHttpError } from '../../src/engine/http-errors';
import { toIpcErrorBody } from '../../main/app/ipc-error-body';
import { reportError } from '../../src/cli/report-error';
import type { CliIo } from '../../src/cli/io';
import { SiteUnavailable } from '../../src/node/site/db';

const printer = { id: 7, name: 'Dock 3', uri: 'tcp://10.0.0.9:9100' };

/** Samples of every kind: the engine's, then a backend's where one raises the same kind. */
const SAMPLES: Record<ErrorKind, unknown[]> = {
  'template-not-found': [new TemplateNotFound('shiping-4x6'), new HostedTemplateNotFound('shiping-4x6')],
  'template-invalid': [
    new TemplateValidationError([{ path: 'elements[0].x', message: 'expected a number' }]),
  ],
  'request-invalid': [
    new ResolveError('apiData.tracking', 'must be a string'),
    new ValidationError('apiData.tracking: too long', 'apiData.tracking'),
  ],
  'element-invalid': [new ElementError(0, 'barcode', 'invalid EAN-13 check digit')],
  'image-invalid': [
    new ImageError('https://x.test/logo.png', 'HTTP 404'),
    new ImageTooLarge('data:', 'too big'),
  ],
  'rfid-requires-zpl': [new RfidRequiresZpl('PDF'), new RfidError()],
  'printer-transport': [
    new PrinterDisconnected('connection reset by the printer', 'tcp://10.0.0.9:9100', 100, 812),
  ],
  'unknown-printer': [new UnknownPrinter(42)],
  'printer-refuses-format': [new PrinterRefusesFormat(printer, 'pdf')],
  'printer-unavailable': [
    new PrinterUnavailable(printer, 'head open'),
    new PrinterUnavailableError('printer 7 ("Dock 3"): head open'),
  ],
  auth: [new AuthError()],
  'rate-limited': [new RateLimitedError(30_000)],
  'render-failed': [new RenderFailedError()],
  'wrong-host': [new WrongHostError('text/html')],
  unreachable: [new UnreachableError('timeout', 'no answer in 30 s')],
  'malformed-response': [new MalformedResponseError(['[0].stage: required'])],
  'unexpected-status': [new UnexpectedStatusError(502)],
  cancelled: [new CancelledError()],
  expired: [new SvgExpiredError(0, '2026-11-24T10:00:00Z')],
  'no-printers': [new NoPrintersError('print-relay')],
  'job-not-found': [new JobNotFound('no job 12')],
  'job-refused': [new JobRequestError('job 3 is finished; it cannot be paused')],
  'batch-invalid': [new BatchError('the CSV file has no header row')],
  'store-unavailable': [
    new SiteUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
  ],
  internal: [new TypeError('x is undefined'), 'a thrown string'],
};

/** What each edge answers for a kind: HTTP status (+ field), IPC code (+ action), CLI exit code. */
const EDGES: Record<ErrorKind, { http: number; ipc: string; cli: number }> = {
  'template-not-found': { http: 404, ipc: 'not-found', cli: 1 },
  'template-invalid': { http: 422, ipc: 'invalid', cli: 1 },
  'request-invalid': { http: 422, ipc: 'invalid', cli: 1 },
  'element-invalid': { http: 422, ipc: 'invalid', cli: 1 },
  'image-invalid': { http: 422, ipc: 'invalid', cli: 1 },
  'rfid-requires-zpl': { http: 422, ipc: 'invalid', cli: 1 },
  'printer-transport': { http: 500, ipc: 'printer', cli: 1 },
  'unknown-printer': { http: 422, ipc: 'printer', cli: 1 },
  'printer-refuses-format': { http: 422, ipc: 'printer', cli: 1 },
  'printer-unavailable': { http: 500, ipc: 'printer', cli: 1 },
  auth: { http: 500, ipc: 'auth', cli: 1 },
  'rate-limited': { http: 500, ipc: 'unreachable', cli: 1 },
  'render-failed': { http: 500, ipc: 'unreachable', cli: 1 },
  'wrong-host': { http: 500, ipc: 'unreachable', cli: 1 },
  unreachable: { http: 500, ipc: 'unreachable', cli: 1 },
  'malformed-response': { http: 500, ipc: 'unreachable', cli: 1 },
  'unexpected-status': { http: 500, ipc: 'unreachable', cli: 1 },
  cancelled: { http: 500, ipc: 'conflict', cli: 1 },
  expired: { http: 500, ipc: 'invalid', cli: 1 },
  'no-printers': { http: 500, ipc: 'printer', cli: 1 },
  'job-not-found': { http: 500, ipc: 'conflict', cli: 1 },
  'job-refused': { http: 500, ipc: 'conflict', cli: 1 },
  'batch-invalid': { http: 500, ipc: 'invalid', cli: 1 },
  'store-unavailable': { http: 503, ipc: 'unreachable', cli: 1 },
  internal: { http: 500, ipc: 'internal', cli: 70 },
};

const cases = ERROR_KINDS.flatMap((kind) =>
  SAMPLES[kind].map((error) => ({ kind, error, name: error instanceof Error ? error.name : typeof error })),
);

function cli(e: unknown): { code: number; stderr: string } {
  let stderr = '';
  const io = { stderr: (t: string) => (stderr += t), env: {} } as unknown as CliIo;
  return { code: reportError(e, io), stderr };
}

describe('one error classification (src/base/error-kind.ts)', () => {
  it.each(cases)('$name is of kind $kind', ({ kind, error }) => {
    expect(kindOf(error)).toBe(kind);
  });

  it.each(cases)('HTTP: $name ($kind)', ({ kind, error }) => {
    const http = toHttpError(error, { unknownTemplateStatus: 404 });
    expect(http.status).toBe(EDGES[kind].http);
    // A 500 never tells the client what went wrong inside (it stays in the server's log) — except a printer
    // behind the gateway, which the client can name and retry.
    if (http.status === 500 && kind !== 'printer-unavailable') {
      expect(http.message).toMatch(/^the render failed on the server/);
    } else {
      expect(http.message).not.toMatch(/^the render failed on the server/);
    }
  });

  it.each(cases)('IPC: $name ($kind)', ({ kind, error }) => {
    const body = toIpcErrorBody(error);
    expect(body.code).toBe(EDGES[kind].ipc);
    expect(body.message).not.toMatch(/\n\s+at /);
    if (kind !== 'internal') expect(body.message).not.toMatch(/inside LabelDesk/);
  });

  it.each(cases)('CLI: $name ($kind)', ({ kind, error }) => {
    const { code, stderr } = cli(error);
    expect(code).toBe(EDGES[kind].cli);
    expect(stderr.startsWith('labeldesk: ')).toBe(true);
    expect(stderr).not.toMatch(/\n\s+at /);
    if (kind === 'internal') expect(stderr).toMatch(/internal error.*\n.*please report this/);
    else expect(stderr).not.toMatch(/internal error/);
  });

  it('the fields an edge points at: the request field, the printer_id, the form field', () => {
    expect(
      toHttpError(new ResolveError('apiData.tracking', 'must be a string'), { unknownTemplateStatus: 404 })
        .field,
    ).toBe('apiData.tracking');
    expect(toHttpError(new UnknownPrinter(42), { unknownTemplateStatus: 404 }).toBody()).toEqual({
      message: 'printer_id: no printer 42 is registered in the printers file',
      field: 'printer_id',
    });
    expect(toHttpError(new TemplateNotFound('x'), { unknownTemplateStatus: 422 }).status).toBe(422);
    expect(toHttpError(new TemplateValidationError([]), { unknownTemplateStatus: 404 }).field).toBe(
      'label_name',
    );
    for (const e of SAMPLES['request-invalid']) {
      expect(toIpcErrorBody(e)).toMatchObject({ field: 'tracking', action: 'field' });
    }
    expect(toIpcErrorBody(new AuthError()).action).toBe('settings');
    expect(toIpcErrorBody(new PrinterDisconnected('reset', 'tcp://x:9100', 0, 0)).action).toBe('printers');
  });
});
