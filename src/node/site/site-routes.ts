/**
 * Node-only: the templates and history routes of a site server (`labeldesk serve --database`, issue #24), an
 * extension beside the seven routes of the spec, described in the OpenAPI document (src/label-api/site-api.ts).
 * Registered only when the server has a site database: without one they do not exist (404).
 *
 *   GET  /site/templates                  every template the site renders, with its origin and revision
 *   GET  /site/templates/{name}[?revision=N]   the JSON as saved, its revision, who saved it and when
 *   PUT  /site/templates/{name}           save as the next revision (If-Match: "N" → 412 when saved meanwhile;
 *                                         a key made with --templates-write only → 403)
 *   GET  /site/templates/{name}/revisions
 *   GET  /site/jobs?template&printer&key&since&until&limit&before   the history, newest first, by id pages
 *   GET  /site/jobs/{id}                  one job, its request, every label with the counter values it printed
 *   POST /site/jobs/{id}/reprint          the same labels again (same counter values, same revision)
 *   GET  /site/labels?counter&value&template   which job and label printed a counter value
 *   GET  /site/audit?subject&action&limit&before  keys made, regenerated, revoked; templates saved; printers
 *   GET  /site/printers                   the site's printers: id, name, the format each takes (no address)
 *
 * Every route needs a key (the label routes' authentication). The history never holds a secret: who is the key id.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError, invalidRequest } from '../../engine/http-errors';
import type { ReprintOf } from '../../engine/operations';
import { API_ROUTES, ROUTE_NAMES, type RouteName, type RouteRequest } from '../../label-api/contract';
import {
  JOBS_PAGE,
  SITE_PREFIX,
  SiteAuditQuerySchema,
  SiteJobsQuerySchema,
  SiteLabelsQuerySchema,
  SiteReprintRequestSchema,
  SiteTemplateQuerySchema,
  type SiteJob,
  type SiteJobLabel,
} from '../../label-api/site-api';
import { TemplateNotFound, TemplateValidationError, type Problem } from '../../model/errors';
import { parseTemplate, parseTemplateText } from '../../model/parse';
import type { Counter, Template } from '../../model/schema';
import type { TemplateStore } from '../../model/store';
import { gs1CheckDigit } from '../../model/barcode/check-digits';
import { counterFields, counterSettings, formatCounter, type CounterValues } from '../../resolve/counters';
import { JSON_TYPE } from '../serve/http-plumbing';
import type { SiteDb } from './db';
import { readAudit, SaveConflict, type SaveExpectation, type SiteTemplates } from './site-stores';
import { sitePrinters } from './site-printers';
import { formatsOf } from '../serve/file-printer-gateway';

export interface SiteRoutesOptions {
  db: SiteDb;
  /** The site's template store (the one the label routes render from). */
  templates: SiteTemplates;
  /** What the site's templates are layered over: bundled, and --templates. */
  base: TemplateStore;
  authenticate: (req: FastifyRequest) => Promise<void>;
  /** Answers a label route as server.ts does (budgets, allowance, render place, usage), for the reprint. */
  answerLabelRoute<R extends RouteName>(
    name: R,
    data: RouteRequest<R>,
    req: FastifyRequest,
    reply: FastifyReply,
    reprint?: ReprintOf,
  ): Promise<FastifyReply>;
}

/** A saved template's body may carry images as data: URLs: more than the label routes' 1 MiB. */
const TEMPLATE_BODY_LIMIT = 8 * 1024 * 1024;

/** Labels one lookup answers at most (a value printed more often than this is a misconfigured counter). */
const LOOKUP_MAX = 1000;

const ROUTES = new Set<string>(ROUTE_NAMES);

interface JobRow {
  id: string;
  route: string;
  template: string;
  template_revision: number | null;
  api_key: string;
  instance: string;
  printer: string | null;
  labels: number;
  counters: Record<string, number | string>;
  counter_steps: Record<string, number | string>;
  reprint_of: string | null;
  label_numbers: number[] | null;
  error: string | null;
  created_at: Date;
  request?: Record<string, unknown> | null;
}

const JOB_COLUMNS = `id, route, template, template_revision, api_key, instance, printer, labels, counters,
  counter_steps, reprint_of, label_numbers, error, created_at`;

const numbers = (o: Record<string, number | string>): Record<string, number> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number(v)]));

function jobOf(row: JobRow): SiteJob {
  return {
    id: Number(row.id),
    route: row.route as RouteName,
    template: row.template,
    template_revision: row.template_revision,
    api_key: row.api_key,
    instance: row.instance,
    printer: row.printer,
    labels: row.labels,
    counters: numbers(row.counters),
    reprint_of: row.reprint_of === null ? null : Number(row.reprint_of),
    error: row.error,
    created_at: row.created_at.toISOString(),
  };
}

/** The counter numbers label `k` (1-based) of a job printed, and the label of the numbering it repeats. */
function labelCounters(row: JobRow, k: number): { number: number; counters: CounterValues } {
  const number = row.label_numbers?.[k - 1] ?? k;
  const steps = numbers(row.counter_steps);
  const counters = Object.fromEntries(
    Object.entries(numbers(row.counters)).map(([field, first]) => [
      field,
      first + (number - 1) * (steps[field] ?? 1),
    ]),
  );
  return { number, counters };
}

function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query ?? {}, { reportInput: true });
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

function jobId(raw: string): string {
  if (!/^[1-9]\d{0,14}$/.test(raw))
    throw new HttpError(422, `id: expected a job id (a whole number), got "${raw.slice(0, 20)}"`, 'id');
  return raw;
}

/** If-Match / If-None-Match of a save: `"N"` (or N, W/"N"), `*`. */
function expectationOf(req: FastifyRequest): SaveExpectation | undefined {
  const ifMatch = req.headers['if-match'];
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifMatch !== undefined && ifNoneMatch !== undefined)
    throw new HttpError(422, 'If-Match and If-None-Match: send one of them', 'If-Match');
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() !== '*')
      throw new HttpError(
        422,
        'If-None-Match: only * is understood (create, do not replace)',
        'If-None-Match',
      );
    return 'none';
  }
  if (ifMatch === undefined) return undefined;
  const value = ifMatch.trim();
  if (value === '*') return 'any';
  const m = /^(?:W\/)?"?([1-9]\d{0,9})"?$/.exec(value);
  if (!m)
    throw new HttpError(
      422,
      `If-Match: expected the revision as "N" (the ETag of GET), got ${JSON.stringify(value.slice(0, 30))}`,
      'If-Match',
    );
  return Number(m[1]);
}

/** A counter's number from the text it printed (or the number itself); undefined when it cannot be one. */
export function counterNumberOf(counter: Counter, value: string): number | undefined {
  const whole = (s: string) =>
    /^\d{1,40}$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : undefined;
  if (counter.gs1) {
    const head = `${counter.gs1.extension}${counter.gs1.companyPrefix}`;
    if (/^\d{18}$/.test(value)) {
      if (!value.startsWith(head) || gs1CheckDigit(value.slice(0, 17)) !== value.slice(17)) return undefined;
      return Number(value.slice(head.length, 17));
    }
    return whole(value);
  }
  const { prefix, suffix } = counter;
  if (value.length > prefix.length + suffix.length && value.startsWith(prefix) && value.endsWith(suffix)) {
    const middle = value.slice(prefix.length, value.length - suffix.length);
    const n = whole(middle);
    if (n !== undefined) return n;
  }
  return whole(value);
}

export function installSiteRoutes(app: FastifyInstance, options: SiteRoutesOptions): void {
  const { db, templates, base, authenticate } = options;
  const auth = { onRequest: authenticate };

  /** A template as it is at this request: a site one (with its revision) or the base's. */
  async function templateInfo(name: string) {
    const { rows } = await db.query<{ body: string; revision: number; saved_at: Date; saved_by: string }>(
      'SELECT body, revision, saved_at, saved_by FROM templates WHERE name = $1',
      [name],
    );
    const row = rows[0];
    if (row)
      return {
        name,
        origin: 'site' as const,
        revision: row.revision,
        saved_at: row.saved_at.toISOString(),
        saved_by: row.saved_by,
        text: row.body,
      };
    const entry = await base.get(name);
    // The file as written (the parsed template has its defaults filled in); the parsed one if it cannot be read.
    const text = entry.file ? await readFile(entry.file, 'utf8').catch(() => undefined) : undefined;
    return {
      name,
      origin: entry.origin === 'bundled' ? ('bundled' as const) : ('folder' as const),
      revision: null,
      saved_at: null,
      saved_by: null,
      text: text ?? JSON.stringify(entry.template),
      template: entry.template,
    };
  }

  /** The template a job rendered: its site revision, else the base's (bundled or folder) as it is now. */
  async function templateOfJob(row: JobRow): Promise<Template> {
    if (row.template_revision !== null) {
      const template = await templates.atRevision(row.template, row.template_revision);
      if (template) return template;
    }
    return (await base.get(row.template)).template;
  }

  const notFound = (e: unknown, field: string): never => {
    if (e instanceof TemplateNotFound) throw new HttpError(404, e.message, field);
    throw e;
  };

  // ---------------------------------------------------------------------------------------------- templates

  app.get(`${SITE_PREFIX}templates`, auth, async (req, reply) => {
    parseQuery(SiteTemplateQuerySchema.pick({}), req.query);
    const [listing, saved] = await Promise.all([base.list(), templates.currents()]);
    const byName = new Map<string, unknown>();
    for (const e of listing.templates)
      byName.set(e.template.name, {
        name: e.template.name,
        origin: e.origin === 'bundled' ? 'bundled' : 'folder',
        revision: null,
        saved_at: null,
        saved_by: null,
      });
    for (const r of saved)
      byName.set(r.name, {
        name: r.name,
        origin: 'site',
        revision: r.revision,
        saved_at: r.savedAt,
        saved_by: r.savedBy,
      });
    const names = [...byName.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return reply.type(JSON_TYPE).send({ templates: names.map((n) => byName.get(n)) });
  });

  app.get<{ Params: { name: string } }>(`${SITE_PREFIX}templates/:name`, auth, async (req, reply) => {
    const { revision } = parseQuery(SiteTemplateQuerySchema, req.query);
    const name = req.params.name;
    if (revision !== undefined) {
      const { rows } = await db.query<{ body: string; saved_at: Date; saved_by: string }>(
        'SELECT body, saved_at, saved_by FROM template_revisions WHERE name = $1 AND revision = $2',
        [name, revision],
      );
      const row = rows[0];
      if (!row) throw new HttpError(404, `${name} has no revision ${revision} on the site`, 'revision');
      return reply.type(JSON_TYPE).send({
        name,
        origin: 'site',
        revision,
        saved_at: row.saved_at.toISOString(),
        saved_by: row.saved_by,
        template: JSON.parse(row.body) as unknown,
      });
    }
    const info = await templateInfo(name).catch((e: unknown) => notFound(e, 'name'));
    if (info.revision !== null) reply.header('ETag', `"${info.revision}"`);
    return reply.type(JSON_TYPE).send({
      name,
      origin: info.origin,
      revision: info.revision,
      saved_at: info.saved_at,
      saved_by: info.saved_by,
      template: JSON.parse(info.text) as unknown,
    });
  });

  app.put<{ Params: { name: string } }>(
    `${SITE_PREFIX}templates/:name`,
    { ...auth, bodyLimit: TEMPLATE_BODY_LIMIT },
    async (req, reply) => {
      const key = req.apiKey ?? '';
      const { rows } = await db.query<{ can_edit_templates: boolean }>(
        'SELECT can_edit_templates FROM api_keys WHERE key = $1',
        [key],
      );
      if (!rows[0]?.can_edit_templates)
        throw new HttpError(
          403,
          'this API key may not save templates: make one that may with labeldesk keys create --database … --templates-write',
        );
      const expect = expectationOf(req);
      const name = req.params.name;
      const body = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new HttpError(422, 'the request body must be a template: a JSON object');
      // Every problem in one answer: the schema's, and a name that is not the path's.
      const problems: Problem[] = [];
      try {
        parseTemplate(body, name);
      } catch (e) {
        if (!(e instanceof TemplateValidationError)) throw e;
        problems.push(...e.problems);
      }
      const bodyName = (body as { name?: unknown }).name;
      if (typeof bodyName === 'string' && bodyName !== name)
        problems.unshift({
          path: 'name',
          message: `is "${bodyName.slice(0, 200)}", not the path's "${name}"`,
        });
      if (problems.length)
        return reply
          .code(422)
          .type(JSON_TYPE)
          .send({
            message: `the template has ${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing was saved: ${problems
              .slice(0, 5)
              .map((p) => (p.path ? `${p.path}: ${p.message}` : p.message))
              .join('; ')}${problems.length > 5 ? '; …' : ''}`,
            ...(problems[0]?.path ? { field: problems[0].path } : {}),
            problems,
          });
      try {
        const saved = await templates.save(JSON.stringify(body, null, 2), key, expect);
        return reply
          .code(saved.created ? 201 : 200)
          .header('ETag', `"${saved.revision}"`)
          .type(JSON_TYPE)
          .send({
            name: saved.name,
            revision: saved.revision,
            saved_at: saved.savedAt,
            saved_by: saved.savedBy,
          });
      } catch (e) {
        if (e instanceof SaveConflict)
          throw new HttpError(412, e.message, expect === 'none' ? 'If-None-Match' : 'If-Match');
        throw e;
      }
    },
  );

  app.get<{ Params: { name: string } }>(
    `${SITE_PREFIX}templates/:name/revisions`,
    auth,
    async (req, reply) => {
      const revisions = await templates.revisions(req.params.name);
      if (!revisions.length)
        throw new HttpError(404, `${req.params.name} was never saved on the site`, 'name');
      return reply.type(JSON_TYPE).send({
        revisions: revisions.map((r) => ({ revision: r.revision, saved_at: r.savedAt, saved_by: r.savedBy })),
      });
    },
  );

  // ----------------------------------------------------------------------------------------------- printers

  // The site's printers for a workstation's picker: id, name, format. Never the URI — an address a client does
  // not need (and the printers of an instance's --printers file are that instance's, not listed).
  app.get(`${SITE_PREFIX}printers`, auth, async (req, reply) => {
    parseQuery(SiteTemplateQuerySchema.pick({}), req.query);
    const printers = (await sitePrinters(db).list()).flatMap((p) => {
      const format = formatsOf(p.uri)[0];
      return format ? [{ id: p.id, name: p.name, format }] : [];
    });
    return reply.type(JSON_TYPE).send({ printers });
  });

  // ------------------------------------------------------------------------------------------------ history

  app.get(`${SITE_PREFIX}audit`, auth, async (req, reply) => {
    const q = parseQuery(SiteAuditQuerySchema, req.query);
    const limit = q.limit ?? JOBS_PAGE.default;
    const rows = await readAudit(db, {
      ...(q.subject !== undefined ? { subject: q.subject } : {}),
      ...(q.action !== undefined ? { action: q.action } : {}),
      ...(q.before !== undefined ? { before: q.before } : {}),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    return reply
      .type(JSON_TYPE)
      .send({ entries: page, next_before: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null });
  });

  app.get(`${SITE_PREFIX}jobs`, auth, async (req, reply) => {
    const q = parseQuery(SiteJobsQuerySchema, req.query);
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      values.push(value);
      where.push(sql.replace('?', `$${values.length}`));
    };
    if (q.template !== undefined) add('template = ?', q.template);
    if (q.printer !== undefined) add('printer = ?', q.printer);
    if (q.key !== undefined) add('api_key = ?', q.key);
    if (q.since !== undefined) add('created_at >= ?', new Date(q.since));
    if (q.until !== undefined) add('created_at < ?', new Date(q.until));
    if (q.before !== undefined) add('id < ?', q.before);
    const limit = q.limit ?? JOBS_PAGE.default;
    values.push(limit + 1);
    const { rows } = await db.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY id DESC LIMIT $${values.length}`,
      values,
    );
    const page = rows.slice(0, limit).map(jobOf);
    return reply
      .type(JSON_TYPE)
      .send({ jobs: page, next_before: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null });
  });

  async function jobRow(id: string): Promise<JobRow> {
    const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS}, request FROM jobs WHERE id = $1`, [id]);
    const row = rows[0];
    if (!row) throw new HttpError(404, `no job ${id} in the site's history`, 'id');
    return row;
  }

  app.get<{ Params: { id: string } }>(`${SITE_PREFIX}jobs/:id`, auth, async (req, reply) => {
    const row = await jobRow(jobId(req.params.id));
    // The printed text needs the counter's settings: those of the revision the job rendered.
    const template = await templateOfJob(row).catch(() => undefined);
    const settings = new Map(
      template ? counterFields(template).map((f) => [f.name, counterSettings(f)]) : [],
    );
    const labels: SiteJobLabel[] = [];
    for (let k = 1; k <= row.labels; k++) {
      const { number, counters } = labelCounters(row, k);
      labels.push({
        label: k,
        ...(row.reprint_of !== null ? { reprints: number } : {}),
        counters: Object.fromEntries(
          Object.entries(counters).map(([field, n]) => {
            const counter = settings.get(field);
            let printed: string | undefined;
            try {
              printed = counter ? formatCounter(counter, n) : undefined;
            } catch {
              printed = undefined;
            }
            return [field, { number: n, ...(printed !== undefined ? { printed } : {}) }];
          }),
        ),
      });
    }
    return reply.type(JSON_TYPE).send({ job: { ...jobOf(row), request: row.request ?? null }, labels });
  });

  app.get(`${SITE_PREFIX}labels`, auth, async (req, reply) => {
    const q = parseQuery(SiteLabelsQuerySchema, req.query);
    let number: number | undefined;
    if (q.template !== undefined) {
      const template = await templateInfo(q.template).catch((e: unknown) => notFound(e, 'template'));
      const parsed =
        template.origin === 'site' ? parseTemplateText(template.text, q.template) : template.template;
      const field = parsed ? counterFields(parsed).find((f) => f.name === q.counter) : undefined;
      if (!field)
        throw new HttpError(
          422,
          `counter: ${q.template} has no counter field ${JSON.stringify(q.counter)} (its counters: ${
            parsed
              ? counterFields(parsed)
                  .map((f) => f.name)
                  .join(', ') || 'none'
              : 'none'
          })`,
          'counter',
        );
      number = counterNumberOf(counterSettings(field), q.value);
      if (number === undefined)
        throw new HttpError(
          422,
          `value: ${JSON.stringify(q.value)} is not a value counter ${q.counter} of ${q.template} prints`,
          'value',
        );
    } else {
      number =
        /^\d{1,40}$/.test(q.value) && Number.isSafeInteger(Number(q.value)) ? Number(q.value) : undefined;
      if (number === undefined)
        throw new HttpError(
          422,
          `value: without template= give the counter's number (e.g. 123); a printed value like ${JSON.stringify(q.value.slice(0, 40))} is read with its template's settings`,
          'value',
        );
    }
    // Label k of a job printed first + (n - 1) * step, n being label_numbers[k] for a reprint, else k; a step of
    // 0 (an SSCC) is the same number on every label. Jobs are filtered to those whose range can hold it first.
    const { rows } = await db.query<JobRow & { label: number }>(
      `SELECT ${JOB_COLUMNS.replace(/(\w+)/g, 'j.$1')}, k AS label
       FROM jobs j
       CROSS JOIN LATERAL (SELECT (j.counters ->> $1)::bigint AS first,
                                  coalesce((j.counter_steps ->> $1)::bigint, 1) AS step) c
       CROSS JOIN LATERAL generate_series(1, j.labels) AS k
       WHERE j.counters ? $1
         AND ($3::text IS NULL OR j.template = $3)
         AND c.first <= $2
         AND CASE WHEN c.step = 0 THEN c.first = $2
                  ELSE ($2 - c.first) % c.step = 0
                       AND (j.label_numbers IS NOT NULL OR $2 <= c.first + (j.labels - 1) * c.step) END
         AND c.first + (coalesce(j.label_numbers[k], k) - 1) * c.step = $2
       ORDER BY j.id, k
       LIMIT ${LOOKUP_MAX}`,
      [q.counter, number, q.template ?? null],
    );
    return reply.type(JSON_TYPE).send({
      labels: rows.map((r) => ({ job: jobOf(r), label: r.label, number })),
    });
  });

  app.post<{ Params: { id: string } }>(`${SITE_PREFIX}jobs/:id/reprint`, auth, async (req, reply) => {
    const id = jobId(req.params.id);
    const asked = parseQuery(SiteReprintRequestSchema, req.body ?? {});
    const row = await jobRow(id);
    if (!row.request || !ROUTES.has(row.route))
      throw new HttpError(
        422,
        `job ${id} was recorded before requests were kept: it cannot be reprinted`,
        'id',
      );
    const route = row.route as RouteName;
    const numbersAsked = asked.labels ?? Array.from({ length: row.labels }, (_, i) => i + 1);
    const beyond = numbersAsked.findIndex((n) => n > row.labels);
    if (beyond >= 0)
      throw new HttpError(
        422,
        `labels[${beyond}]: job ${id} has ${row.labels} label${row.labels === 1 ? '' : 's'}, not ${numbersAsked[beyond]}`,
        `labels[${beyond}]`,
      );
    const printing = route === 'print-relay' || route === 'print-relay-pdf';
    if (asked.printer_id !== undefined && !printing)
      throw new HttpError(
        422,
        `printer_id: job ${id} was a ${route} request, which prints to no printer`,
        'printer_id',
      );
    const parsed = API_ROUTES[route].request.safeParse({
      ...row.request,
      amount: numbersAsked.length,
      ...(asked.printer_id !== undefined ? { printer_id: asked.printer_id } : {}),
    });
    if (!parsed.success)
      throw new HttpError(
        422,
        `job ${id}'s request cannot be made again: ${parsed.error.issues[0]?.message}`,
        'id',
      );
    const template = await templateOfJob(row).catch((e: unknown) => notFound(e, 'id'));
    return options.answerLabelRoute(route, parsed.data as RouteRequest<typeof route>, req, reply, {
      job: id,
      template,
      firsts: numbers(row.counters),
      steps: numbers(row.counter_steps),
      labels: numbersAsked.map((k) => labelCounters(row, k)),
    });
  });
}
