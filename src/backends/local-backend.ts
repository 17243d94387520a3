/**
 * The bundled engine as a LabelBackend: the seven operations of src/engine/operations.ts (the ones
 * `labeldesk serve` runs) in process, over a template store (bundled, user and captured templates). Errors are
 * mapped to the hosted API's error types, so a UI cannot tell the difference except by `kind`.
 *
 *  - 03/04 go to the engine's PrinterGateway port (src/engine/printer-gateway.ts, the one `labeldesk serve`
 *    uses); without one they fail with NoPrintersError ("no printers configured"). 03 renders at the
 *    printer's dpi and answers like the relay: `sent_to_printer` + `printer_dpi`; 04 sends one merged PDF and
 *    answers `sent_to_printer_png`, the hosted service's status for a PDF job, for compatibility. 04 refuses
 *    an RFID template before it looks at the printer.
 *  - 05 hands each SVG to an SvgStorage port (Node: files in a folder, file:// URLs); without one each file is
 *    a `data:image/svg+xml;base64,…` URL. `expires_at` is now + `ttl_hours` as with the hosted service, but
 *    nothing deletes local files.
 *  - A cancelled signal is honoured between steps: before the template is read, once it is resolved, before
 *    a job is sent or SVGs are stored, and at the end.
 */
import { createOperations, type EnginePorts, type SvgFileStore } from '../engine/operations';
import {
  PrinterRefusesFormat,
  PrinterUnavailable,
  UnknownPrinter,
  type PrinterGateway,
} from '../engine/printer-gateway';
import {
  DPI_RANGE,
  MAX_WIDTH_DOTS_RANGE,
  hasRfid,
  RfidRequiresZpl,
  type RenderPorts,
} from '../outputs/render';
import type { RouteRequest, RouteResult } from '../label-api/contract';
import { ImageError } from '../layout/images';
import { ElementError } from '../layout/element-context';
import { bytesToBase64 } from '../render/base64';
import { ResolveError } from '../resolve/resolve';
import type { Markup } from '../model/schema';
import type { TemplateStore } from '../model/store';
import type { GfaCompression } from '../zpl/gfa';
import type { CallOptions, LabelBackend } from './backend';
import { systemClock, type Clock } from '../base/clock';
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
} from '../label-api/routes';

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

/** An engine error → the client's error type; anything else (TemplateNotFound, a bug) as it is. */
function clientError(route: RouteName, e: unknown): unknown {
  const context = { route, status: 422 };
  if (e instanceof ResolveError) return new ValidationError(e.message, e.field, context);
  if (e instanceof RfidRequiresZpl) return new RfidError(context);
  if (e instanceof RangeError) {
    const field = /^(dpi|max_width_dots):/.exec(e.message)?.[1];
    return new ValidationError(e.message, field, context);
  }
  if (e instanceof ElementError || e instanceof ImageError) {
    return new RenderFailedError(`the label could not be rendered: ${e.message}`, { route, cause: e });
  }
  if (e instanceof UnknownPrinter) {
    return new ValidationError(`printer_id: no printer ${e.id} is configured`, 'printer_id', context);
  }
  if (e instanceof PrinterRefusesFormat)
    return new ValidationError(`printer_id: ${e.message}`, 'printer_id', context);
  if (e instanceof PrinterUnavailable) return new PrinterUnavailableError(e.message, { route, cause: e });
  return e;
}

export class LocalEngineBackend implements LabelBackend {
  readonly kind = 'local';
  private madePorts: RenderPorts | undefined;
  constructor(private readonly options: LocalEngineOptions) {}

  private get ports(): RenderPorts {
    const { ports } = this.options;
    return typeof ports === 'function' ? (this.madePorts ??= ports()) : ports;
  }

  /** Runs one operation of the engine with this backend's ports, checks and error types. */
  private async run<R extends RouteName>(
    route: R,
    request: RouteRequest<R>,
    signal: AbortSignal | undefined,
  ): Promise<RouteResult<R>> {
    const throwIfCancelled = () => {
      if (signal?.aborted) throw new CancelledError({ route });
    };
    throwIfCancelled();
    const ops = createOperations(this.enginePorts(route, request.label_name, throwIfCancelled), {
      zplCompression: this.options.compression,
      mapError: (e) => clientError(route, e),
    });
    const { body } = await ops.run(
      route,
      request,
      { publicBaseUrl: '' }, // unused: every stored SVG carries its own URL
      (_copies, markups) => {
        throwIfCancelled();
        if (route === 'print-relay-pdf' && hasRfid(markups)) throw new RfidRequiresZpl();
      },
    );
    throwIfCancelled();
    return body;
  }

  private enginePorts(route: RouteName, labelName: string, throwIfCancelled: () => void): EnginePorts {
    const renderPorts = () => this.ports;
    const clock = this.options.clock ?? systemClock;
    return {
      templates: this.options.store,
      // A getter: the ports are made when an operation first renders, not for 01/02.
      get render() {
        return renderPorts();
      },
      printers: this.printers(route, throwIfCancelled),
      svgFiles: this.svgFiles(labelName, throwIfCancelled),
      svgTtlHours: this.options.ttlHours ?? 24,
      now: () => new Date(clock.now()),
    };
  }

  /**
   * The configured gateway behind this backend's checks: a whole-number printer_id first, NoPrintersError
   * without a gateway, and no job sent once the caller has cancelled.
   */
  private printers(route: RouteName, throwIfCancelled: () => void): PrinterGateway {
    const configured = (): PrinterGateway => {
      if (!this.options.printers) throw new NoPrintersError(route);
      return this.options.printers;
    };
    return {
      find: async (id: unknown) => {
        if (typeof id !== 'number' || !Number.isInteger(id)) {
          throw new ValidationError(
            `printer_id: expected a whole-number printer id, got ${JSON.stringify(id)}`,
            'printer_id',
            { route, status: 422 },
          );
        }
        return configured().find(id);
      },
      resolution: (printer) => configured().resolution(printer),
      accepts: (printer, format) => configured().accepts(printer, format),
      send: async (printer, job) => {
        throwIfCancelled();
        await configured().send(printer, job);
      },
    };
  }

  /** `<label_name>-001.svg`…, each in the SvgStorage, or a data: URL without one. */
  private svgFiles(labelName: string, throwIfCancelled: () => void): SvgFileStore {
    return {
      save: async (svgs) => {
        throwIfCancelled();
        const digits = Math.max(3, String(svgs.length).length);
        const files = [];
        for (const [i, svg] of svgs.entries()) {
          const name = `${labelName}-${String(i + 1).padStart(digits, '0')}.svg`;
          files.push(
            this.options.svgStorage
              ? await this.options.svgStorage.save(name, svg)
              : { url: svgDataUrl(svg), path: name },
          );
        }
        return files;
      },
    };
  }

  async fetchMarkups(request: LabelRequest, options: CallOptions = {}): Promise<Markup[]> {
    return this.run('fetch-markups', request, options.signal);
  }

  async print(request: LabelRequest, options: CallOptions = {}): Promise<Markup[]> {
    return this.run('print', request, options.signal);
  }

  async printRelay(request: PrintRelayRequest, options: CallOptions = {}): Promise<PrintRelayResult> {
    return this.run('print-relay', request, options.signal);
  }

  async printRelayPdf(request: PrintRelayRequest, options: CallOptions = {}): Promise<PrintRelayResult> {
    return this.run('print-relay-pdf', request, options.signal);
  }

  async exportSvg(request: LabelRequest, options: CallOptions = {}): Promise<SvgExportResult> {
    return this.run('export-svg', request, options.signal);
  }

  async renderZpl(request: RenderZplRequest, options: CallOptions = {}): Promise<ZplResult> {
    // The engine's operations take requests with the contract's defaults applied (the engine's own defaults).
    const { dpi = DPI_RANGE.default, max_width_dots = MAX_WIDTH_DOTS_RANGE.default } = request;
    return this.run('render-zpl', { ...request, dpi, max_width_dots }, options.signal);
  }

  async renderPdf(request: LabelRequest, options: CallOptions = {}): Promise<PdfResult> {
    return this.run('render-pdf', request, options.signal);
  }
}
