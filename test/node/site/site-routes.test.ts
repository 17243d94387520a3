/**
 * The site server's templates and history routes (issue #24, src/node/site/site-routes.ts) over real HTTP and a
 * real PostgreSQL: two instances on one database, keys made as `labeldesk keys create --database` makes them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type ApiServer } from '../../../src/node/serve/server';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteKeys } from '../../../src/node/site/site-stores';
import { startPostgres, type TestPostgres } from '../../support/postgres';
import { answerOf, type Answer } from '../serve/harness';
import { cli } from '../../support/cli';
import { counterNumberOf } from '../../../src/node/site/site-routes';
import { formatCounter } from '../../../src/resolve/counters';

let pg: TestPostgres;
let dbUrl: string;
const dbs: SiteDb[] = [];
const servers: ApiServer[] = [];
const roots: string[] = [];
let a: ApiServer;
let b: ApiServer;
const logs: string[] = [];
const answers: string[] = [];
let writer: { key: string; secret: string };
let reader: { key: string; secret: string };

async function start(db: SiteDb, instance: string, site = true): Promise<ApiServer> {
  const root = mkdtempSync(join(tmpdir(), 'ld-site-routes-'));
  roots.push(root);
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: root,
    rateLimitPerMinute: 1_000_000,
    logStream: { write: (line) => logs.push(line) },
    limits: { renderWorkers: 0 },
    ...(site ? { site: { db, instance } } : {}),
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  pg = await startPostgres();
  const url = (dbUrl = await pg.createDatabase());
  const dbA = await openSiteDb(url, { max: 4 });
  const dbB = await openSiteDb(url, { max: 4 });
  dbs.push(dbA, dbB);
  writer = await siteKeys(dbA).create({ templatesWrite: true });
  reader = await siteKeys(dbA).create();
  a = await start(dbA, 'test-a');
  b = await start(dbB, 'test-b');
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dbs) await d.close();
  await pg?.stop();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const creds = (k: { key: string; secret: string }) => ({ 'x-api-key': k.key, 'x-api-secret': k.secret });

async function call(
  server: ApiServer,
  method: string,
  path: string,
  opts: {
    body?: unknown;
    key?: { key: string; secret: string } | null;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const key = opts.key === undefined ? writer : opts.key;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? creds(key) : {}),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const answer = await answerOf(response);
  answers.push(answer.text, JSON.stringify([...response.headers]));
  return answer;
}

/** A small label with a serial counter (SN-000001, …) and a note. */
function serialTemplate(name: string, note = 'first'): Record<string, unknown> {
  return {
    schemaVersion: 1,
    name,
    stage: { width: 2, height: 1, unit: 'in' },
    fields: [
      {
        name: 'serial',
        label: 'Serial',
        placeholder: 'SN-??????',
        type: 'counter',
        counter: { start: 1, width: 6, prefix: 'SN-' },
      },
      { name: 'note', label: 'Note', placeholder: '' },
    ],
    elements: [
      {
        type: 'text',
        x: 5,
        y: 5,
        width: 180,
        height: 20,
        text: '{serial}',
        font: { size: 10, family: 'Arial' },
      },
      {
        type: 'text',
        x: 5,
        y: 40,
        width: 180,
        height: 20,
        text: `${note} {note}`,
        font: { size: 10, family: 'Arial' },
      },
    ],
  };
}

/** The texts of the markup copies an answer of 01 holds. */
const texts = (answer: Answer): string[][] =>
  (answer.json as { elements: { type: string; text?: string }[] }[]).map((m) =>
    m.elements.filter((e) => e.type === 'text').map((e) => e.text ?? ''),
  );

const render = (server: ApiServer, label_name: string, amount: number, key = writer) =>
  call(server, 'POST', '/custom-labels/fetch-markups', {
    body: { label_name, amount, apiData: { note: 'x' } },
    key,
  });

describe('templates', () => {
  test('save through A → get → the next request on A and on B renders it; a new revision likewise', async () => {
    const saved = await call(a, 'PUT', '/site/templates/tag-a', { body: serialTemplate('tag-a') });
    expect(saved.status).toBe(201);
    expect(saved.json).toMatchObject({ name: 'tag-a', revision: 1, saved_by: writer.key });
    expect(saved.headers.get('etag')).toBe('"1"');

    const got = await call(b, 'GET', '/site/templates/tag-a', { key: reader });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ name: 'tag-a', origin: 'site', revision: 1, saved_by: writer.key });
    expect(got.json.template).toEqual(serialTemplate('tag-a'));

    expect(texts(await render(a, 'tag-a', 1))[0]).toContain('first x');
    expect(texts(await render(b, 'tag-a', 1))[0]).toContain('first x');

    const second = await call(a, 'PUT', '/site/templates/tag-a', {
      body: serialTemplate('tag-a', 'second'),
      headers: { 'if-match': '"1"' },
    });
    expect(second.status).toBe(200);
    expect(second.json.revision).toBe(2);
    // Instance B has parsed revision 1; its very next request renders revision 2.
    expect(texts(await render(b, 'tag-a', 1))[0]).toContain('second x');
  });

  test('If-Match of a revision someone replaced → 412, nothing written; If-None-Match: * on an existing one → 412', async () => {
    await call(a, 'PUT', '/site/templates/tag-m', { body: serialTemplate('tag-m') });
    const first = await call(a, 'PUT', '/site/templates/tag-m', {
      body: serialTemplate('tag-m', 'editor one'),
      headers: { 'if-match': '"1"' },
    });
    expect(first.status).toBe(200);
    const late = await call(b, 'PUT', '/site/templates/tag-m', {
      body: serialTemplate('tag-m', 'editor two'),
      headers: { 'if-match': '"1"' },
    });
    expect(late.status).toBe(412);
    expect(late.json.message).toMatch(/revision 2/);
    expect(late.json.field).toBe('If-Match');
    expect((await call(a, 'GET', '/site/templates/tag-m')).json.template.elements[1].text).toBe(
      'editor one {note}',
    );

    expect(
      (
        await call(a, 'PUT', '/site/templates/tag-m', {
          body: serialTemplate('tag-m'),
          headers: { 'if-none-match': '*' },
        })
      ).status,
    ).toBe(412);
    expect(
      (
        await call(a, 'PUT', '/site/templates/tag-new', {
          body: serialTemplate('tag-new'),
          headers: { 'if-match': '"3"' },
        })
      ).status,
    ).toBe(412);
    expect((await call(a, 'GET', '/site/templates/tag-new')).status).toBe(404);
    expect(
      (
        await call(a, 'PUT', '/site/templates/tag-m', {
          body: serialTemplate('tag-m'),
          headers: { 'if-match': 'soon' },
        })
      ).json.field,
    ).toBe('If-Match');
  });

  test('an invalid template → 422 with every problem, nothing saved; a name not the path’s → 422 naming it', async () => {
    await call(a, 'PUT', '/site/templates/tag-i', { body: serialTemplate('tag-i') });
    const broken = serialTemplate('tag-i');
    (broken.stage as Record<string, unknown>).width = -2;
    (broken.elements as Record<string, unknown>[])[0]!.type = 'hologram';
    const bad = await call(a, 'PUT', '/site/templates/tag-i', { body: broken });
    expect(bad.status).toBe(422);
    const paths = (bad.json.problems as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['stage.width', expect.stringMatching(/^elements\[0\]/)]));
    expect(bad.json.field).toBe(paths[0]);
    const renamed = await call(a, 'PUT', '/site/templates/tag-i', { body: serialTemplate('tag-other') });
    expect(renamed.status).toBe(422);
    expect(renamed.json.field).toBe('name');
    expect((await call(a, 'GET', '/site/templates/tag-i/revisions')).json.revisions).toHaveLength(1);
    expect((await call(a, 'GET', '/site/templates/tag-other')).status).toBe(404);
  });

  test('a key without --templates-write may read but not save (403)', async () => {
    const put = await call(a, 'PUT', '/site/templates/tag-r', { body: serialTemplate('tag-r'), key: reader });
    expect(put.status).toBe(403);
    expect(put.json.message).toMatch(/--templates-write/);
    expect((await call(a, 'GET', '/site/templates/tag-r')).status).toBe(404);
  });

  test('labeldesk keys create --database … --templates-write makes a key that may save; keys list says so', async () => {
    const made = await cli(['keys', 'create', '--database', dbUrl, '--templates-write', '--json']);
    expect(made.code).toBe(0);
    const key = JSON.parse(made.stdout) as { key: string; secret: string };
    expect(
      (await call(b, 'PUT', '/site/templates/tag-cli', { body: serialTemplate('tag-cli'), key })).status,
    ).toBe(201);
    const listed = await cli(['keys', 'list', '--database', dbUrl, '--json']);
    const rows = JSON.parse(listed.stdout) as { key: string; templates_write: boolean }[];
    expect(rows.find((r) => r.key === key.key)?.templates_write).toBe(true);
    expect(rows.find((r) => r.key === reader.key)?.templates_write).toBe(false);
    const workstation = await cli(['keys', 'create', '--templates-write', '--data-dir', roots[0]!]);
    expect(workstation.code).toBe(2);
    expect(workstation.stderr).toMatch(/--templates-write is for a site database/);
  });

  test('revisions listed newest first; an earlier revision by ?revision=; the listing has every origin', async () => {
    const revisions = await call(a, 'GET', '/site/templates/tag-a/revisions', { key: reader });
    expect(revisions.json.revisions.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
    expect(revisions.json.revisions[0]).toMatchObject({ saved_by: writer.key });
    const old = await call(a, 'GET', '/site/templates/tag-a?revision=1');
    expect(old.json.template.elements[1].text).toBe('first {note}');
    expect((await call(a, 'GET', '/site/templates/tag-a?revision=9')).status).toBe(404);

    const listing = await call(b, 'GET', '/site/templates', { key: reader });
    const byName = Object.fromEntries((listing.json.templates as { name: string }[]).map((t) => [t.name, t]));
    expect(byName['tag-a']).toMatchObject({ origin: 'site', revision: 2, saved_by: writer.key });
    expect(byName['shipping-4x6']).toMatchObject({ origin: 'bundled', revision: null });
    const bundled = await call(a, 'GET', '/site/templates/shipping-4x6');
    expect(bundled.json).toMatchObject({ origin: 'bundled', revision: null });
    expect(bundled.json.template.name).toBe('shipping-4x6');
  });
});

describe('history', () => {
  let renderJob: number;
  let firstZpl: string[];
  let markupsJob: number;

  test('every render recorded with who, where, when and its first counter numbers; filters and pages', async () => {
    await call(a, 'PUT', '/site/templates/tag-h', { body: serialTemplate('tag-h') });
    const zpl = await call(a, 'POST', '/custom-labels/render-zpl', {
      body: { label_name: 'tag-h', amount: 3, apiData: { note: 'n' } },
    });
    expect(zpl.status).toBe(200);
    renderJob = Number(zpl.headers.get('x-labeldesk-job'));
    firstZpl = zpl.json.labels;
    const markups = await render(b, 'tag-h', 2, reader);
    markupsJob = Number(markups.headers.get('x-labeldesk-job'));
    expect(texts(markups).map((t) => t[0])).toEqual(['SN-000004', 'SN-000005']);
    // A template without counters is recorded too.
    expect((await render(a, 'shipping-4x6', 1)).headers.get('x-labeldesk-job')).toMatch(/^\d+$/);

    const listed = await call(a, 'GET', '/site/jobs?template=tag-h', { key: reader });
    expect(listed.status).toBe(200);
    expect(listed.json.next_before).toBeNull();
    expect(listed.json.jobs).toEqual([
      expect.objectContaining({
        id: markupsJob,
        route: 'fetch-markups',
        template: 'tag-h',
        template_revision: 1,
        api_key: reader.key,
        instance: 'test-b',
        printer: null,
        labels: 2,
        counters: { serial: 4 },
        reprint_of: null,
        error: null,
      }),
      expect.objectContaining({
        id: renderJob,
        route: 'render-zpl',
        api_key: writer.key,
        instance: 'test-a',
        labels: 3,
        counters: { serial: 1 },
      }),
    ]);
    expect(Date.parse(listed.json.jobs[0].created_at)).toBeGreaterThan(Date.now() - 60_000);

    const mine = await call(a, 'GET', `/site/jobs?template=tag-h&key=${reader.key}`);
    expect(mine.json.jobs.map((j: { id: number }) => j.id)).toEqual([markupsJob]);
    const page1 = await call(a, 'GET', '/site/jobs?limit=1');
    expect(page1.json.jobs).toHaveLength(1);
    const page2 = await call(a, 'GET', `/site/jobs?limit=1&before=${page1.json.next_before}`);
    expect(page2.json.jobs[0].id).toBeLessThan(page1.json.jobs[0].id);
    const later = await call(
      a,
      'GET',
      `/site/jobs?template=tag-h&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(later.json.jobs).toEqual([]);
  });

  test('a job’s labels with the counter values they printed', async () => {
    const job = await call(a, 'GET', `/site/jobs/${renderJob}`, { key: reader });
    expect(job.status).toBe(200);
    expect(job.json.job.request).toMatchObject({
      label_name: 'tag-h',
      amount: 3,
      apiData: { note: 'n' },
      dpi: 203,
    });
    expect(job.json.labels).toEqual([
      { label: 1, counters: { serial: { number: 1, printed: 'SN-000001' } } },
      { label: 2, counters: { serial: { number: 2, printed: 'SN-000002' } } },
      { label: 3, counters: { serial: { number: 3, printed: 'SN-000003' } } },
    ]);
    expect((await call(a, 'GET', '/site/jobs/999999')).status).toBe(404);
    expect((await call(a, 'GET', '/site/jobs/abc')).json.field).toBe('id');
  });

  test('which label printed a value: by the printed text with the template, by the number without', async () => {
    const byText = await call(a, 'GET', '/site/labels?template=tag-h&counter=serial&value=SN-000002', {
      key: reader,
    });
    expect(byText.status).toBe(200);
    expect(byText.json.labels).toEqual([
      expect.objectContaining({
        label: 2,
        number: 2,
        job: expect.objectContaining({ id: renderJob, api_key: writer.key, instance: 'test-a' }),
      }),
    ]);
    const byNumber = await call(a, 'GET', '/site/labels?counter=serial&value=5&template=tag-h');
    expect(byNumber.json.labels).toEqual([
      expect.objectContaining({ label: 2, job: expect.objectContaining({ id: markupsJob }) }),
    ]);
    expect((await call(a, 'GET', '/site/labels?counter=serial&value=77&template=tag-h')).json.labels).toEqual(
      [],
    );
    const wrong = await call(a, 'GET', '/site/labels?counter=serial&value=XX-1&template=tag-h');
    expect([wrong.status, wrong.json.field]).toEqual([422, 'value']);
    const noField = await call(a, 'GET', '/site/labels?counter=lot&value=1&template=tag-h');
    expect([noField.status, noField.json.field]).toEqual([422, 'counter']);
  });

  test('a reprint renders the same counter values (no number reserved) and is recorded as one', async () => {
    const again = await call(b, 'POST', `/site/jobs/${renderJob}/reprint`, {
      body: { labels: [2, 3] },
      key: reader,
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ dpi: 203, count: 2 });
    // The same labels, dot for dot (same counter values, same template revision).
    expect(again.json.labels).toEqual([firstZpl[1], firstZpl[2]]);
    expect(firstZpl[1]).not.toEqual(firstZpl[2]);
    const reprintJob = Number(again.headers.get('x-labeldesk-job'));
    const detail = await call(a, 'GET', `/site/jobs/${reprintJob}`);
    expect(detail.json.job).toMatchObject({
      reprint_of: renderJob,
      route: 'render-zpl',
      labels: 2,
      api_key: reader.key,
      instance: 'test-b',
    });
    expect(detail.json.labels.map((l: { reprints: number }) => l.reprints)).toEqual([2, 3]);

    // A reprint of the reprint's first label is label 2 of the first job again.
    const twice = await call(a, 'POST', `/site/jobs/${reprintJob}/reprint`, { body: { labels: [1] } });
    expect(twice.json.labels).toEqual([firstZpl[1]]);
    // The lookup finds the first print and both reprints.
    const found = await call(a, 'GET', '/site/labels?template=tag-h&counter=serial&value=SN-000002');
    expect(found.json.labels.map((l: { job: { id: number }; label: number }) => [l.job.id, l.label])).toEqual(
      [
        [renderJob, 2],
        [reprintJob, 1],
        [Number(twice.headers.get('x-labeldesk-job')), 1],
      ],
    );
    // The whole job by default, with the revision it printed although the template changed since.
    await call(a, 'PUT', '/site/templates/tag-h', { body: serialTemplate('tag-h', 'changed') });
    const whole = await call(a, 'POST', `/site/jobs/${markupsJob}/reprint`);
    expect(texts(whole)).toEqual([
      ['SN-000004', 'first x'],
      ['SN-000005', 'first x'],
    ]);
    // No number was reserved by the reprints: the next render continues at 6.
    expect(texts(await render(a, 'tag-h', 1))[0]).toEqual(['SN-000006', 'changed x']);

    const beyond = await call(a, 'POST', `/site/jobs/${renderJob}/reprint`, { body: { labels: [4] } });
    expect([beyond.status, beyond.json.field]).toEqual([422, 'labels[0]']);
    const printer = await call(a, 'POST', `/site/jobs/${renderJob}/reprint`, { body: { printer_id: 1 } });
    expect([printer.status, printer.json.field]).toEqual([422, 'printer_id']);
  });

  test('a request that fails after it was recorded says so in the history', async () => {
    const t = serialTemplate('tag-f');
    (t.elements as Record<string, unknown>[]).push({
      type: 'barcode',
      x: 5,
      y: 60,
      width: 150,
      height: 30,
      format: 'ean13',
      text: '{note}',
    });
    (t.fields as Record<string, unknown>[])[1]!.placeholder = '5901234123457';
    expect((await call(a, 'PUT', '/site/templates/tag-f', { body: t })).status).toBe(201);
    const failed = await call(a, 'POST', '/custom-labels/render-zpl', {
      body: { label_name: 'tag-f', amount: 1, apiData: { note: 'not digits' } },
    });
    expect(failed.status).toBe(422);
    const jobs = await call(a, 'GET', '/site/jobs?template=tag-f');
    expect(jobs.json.jobs).toEqual([
      expect.objectContaining({ error: 'element-invalid', counters: { serial: 1 } }),
    ]);
  });
});

describe('the audit log', () => {
  test('keys made, given a new secret and revoked with labeldesk keys --database, and templates saved: who, what, when', async () => {
    const made = await cli(['keys', 'create', '--database', dbUrl, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const { key } = JSON.parse(made.stdout) as { key: string };
    expect((await cli(['keys', 'regenerate', key, '--database', dbUrl, '--json'])).code).toBe(0);
    expect((await cli(['keys', 'revoke', key, '--database', dbUrl])).code).toBe(0);
    const aboutKey = await call(b, 'GET', `/site/audit?subject=${key}`, { key: reader });
    expect(aboutKey.status).toBe(200);
    expect(aboutKey.json.entries.map((e: { action: string }) => e.action)).toEqual([
      'key-revoked',
      'key-regenerated',
      'key-created',
    ]);
    for (const entry of aboutKey.json.entries) expect(entry.actor).toMatch(/^cli:.+@.+$/);
    expect(aboutKey.json.entries[2].detail).toEqual({ allowance: null, templatesWrite: false });

    expect(
      (await call(a, 'PUT', '/site/templates/audited', { body: serialTemplate('audited') })).status,
    ).toBe(201);
    expect(
      (await call(a, 'PUT', '/site/templates/audited', { body: serialTemplate('audited', 'second') })).status,
    ).toBe(200);
    const saves = await call(a, 'GET', '/site/audit?subject=audited&action=template-saved', { key: reader });
    expect(saves.json.entries).toEqual([
      expect.objectContaining({ actor: writer.key, subject: 'audited', detail: { revision: 2 } }),
      expect.objectContaining({ actor: writer.key, subject: 'audited', detail: { revision: 1 } }),
    ]);
    // A refused save (a conflict) leaves no entry.
    expect(
      (
        await call(a, 'PUT', '/site/templates/audited', {
          body: serialTemplate('audited', 'third'),
          headers: { 'if-match': '"1"' },
        })
      ).status,
    ).toBe(412);
    const after = await call(a, 'GET', '/site/audit?subject=audited', { key: reader });
    expect(after.json.entries).toHaveLength(2);
  });

  test('pages newest first; bad parameters → 422 naming them', async () => {
    const first = await call(a, 'GET', '/site/audit?limit=1', { key: reader });
    expect(first.json.entries).toHaveLength(1);
    expect(first.json.next_before).toBe(first.json.entries[0].id);
    const second = await call(a, 'GET', `/site/audit?limit=1&before=${first.json.next_before}`, {
      key: reader,
    });
    expect(second.json.entries[0].id).toBeLessThan(first.json.entries[0].id);
    for (const [query, field] of [
      ['action=key-stolen', 'action'],
      ['limit=0', 'limit'],
      ['subject=', 'subject'],
      ['whatever=1', undefined],
    ] as const) {
      const answer = await call(a, 'GET', `/site/audit?${query}`, { key: reader });
      expect([query, answer.status]).toEqual([query, 422]);
      if (field) expect(answer.json.field).toBe(field);
    }
    expect((await call(a, 'GET', '/site/audit', { key: null })).status).toBe(401);
  });

  test('append-only: the database refuses UPDATE, DELETE and TRUNCATE of the log, whoever asks', async () => {
    const db = dbs[0]!;
    for (const sql of [
      "UPDATE audit_log SET actor = 'someone else'",
      'DELETE FROM audit_log',
      'TRUNCATE audit_log',
    ]) {
      await expect(db.query(sql)).rejects.toThrow(/the audit log is append-only/);
    }
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log');
    expect(Number(rows[0]?.n)).toBeGreaterThan(4);
  });
});

describe('the edges', () => {
  test('bad query parameters → 422 naming the parameter', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['before=-1', 'before'],
      ['since=yesterday', 'since'],
      ['until=2026-13-01T00:00:00Z', 'until'],
      ['template=', 'template'],
      ['limit=1&limit=2', 'limit'],
    ] as const) {
      const answer = await call(a, 'GET', `/site/jobs?${query}`);
      expect([query, answer.status, answer.json.field]).toEqual([query, 422, field]);
      expect(answer.json.message).toMatch(new RegExp(`^${field}: `));
    }
    const unknown = await call(a, 'GET', '/site/jobs?templates=tag-h');
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toMatch(/unknown query parameter templates/);
    expect((await call(a, 'GET', '/site/templates/tag-a?revision=first')).json.field).toBe('revision');
    expect((await call(a, 'GET', '/site/labels?value=1')).json.field).toBe('counter');
  });

  test('without credentials → 401 on every site route', async () => {
    for (const [method, path] of [
      ['GET', '/site/templates'],
      ['GET', '/site/templates/tag-a'],
      ['PUT', '/site/templates/tag-a'],
      ['GET', '/site/templates/tag-a/revisions'],
      ['GET', '/site/jobs'],
      ['GET', '/site/jobs/1'],
      ['POST', '/site/jobs/1/reprint'],
      ['GET', '/site/labels?counter=serial&value=1'],
    ] as const) {
      const answer = await call(a, method, path, {
        key: null,
        ...(method === 'PUT' ? { body: serialTemplate('tag-a') } : {}),
      });
      expect([method, path, answer.status]).toEqual([method, path, 401]);
      const wrong = await call(a, method, path, { key: { key: writer.key, secret: 'lds_wrong' } });
      expect([method, path, wrong.status]).toEqual([method, path, 401]);
    }
  });

  test('without --database the site routes do not exist', async () => {
    const plain = await start(dbs[0]!, 'plain', false);
    const answer = await call(plain, 'GET', '/site/templates', { key: null });
    expect(answer.status).toBe(404);
    expect((await call(plain, 'GET', '/site/jobs', { key: null })).status).toBe(404);
  });

  test('no secret in any answer or log line', () => {
    expect(answers.length).toBeGreaterThan(50);
    expect(logs.length).toBeGreaterThan(50);
    for (const secret of [writer.secret, reader.secret]) {
      expect(answers.join('\n')).not.toContain(secret);
      expect(logs.join('\n')).not.toContain(secret);
    }
  });
});

describe('counterNumberOf (reading a printed value back to its number)', () => {
  const plain = { start: 1, step: 1, width: 6, prefix: 'SN-', suffix: '/A' };
  const sscc = {
    ...plain,
    prefix: '',
    suffix: '',
    width: 0,
    gs1: { kind: 'sscc' as const, extension: '0', companyPrefix: '0614141' },
  };
  test.each([
    [plain, 'SN-000123/A', 123],
    [plain, '000123', 123],
    [plain, '123', 123],
    [plain, 'SN-12x/A', undefined],
    [plain, 'XX-000123/A', undefined],
    [sscc, formatCounter(sscc, 123), 123],
    [sscc, '123', 123],
    [sscc, '106141410000001235', undefined],
    [
      sscc,
      `${formatCounter(sscc, 123).slice(0, 17)}${(Number(formatCounter(sscc, 123)[17]) + 1) % 10}`,
      undefined,
    ],
  ])('%j reads %s as %s', (counter, value, number) => {
    expect(counterNumberOf(counter, value)).toBe(number);
  });
});
