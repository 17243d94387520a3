/**
 * LabelBackend: the seven operations of spec §4 as one interface, so the app, the CLI and `labeldesk serve`
 * neither know nor care whether a label is made by the hosted API or by the bundled engine.
 *
 * Implementations throw the errors of ./errors (and TemplateNotFound, which HostedTemplateNotFound extends),
 * whichever side did the work: a UI handles AuthError, RfidError, ValidationError, UnreachableError… once.
 *
 *  - HostedApiBackend (this file): the hosted API client.
 *  - LocalEngineBackend (./local-backend): template store + resolve + src/outputs/render, in process.
 *  - OfflineFallbackBackend (./fallback): hosted first, local when the hosted API is unreachable.
 */
import type { Markup } from '../model/schema';
import { HostedApiClient, type CallOptions } from './hosted-client';
import type {
  LabelRequest,
  PdfResult,
  PrintRelayRequest,
  PrintRelayResult,
  RenderZplRequest,
  SvgExportResult,
  ZplResult,
} from '../label-api/routes';

export type { CallOptions };

export interface LabelBackend {
  /** Who renders: the hosted API or the bundled engine. */
  readonly kind: 'hosted' | 'local';
  /** 01: resolved markup, one per copy. */
  fetchMarkups(request: LabelRequest, options?: CallOptions): Promise<Markup[]>;
  /** 02: the same markup, for a browser-side renderer. */
  print(request: LabelRequest, options?: CallOptions): Promise<Markup[]>;
  /** 03: ZPL to a printer (hosted: through the print relay; local: through the printer gateway). */
  printRelay(request: PrintRelayRequest, options?: CallOptions): Promise<PrintRelayResult>;
  /** 04: PDF to a printer. Refuses RFID templates (RfidError). */
  printRelayPdf(request: PrintRelayRequest, options?: CallOptions): Promise<PrintRelayResult>;
  /** 05: one SVG file per copy, valid `ttl_hours`. */
  exportSvg(request: LabelRequest, options?: CallOptions): Promise<SvgExportResult>;
  /** 06: one ZPL job per copy. */
  renderZpl(request: RenderZplRequest, options?: CallOptions): Promise<ZplResult>;
  /** 07: one base64 PDF per copy. Refuses RFID templates (RfidError). */
  renderPdf(request: LabelRequest, options?: CallOptions): Promise<PdfResult>;
}

/** The hosted API as a LabelBackend (the client already speaks the seven operations). */
export class HostedApiBackend extends HostedApiClient implements LabelBackend {
  readonly kind = 'hosted';
}
