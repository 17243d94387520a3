/**
 * The site extension of the API (issue #24): the templates and history routes of `labeldesk serve --database`,
 * beside the seven routes of the spec. Not part of the hosted service's contract; they exist only on a site
 * server. Query parameters, request and response bodies as zod schemas (the server parses with them, the OpenAPI
 * document is generated from them, a client can check answers with them).
 *
 * Messages name the parameter or field: `limit: expected a whole number from 1 to 500, got "0"`.
 */
import { z } from 'zod';
import { LIMITS } from '../resolve/resolve';
import { ROUTE_NAMES, type RouteName } from './contract';

export const SITE_PREFIX = '/site/';

/** The response header of a label route on a site server: the id of the job the history recorded it as. */
export const JOB_HEADER = 'X-LabelDesk-Job';

/** Jobs per page of GET /site/jobs: the default and the most. */
export const JOBS_PAGE = { default: 50, max: 500 } as const;

const queryText = (what: string, max = 200) =>
  z
    .string({ error: (iss) => (Array.isArray(iss.input) ? 'is given more than once' : `expected ${what}`) })
    .min(1, {
      error: `must not be empty (leave it out to ${what === 'a template name' ? 'list every template' : 'not filter'})`,
    })
    .max(max, { error: `is longer than ${max} characters` });

function queryWhole(what: string, range: { min: number; max: number }) {
  const problem = (input: unknown) =>
    Array.isArray(input)
      ? 'is given more than once'
      : `expected ${what} from ${range.min} to ${range.max}, got ${JSON.stringify(String(input)).slice(0, 40)}`;
  return z
    .string({ error: (iss) => problem(iss.input) })
    .refine((s) => /^\d{1,16}$/.test(s) && Number(s) >= range.min && Number(s) <= range.max, {
      error: (iss) => problem(iss.input),
    })
    .transform(Number);
}

const queryTime = z
  .string({ error: (iss) => (Array.isArray(iss.input) ? 'is given more than once' : 'expected a date-time') })
  .refine((s) => z.iso.datetime({ offset: true }).safeParse(s).success, {
    error: 'expected an ISO 8601 date-time with an offset, e.g. 2026-09-29T12:00:00Z',
  });

const strictQuery = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown query parameter${iss.keys.length > 1 ? 's' : ''} ${iss.keys.join(', ')} (known: ${Object.keys(shape).join(', ')})`
        : 'expected query parameters',
  });

/** GET /site/templates/{name}?revision=N */
export const SiteTemplateQuerySchema = strictQuery({
  revision: queryWhole('a revision number', { min: 1, max: 2 ** 31 - 1 })
    .optional()
    .describe('An earlier revision (GET …/revisions lists them); default the current one.'),
});

/** GET /site/jobs */
export const SiteJobsQuerySchema = strictQuery({
  template: queryText('a template name').optional().describe('Only jobs of this template (exact name).'),
  printer: queryText('a printer id').optional().describe('Only jobs sent to this printer_id.'),
  key: queryText('an API key id').optional().describe('Only jobs of this API key (its id, never a secret).'),
  since: queryTime.optional().describe('Only jobs recorded at or after this time.'),
  until: queryTime.optional().describe('Only jobs recorded before this time.'),
  limit: queryWhole('a whole number', { min: 1, max: JOBS_PAGE.max })
    .optional()
    .describe(`Jobs per page, newest first; default ${JOBS_PAGE.default}.`),
  before: queryWhole('a job id', { min: 1, max: Number.MAX_SAFE_INTEGER })
    .optional()
    .describe("Only jobs with a smaller id: the previous page's next_before."),
});

/** GET /site/labels */
export const SiteLabelsQuerySchema = strictQuery({
  counter: queryText('a counter field name').describe('The counter field (its name in the template).'),
  value: queryText('a counter value', 100).describe(
    'The value as printed (e.g. SN-000123, or the 18 digits of an SSCC) or its number (123); the printed ' +
      "form is read with the template's counter settings, so name the template to use it.",
  ),
  template: queryText('a template name')
    .optional()
    .describe('Only labels of this template; needed to read a printed value rather than a number.'),
});

/** POST /site/jobs/{id}/reprint */
export const SiteReprintRequestSchema = z.strictObject(
  {
    labels: z
      .array(
        z
          .number({ error: 'expected label numbers (1 is the first label of the job)' })
          .int({ error: 'expected whole label numbers' })
          .min(1, { error: 'label numbers start at 1' }),
        { error: 'expected an array of label numbers' },
      )
      .min(1, { error: 'name at least one label, or leave labels out to reprint them all' })
      .max(LIMITS.maxAmount, { error: `at most ${LIMITS.maxAmount} labels in one reprint` })
      .optional()
      .describe('The labels to print again (1-based, in the job); default every label of the job.'),
    printer_id: z
      .number({ error: 'expected a whole-number printer id' })
      .int({ error: 'expected a whole-number printer id' })
      .optional()
      .describe('Another printer for a print-relay job (e.g. the first one jammed); default the same one.'),
  },
  { error: 'the request body must be a JSON object (it may be empty: {})' },
);

const dateTime = z.iso.datetime({ offset: true });
const keyId = z.string().describe('An API key id (never its secret).');

export const SiteTemplateInfoSchema = z.object({
  name: z.string(),
  origin: z
    .enum(['site', 'bundled', 'folder'])
    .describe('Saved on the site, bundled with LabelDesk, or a file of --templates.'),
  revision: z
    .number()
    .int()
    .nullable()
    .describe('The current site revision; null for bundled and folder templates.'),
  saved_at: dateTime.nullable(),
  saved_by: keyId.nullable(),
});

export const SiteTemplateListSchema = z.object({ templates: z.array(SiteTemplateInfoSchema) });

export const SiteTemplateSchema = z.object({
  name: z.string(),
  origin: z.enum(['site', 'bundled', 'folder']),
  revision: z.number().int().nullable(),
  saved_at: dateTime.nullable(),
  saved_by: keyId.nullable(),
  template: z
    .record(z.string(), z.unknown())
    .describe('The template JSON as saved (assets/schema/template.schema.json).'),
});

export const SiteRevisionSchema = z.object({
  revision: z.number().int(),
  saved_at: dateTime,
  saved_by: keyId,
});

export const SiteTemplateSavedSchema = z.object({
  name: z.string(),
  revision: z.number().int(),
  saved_at: dateTime,
  saved_by: keyId,
});

export const SiteRevisionListSchema = z.object({ revisions: z.array(SiteRevisionSchema) });

export const SiteTemplateProblemsSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  problems: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .describe(
      'Every problem of the template: its path in the template (e.g. elements[2].x) and what is wrong.',
    ),
});

const routeName = z.enum(ROUTE_NAMES as [RouteName, ...RouteName[]]);

export const SiteJobSchema = z.object({
  id: z.number().int(),
  route: routeName.describe('The label route that was asked (fetch-markups … render-pdf).'),
  template: z.string(),
  template_revision: z
    .number()
    .int()
    .nullable()
    .describe('The site revision rendered; null: bundled or folder.'),
  api_key: keyId.describe('Who: the API key id.'),
  instance: z.string().describe('Where: the serve instance (--instance) that answered.'),
  printer: z.string().nullable().describe('Where: the printer_id of a print-relay job.'),
  labels: z.number().int(),
  counters: z
    .record(z.string(), z.number().int())
    .describe('Counter field → the number of its first label (GET /site/jobs/{id} has every label’s).'),
  reprint_of: z.number().int().nullable(),
  error: z
    .string()
    .nullable()
    .describe(
      'Why the request failed after it was recorded (its error kind); null if it did not. A failed render made ' +
        'no label; a failed print-relay job may have printed some (the print queue says which were confirmed).',
    ),
  created_at: dateTime.describe('When.'),
});

export const SiteJobListSchema = z.object({
  jobs: z.array(SiteJobSchema).describe('Newest first.'),
  next_before: z
    .number()
    .int()
    .nullable()
    .describe('Pass as before= for the next page; null on the last one.'),
});

const counterPrinted = z.object({
  number: z.number().int(),
  printed: z
    .string()
    .optional()
    .describe('The text printed (prefix, padded number, suffix; an SSCC’s 18 digits).'),
});

export const SiteJobLabelSchema = z.object({
  label: z.number().int().describe('1-based, in print order.'),
  reprints: z
    .number()
    .int()
    .optional()
    .describe('A reprint’s label: the label it repeats, numbered in the first job of the chain.'),
  counters: z.record(z.string(), counterPrinted),
});

export const SiteJobDetailSchema = z.object({
  job: SiteJobSchema.extend({
    request: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        'The request as it was parsed (label_name, amount, apiData, …); null for a job recorded before.',
      ),
  }),
  labels: z.array(SiteJobLabelSchema),
});

export const SiteLabelHitSchema = z.object({
  job: SiteJobSchema,
  label: z.number().int().describe('The label of the job that printed the value (1-based).'),
  number: z.number().int(),
});

export const SiteLabelLookupSchema = z.object({
  labels: z
    .array(SiteLabelHitSchema)
    .describe('Every label that printed the value, oldest first (reprints too).'),
});

/** GET /site/audit */
export const SITE_AUDIT_ACTIONS = [
  'key-created',
  'key-regenerated',
  'key-revoked',
  'template-saved',
  'printer-saved',
  'printer-removed',
] as const;

export const SiteAuditQuerySchema = strictQuery({
  subject: queryText('a key id, a template name or a printer id')
    .optional()
    .describe('Only entries about this key id, template name or printer id.'),
  action: z
    .enum(SITE_AUDIT_ACTIONS, {
      error: (iss) =>
        Array.isArray(iss.input)
          ? 'is given more than once'
          : `expected one of ${SITE_AUDIT_ACTIONS.join(', ')}`,
    })
    .optional()
    .describe('Only entries of this action.'),
  limit: queryWhole('a whole number', { min: 1, max: JOBS_PAGE.max })
    .optional()
    .describe(`Entries per page, newest first; default ${JOBS_PAGE.default}.`),
  before: queryWhole('an entry id', { min: 1, max: Number.MAX_SAFE_INTEGER })
    .optional()
    .describe("Only entries with a smaller id: the previous page's next_before."),
});

export const SiteAuditListSchema = z.object({
  entries: z
    .array(
      z.object({
        id: z.number().int(),
        at: dateTime,
        actor: z.string().describe('An API key id, or cli:<OS user>@<host> for the labeldesk command.'),
        action: z.enum(SITE_AUDIT_ACTIONS),
        subject: z.string().describe('The key id, the template name, or the printer id.'),
        detail: z
          .record(z.string(), z.unknown())
          .describe(
            "A revision, an allowance, a printer's name and profile; never a secret or a printer's address.",
          ),
      }),
    )
    .describe('Newest first.'),
  next_before: z
    .number()
    .int()
    .nullable()
    .describe('Pass as before= for the next page; null on the last one.'),
});

/** GET /site/printers */
export const SitePrinterListSchema = z.object({
  printers: z
    .array(
      z.object({
        id: z.number().int().describe('The printer_id of print-relay and print-relay-pdf.'),
        name: z.string(),
        format: z
          .enum(['zpl', 'pdf'])
          .describe('What it prints: zpl through print-relay (03), pdf through print-relay-pdf (04).'),
      }),
    )
    .describe(
      "The site's printers (labeldesk site-printers add), by id. Their addresses are not given: a client " +
        'needs only the id.',
    ),
});

export type SiteJob = z.infer<typeof SiteJobSchema>;
export type SiteJobLabel = z.infer<typeof SiteJobLabelSchema>;

// ----------------------------------------------------------------------------------------------- OpenAPI

/** The site extension's schemas, as components of the OpenAPI document. */
export const SITE_COMPONENTS: [string, z.ZodType, 'input' | 'output'][] = [
  ['SiteTemplateList', SiteTemplateListSchema, 'output'],
  ['SiteTemplate', SiteTemplateSchema, 'output'],
  ['SiteTemplateSaved', SiteTemplateSavedSchema, 'output'],
  ['SiteTemplateProblems', SiteTemplateProblemsSchema, 'output'],
  ['SiteRevisionList', SiteRevisionListSchema, 'output'],
  ['SiteJobList', SiteJobListSchema, 'output'],
  ['SiteJobDetail', SiteJobDetailSchema, 'output'],
  ['SiteLabelLookup', SiteLabelLookupSchema, 'output'],
  ['SiteReprintRequest', SiteReprintRequestSchema, 'input'],
  ['SiteAuditList', SiteAuditListSchema, 'output'],
  ['SitePrinterList', SitePrinterListSchema, 'output'],
];

function queryParameters(schema: z.ZodObject): Record<string, unknown>[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const f = field as z.ZodType;
    const {
      $schema: _drop,
      description,
      ...json
    } = z.toJSONSchema(f, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return {
      name,
      in: 'query',
      required: !f.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: json,
    };
  });
}

type Ref = (name: string) => { $ref: string };

/** The site extension's paths, for openapi.ts; `error(description)` is the document's error response. */
export function siteOpenApiPaths(ref: Ref, error: (description: string) => unknown): Record<string, unknown> {
  const json = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });
  const security = [{ ApiKey: [], ApiSecret: [] }];
  const common = {
    401: error('X-API-KEY or X-API-SECRET missing, wrong, or superseded by a regenerated secret'),
    429: error('More requests per minute than the key may make'),
  };
  const site = { tags: ['site extension'], 'x-labeldesk-site': true, security };
  const nameParam = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
  const etag = {
    ETag: {
      description: 'The revision as an entity tag, "N" (send it back as If-Match)',
      schema: { type: 'string' },
    },
  };
  return {
    [`${SITE_PREFIX}templates`]: {
      get: {
        ...site,
        operationId: 'siteListTemplates',
        summary:
          'The templates this site renders: saved on the site (which win), bundled, and of --templates',
        responses: { 200: { description: 'Success', ...json('SiteTemplateList') }, ...common },
      },
    },
    [`${SITE_PREFIX}templates/{name}`]: {
      get: {
        ...site,
        operationId: 'siteGetTemplate',
        summary: 'One template as saved, with its revision (or an earlier revision)',
        parameters: [nameParam, ...queryParameters(SiteTemplateQuerySchema)],
        responses: {
          200: { description: 'Success', headers: etag, ...json('SiteTemplate') },
          ...common,
          404: error('No template with that name (or no such revision)'),
          422: error('A query parameter is invalid (field names it)'),
        },
      },
      put: {
        ...site,
        operationId: 'siteSaveTemplate',
        summary:
          'Save a template on the site as its next revision (the one replaced is kept); every instance renders ' +
          'it from the very next request. Needs a key made with --templates-write.',
        parameters: [
          nameParam,
          {
            name: 'If-Match',
            in: 'header',
            required: false,
            description:
              'The revision the change started from, "N" (the ETag of GET): refused with 412 when someone saved ' +
              'since. "*": the template must exist.',
            schema: { type: 'string' },
          },
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: '"*": only create it; 412 when it exists.',
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: true,
          description: 'The template JSON (assets/schema/template.schema.json); its name must be the path’s.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        responses: {
          200: { description: 'Saved as a new revision', headers: etag, ...json('SiteTemplateSaved') },
          201: { description: 'Created (revision 1)', headers: etag, ...json('SiteTemplateSaved') },
          ...common,
          403: error(
            'This API key may not save templates (labeldesk keys create --database … --templates-write)',
          ),
          412: error(
            'The template is not at the If-Match revision (someone saved it meanwhile), or exists under If-None-Match: *',
          ),
          422: {
            description:
              'The template is invalid (every problem with its path), or its name is not the path’s; nothing is saved',
            ...json('SiteTemplateProblems'),
          },
        },
      },
    },
    [`${SITE_PREFIX}templates/{name}/revisions`]: {
      get: {
        ...site,
        operationId: 'siteTemplateRevisions',
        summary: 'Every saved revision of a site template, newest first',
        parameters: [nameParam],
        responses: {
          200: { description: 'Success', ...json('SiteRevisionList') },
          ...common,
          404: error('No template of that name was saved on the site'),
        },
      },
    },
    [`${SITE_PREFIX}jobs`]: {
      get: {
        ...site,
        operationId: 'siteListJobs',
        summary:
          'The history: every label request the site accepted, with who (key), where (instance, printer), when, ' +
          'and the first counter numbers; newest first, a page at a time',
        parameters: queryParameters(SiteJobsQuerySchema),
        responses: {
          200: { description: 'Success', ...json('SiteJobList') },
          ...common,
          422: error('A query parameter is invalid or unknown (field names it)'),
        },
      },
    },
    [`${SITE_PREFIX}audit`]: {
      get: {
        ...site,
        operationId: 'siteAudit',
        summary:
          'The audit log: keys made, given a new secret or revoked, templates saved, printers added, changed or ' +
          'removed — who, what, when; newest ' +
          'first, a page at a time (append-only)',
        parameters: queryParameters(SiteAuditQuerySchema),
        responses: {
          200: { description: 'Success', ...json('SiteAuditList') },
          ...common,
          422: error('A query parameter is invalid or unknown (field names it)'),
        },
      },
    },
    [`${SITE_PREFIX}printers`]: {
      get: {
        ...site,
        operationId: 'siteListPrinters',
        summary:
          "The site's printers a print-relay request may name: id, name and the format each takes (set with " +
          'labeldesk site-printers; never their addresses)',
        responses: { 200: { description: 'Success', ...json('SitePrinterList') }, ...common },
      },
    },
    [`${SITE_PREFIX}jobs/{id}`]: {
      get: {
        ...site,
        operationId: 'siteGetJob',
        summary: 'One job, its request, and every label with the counter values it printed',
        parameters: [idParam],
        responses: {
          200: { description: 'Success', ...json('SiteJobDetail') },
          ...common,
          404: error('No job with that id'),
          422: error('The id is not a job id'),
        },
      },
    },
    [`${SITE_PREFIX}jobs/{id}/reprint`]: {
      post: {
        ...site,
        operationId: 'siteReprintJob',
        summary:
          'Render a job (or some of its labels) again with the same counter values and the template revision it ' +
          'printed, answered as its route answers (the new job’s id in X-LabelDesk-Job); counts toward the allowance',
        parameters: [idParam],
        requestBody: { required: false, ...json('SiteReprintRequest') },
        responses: {
          200: {
            description: "The route's own answer (see the job's route)",
            headers: { [JOB_HEADER]: { description: 'The id of the new job', schema: { type: 'string' } } },
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    'MarkupList',
                    'PrintRelayResult',
                    'PrintRelayPdfResult',
                    'SvgExportResult',
                    'ZplResult',
                    'PdfResult',
                  ].map(ref),
                },
              },
            },
          },
          ...common,
          404: error('No job with that id'),
          422: error(
            'A label number the job does not have, a printer_id for a job that printed to none, or what the route itself refuses',
          ),
          500: error('The render or the printer failed; retry once'),
        },
      },
    },
    [`${SITE_PREFIX}labels`]: {
      get: {
        ...site,
        operationId: 'siteFindLabels',
        summary: 'Which job and label printed a counter value (who printed serial 000123, where, when)',
        parameters: queryParameters(SiteLabelsQuerySchema),
        responses: {
          200: { description: 'Success', ...json('SiteLabelLookup') },
          ...common,
          404: error('No template of that name'),
          422: error('A query parameter is invalid, or the value is not one the counter prints'),
        },
      },
    },
  };
}
