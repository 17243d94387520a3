/**
 * The seven operations of the API (spec §4) done by the bundled engine, over ports: templates, render ports,
 * the print relay and SVG storage come in, so this module is pure and the HTTP face only parses, authenticates
 * and serialises. Each operation takes a request already validated by its zod schema (api-contract.ts) and
 * returns the result body, or throws; `toHttpError` turns what it throws into the spec's status.
 */
import { checkApiData, resolveOne, resolveShared } from '../resolve/resolve';
import { counterFields, counterValuesAt, type CounterValues } from '../resolve/counters';
import type { Markup, Template } from '../model/schema';
import type { TemplateStore } from '../model/store';
import { API_ROUTES, type RouteName, type RouteRequest, type RouteResult } from '../label-api/contract';
import { toHttpError, type FailureContext } from './http-errors';
import { kindOf } from '../base/error-kind';
import { prepareImages, type ImagePolicy } from './incomplete-markup';
import {
  PrinterRefusesFormat,
  UnknownPrinter,
  type PrinterGateway,
  type RelayPrinter,
} from './printer-gateway';
import { defaultPrintWidthDots } from '../printers/profiles';
import { bytesToBase64 } from '../render/base64';
import type { GfaCompression } from '../zpl/gfa';
import {
  IN_PROCESS_OUTPUTS,
  MAX_WIDTH_DOTS_RANGE,
  hasRfid,
  RfidRequiresZpl,
  type OutputStage,
  type RenderPorts,
  zplFitCheck,
} from '../outputs/render';
import { fitProblem, oversizeOutcome } from '../outputs/fit';

/**
 * One stored SVG: its public token (served at `<publicBaseUrl>/files/svg/<token>`) or, for a store that serves
 * its files itself (the local backend: file:// or data: URLs), its URL; and its storage path.
 */
export type StoredSvg = { token: string; path: string } | { url: string; path: string };

/** Exported SVGs: stored by the edge (files, later S3), served publicly until they expire (spec §3). */
export interface SvgFileStore {
  /** Stores one file per SVG; returns each file's token or URL and storage path, in order. */
  save(svgs: readonly string[], expiresAt: Date): Promise<StoredSvg[]>;
}

/**
 * What a reprint repeats (a site server's history, src/node/site/site-routes.ts): the template as it was printed
 * and, per label reprinted, its number in the job whose counters it carries and the counter values it printed.
 * A reprint reserves no numbers: a damaged label is printed again with its serial.
 */
export interface ReprintOf {
  /** The job reprinted (its id in the history). */
  job: string;
  template: Template;
  /** The counters of the job whose numbering the labels carry: first number and step per field (0: shared). */
  firsts: CounterValues;
  steps: CounterValues;
  labels: readonly { number: number; counters: CounterValues }[];
}

/**
 * The history of a site server (src/node/site): every accepted request recorded with who asked, and counter
 * numbers reserved for its labels when its template has counter fields. Without this port a counter field
 * prints its placeholder, as a workstation's `labeldesk serve` always has (its counters belong to its job store).
 */
export interface CounterReservations {
  /**
   * Records the request as a job and reserves the first number of each counter field for `labels` copies of
   * one row (copies number consecutively); a reprint reserves none.
   */
  reserve(req: {
    template: Template;
    labels: number;
    route: RouteName;
    apiKey: string;
    /** The relay printer's id, for the history. */
    printer?: string;
    /** The request as parsed, so the job can be reprinted. */
    request?: RouteRequest<RouteName>;
    reprint?: ReprintOf;
  }): Promise<{ firsts: CounterValues; job: string }>;
  /** The job recorded by `reserve` failed afterwards (`why`: its error kind): it made no label. */
  failed(job: string, why: string): Promise<void>;
}

export interface EnginePorts {
  templates: TemplateStore;
  render: RenderPorts;
  /** The print relay (routes 03, 04). Without it those routes answer 422 for any printer_id. */
  printers?: PrinterGateway;
  svgFiles: SvgFileStore;
  counters?: CounterReservations;
  /** Lifetime of exported SVGs, hours (spec §2.5: 24). */
  svgTtlHours: number;
  now: () => Date;
}

/** Choices of the caller that are not ports. */
export interface OperationOptions {
  /** ZPL graphic encoding (routes 03, 06), default z64. */
  zplCompression?: GfaCompression;
  /**
   * What `run` throws for a failure, given what it threw; default toHttpError (the HTTP face's statuses). The
   * local backend (src/backends/local-backend.ts) maps to the client's error types instead.
   */
  mapError?: (e: unknown, failure: FailureContext) => unknown;
  /**
   * fetch-markups and print may answer their copies as ONE Markup object repeated (the HTTP face, which only
   * serialises them, each distinct object once: server/json-body.ts). Default false: every copy its own object,
   * for callers that keep and edit them (the app's local backend). The renders always share.
   */
  sharedCopies?: boolean;
}

/** Per-request facts the HTTP face knows. */
export interface RequestContext {
  /** Where public files are served, e.g. `http://127.0.0.1:8787` (no trailing slash). */
  publicBaseUrl: string;
  /**
   * An image that cannot be loaded: left out with a warning (`omit`, what `labeldesk serve` does unless the
   * request says `strict`), or the request fails (`strict`, the default here).
   */
  imagePolicy?: ImagePolicy;
  /**
   * Where this request's renders run; default this thread (IN_PROCESS_OUTPUTS). `labeldesk serve` sends heavy
   * ones to a worker thread, giving the request's place among the renders to the next one meanwhile.
   */
  outputs?: OutputStage;
  /** The authenticated key id (never the secret): who reserved counter numbers, who queued a print job. */
  apiKey?: string;
  /** The request's `Idempotency-Key` header (routes 03, 04): handed to the printer gateway with the job. */
  idempotencyKey?: string;
  /** Render a recorded job's labels again with their counter values (`req.amount` is their count). */
  reprint?: ReprintOf;
}

/** What a successful operation produced: the body, the copies it counts toward the allowance, and warnings. */
export interface OperationResult<R extends RouteName> {
  body: RouteResult<R>;
  copies: number;
  /** What the incomplete-markup policy left out (images that could not be loaded); empty when nothing. */
  warnings: string[];
  /** The job the history recorded it as (a site server's). */
  job?: string;
}

/** The routes that answer markup without rendering it: they load no images. */
const MARKUP_ONLY: ReadonlySet<RouteName> = new Set(['fetch-markups', 'print']);

/** ISO 8601 with an explicit `+00:00` offset and whole seconds (spec §2.5). */
function isoWithOffset(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Printhead width for a printer that does not report one: a 4 in desktop head at its dpi (203 → 832). */
function defaultMaxWidthDots(dpi: number): number {
  return Math.min(MAX_WIDTH_DOTS_RANGE.max, Math.max(MAX_WIDTH_DOTS_RANGE.min, defaultPrintWidthDots(dpi)));
}

/** The seven operations bound to their ports. */
export function createOperations(ports: EnginePorts, options: OperationOptions = {}) {
  const mapError = options.mapError ?? toHttpError;
  const compression = options.zplCompression ? { compression: options.zplCompression } : {};

  async function findPrinter(id: number): Promise<RelayPrinter> {
    const printer = await ports.printers?.find(id);
    if (!printer) throw new UnknownPrinter(id);
    return printer;
  }

  /** What a handler works with: the request's context, the ports holding its loaded images, where it renders. */
  type HandlerContext = RequestContext & {
    render: RenderPorts;
    outputs: OutputStage;
    /** A warning for the caller (the X-LabelDesk-Warnings header). */
    warn: (message: string) => void;
  };

  /** Who asks for a relay job, for a gateway that records it. */
  const requesterOf = (ctx: RequestContext): { apiKey?: string; idempotencyKey?: string } => ({
    ...(ctx.apiKey !== undefined ? { apiKey: ctx.apiKey } : {}),
    ...(ctx.idempotencyKey !== undefined ? { idempotencyKey: ctx.idempotencyKey } : {}),
  });

  const handlers: {
    [R in RouteName]: (
      req: RouteRequest<R>,
      markups: Markup[],
      ctx: HandlerContext,
    ) => Promise<RouteResult<R>>;
  } = {
    'fetch-markups': async (_req, markups) => markups,
    print: async (_req, markups) => markups,

    'print-relay': async (req, markups, ctx) => {
      const printer = await findPrinter(req.printer_id);
      if (!ports.printers?.accepts(printer, 'zpl')) throw new PrinterRefusesFormat(printer, 'zpl');
      const { dpi, maxWidthDots, labelHome, darkness } = await ports.printers.resolution(printer);
      const width = maxWidthDots ?? defaultMaxWidthDots(dpi);
      // As the spec says, a label wider than the head prints cut; the caller is told (#42 item 1).
      const fit = zplFitCheck(markups, { dpi, maxWidthDots: width });
      if (!fit.fits) ctx.warn(`${fitProblem(req.label_name, fit)}: ${oversizeOutcome(fit, 'cut')}`);
      const zpl = await ctx.outputs.zpl(
        markups,
        {
          dpi,
          maxWidthDots: width,
          ...(labelHome ? { labelHome } : {}),
          ...(darkness ? { darkness } : {}),
          ...compression,
        },
        ctx.render,
      );
      await ports.printers.send(printer, {
        format: 'zpl',
        labels: zpl.labels,
        printerDpi: dpi,
        ...requesterOf(ctx),
      });
      return { status: 'sent_to_printer', printer_dpi: dpi };
    },

    'print-relay-pdf': async (req, markups, ctx) => {
      const printer = await findPrinter(req.printer_id);
      if (hasRfid(markups)) throw new RfidRequiresZpl();
      if (!ports.printers?.accepts(printer, 'pdf')) throw new PrinterRefusesFormat(printer, 'pdf');
      const [pdf] = await ctx.outputs.pdf(markups, ctx.render, { merge: true, title: req.label_name });
      if (!pdf) throw new Error('renderPdfLabels returned no PDF');
      await ports.printers.send(printer, { format: 'pdf', labels: [pdf], ...requesterOf(ctx) });
      return { status: 'sent_to_printer_png' };
    },

    'export-svg': async (_req, markups, ctx) => {
      // The spec names RFID refusals for 04 and 07 only; an SVG cannot carry a tag either, and printing the
      // label without it would lose the tag silently.
      if (hasRfid(markups)) throw new RfidRequiresZpl('SVG');
      const svgs = await ctx.outputs.svg(markups, ctx.render);
      const expiresAt = new Date(ports.now().getTime() + ports.svgTtlHours * 3_600_000);
      const saved = await ports.svgFiles.save(svgs, expiresAt);
      const expires = isoWithOffset(expiresAt);
      return {
        status: 'svg_exported',
        ttl_hours: ports.svgTtlHours,
        expires_at: expires,
        files: saved.map((file) => ({
          url: 'url' in file ? file.url : `${ctx.publicBaseUrl}/files/svg/${file.token}`,
          path: file.path,
          expires_at: expires,
        })),
      };
    },

    'render-zpl': async (req, markups, ctx) => {
      const zpl = await ctx.outputs.zpl(
        markups,
        { dpi: req.dpi, maxWidthDots: req.max_width_dots, ...compression },
        ctx.render,
      );
      return { dpi: zpl.dpi, max_width_dots: zpl.max_width_dots, count: zpl.count, labels: zpl.labels };
    },

    'render-pdf': async (req, markups, ctx) => {
      const pdfs = await ctx.outputs.pdf(markups, ctx.render, { title: req.label_name });
      // Identical copies share one PDF (see renderPdfLabels; a worker's answer keeps that): encode each distinct
      // one once.
      const encoded = new Map<Uint8Array, string>();
      const labels = pdfs.map((pdf) => {
        let b64 = encoded.get(pdf);
        if (b64 === undefined) encoded.set(pdf, (b64 = bytesToBase64(pdf)));
        return b64;
      });
      return { mime: 'application/pdf', encoding: 'base64', count: pdfs.length, labels };
    },
  };

  /**
   * Runs one route: finds the template by name (on every request, spec §1 rule 2), resolves it, and runs the
   * route's operation. Throws what `mapError` makes of a failure (HttpError by default). `beforeRender` runs once
   * the copies are known (allowance check).
   */
  async function run<R extends RouteName>(
    route: R,
    req: RouteRequest<R>,
    ctx: RequestContext,
    beforeRender: (copies: number, markups: readonly Markup[]) => void | Promise<void> = () => undefined,
  ): Promise<OperationResult<R>> {
    let template: Template | undefined;
    let markups: Markup[] | undefined;
    let job: string | undefined;
    try {
      template = ctx.reprint?.template ?? (await ports.templates.get(req.label_name)).template;
      // The copies of a request cannot differ (no counter numbers come with it): one object, repeated, so
      // layout, rendering and serialising happen once however many copies are asked for.
      markups = resolveShared(template, req.apiData, req.amount);
      await beforeRender(markups.length, markups);
      // Recorded, and counter numbers reserved, only once the request is accepted (a refused one burns none);
      // each copy has its own numbers, a reprint's those its label printed first.
      if (ports.counters) {
        const recorded = await ports.counters.reserve({
          template,
          labels: markups.length,
          route,
          apiKey: ctx.apiKey ?? '',
          ...('printer_id' in req ? { printer: String(req.printer_id) } : {}),
          request: req,
          ...(ctx.reprint ? { reprint: ctx.reprint } : {}),
        });
        job = recorded.job;
        if (counterFields(template).length) {
          const data = checkApiData(req.apiData);
          const resolved = template;
          const reprinted = ctx.reprint?.labels;
          markups = markups.map((_, i) =>
            resolveOne(
              resolved,
              data,
              reprinted ? (reprinted[i]?.counters ?? {}) : counterValuesAt(resolved, recorded.firsts, i, 0),
            ),
          );
        }
      }
      if (MARKUP_ONLY.has(route)) {
        const copies = options.sharedCopies ? markups : markups.map((m, i) => (i ? structuredClone(m) : m));
        const body = await handlers[route](req, copies, {
          ...ctx,
          render: ports.render,
          outputs: IN_PROCESS_OUTPUTS,
          warn: () => undefined,
        });
        return { body, copies: markups.length, warnings: [], ...(job !== undefined ? { job } : {}) };
      }
      const prepared = await prepareImages(markups, ports.render, ctx.imagePolicy ?? 'strict');
      const warnings = [...prepared.warnings];
      const body = await handlers[route](req, prepared.markups, {
        ...ctx,
        render: prepared.ports,
        outputs: ctx.outputs ?? IN_PROCESS_OUTPUTS,
        warn: (message) => warnings.push(message),
      });
      return {
        body,
        copies: markups.length,
        warnings,
        ...(job !== undefined ? { job } : {}),
      };
    } catch (e) {
      // The history says the recorded job made no label (its reserved numbers are burned).
      if (job !== undefined) await ports.counters?.failed(job, kindOf(e)).catch(() => undefined);
      throw mapError(e, {
        unknownTemplateStatus: API_ROUTES[route].unknownTemplateStatus,
        template,
        markups,
      });
    }
  }

  return { run };
}

export type Operations = ReturnType<typeof createOperations>;
