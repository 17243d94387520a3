/**
 * The Label and Document Rendering API's contract as zod schemas (spec §2, §4): the single source of truth for
 * what `labeldesk serve` accepts and answers. Request and result types come from z.infer; the OpenAPI document
 * (assets/openapi.json) is generated from these schemas, so the docs cannot drift from the validation.
 *
 * Messages are phrased for people and name the field: `amount: must be at least 1, got 0`.
 */
import { z } from 'zod';
import { LIMITS } from '../resolve/resolve';
import { MarkupSchema } from '../model/schema';
import { DPI_RANGE, MAX_WIDTH_DOTS_RANGE } from '../outputs/render';

/** A short description of a JSON value for messages (never the value of a string: it may be personal data). */
export function describeInput(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a string`;
  return `a ${typeof value}`;
}

type Issue = { input?: unknown };
const required = (what: string) => (iss: Issue) =>
  iss.input === undefined ? `is required (${what})` : `expected ${what}, got ${describeInput(iss.input)}`;

function wholeNumber(what: string, range: { min: number; max: number }) {
  const outOfRange = (iss: Issue) =>
    `expected ${what} from ${range.min} to ${range.max}, got ${describeInput(iss.input)}`;
  return z
    .number({ error: required(what) })
    .int({ error: outOfRange })
    .min(range.min, { error: outOfRange })
    .max(range.max, { error: outOfRange });
}

/** The common label request (spec §2.2). Unknown top-level properties are ignored. */
export const LabelRequestSchema = z.object(
  {
    label_name: z
      .string({ error: required('a template name') })
      .min(1, { error: 'must not be empty' })
      .max(200, { error: 'is longer than 200 characters' })
      .describe('Exact, case-sensitive template name.'),
    amount: z
      .number({ error: required('a whole number of copies') })
      .int({ error: (iss) => `expected a whole number of copies, got ${describeInput(iss.input)}` })
      .min(1, { error: (iss) => `must be at least 1, got ${describeInput(iss.input)}` })
      .max(LIMITS.maxAmount, {
        error: (iss) =>
          `${describeInput(iss.input)} copies in one request is more than the maximum of ${LIMITS.maxAmount}`,
      })
      .describe(`Copies to produce, 1 to ${LIMITS.maxAmount}. Each copy is returned or printed separately.`),
    apiData: z
      .record(
        z.string(),
        z
          .string({
            error: (iss) => `expected a string, got ${describeInput(iss.input)} (all values are strings)`,
          })
          .max(LIMITS.maxValueLength, { error: `is longer than ${LIMITS.maxValueLength} characters` }),
        { error: required('an object of field names to string values') },
      )
      .describe(
        `Field name → value; keys are case-sensitive, a key matching no field is ignored. At most ${LIMITS.maxApiDataKeys} keys and ${LIMITS.maxApiDataChars} characters in all.`,
      ),
    strict: z
      .boolean({ error: (iss) => `expected true or false, got ${describeInput(iss.input)}` })
      .optional()
      .describe(
        'LabelDesk extension. Without it (or false) an image of the label that cannot be loaded is left out and ' +
          'named in the X-LabelDesk-Warnings response header; true makes such an image fail the request (422).',
      ),
  },
  { error: (iss) => `the request body must be a JSON object, got ${describeInput(iss.input)}` },
);

const printerId = z
  .number({ error: required('a whole-number printer id') })
  .int({ error: (iss) => `expected a whole-number printer id, got ${describeInput(iss.input)}` })
  .describe('Printer identifier from the printers file (`labeldesk serve --printers FILE`).');

export const PrintRelayRequestSchema = LabelRequestSchema.extend({ printer_id: printerId });

export const RenderZplRequestSchema = LabelRequestSchema.extend({
  dpi: wholeNumber('a whole-number dpi', DPI_RANGE)
    .default(DPI_RANGE.default)
    .describe(`Printer resolution, ${DPI_RANGE.min} to ${DPI_RANGE.max}.`),
  max_width_dots: wholeNumber('a whole number of dots', MAX_WIDTH_DOTS_RANGE)
    .default(MAX_WIDTH_DOTS_RANGE.default)
    .describe(
      `Printhead width in dots, ${MAX_WIDTH_DOTS_RANGE.min} to ${MAX_WIDTH_DOTS_RANGE.max}; wider labels are cut.`,
    ),
});

/** ISO 8601 with an explicit offset, e.g. `2026-09-29T12:00:00+00:00`. */
const dateTime = z.iso.datetime({ offset: true });

export const MarkupListSchema = z.array(MarkupSchema).describe('One Markup per copy.');

export const PrintRelayResultSchema = z.object({
  status: z.literal('sent_to_printer'),
  printer_dpi: z.number().int().describe('Resolution the printer reported, used for the render.'),
});

export const PrintRelayPdfResultSchema = z.object({
  status: z.literal('sent_to_printer_png').describe('Reads "png" although the job is a PDF (spec §2.4).'),
});

export const SvgExportResultSchema = z.object({
  status: z.literal('svg_exported'),
  ttl_hours: z.number().int(),
  expires_at: dateTime,
  files: z.array(
    z.object({
      url: z.url().describe('Public URL of one SVG (no authentication) until expires_at.'),
      path: z.string().describe('Storage path of the same file, relative to the data folder.'),
      expires_at: dateTime,
    }),
  ),
});

export const ZplResultSchema = z.object({
  dpi: z.number().int(),
  max_width_dots: z.number().int(),
  count: z.number().int(),
  labels: z.array(z.string()).describe('One complete ^XA…^XZ job per copy.'),
});

export const PdfResultSchema = z.object({
  mime: z.literal('application/pdf'),
  encoding: z.literal('base64'),
  count: z.number().int(),
  labels: z.array(z.string()).describe('One base64-encoded vector PDF per copy.'),
});

/** Every error answer (spec §7): a message naming the problem, and the request field when there is one. */
export const ErrorBodySchema = z.object({
  message: z.string(),
  field: z
    .string()
    .optional()
    .describe('Path of the offending request field, e.g. "amount" or "apiData.tracking".'),
});

export type LabelRequest = z.infer<typeof LabelRequestSchema>;
export type PrintRelayRequest = z.infer<typeof PrintRelayRequestSchema>;
export type RenderZplRequest = z.infer<typeof RenderZplRequestSchema>;
export type PrintRelayResult = z.infer<typeof PrintRelayResultSchema>;
export type PrintRelayPdfResult = z.infer<typeof PrintRelayPdfResultSchema>;
export type SvgExportResult = z.infer<typeof SvgExportResultSchema>;
export type ZplApiResult = z.infer<typeof ZplResultSchema>;
export type PdfResult = z.infer<typeof PdfResultSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * The seven routes (spec §4), declared once: the server registers them, the OpenAPI document describes them,
 * and the 404-vs-422 rule for an unknown `label_name` (spec §7 rule 1) is data here, not an if in a handler.
 */
export const API_ROUTES = {
  'fetch-markups': {
    number: '01',
    summary: 'Resolve a template into Markup, one per copy',
    request: LabelRequestSchema,
    response: MarkupListSchema,
    unknownTemplateStatus: 404,
  },
  print: {
    number: '02',
    summary: 'Markup for the browser SDK to draw and print (same as 01)',
    request: LabelRequestSchema,
    response: MarkupListSchema,
    unknownTemplateStatus: 404,
  },
  'print-relay': {
    number: '03',
    summary: "Render ZPL at the printer's own dpi and send it to a printer of the printers file",
    request: PrintRelayRequestSchema,
    response: PrintRelayResultSchema,
    unknownTemplateStatus: 404,
  },
  'print-relay-pdf': {
    number: '04',
    summary: 'Render a vector PDF and send it to a PDF-capable printer of the printers file',
    request: PrintRelayRequestSchema,
    response: PrintRelayPdfResultSchema,
    unknownTemplateStatus: 404,
  },
  'export-svg': {
    number: '05',
    summary: 'Render one SVG per copy and store it under a public, expiring URL',
    request: LabelRequestSchema,
    response: SvgExportResultSchema,
    unknownTemplateStatus: 404,
  },
  'render-zpl': {
    number: '06',
    summary: 'Render one ZPL job per copy',
    request: RenderZplRequestSchema,
    response: ZplResultSchema,
    unknownTemplateStatus: 422,
  },
  'render-pdf': {
    number: '07',
    summary: 'Render one base64 vector PDF per copy',
    request: LabelRequestSchema,
    response: PdfResultSchema,
    unknownTemplateStatus: 422,
  },
} as const;

export type RouteName = keyof typeof API_ROUTES;
export const ROUTE_NAMES = Object.keys(API_ROUTES) as RouteName[];
export const API_PREFIX = '/custom-labels/';

/**
 * The hosted service's public names for routes our spec names otherwise: its API client posts to these. An
 * alias is the same route (body, auth, statuses, counting), registered and documented under a second path.
 */
export const ROUTE_ALIASES = {
  'print-node': 'print-relay',
  'print-node-pdf': 'print-relay-pdf',
} as const satisfies Record<string, RouteName>;

export type RouteAlias = keyof typeof ROUTE_ALIASES;

/** The aliases of one route (none for most). */
export function aliasesOf(route: RouteName): RouteAlias[] {
  return (Object.keys(ROUTE_ALIASES) as RouteAlias[]).filter((alias) => ROUTE_ALIASES[alias] === route);
}

/**
 * `GET /custom-labels/download-svg?path=<files[].path>`: the hosted API client's way to fetch an exported SVG
 * with the key and secret instead of the public URL.
 */
export const DOWNLOAD_SVG_ROUTE = 'download-svg';

/**
 * The response header that carries what was left out of a label under the incomplete-markup policy (an image
 * that could not be loaded): a JSON array of messages, non-ASCII escaped. Absent when there is nothing to say.
 */
export const WARNINGS_HEADER = 'X-LabelDesk-Warnings';

export type RouteRequest<R extends RouteName> = z.infer<(typeof API_ROUTES)[R]['request']>;
export type RouteResult<R extends RouteName> = z.infer<(typeof API_ROUTES)[R]['response']>;
