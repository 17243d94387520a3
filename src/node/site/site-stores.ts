/**
 * Node-only: what `labeldesk serve --database` keeps in the site database instead of its data folder and its
 * memory (issue #24), each behind the port the embedded server uses for the same thing, so the HTTP face does not
 * know which it talks to. Every answer depends on the database as it is at that request, never on what this
 * instance remembers: a key regenerated on one instance is refused by all on their next request, the rate limit
 * is one window per key, usage is one tally, an SVG exported through one instance is served by any.
 */
import type { SITE_AUDIT_ACTIONS } from '../../label-api/site-api';
import { randomBytes } from 'node:crypto';
import type { Template } from '../../model/schema';
import { TemplateValidationError } from '../../model/errors';
import { parseTemplateText } from '../../model/parse';
import {
  findTemplate,
  type TemplateEntry,
  type TemplateListing,
  type TemplateStore,
} from '../../model/store';
import { HttpError } from '../../engine/http-errors';
import type { CounterReservations } from '../../engine/operations';
import { ResolveError } from '../../resolve/resolve';
import {
  counterFields,
  counterKey,
  counterNumbersNeeded,
  counterPerRow,
  counterRangeProblem,
  counterSettings,
} from '../../resolve/counters';
import {
  KeyRecordSchema,
  UnknownKey,
  newKeyId,
  newSecret,
  type KeyRecord,
  type KeyRecords,
} from '../serve/key-store';
import type { RateDecision } from '../serve/rate-limit';
import type { SvgFiles } from '../serve/svg-files';
import type { Reservation, UsageLedger } from '../serve/usage-store';
import type { SiteDb } from './db';

// --------------------------------------------------------------------------------------------------- audit

/** What the site's audit log records (assets/sql/004-audit.sql; the list is the API's, site-api.ts). */
export type SiteAuditAction = (typeof SITE_AUDIT_ACTIONS)[number];

export interface SiteAuditEntry {
  id: number;
  at: string;
  /** An API key id, or `cli:<OS user>@<host>`. */
  actor: string;
  action: SiteAuditAction;
  /** The key id or the template name. */
  subject: string;
  detail: Record<string, unknown>;
}

type Queryable = Pick<SiteDb, 'query'> | { query: SiteDb['query'] };

/** Appends one entry (in the caller's transaction when `on` is its client). */
export async function appendAudit(
  on: Queryable,
  entry: { actor: string; action: SiteAuditAction; subject: string; detail?: Record<string, unknown> },
): Promise<void> {
  await on.query('INSERT INTO audit_log (actor, action, subject, detail) VALUES ($1, $2, $3, $4)', [
    entry.actor,
    entry.action,
    entry.subject,
    JSON.stringify(entry.detail ?? {}),
  ]);
}

/** The audit log, newest first, by id pages (`before`: entries with a smaller id). */
export async function readAudit(
  db: SiteDb,
  filter: { subject?: string; action?: SiteAuditAction; before?: number; limit: number },
): Promise<SiteAuditEntry[]> {
  const { rows } = await db.query<{
    id: string;
    at: Date;
    actor: string;
    action: SiteAuditAction;
    subject: string;
    detail: Record<string, unknown>;
  }>(
    `SELECT id, at, actor, action, subject, detail FROM audit_log
     WHERE ($1::text IS NULL OR subject = $1) AND ($2::text IS NULL OR action = $2)
       AND ($3::bigint IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [filter.subject ?? null, filter.action ?? null, filter.before ?? null, filter.limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    subject: r.subject,
    detail: r.detail,
  }));
}

// ---------------------------------------------------------------------------------------------------- keys

interface KeyRow {
  key: string;
  salt: string;
  hash: string;
  scrypt: KeyRecord['scrypt'];
  created_at: Date;
  secret_created_at: Date;
  allowance: string | null;
  used_copies: string;
  /** Since migration 003. */
  can_edit_templates?: boolean;
}

const toRecord = (row: KeyRow): KeyRecord =>
  KeyRecordSchema.parse({
    key: row.key,
    salt: row.salt,
    hash: row.hash,
    scrypt: row.scrypt,
    created_at: row.created_at.toISOString(),
    secret_created_at: row.secret_created_at.toISOString(),
    ...(row.allowance !== null ? { allowance: Number(row.allowance) } : {}),
  });

/** A key as `labeldesk keys list --database` shows it: never the secret or its hash. */
export interface SiteKeyInfo {
  key: string;
  created_at: string;
  secret_created_at: string;
  allowance?: number;
  /** Copies rendered (with those held by requests still rendering). */
  used: number;
  /** May save templates (PUT /site/templates/{name}). */
  templatesWrite: boolean;
}

export interface SiteKeys {
  records: KeyRecords;
  /** `templatesWrite`: the key may save templates (PUT /site/templates/{name}). */
  create(opts?: { allowance?: number; templatesWrite?: boolean }): Promise<{ key: string; secret: string }>;
  /** A new secret; the previous one is refused by every instance from its next request on. */
  regenerate(key: string): Promise<{ key: string; secret: string }>;
  revoke(key: string): Promise<void>;
  list(): Promise<SiteKeyInfo[]>;
}

/**
 * The site's keys. `actor` is who changes them, for the audit log (`cli:<OS user>@<host>` for `labeldesk keys`);
 * each change and its audit entry are one transaction.
 */
export function siteKeys(db: SiteDb, actor = 'unknown'): SiteKeys {
  return {
    async records(key) {
      const { rows } = await db.query<KeyRow>('SELECT * FROM api_keys WHERE key = $1', [key]);
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    async create(opts = {}) {
      const key = newKeyId();
      const made = await newSecret();
      await db.tx(async (client) => {
        await client.query(
          `INSERT INTO api_keys (key, salt, hash, scrypt, created_at, secret_created_at, allowance, can_edit_templates)
           VALUES ($1, $2, $3, $4, now(), now(), $5, $6)`,
          [
            key,
            made.salt,
            made.hash,
            JSON.stringify(made.scrypt),
            opts.allowance ?? null,
            opts.templatesWrite === true,
          ],
        );
        await appendAudit(client, {
          actor,
          action: 'key-created',
          subject: key,
          detail: { allowance: opts.allowance ?? null, templatesWrite: opts.templatesWrite === true },
        });
      });
      return { key, secret: made.secret };
    },
    async regenerate(key) {
      const made = await newSecret();
      await db.tx(async (client) => {
        const { rowCount } = await client.query(
          'UPDATE api_keys SET salt = $2, hash = $3, scrypt = $4, secret_created_at = now() WHERE key = $1',
          [key, made.salt, made.hash, JSON.stringify(made.scrypt)],
        );
        if (!rowCount) throw new UnknownKey(key);
        await appendAudit(client, { actor, action: 'key-regenerated', subject: key });
      });
      return { key, secret: made.secret };
    },
    async revoke(key) {
      await db.tx(async (client) => {
        const { rowCount } = await client.query('DELETE FROM api_keys WHERE key = $1', [key]);
        if (!rowCount) throw new UnknownKey(key);
        await appendAudit(client, { actor, action: 'key-revoked', subject: key });
      });
    },
    async list() {
      const { rows } = await db.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, key');
      return rows.map((r) => ({
        key: r.key,
        created_at: r.created_at.toISOString(),
        secret_created_at: r.secret_created_at.toISOString(),
        ...(r.allowance !== null ? { allowance: Number(r.allowance) } : {}),
        used: Number(r.used_copies),
        templatesWrite: r.can_edit_templates === true,
      }));
    },
  };
}

// ---------------------------------------------------------------------------------------------- rate limit

/**
 * Requests per key per minute across every instance (spec §8): one sliding window per key in the database
 * (`ld_rate_take`, assets/sql/001-site.sql), taken under a row lock. The times are this instance's clock; the
 * instances of a site keep theirs in step (NTP), as any load-balanced service must.
 */
export function siteRateLimiter(
  db: SiteDb,
  opts: { limit: number; windowMs?: number; now: () => number },
): { take(key: string): Promise<RateDecision> } {
  const windowMs = opts.windowMs ?? 60_000;
  return {
    async take(key) {
      const { rows } = await db.query<{ wait: string }>('SELECT ld_rate_take($1, $2, $3, $4) AS wait', [
        key,
        opts.limit,
        windowMs,
        Math.floor(opts.now()),
      ]);
      const waitMs = Number(rows[0]?.wait ?? 0);
      return waitMs <= 0
        ? { allowed: true, retryAfterSeconds: 0 }
        : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

// ------------------------------------------------------------------------------------------------- usage

/**
 * The usage ledger in the database. A key with an allowance is charged when its request reserves (an atomic
 * conditional update, so concurrent requests on any instances cannot overdraw it) and refunded if the render
 * fails; an instance that dies in between leaves the copies charged, never overdrawn. The per-route tally counts
 * only requests that succeeded.
 */
export function siteUsageLedger(db: SiteDb, onError: (e: unknown) => void): UsageLedger {
  return {
    async reserve(key, copies, allowance): Promise<Reservation> {
      if (allowance !== undefined) {
        const { rowCount } = await db.query(
          `UPDATE api_keys SET used_copies = used_copies + $2
           WHERE key = $1 AND allowance IS NOT NULL AND used_copies + $2 <= allowance`,
          [key, copies],
        );
        if (!rowCount) {
          const { rows } = await db.query<{ used_copies: string; allowance: string | null }>(
            'SELECT used_copies, allowance FROM api_keys WHERE key = $1',
            [key],
          );
          const limit = Number(rows[0]?.allowance ?? allowance);
          const left = Math.max(0, limit - Number(rows[0]?.used_copies ?? 0));
          throw new HttpError(
            422,
            `amount: ${copies} ${copies === 1 ? 'copy exceeds' : 'copies exceed'} the print allowance of this API key (${left} of ${limit} left)`,
            'amount',
          );
        }
      }
      let done = false;
      return {
        async commit(route) {
          if (done) return;
          done = true;
          await db.query(
            `WITH k AS (UPDATE api_keys SET used_copies = used_copies + $3 WHERE key = $1 AND $4)
             INSERT INTO usage (key, route, requests, copies) VALUES ($1, $2, 1, $3)
             ON CONFLICT (key, route) DO UPDATE
               SET requests = usage.requests + 1, copies = usage.copies + excluded.copies`,
            [key, route, copies, allowance === undefined],
          );
        },
        async release() {
          if (done) return;
          done = true;
          if (allowance === undefined) return;
          await db
            .query('UPDATE api_keys SET used_copies = greatest(0, used_copies - $2) WHERE key = $1', [
              key,
              copies,
            ])
            .catch(onError);
        },
      };
    },
    flush: async () => undefined,
  };
}

/** A key's tally as `labeldesk keys usage` reads it: route → requests and copies. */
export async function siteUsageOf(
  db: SiteDb,
  key: string,
): Promise<Record<string, { requests: number; copies: number }>> {
  const { rows } = await db.query<{ route: string; requests: string; copies: string }>(
    'SELECT route, requests, copies FROM usage WHERE key = $1 ORDER BY route',
    [key],
  );
  return Object.fromEntries(
    rows.map((r) => [r.route, { requests: Number(r.requests), copies: Number(r.copies) }]),
  );
}

// --------------------------------------------------------------------------------------------- SVG files

const SVG_TOKEN = /^(\d{1,15})-([0-9a-f]{32})\.svg$/;

/**
 * Exported SVGs in the database: the token has the same form as the embedded store's file name (expiry in ms and
 * 128 random bits), so URLs look alike; an expired row answers nothing and is deleted by the sweep.
 */
export function siteSvgFiles(db: SiteDb, now: () => Date, storagePrefix = 'svg'): SvgFiles {
  return {
    tokenOfPath(path) {
      const prefix = `${storagePrefix}/`;
      if (!path.startsWith(prefix)) return undefined;
      const token = path.slice(prefix.length);
      return SVG_TOKEN.test(token) ? token : undefined;
    },
    async save(svgs, expiresAt) {
      const tokens = svgs.map(() => `${expiresAt.getTime()}-${randomBytes(16).toString('hex')}.svg`);
      // Identical copies (one string repeated) are sent once: the statement repeats the bytes per token.
      const distinct = [...new Set(svgs)];
      const index = svgs.map((svg) => distinct.indexOf(svg) + 1);
      await db.query(
        `INSERT INTO svg_files (token, svg, expires_at)
         SELECT t.token, (($2::bytea[]))[t.i], $4 FROM unnest($1::text[], $3::int[]) AS t(token, i)`,
        [tokens, distinct.map((s) => Buffer.from(s, 'utf8')), index, expiresAt],
      );
      return tokens.map((token) => ({ token, path: `${storagePrefix}/${token}` }));
    },
    async read(token) {
      const m = SVG_TOKEN.exec(token);
      if (!m) return undefined;
      const expiry = Number(m[1]);
      if (now().getTime() >= expiry) {
        await db.query('DELETE FROM svg_files WHERE token = $1', [token]);
        return undefined;
      }
      const { rows } = await db.query<{ svg: Buffer }>('SELECT svg FROM svg_files WHERE token = $1', [token]);
      return rows[0] ? { svg: rows[0].svg, expiresAt: new Date(expiry) } : undefined;
    },
    async sweep() {
      const { rowCount } = await db.query('DELETE FROM svg_files WHERE expires_at <= $1', [now()]);
      return rowCount ?? 0;
    },
  };
}

// ---------------------------------------------------------------------------------------------- templates

/** One saved version of a site template. */
export interface SiteTemplateRevision {
  name: string;
  revision: number;
  savedAt: string;
  savedBy: string;
}

/**
 * A save's precondition (HTTP If-Match / If-None-Match): the revision the editor started from (`any`: the
 * template must exist; `none`: it must not).
 */
export type SaveExpectation = number | 'any' | 'none';

/** A save refused because the template is not at the revision the editor started from (someone saved meanwhile). */
export class SaveConflict extends Error {
  override name = 'SaveConflict';
  constructor(
    readonly templateName: string,
    readonly expected: SaveExpectation,
    /** The revision it is at now, undefined when it does not exist. */
    readonly current: number | undefined,
  ) {
    super(
      `${templateName} is ${current === undefined ? 'not saved on the site' : `at revision ${current}`}, ` +
        `not ${expected === 'none' ? 'new' : expected === 'any' ? 'an existing template' : `revision ${expected}`}: ` +
        'someone saved it meanwhile; load it again and redo the change',
    );
  }
}

export interface SiteTemplates extends TemplateStore {
  /**
   * Saves `text` (a template's JSON) under its name as the next revision; the one it replaces is kept. Throws
   * TemplateValidationError before anything is written, SaveConflict (nothing written) when `expect` is given
   * and the template is not at that revision. Applies to the very next request on every instance.
   */
  save(
    text: string,
    savedBy: string,
    expect?: SaveExpectation,
  ): Promise<SiteTemplateRevision & { created: boolean }>;
  /** The current revision of a site template, or undefined (bundled and folder templates have none). */
  current(name: string): Promise<SiteTemplateRevision | undefined>;
  /** Every site template's current revision, by name. */
  currents(): Promise<SiteTemplateRevision[]>;
  /** The site revision a template object this store returned was parsed from (undefined: not a site one). */
  revisionOf(template: Template): number | undefined;
  /** One revision of a site template, parsed (a reprint renders the revision its job printed), or undefined. */
  atRevision(name: string, revision: number): Promise<Template | undefined>;
  revisions(name: string): Promise<SiteTemplateRevision[]>;
  /** The JSON of one revision (the current one when `revision` is omitted), or undefined. */
  text(name: string, revision?: number): Promise<string | undefined>;
  remove(name: string): Promise<boolean>;
}

/**
 * The site's templates, layered over `base` (the bundled ones, and a folder if the instance has one): a site
 * template of the same name wins. A lookup asks the database for the template's revision and reuses the parsed
 * template while the revision is the same, so a save on any instance applies to the next request (spec §1 rule 2)
 * and a request costs one small query, not a parse.
 */
export function siteTemplates(db: SiteDb, base: TemplateStore): SiteTemplates {
  const parsed = new Map<string, { revision: number; template: Template }>();
  // The history records which revision a request rendered: the parsed objects are this store's own.
  const revisions = new WeakMap<Template, number>();
  const entryOf = (name: string, revision: number, template: Template): TemplateEntry => ({
    template,
    origin: 'user',
    file: `site:${name}@${revision}`,
  });

  async function siteEntry(name: string): Promise<TemplateEntry | undefined> {
    const cached = parsed.get(name);
    const { rows } = await db.query<{ revision: number; body: string | null }>(
      'SELECT revision, CASE WHEN revision = $2 THEN NULL ELSE body END AS body FROM templates WHERE name = $1',
      [name, cached?.revision ?? -1],
    );
    const row = rows[0];
    if (!row) {
      parsed.delete(name);
      return undefined;
    }
    if (cached && row.body === null) return entryOf(name, row.revision, cached.template);
    const template = parseTemplateText(row.body ?? '', `site:${name}`);
    revisions.set(template, row.revision);
    if (parsed.size > 1000) parsed.clear();
    parsed.set(name, { revision: row.revision, template });
    return entryOf(name, row.revision, template);
  }

  async function list(): Promise<TemplateListing> {
    const listing = await base.list();
    const { rows } = await db.query<{ name: string; revision: number; body: string }>(
      'SELECT name, revision, body FROM templates ORDER BY name',
    );
    const byName = new Map(listing.templates.map((e) => [e.template.name, e]));
    const broken = [...listing.broken];
    for (const row of rows) {
      try {
        byName.set(
          row.name,
          entryOf(row.name, row.revision, parseTemplateText(row.body, `site:${row.name}`)),
        );
      } catch (e) {
        if (!(e instanceof TemplateValidationError)) throw e;
        broken.push({ file: `site:${row.name}`, origin: 'user', problems: e.problems });
      }
    }
    const templates = [...byName.values()].sort((a, b) => a.template.name.localeCompare(b.template.name));
    return { templates, broken };
  }

  return {
    list,
    async get(name) {
      return (
        (await siteEntry(name)) ??
        base.get(name).catch(async (e: unknown) => {
          // Not found anywhere: the suggestions (names differing in case) come from the whole listing.
          if (e instanceof Error && e.name === 'TemplateNotFound') return findTemplate(await list(), name);
          throw e;
        })
      );
    },
    async save(text, savedBy, expect) {
      const template = parseTemplateText(text, 'template');
      return db.tx(async (client) => {
        // One statement decides: an existing row is updated only when at the expected revision; a row inserted
        // although one was expected to exist is rolled back below.
        const { rows } = await client.query<{ revision: number; saved_at: Date; created: boolean }>(
          `INSERT INTO templates (name, body, revision, saved_by) VALUES ($1, $2, 1, $3)
           ON CONFLICT (name) DO UPDATE
             SET body = excluded.body, revision = templates.revision + 1, saved_at = now(), saved_by = excluded.saved_by
             WHERE $4::integer IS NULL OR templates.revision = $4::integer
           RETURNING revision, saved_at, (xmax = 0) AS created`,
          [
            template.name,
            text,
            savedBy,
            expect === undefined || expect === 'any' ? null : expect === 'none' ? 0 : expect,
          ],
        );
        const row = rows[0];
        if (!row || (row.created && expect !== undefined && expect !== 'none')) {
          const { rows: now } = await client.query<{ revision: number }>(
            'SELECT revision FROM templates WHERE name = $1',
            [template.name],
          );
          throw new SaveConflict(template.name, expect ?? 'any', row?.created ? undefined : now[0]?.revision);
        }
        await client.query(
          `INSERT INTO template_revisions (name, revision, body, saved_at, saved_by) VALUES ($1, $2, $3, $4, $5)`,
          [template.name, row.revision, text, row.saved_at, savedBy],
        );
        await appendAudit(client, {
          actor: savedBy,
          action: 'template-saved',
          subject: template.name,
          detail: { revision: row.revision },
        });
        return {
          name: template.name,
          revision: row.revision,
          savedAt: row.saved_at.toISOString(),
          savedBy,
          created: row.created,
        };
      });
    },
    async current(name) {
      const { rows } = await db.query<{ revision: number; saved_at: Date; saved_by: string }>(
        'SELECT revision, saved_at, saved_by FROM templates WHERE name = $1',
        [name],
      );
      const r = rows[0];
      return r && { name, revision: r.revision, savedAt: r.saved_at.toISOString(), savedBy: r.saved_by };
    },
    async currents() {
      const { rows } = await db.query<{ name: string; revision: number; saved_at: Date; saved_by: string }>(
        'SELECT name, revision, saved_at, saved_by FROM templates ORDER BY name',
      );
      return rows.map((r) => ({
        name: r.name,
        revision: r.revision,
        savedAt: r.saved_at.toISOString(),
        savedBy: r.saved_by,
      }));
    },
    revisionOf: (template) => revisions.get(template),
    async atRevision(name, revision) {
      const { rows } = await db.query<{ body: string }>(
        'SELECT body FROM template_revisions WHERE name = $1 AND revision = $2',
        [name, revision],
      );
      if (!rows[0]) return undefined;
      const template = parseTemplateText(rows[0].body, `site:${name}@${revision}`);
      revisions.set(template, revision);
      return template;
    },
    async revisions(name) {
      const { rows } = await db.query<{ revision: number; saved_at: Date; saved_by: string }>(
        'SELECT revision, saved_at, saved_by FROM template_revisions WHERE name = $1 ORDER BY revision DESC',
        [name],
      );
      return rows.map((r) => ({
        name,
        revision: r.revision,
        savedAt: r.saved_at.toISOString(),
        savedBy: r.saved_by,
      }));
    },
    async text(name, revision) {
      const { rows } = await db.query<{ body: string }>(
        revision === undefined
          ? 'SELECT body FROM templates WHERE name = $1'
          : 'SELECT body FROM template_revisions WHERE name = $1 AND revision = $2',
        revision === undefined ? [name] : [name, revision],
      );
      return rows[0]?.body;
    },
    async remove(name) {
      const { rowCount } = await db.query('DELETE FROM templates WHERE name = $1', [name]);
      return (rowCount ?? 0) > 0;
    },
  };
}

// ----------------------------------------------------------------------------------------------- counters

/**
 * The site's history and counter numbers. Every accepted label request is recorded in `jobs` (who: the API key;
 * where: this instance and the printer; when; what: the request, the template's site revision, the counter
 * numbers), one INSERT; a request whose template has counter fields reserves its labels' numbers in the same
 * transaction, so concurrent requests on any instances get distinct, consecutive ranges, and every number handed
 * out can be traced. Numbers of a request that then fails are burned, never reused (as in the workstation's job
 * store); the job says why it failed. On a site a counter is one sequence per template and field (not per
 * printer as on a workstation): two printers of the site must not print the same serial; an SSCC counter is one
 * sequence per extension digit and company prefix, whatever the template. A reprint reserves nothing: it
 * records the counters of the job it repeats and which of its labels.
 */
export function siteCounters(
  db: SiteDb,
  instance: string,
  /** The site revision of a template (siteTemplates' revisionOf), for the history. */
  revisionOf: (template: Template) => number | undefined = () => undefined,
): CounterReservations {
  const insertJob = `INSERT INTO jobs (route, template, api_key, instance, printer, labels, counters, request,
       template_revision, counter_steps, reprint_of, label_numbers)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`;
  return {
    async reserve({ template, labels, route, apiKey, printer, request, reprint }) {
      const fields = counterFields(template);
      const job = async (
        client: Pick<SiteDb, 'query'>,
        firsts: Record<string, number>,
        steps: Record<string, number>,
      ) => {
        const { rows } = await client.query<{ id: string }>(insertJob, [
          route,
          template.name,
          apiKey,
          instance,
          printer ?? null,
          labels,
          JSON.stringify(firsts),
          request === undefined ? null : JSON.stringify(request),
          revisionOf(template) ?? null,
          JSON.stringify(steps),
          reprint?.job ?? null,
          reprint ? reprint.labels.map((l) => l.number) : null,
        ]);
        const id = rows[0]?.id;
        if (id === undefined) throw new Error('the job was not recorded');
        return { firsts, job: String(id) };
      };
      if (reprint) return job(db, reprint.firsts, reprint.steps);
      const steps = Object.fromEntries(
        fields.map((f) => [f.name, counterPerRow(f) ? 0 : counterSettings(f).step]),
      );
      // No counter: the one INSERT, no transaction around it.
      if (!fields.length) return job(db, {}, steps);
      return db.tx(async (client) => {
        const firsts: Record<string, number> = {};
        // Rows locked in one order whatever the template's field order: two templates naming the same two SSCC
        // sequences in opposite orders would otherwise deadlock (PostgreSQL then kills one request).
        const ordered = [...fields].sort((x, y) => {
          const kx = counterKey(x, template.name, '');
          const ky = counterKey(y, template.name, '');
          return `${kx.template}\0${kx.field}` < `${ky.template}\0${ky.field}` ? -1 : 1;
        });
        for (const field of ordered) {
          const c = counterSettings(field);
          const needed = counterNumbersNeeded(field, 1, labels);
          const key = counterKey(field, template.name, '');
          const { rows } = await client.query<{ first: string }>(
            `INSERT INTO counters (template, printer, field, next) VALUES ($1, $2, $3, $4::bigint + $5::bigint * $6::bigint)
             ON CONFLICT (template, printer, field) DO UPDATE
               SET next = counters.next + $5::bigint * $6::bigint, updated_at = now()
             RETURNING next - $5::bigint * $6::bigint AS first`,
            [key.template, key.printer, key.field, c.start, needed, c.step],
          );
          const first = Number(rows[0]?.first);
          const last = first + (needed - 1) * c.step;
          if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last))
            throw new ResolveError(
              'label_name',
              `counter ${field.name} would pass ${Number.MAX_SAFE_INTEGER}`,
            );
          // Thrown inside the transaction: the reservation is rolled back.
          const problem = counterRangeProblem(field, first, last);
          if (problem) throw new ResolveError('label_name', problem);
          firsts[field.name] = first;
        }
        return job(client, firsts, steps);
      });
    },
    async failed(job, why) {
      await db.query('UPDATE jobs SET error = $2 WHERE id = $1', [job, why]);
    },
  };
}
