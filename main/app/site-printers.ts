/**
 * The site server's printers in the app (issue #24, site mode): the Print screen's picker also offers the
 * printers the site prints to (GET /site/printers: id, name, format — never their addresses), and a print to
 * one is the site's print relay: route 03 (ZPL) or 04 (PDF) with its printer_id. The site numbers the counters,
 * records the job under this workstation's key and puts it in its shared print queue; its answer means the
 * printer confirmed every label. Nothing goes through this computer's job queue: the site's queue is the one that
 * resumes after a fault.
 *
 * Ids are `site:<printer_id>`, so they never meet this computer's printers' ids. Errors are said as for other
 * prints: a 500 of the relay names the printer (its address left out), a 503 says the site's database is
 * unavailable, and a request whose answer was lost says the labels may still print.
 */
import { randomUUID } from 'node:crypto';
import { SITE_PREFIX, SitePrinterListSchema } from '../../src/label-api/site-api';
import {
  PrintRelayPdfResultSchema,
  PrintRelayResultSchema,
  type RouteName,
} from '../../src/label-api/contract';
import type { FieldValues, PrinterStatusView, PrinterView, TemplateRef } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { filled } from '../../src/ipc/preview-label';
import {
  ApiError,
  UnexpectedStatusError,
  UnreachableError,
  ValidationError,
} from '../../src/backends/errors';
import type { SiteClient } from '../../src/backends/site-client';
import type { Connection } from './connection';

export const SITE_PRINTER_PREFIX = 'site:';

/** A print-relay request waits for its printer (the site waits up to 2 min by default). */
const PRINT_TIMEOUT_MS = 150_000;

export const isSitePrinterId = (id: string): boolean => id.startsWith(SITE_PRINTER_PREFIX);

export interface AppSitePrinters {
  /** The site's printers in site mode; [] otherwise, or while the site cannot be reached. */
  list(): Promise<PrinterView[]>;
  /** The site printer `id` (`site:N`) as the site lists it now; not-found otherwise. */
  get(id: string): Promise<PrinterView>;
  /** Prints `copies` labels on a site printer through the site. */
  print(
    ref: TemplateRef,
    values: FieldValues,
    copies: number,
    printer: PrinterView,
  ): Promise<{ job: null; message: string }>;
  /** What the status pill says of a site printer (the site drives it; this computer does not ask it). */
  status(id: string): PrinterStatusView;
}

/**
 * The relay's 500 says `printer 7 ("Dock 7", tcp://…): problem`: the problem, with the printer's address left out
 * (a URI, a host:port), as far as it can be told — the site does not give its printers' addresses.
 */
function problemOf(serverMessage: string | undefined): string | undefined {
  if (!serverMessage) return undefined;
  const match = /^printer \d+ \("(?:[^"\\]|\\.)*", [^)]*\): ([\s\S]*)$/.exec(serverMessage);
  return (match?.[1] ?? serverMessage)
    .replace(/\b(?:tcp|usb|serial|cups|file):\/\/\S+?(?=[,;)\s]|:\s|:?$)/g, 'the printer')
    .replace(/(?:\[[0-9A-Fa-f:.]+\]|\b[\w.-]+):\d{1,5}\b/g, 'the printer');
}

export function appSitePrinters(deps: { connection: Connection }): AppSitePrinters {
  const withSite = async <T>(call: (client: SiteClient) => Promise<T>): Promise<{ value: T } | undefined> =>
    deps.connection.withSite(call);

  const view = (p: { id: number; name: string; format: 'zpl' | 'pdf' }): PrinterView => ({
    id: `${SITE_PRINTER_PREFIX}${p.id}`,
    name: p.name,
    uri: '',
    kind: `Site server printer ${p.id}`,
    dpi: null,
    dpiSource: null,
    darkness: null,
    language: p.format,
    site: true,
  });

  /** The site's printers now; undefined outside site mode. Throws the site's errors. */
  const fetchList = async (): Promise<PrinterView[] | undefined> => {
    if (!(await deps.connection.siteMode())) return undefined;
    const answer = await withSite((c) => c.getJson(`${SITE_PREFIX}printers`, SitePrinterListSchema));
    return answer?.value.printers.map(view);
  };

  return {
    async list() {
      try {
        return (await fetchList()) ?? [];
      } catch (e) {
        // Unreachable, or an older site server without the route: no site printers to offer now.
        if (e instanceof ApiError) return [];
        throw e;
      }
    },
    async get(id) {
      const number = id.slice(SITE_PRINTER_PREFIX.length);
      let listed: PrinterView[] | undefined;
      try {
        listed = await fetchList();
      } catch (e) {
        throw said(e, `site printer ${number}`);
      }
      if (!listed)
        throw new IpcError(
          'invalid',
          'Site printers print only with the site server as the backend: set it up in Settings.',
          'printer',
          'settings',
        );
      const found = listed.find((p) => p.id === id);
      if (!found)
        throw new IpcError(
          'not-found',
          `The site server has no printer ${number} now: choose another printer.`,
          'printer',
        );
      return found;
    },
    async print(ref, values, copies, printer) {
      if (ref.source !== 'site' && ref.source !== 'bundled')
        throw new IpcError(
          'invalid',
          `"${ref.name}" is a template of this computer: a site printer prints the site's templates (and the bundled ones). Save it on the site server, or choose one of this computer's printers.`,
          'printer',
        );
      const printerId = Number(printer.id.slice(SITE_PRINTER_PREFIX.length));
      const route: RouteName = printer.language === 'pdf' ? 'print-relay-pdf' : 'print-relay';
      const schema = printer.language === 'pdf' ? PrintRelayPdfResultSchema : PrintRelayResultSchema;
      const plural = `${copies} ${copies === 1 ? 'label' : 'labels'}`;
      // One key for this print: sent again after an answer lost on the way back, the site waits for the job it
      // already has instead of printing a second one (assets/sql/006-print-idempotency.sql).
      const idempotencyKey = `labeldesk-app-${randomUUID()}`;
      const send = () =>
        withSite((c) =>
          c.postJson(
            `/custom-labels/${route}`,
            schema,
            { label_name: ref.name, amount: copies, apiData: filled(values), printer_id: printerId },
            { timeoutMs: PRINT_TIMEOUT_MS, headers: { 'Idempotency-Key': idempotencyKey } },
          ),
        );
      try {
        const answer = await send().catch((e: unknown) => {
          // The answer was lost (connection dropped, no answer in time): asking again is safe with the same key.
          if (e instanceof UnreachableError && e.status !== 503) return send();
          throw e;
        });
        if (!answer)
          throw new IpcError(
            'invalid',
            'Site printers print only with the site server as the backend: set it up in Settings.',
            null,
            'settings',
          );
      } catch (e) {
        throw said(e, printer.name);
      }
      return { job: null, message: `Printed ${plural} on ${printer.name} (through the site server).` };
    },
    status: (id) => ({
      printer: id,
      state: 'no-status',
      message:
        'Printed by the site server: it drives this printer, and a print waits until every label is delivered.',
      checkedAt: new Date().toISOString(),
    }),
  };
}

/** A failed print on a site printer (`name`), said like other prints' failures. */
function said(e: unknown, name: string): unknown {
  if (e instanceof UnexpectedStatusError && e.status === 500) {
    const problem = problemOf(e.serverMessage);
    return new IpcError(
      'printer',
      `The site server could not print on ${name}${problem ? `: ${problem}` : ''}. Nothing more will print from this request; print it again when the printer is ready.`,
      'printer',
    );
  }
  if (e instanceof ValidationError)
    return new IpcError(
      'invalid',
      `The site server refused the print on ${name}: ${e.message}`,
      e.field?.replace(/^apiData\./, '') ?? null,
      e.field?.startsWith('apiData.') ? 'field' : null,
    );
  if (e instanceof UnreachableError && e.status === 503)
    return new IpcError('unreachable', `${e.message}. Nothing was printed on ${name}.`, null, 'settings');
  if (e instanceof UnreachableError)
    return new IpcError(
      'unreachable',
      `The site server stopped answering while printing on ${name} (${e.message}): the labels may still print. Look at History before printing them again.`,
      null,
      'settings',
    );
  return e;
}
