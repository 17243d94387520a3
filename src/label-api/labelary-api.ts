/**
 * The Labelary-shaped route of `labeldesk serve --labelary` (issue #33 item 5): the shape of Labelary's ZPL web
 * service (labelary.com/service.html), so its clients render on a LabelDesk server with only their base URL
 * changed. Its paths in the OpenAPI document; the server's side is src/node/serve/labelary-route.ts.
 */

export const LABELARY_PREFIX = '/v1/printers/';

/** Labelary's densities, dots per millimetre → the printer's dpi. */
export const LABELARY_DPMM: Readonly<Record<string, number>> = { '6': 152, '8': 203, '12': 300, '24': 600 };

/** The route's paths for the OpenAPI document (tag "labelary", `x-labeldesk-option: --labelary`). */
export function labelaryOpenApiPaths(): Record<string, unknown> {
  const text = (description: string, headers?: Record<string, unknown>) => ({
    description,
    ...(headers ? { headers } : {}),
    content: {
      'text/plain': {
        schema: { type: 'string', description: '"ERROR: " and a sentence naming the problem' },
      },
    },
  });
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } };
  const parameters = (withIndex: boolean) => [
    {
      name: 'dpmm',
      in: 'path',
      required: true,
      description: 'Print density: 6dpmm, 8dpmm, 12dpmm or 24dpmm (152, 203, 300, 600 dpi)',
      schema: { type: 'string', enum: Object.keys(LABELARY_DPMM).map((d) => `${d}dpmm`) },
    },
    {
      name: 'size',
      in: 'path',
      required: true,
      description:
        'Label width x height in inches, decimals allowed (4x6, 2.25x1.25); each side at most --labelary-inches. ' +
        'Every label is drawn at this size; ^PW/^LL inside it are honoured as a printer does',
      schema: { type: 'string', pattern: '^[0-9.]+x[0-9.]+$' },
    },
    ...(withIndex
      ? [
          {
            name: 'index',
            in: 'path',
            required: true,
            description: 'The label (from 0) among the ^XA…^XZ formats of the ZPL',
            schema: { type: 'integer', minimum: 0 },
          },
        ]
      : []),
    {
      name: 'Accept',
      in: 'header',
      required: false,
      description: 'image/png (the default: one label) or application/pdf',
      schema: { type: 'string', enum: ['image/png', 'application/pdf'] },
    },
  ];
  const totalCount = { 'X-Total-Count': { description: 'Labels in the ZPL', schema: { type: 'integer' } } };
  const responses = (withIndex: boolean) => ({
    200: {
      description: withIndex ? 'The label at the index (PNG, or a one-page PDF)' : 'Every label, a page each',
      headers: totalCount,
      content: {
        ...(withIndex ? { 'image/png': { schema: { type: 'string', format: 'binary' } } } : {}),
        'application/pdf': { schema: { type: 'string', format: 'binary' } },
      },
    },
    400: text(
      'The density, size or index is not valid, the size is over --labelary-inches, the ZPL holds no label or ' +
        'none at the index, or a PNG was asked for without an index',
    ),
    401: text('X-API-KEY was sent and the key or its secret is wrong'),
    406: text('Accept names neither image/png nor application/pdf'),
    413: text('The body is over --labelary-kb, or the ZPL holds more labels than --labelary-labels'),
    429: text(
      'More requests per second from this address than --labelary-rate (or the key is past its rate)',
      retryAfter,
    ),
    500: text('The render failed on the server side; retry once'),
  });
  const body = {
    required: true,
    description:
      'The ZPL: the raw body (application/x-www-form-urlencoded as curl --data sends it, text/plain, any type), ' +
      'or the form field "file" of multipart/form-data',
    content: {
      'application/x-www-form-urlencoded': { schema: { type: 'string' } },
      'text/plain': { schema: { type: 'string' } },
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary' } },
          required: ['file'],
        },
      },
    },
  };
  const common = {
    tags: ['labelary'],
    'x-labeldesk-option': '--labelary',
    security: [{}, { ApiKey: [], ApiSecret: [] }],
  };
  const base = `${LABELARY_PREFIX}{dpmm}/labels/{size}`;
  return {
    [`${base}/{index}/`]: {
      post: {
        ...common,
        operationId: 'labelaryLabel',
        summary: "One label of the ZPL as PNG or PDF, in Labelary's shape",
        parameters: parameters(true),
        requestBody: body,
        responses: responses(true),
      },
    },
    [`${base}/`]: {
      post: {
        ...common,
        operationId: 'labelaryLabels',
        summary: "Every label of the ZPL as one PDF, in Labelary's shape",
        parameters: parameters(false),
        requestBody: body,
        responses: responses(false),
      },
    },
    [`${base}/{index}/{zpl}`]: {
      get: {
        ...common,
        operationId: 'labelaryLabelGet',
        summary: 'As POST …/{index}/, the ZPL URL-encoded in the path',
        parameters: [
          ...parameters(true),
          {
            name: 'zpl',
            in: 'path',
            required: true,
            description: 'The ZPL, URL-encoded',
            schema: { type: 'string' },
          },
        ],
        responses: responses(true),
      },
    },
  };
}
