/**
 * The seven routes of the Label and Document Rendering API (spec §4) as data: path, request extensions and
 * the zod schema of each 200 response (spec §2.3–2.7). Types come from the schemas. Requests use the wire
 * names (`label_name`, `apiData`, `max_width_dots`) so one shape serves the client, the local engine and
 * `labeldesk serve`.
 */
import { z } from 'zod';
import { MarkupSchema } from '../model/schema';
import type { LabelRequestSchema, PrintRelayRequestSchema, RenderZplRequestSchema } from './contract';
import { API_PREFIX, API_ROUTES, ROUTE_NAMES, type RouteName } from './contract';

export { ROUTE_NAMES, type RouteName };

/** What a caller sends: the contract's request schemas before their defaults apply (dpi, max_width_dots). */
export type LabelRequest = z.input<typeof LabelRequestSchema>;
export type PrintRelayRequest = z.input<typeof PrintRelayRequestSchema>;
export type RenderZplRequest = z.input<typeof RenderZplRequestSchema>;

export interface RouteInfo {
  /** Spec §4 number, "01".."07". */
  number: string;
  /** Relative to the base URL. */
  path: string;
  /** How an unknown `label_name` is reported (spec §7 rule 1, §4.6 rule 8). */
  unknownName: 404 | 422;
}

/** The route table of the contract (src/label-api/contract.ts), as the client needs it. */
export const ROUTES = Object.fromEntries(
  ROUTE_NAMES.map((name) => [
    name,
    {
      number: API_ROUTES[name].number,
      path: `${API_PREFIX}${name}`,
      unknownName: API_ROUTES[name].unknownTemplateStatus,
    },
  ]),
) as Record<RouteName, RouteInfo>;

// The response schemas below are the client's own on purpose: the server's (api-contract.ts) pin exactly
// what LabelDesk emits, while a client must accept what the hosted service sends (free-text status, extra
// fields) and check what matters to a caller (one complete ^XA…^XZ job per copy, base64 PDFs).
const count = z.number().int().min(0);
const dateTime = z.iso.datetime({ offset: true });

export const MarkupListSchema = z.array(MarkupSchema);

/** Spec §2.4. `status` is free text: 04 says `sent_to_printer_png` for a PDF job; any 2xx is accepted. */
export const PrintRelayResultSchema = z.object({
  status: z.string(),
  /** Route 03 only. */
  printer_dpi: z.number().int().positive().optional(),
});

/** Spec §2.5. */
export const SvgExportResultSchema = z.object({
  status: z.string(),
  ttl_hours: count,
  expires_at: dateTime,
  files: z.array(z.object({ url: z.url(), path: z.string(), expires_at: dateTime })),
});

/** Spec §2.6: each label one complete job from `^XA` to `^XZ`. */
export const ZplResultSchema = z.object({
  dpi: z.number().int().positive(),
  max_width_dots: z.number().int().positive(),
  count,
  labels: z.array(
    z.string().refine((s) => /^\s*\^XA/.test(s) && /\^XZ\s*$/.test(s), {
      message: 'expected a ZPL job from ^XA to ^XZ',
    }),
  ),
});

/** Spec §2.7. */
export const PdfResultSchema = z.object({
  mime: z.literal('application/pdf'),
  encoding: z.literal('base64'),
  count,
  labels: z.array(z.string().regex(/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/, { message: 'expected base64 text' })),
});

export type PrintRelayResult = z.infer<typeof PrintRelayResultSchema>;
export type SvgExportResult = z.infer<typeof SvgExportResultSchema>;
export type ZplResult = z.infer<typeof ZplResultSchema>;
export type PdfResult = z.infer<typeof PdfResultSchema>;

/** The response schema of each route. */
export const RESPONSE_SCHEMAS = {
  'fetch-markups': MarkupListSchema,
  print: MarkupListSchema,
  'print-relay': PrintRelayResultSchema,
  'print-relay-pdf': PrintRelayResultSchema,
  'export-svg': SvgExportResultSchema,
  'render-zpl': ZplResultSchema,
  'render-pdf': PdfResultSchema,
} as const satisfies Record<RouteName, z.ZodType>;

export type ResponseOf<R extends RouteName> = z.infer<(typeof RESPONSE_SCHEMAS)[R]>;

/**
 * How many copies a 200 response carries, for the cross-check against `amount` ("one per copy", spec §2.3,
 * §2.5–2.7). Undefined for the print-relay routes, which return a status only.
 */
export function copiesIn(route: RouteName, body: unknown): number | undefined {
  switch (route) {
    case 'fetch-markups':
    case 'print':
      return (body as unknown[]).length;
    case 'export-svg':
      return (body as SvgExportResult).files.length;
    case 'render-zpl':
    case 'render-pdf':
      return (body as ZplResult | PdfResult).labels.length;
    case 'print-relay':
    case 'print-relay-pdf':
      return undefined;
  }
}
