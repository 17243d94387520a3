/**
 * Offline fallback: the hosted API first; when it is unreachable (UnreachableError: no network, timeout, a
 * gateway saying the service is down) and the template exists locally (bundled, user or captured), the job
 * is done by the local engine and the user is told through `onFallback` (the CLI prints a line; the app
 * shows a notice). Every other hosted error is final: a 401 or a 422 is an answer, not an outage.
 *
 * The print-relay routes (03/04) never fall back: a relay `printer_id` names a printer in the relay's
 * dashboard, not a local one, and printing somewhere else unasked would be worse than failing.
 */
import type { Markup } from '../model/schema';
import { TemplateNotFound } from '../model/errors';
import type { TemplateOrigin, TemplateStore } from '../model/store';
import type { CallOptions, LabelBackend } from './backend';
import { UnreachableError } from './errors';
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

export interface FallbackEvent {
  route: RouteName;
  templateName: string;
  /** Where the local template came from. */
  origin: TemplateOrigin;
  /** Why the hosted API was not used. */
  reason: UnreachableError;
  /** One line for people. */
  message: string;
}

export interface FallbackOptions {
  hosted: LabelBackend;
  local: LabelBackend;
  /** The local backend's templates (to decide whether a fallback is possible). */
  store: TemplateStore;
  onFallback?: (event: FallbackEvent) => void;
}

export class OfflineFallbackBackend implements LabelBackend {
  readonly kind = 'hosted';
  /** Where the last completed operation ran ("local" after a fallback). */
  lastSource: 'hosted' | 'local' | undefined;

  constructor(private readonly options: FallbackOptions) {}

  private async run<T>(
    route: RouteName,
    request: LabelRequest,
    hosted: () => Promise<T>,
    local: () => Promise<T>,
  ): Promise<T> {
    let reason: UnreachableError;
    try {
      const result = await hosted();
      this.lastSource = 'hosted';
      return result;
    } catch (e) {
      if (!(e instanceof UnreachableError)) throw e;
      reason = e;
    }
    let origin: TemplateOrigin;
    try {
      origin = (await this.options.store.get(request.label_name)).origin;
    } catch (e) {
      if (e instanceof TemplateNotFound) throw reason;
      throw e;
    }
    const result = await local();
    this.lastSource = 'local';
    this.options.onFallback?.({
      route,
      templateName: request.label_name,
      origin,
      reason,
      message: `${reason.message}; rendered "${request.label_name}" locally from the ${origin} template (it may differ from the hosted one)`,
    });
    return result;
  }

  fetchMarkups(request: LabelRequest, options?: CallOptions): Promise<Markup[]> {
    const { hosted, local } = this.options;
    return this.run(
      'fetch-markups',
      request,
      () => hosted.fetchMarkups(request, options),
      () => local.fetchMarkups(request, options),
    );
  }

  print(request: LabelRequest, options?: CallOptions): Promise<Markup[]> {
    const { hosted, local } = this.options;
    return this.run(
      'print',
      request,
      () => hosted.print(request, options),
      () => local.print(request, options),
    );
  }

  async printRelay(request: PrintRelayRequest, options?: CallOptions): Promise<PrintRelayResult> {
    const result = await this.options.hosted.printRelay(request, options);
    this.lastSource = 'hosted';
    return result;
  }

  async printRelayPdf(request: PrintRelayRequest, options?: CallOptions): Promise<PrintRelayResult> {
    const result = await this.options.hosted.printRelayPdf(request, options);
    this.lastSource = 'hosted';
    return result;
  }

  exportSvg(request: LabelRequest, options?: CallOptions): Promise<SvgExportResult> {
    const { hosted, local } = this.options;
    return this.run(
      'export-svg',
      request,
      () => hosted.exportSvg(request, options),
      () => local.exportSvg(request, options),
    );
  }

  renderZpl(request: RenderZplRequest, options?: CallOptions): Promise<ZplResult> {
    const { hosted, local } = this.options;
    return this.run(
      'render-zpl',
      request,
      () => hosted.renderZpl(request, options),
      () => local.renderZpl(request, options),
    );
  }

  renderPdf(request: LabelRequest, options?: CallOptions): Promise<PdfResult> {
    const { hosted, local } = this.options;
    return this.run(
      'render-pdf',
      request,
      () => hosted.renderPdf(request, options),
      () => local.renderPdf(request, options),
    );
  }
}
