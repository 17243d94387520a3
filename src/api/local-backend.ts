/**
 * The bundled engine as a LabelBackend: the same seven operations done in process, over a template store
 * (bundled, user and captured templates), resolve and src/engine/render. Errors are mapped to the hosted
 * API's error types, so a UI cannot tell the difference except by `kind`.
 *
 *  - 03/04 go to the engine's PrinterGateway port (src/engine/printer-gateway.ts, the one `labeldesk serve`
 *    uses); without one they fail with NoPrintersError ("no printers configured"). 03 renders at the
 *    printer's dpi and answers like the relay: `sent_to_printer` + `printer_dpi`; 04 sends one merged PDF and
 *    answers `sent_to_printer_png`, the hosted service's status for a PDF job, for compatibility.
 *  - 05 hands each SVG to an SvgStorage port (Node: files in a folder, file:// URLs); without one each file is
 *    a `data:image/svg+xml;base64,…` URL. `expires_at` is now + `ttl_hours` as with the hosted service, but
 *    nothing deletes local files.
 */
import { defaultMaxWidthDots, isoWithOffset } from '../engine/operations';
import { PrinterUnavailable, type PrinterGateway, type RelayPrinter } from '../engine/printer-gateway';
import {
  hasRfid,
  renderPdfLabels,
  renderSvgLabels,
  renderZplLabels,
  RfidRequiresZpl,
  type RenderPorts,
} from '../engine/render';
import { ImageError } from '../layout/images';
import { ElementError } from '../layout/layout';
import { bytesToBase64 } from '../render/base64';
import { resolve, ResolveError } from '../resolve/resolve';
import type { Markup } from '../template/schema';
import type { TemplateStore } from '../template/store';
import type { GfaCompression } from '../zpl/gfa';
import type { CallOptions, LabelBackend } from './backend';
import { systemClock, type Clock } from './clock';
import {
  CancelledError,
  NoPrintersError,
  PrinterUnavailableError,
  RenderFailedError,
  RfidError,
  ValidationError,
} from './errors';
import type {
  LabelRequest,
  PdfResult,
  PrintRelayRequest,
  PrintRelayResult,
  RenderZplRequest,
  RouteName,
  SvgExportResult,
  ZplResult,
} from './routes';

/** Where exported SVGs go. Returns the URL and path reported in the result. */
export interface SvgStorage {
  save(fileName: string, svg: string): Promise<{ url: string; path: string }>;
}

export interface LocalEngineOptions {
  store: TemplateStore;
  /** The engine's ports, or a function that makes them on first use (fonts load only when needed). */
  ports: RenderPorts | (() => RenderPorts);
  printers?: PrinterGateway;
  svgStorage?: SvgStorage;
  clock?: Clock;
  /** Reported lifetime of exported SVGs, default 24 (spec §8). */
  ttlHours?: number;
  /** ZPL graphic encoding, default z64. */
  compression?: GfaCompression;
}

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${bytesToBase64(new TextEncoder().encode(svg))}`;
}

export class LocalEngineBackend implements LabelBackend {
  readonly kind = 'local';
  private madePorts: RenderPorts | undefined;
  constructor(private readonly options: LocalEngineOptions) {}

  private get ports(): RenderPorts {
    const { ports } = this.options;
    return typeof ports === 'function' ? (this.madePorts ??= ports()) : ports;
  }

  private async markups(
    route: RouteName,
    request: LabelRequest,
    signal: AbortSignal | undefined,
  ): Promise<Markup[]> {
    if (signal?.aborted) throw new CancelledError({ route });
    const { template } = await this.options.store.get(request.label_name);
    return this.mapErrors(route, signal, async () => resolve(template, request.apiData, request.amount));
  }

  /** Runs `work`, translating engine errors into the API's error types. */
  private async mapErrors<T>(
    route: RouteName,
    signal: AbortSignal | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (e) {
      if (e instanceof ResolveError) throw new ValidationError(e.message, e.field, { route, status: 422 });
      if (e instanceof RfidRequiresZpl) throw new RfidError({ route, status: 422 });
      if (e instanceof RangeError) {
        const field = /^(dpi|max_width_dots):/.exec(e.message)?.[1];
        throw new ValidationError(e.message, field, { route, status: 422 });
      }
      if (e instanceof ElementError || e instanceof ImageError) {
        throw new RenderFailedError(`the label could not be rendered: ${e.message}`, { route, cause: e });
      }
      throw e;
    }
    if (signal?.aborted) throw new CancelledError({ route });
    return result;
  }

  /** The printer for 03/04: NoPrintersError without a gateway, ValidationError for an unknown id. */
  private async printer(
    route: RouteName,
    printerId: unknown,
    format: 'zpl' | 'pdf',
  ): Promise<{ gateway: PrinterGateway; printer: RelayPrinter }> {
    const context = { route, status: 422 };
    if (typeof printerId !== 'number' || !Number.isInteger(printerId)) {
      throw new ValidationError(
        `printer_id: expected a whole-number printer id, got ${JSON.stringify(printerId)}`,
        'printer_id',
        context,
      );
    }
    const gateway = this.options.printers;
    if (!gateway) throw new NoPrintersError(route);
    const printer = await gateway.find(printerId);
    if (!printer)
      throw new ValidationError(`printer_id: no printer ${printerId} is configured`, 'printer_id', context);
    if (!gateway.accepts(printer, format)) {
      throw new ValidationError(
        `printer_id: printer ${printerId} ("${printer.name}") cannot print ${format === 'pdf' ? 'a PDF' : 'ZPL'}`,
        'printer_id',
        context,
      );
    }
    return { gateway, printer };
  }

  /** Sends a job, mapping an unreachable printer to PrinterUnavailableError. */
  private async send(
    route: RouteName,
    gateway: PrinterGateway,
    printer: RelayPrinter,
    job: { format: 'zpl' | 'pdf'; data: string | Uint8Array },
  ) {
    try {
      await gateway.send(printer, job);
    } catch (e) {
      if (e instanceof PrinterUnavailable) throw new PrinterUnavailableError(e.message, { route, cause: e });
      throw e;
    }
  }

  async fetchMarkups(request: LabelRequest, options: CallOptions = {}): Promise<Markup[]> {
    return this.markups('fetch-markups', request, options.signal);
  }

  async print(request: LabelRequest, options: CallOptions = {}): Promise<Markup[]> {
    return this.markups('print', request, options.signal);
  }

  async printRelay(request: PrintRelayRequest, options: CallOptions = {}): Promise<PrintRelayResult> {
    const route = 'print-relay';
    const markups = await this.markups(route, request, options.signal);
    const { gateway, printer } = await this.printer(route, request.printer_id, 'zpl');
    let resolution;
    try {
      resolution = await gateway.resolution(printer);
    } catch (e) {
      if (e instanceof PrinterUnavailable) throw new PrinterUnavailableError(e.message, { route, cause: e });
      throw e;
    }
    const { dpi } = resolution;
    const maxWidthDots = resolution.maxWidthDots ?? defaultMaxWidthDots(dpi);
    const zpl = await this.mapErrors(route, options.signal, () =>
      renderZplLabels(
        markups,
        { dpi, maxWidthDots, compression: this.options.compression ?? 'z64' },
        this.ports,
      ),
    );
    await this.send(route, gateway, printer, { format: 'zpl', data: zpl.labels.join('') });
    return { status: 'sent_to_printer', printer_dpi: dpi };
  }

  async printRelayPdf(request: PrintRelayRequest, options: CallOptions = {}): Promise<PrintRelayResult> {
    const route = 'print-relay-pdf';
    const markups = await this.markups(route, request, options.signal);
    if (hasRfid(markups)) throw new RfidError({ route, status: 422 });
    const { gateway, printer } = await this.printer(route, request.printer_id, 'pdf');
    const [pdf] = await this.mapErrors(route, options.signal, () =>
      renderPdfLabels(markups, this.ports, { merge: true, title: request.label_name }),
    );
    if (!pdf) throw new Error('renderPdfLabels returned no PDF');
    await this.send(route, gateway, printer, { format: 'pdf', data: pdf });
    return { status: 'sent_to_printer_png' };
  }

  async exportSvg(request: LabelRequest, options: CallOptions = {}): Promise<SvgExportResult> {
    const route = 'export-svg';
    const markups = await this.markups(route, request, options.signal);
    const svgs = await this.mapErrors(route, options.signal, () => renderSvgLabels(markups, this.ports));
    const ttlHours = this.options.ttlHours ?? 24;
    const expiresAt = isoWithOffset(
      new Date((this.options.clock ?? systemClock).now() + ttlHours * 3_600_000),
    );
    const digits = Math.max(3, String(svgs.length).length);
    const files = [];
    for (const [i, svg] of svgs.entries()) {
      const name = `${request.label_name}-${String(i + 1).padStart(digits, '0')}.svg`;
      const stored = this.options.svgStorage
        ? await this.options.svgStorage.save(name, svg)
        : { url: svgDataUrl(svg), path: name };
      files.push({ ...stored, expires_at: expiresAt });
    }
    return { status: 'svg_exported', ttl_hours: ttlHours, expires_at: expiresAt, files };
  }

  async renderZpl(request: RenderZplRequest, options: CallOptions = {}): Promise<ZplResult> {
    const route = 'render-zpl';
    const markups = await this.markups(route, request, options.signal);
    return this.mapErrors(route, options.signal, () =>
      renderZplLabels(
        markups,
        {
          dpi: request.dpi,
          maxWidthDots: request.max_width_dots,
          compression: this.options.compression ?? 'z64',
        },
        this.ports,
      ),
    );
  }

  async renderPdf(request: LabelRequest, options: CallOptions = {}): Promise<PdfResult> {
    const route = 'render-pdf';
    const markups = await this.markups(route, request, options.signal);
    const pdfs = await this.mapErrors(route, options.signal, () =>
      renderPdfLabels(markups, this.ports, { title: request.label_name }),
    );
    return {
      mime: 'application/pdf',
      encoding: 'base64',
      count: pdfs.length,
      labels: pdfs.map(bytesToBase64),
    };
  }
}
