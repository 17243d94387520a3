/**
 * Test support for the contract tests of `labeldesk serve`: a real server on 127.0.0.1, port 0, in a fresh
 * data folder, with a key, a clock the test moves, captured logs, and a `post()` that speaks HTTP.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createKey, regenerateKey } from '../../../src/node/serve/key-store';
import { startServer, type ApiServer, type ServerOptions } from '../../../src/node/serve/server';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { siteKeys, siteUsageOf } from '../../../src/node/site/site-stores';
import { readUsageFile } from '../../../src/node/serve/usage-store';
import { createDatabaseAt } from '../../support/postgres';
import { rawTemplate } from '../../support/templates';

/**
 * Where a harness's server keeps keys, usage, SVG files, rate windows, templates saved through the site and
 * counters: its data folder (the embedded store, the default) or a site database (`labeldesk serve --database`).
 * The `site-postgres` project of vitest.config.ts runs the contract tests again with a private PostgreSQL.
 */
export type HarnessStore = 'embedded' | 'postgres';
const postgresUrl = inject('postgresUrl');
export const harnessStore: HarnessStore = postgresUrl ? 'postgres' : 'embedded';

export interface Harness {
  server: ApiServer;
  url: string;
  dataDir: string;
  templatesDir: string;
  store: HarnessStore;
  /** The site database, when `store` is postgres. */
  db?: SiteDb;
  key: string;
  secret: string;
  headers: Record<string, string>;
  logs: string[];
  clock: { now: Date; advanceHours(h: number): void };
  post(route: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Another key in the server's store, as `labeldesk keys create [--database]` makes it. */
  addKey(opts?: { allowance?: number }): Promise<{ key: string; secret: string }>;
  /** A new secret for `key`, as `labeldesk keys regenerate [--database]` does. */
  regenerate(key: string): Promise<{ key: string; secret: string }>;
  /** A key made before new secrets got the ~2 ms scrypt (N=2^15, ~100 ms a check), in the server's store. */
  addKeyWithEarlierScrypt(): Promise<{ key: string; secret: string }>;
  /** The exported SVGs stored now (file names in <data dir>/svg, or tokens in the site database). */
  storedSvgs(): Promise<string[]>;
  /** A key's usage tally, route → requests and copies (after pending writes). */
  usage(key: string): Promise<Record<string, { requests: number; copies: number }>>;
  /** Makes exported SVGs impossible to store (a file where the folder goes; the table renamed away). */
  breakSvgStorage(): Promise<void>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  /** Parsed JSON (undefined when the body is not JSON). */
  json: any;
}

export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    text,
    json,
  };
}

/** A template file in the harness's templates folder (by default a copy of a bundled one, renamed). */
export function writeTemplate(dir: string, name: string, template: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...template, name }, null, 2));
}

export function bundled(name: string): Record<string, unknown> {
  return rawTemplate(name) as Record<string, unknown>;
}

export async function startHarness(
  options: Partial<ServerOptions> = {},
  /** Writes into the data folder before the server starts (its fonts/, say). */
  prepareData?: (dataDir: string) => void,
): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'ld-serve-'));
  const dataDir = join(root, 'data');
  const templatesDir = join(root, 'templates');
  mkdirSync(templatesDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  prepareData?.(dataDir);
  const db = postgresUrl ? await openSiteDb(await createDatabaseAt(postgresUrl), { max: 4 }) : undefined;
  const keysFile = join(dataDir, 'keys.json');
  const addKey = (opts: { allowance?: number } = {}) =>
    db ? siteKeys(db).create(opts) : createKey(keysFile, opts);
  const { key, secret } = await addKey();
  const logs: string[] = [];
  const clock = {
    now: new Date('2026-09-29T12:00:00Z'),
    advanceHours(h: number) {
      clock.now = new Date(clock.now.getTime() + h * 3_600_000);
    },
  };
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    templatesDir,
    now: () => clock.now,
    logStream: { write: (line) => logs.push(line) },
    // The clock only moves when a test moves it, so the spec's 60 a minute would stop a suite after 60
    // requests; the rate limit has its own tests.
    rateLimitPerMinute: 1_000_000,
    ...(db ? { site: { db, instance: 'harness' } } : {}),
    ...options,
  });
  const headers = { 'content-type': 'application/json', 'x-api-key': key, 'x-api-secret': secret };
  return {
    server,
    url: server.url,
    dataDir,
    templatesDir,
    store: harnessStore,
    ...(db ? { db } : {}),
    key,
    secret,
    headers,
    logs,
    clock,
    async post(route, body, extra = headers) {
      const response = await fetch(`${server.url}/custom-labels/${route}`, {
        method: 'POST',
        headers: extra,
        body:
          typeof body === 'string'
            ? body
            : body instanceof Uint8Array
              ? new Blob([body as Uint8Array<ArrayBuffer>])
              : JSON.stringify(body),
      });
      return answerOf(response);
    },
    addKey,
    regenerate: (k) => (db ? siteKeys(db).regenerate(k) : regenerateKey(keysFile, k)),
    async addKeyWithEarlierScrypt() {
      if (!db) return addKeyWithEarlierScrypt(dataDir);
      const made = earlierScryptKey();
      await db.query(
        `INSERT INTO api_keys (key, salt, hash, scrypt, created_at, secret_created_at)
         VALUES ($1, $2, $3, $4, now(), now())`,
        [made.record.key, made.record.salt, made.record.hash, JSON.stringify(made.record.scrypt)],
      );
      return { key: made.record.key, secret: made.secret };
    },
    async storedSvgs() {
      if (db)
        return (await db.query<{ token: string }>('SELECT token FROM svg_files')).rows.map((r) => r.token);
      const dir = join(dataDir, 'svg');
      return existsSync(dir) ? readdirSync(dir) : [];
    },
    async usage(k) {
      if (db) return siteUsageOf(db, k);
      await server.flush();
      const file = await readUsageFile(join(dataDir, 'usage.json'));
      const routes = file.keys[k] ?? {};
      return Object.fromEntries(
        Object.entries(routes).map(([route, u]) => [route, { requests: u.requests, copies: u.copies }]),
      );
    },
    async breakSvgStorage() {
      if (db) {
        await db.query('ALTER TABLE svg_files RENAME TO svg_files_gone');
        return;
      }
      rmSync(join(dataDir, 'svg'), { recursive: true, force: true });
      writeFileSync(join(dataDir, 'svg'), 'not a folder');
    },
    async close() {
      await server.close();
      await db?.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A key record as `labeldesk keys create` made it before new secrets got the ~2 ms scrypt (N=2^15). */
function earlierScryptKey() {
  const secret = `lds_${randomBytes(32).toString('base64url')}`;
  const salt = randomBytes(16);
  const params = { N: 32768, r: 8, p: 1 };
  const at = new Date().toISOString();
  const key = `ldk_${randomBytes(12).toString('hex')}`;
  const record = {
    key,
    salt: salt.toString('base64'),
    hash: scryptSync(secret, salt, 32, { ...params, maxmem: 64 * 1024 * 1024 }).toString('base64'),
    scrypt: params,
    created_at: at,
    secret_created_at: at,
  };
  return { record, secret };
}

/**
 * Adds a key as `labeldesk keys create` made it before new secrets got the ~2 ms scrypt: its record keeps
 * N=2^15 (~100 ms a check), the parameters it was made with.
 */
export function addKeyWithEarlierScrypt(dataDir: string): { key: string; secret: string } {
  const file = join(dataDir, 'keys.json');
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { version: 1; keys: Record<string, unknown>[] };
  const { record, secret } = earlierScryptKey();
  stored.keys.push(record);
  writeFileSync(file, JSON.stringify(stored));
  return { key: record.key, secret };
}
