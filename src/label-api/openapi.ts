/**
 * The OpenAPI 3.1 document of `labeldesk serve`, generated from the zod schemas of api-contract.ts (never
 * written by hand). assets/openapi.json is this output, kept in sync by a test; the server also serves it at
 * `GET /openapi.json`.
 */
import { z } from 'zod';
import { LIMITS } from '../resolve/resolve';
import {
  API_PREFIX,
  API_ROUTES,
  ErrorBodySchema,
  LabelRequestSchema,
  MarkupListSchema,
  PdfResultSchema,
  PrintRelayPdfResultSchema,
  PrintRelayRequestSchema,
  PrintRelayResultSchema,
  RenderZplRequestSchema,
  DOWNLOAD_SVG_ROUTE,
  ROUTE_NAMES,
  WARNINGS_HEADER,
  aliasesOf,
  SvgExportResultSchema,
  ZplResultSchema,
} from './contract';
import { SITE_COMPONENTS, siteOpenApiPaths } from './site-api';
import { labelaryOpenApiPaths } from './labelary-api';

/** The interface version of the spec (§9). */
export const API_VERSION = '2026-09-29';

const COMPONENTS: [string, z.ZodType, 'input' | 'output'][] = [
  ['LabelRequest', LabelRequestSchema, 'input'],
  ['PrintRelayRequest', PrintRelayRequestSchema, 'input'],
  ['RenderZplRequest', RenderZplRequestSchema, 'input'],
  ['MarkupList', MarkupListSchema, 'output'],
  ['PrintRelayResult', PrintRelayResultSchema, 'output'],
  ['PrintRelayPdfResult', PrintRelayPdfResultSchema, 'output'],
  ['SvgExportResult', SvgExportResultSchema, 'output'],
  ['ZplResult', ZplResultSchema, 'output'],
  ['PdfResult', PdfResultSchema, 'output'],
  ['Error', ErrorBodySchema, 'output'],
  // The site extension (site-api.ts): only on `labeldesk serve --database`.
  ...SITE_COMPONENTS,
];

function componentName(schema: z.ZodType): string {
  const hit = COMPONENTS.find(([, s]) => s === schema);
  if (!hit) throw new Error('schema missing from the OpenAPI components');
  return hit[0];
}

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${componentName(schema)}` });

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref(ErrorBodySchema) } },
});

const operationIdOf = (route: string): string => route.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());

const WARNINGS_HEADER_DOC = {
  description:
    'Present when something was left out of the label: a JSON array of messages (non-ASCII escaped). Under the ' +
    'incomplete-markup policy, one per image that could not be loaded (send "strict": true to get a 422 instead); ' +
    'on print-relay, one when the label is wider than the printer prints, naming both widths ("… is 210 mm ' +
    '(1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi: printed cut, the right 106 mm ' +
    '(846 dots) not printed"): the label prints cut, as the spec says.',
  schema: { type: 'string' },
};

export function openApiDocument(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const [name, schema, io] of COMPONENTS) {
    const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    schemas[name] = json;
  }
  const paths: Record<string, unknown> = {};
  for (const name of ROUTE_NAMES) {
    const route = API_ROUTES[name];
    const renders = name !== 'fetch-markups' && name !== 'print';
    const responses: Record<string, unknown> = {
      200: {
        description: 'Success',
        ...(renders ? { headers: { [WARNINGS_HEADER]: WARNINGS_HEADER_DOC } } : {}),
        content: { 'application/json': { schema: ref(route.response) } },
      },
      401: errorResponse('X-API-KEY or X-API-SECRET missing, wrong, or superseded by a regenerated secret'),
    };
    if (route.unknownTemplateStatus === 404)
      responses[404] = errorResponse('No template with that label_name');
    responses[422] = errorResponse(
      'A parameter is missing or invalid (the message and `field` name it)' +
        (route.unknownTemplateStatus === 422 ? ', or no template with that label_name' : '') +
        ', or the print allowance of the key is used up',
    );
    responses[429] = errorResponse('More requests per minute than the key may make', {
      'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
    });
    responses[500] = errorResponse(
      'The render (or the printer, on 03/04) failed on the server side; retry once',
    );
    const operation = {
      summary: `${route.number} ${route.summary}`,
      security: [{ ApiKey: [], ApiSecret: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: ref(route.request) } } },
      responses,
    };
    paths[`${API_PREFIX}${name}`] = { post: { operationId: operationIdOf(name), ...operation } };
    for (const alias of aliasesOf(name)) {
      paths[`${API_PREFIX}${alias}`] = {
        post: {
          ...operation,
          operationId: operationIdOf(alias),
          summary: `Alias of ${API_PREFIX}${name} (the hosted service's public name): ${operation.summary}`,
          'x-alias-of': `${API_PREFIX}${name}`,
        },
      };
    }
  }
  paths[`${API_PREFIX}${DOWNLOAD_SVG_ROUTE}`] = {
    get: {
      operationId: 'downloadSvg',
      summary:
        "An SVG stored by export-svg, by its files[].path, with the key and secret (the hosted API client's download)",
      security: [{ ApiKey: [], ApiSecret: [] }],
      parameters: [
        {
          name: 'path',
          in: 'query',
          required: true,
          description: 'files[].path of an export-svg answer, URL-encoded (e.g. svg%2F…svg)',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: { description: 'The SVG', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        401: errorResponse('X-API-KEY or X-API-SECRET missing, wrong, or superseded by a regenerated secret'),
        404: errorResponse('No file at that path, or it has expired'),
        422: errorResponse('The path query parameter is missing'),
        429: errorResponse('More requests per minute than the key may make', {
          'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
        }),
      },
    },
  };
  paths['/files/svg/{token}'] = {
    get: {
      operationId: 'getExportedSvg',
      summary: 'An SVG stored by export-svg (public, no authentication) until it expires',
      parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: { description: 'The SVG', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        404: errorResponse('Unknown or expired file'),
      },
    },
  };
  Object.assign(
    paths,
    siteOpenApiPaths((name) => ({ $ref: `#/components/schemas/${name}` }), errorResponse),
  );
  Object.assign(paths, labelaryOpenApiPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'LabelDesk engine — Label and Document Rendering API',
      version: API_VERSION,
      description:
        `The bundled engine's HTTP face (\`labeldesk serve\`). All label routes are POST + JSON under ${API_PREFIX}, ` +
        `authenticated by X-API-KEY and X-API-SECRET. amount is 1 to ${LIMITS.maxAmount}. ` +
        `print-node and print-node-pdf are aliases of print-relay and print-relay-pdf (the hosted service's ` +
        `public names). Incomplete markup: an image that cannot be loaded is left out and named in the ` +
        `${WARNINGS_HEADER} response header, unless the request says "strict": true (then 422); a barcode ` +
        `without width or height is drawn at its natural size (2 px modules at 96 dpi, 0.5 in bars) at its x/y, ` +
        `which default to 0 (the top-left corner) when missing. ` +
        `The paths under /site/ (tag "site extension", x-labeldesk-site) are LabelDesk's own, not the hosted ` +
        `service's: a site server's templates and history, present only on \`labeldesk serve --database\`. ` +
        `The paths under /v1/printers/ (tag "labelary") answer in the shape of Labelary's ZPL web service (plain ` +
        `text errors, no key needed: limited per client address), present only on \`labeldesk serve --labelary\`.`,
    },
    tags: [
      {
        name: 'site extension',
        description:
          'Templates (with revisions) and the history of a site server (`labeldesk serve --database postgres://…`), ' +
          'beside the seven routes; any key reads them, saving a template needs a key made with --templates-write.',
      },
      {
        name: 'labelary',
        description:
          "ZPL to PNG or PDF in the shape of Labelary's web service, for its clients (`labeldesk serve --labelary`): " +
          'a request may send the key headers; one without them is limited per client address (docs/deployment.md).',
      },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        ApiSecret: { type: 'apiKey', in: 'header', name: 'X-API-SECRET' },
      },
    },
  };
}
