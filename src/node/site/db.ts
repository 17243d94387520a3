/**
 * Node-only: the site database of `labeldesk serve --database postgres://…` (issue #24). One PostgreSQL
 * database holds everything several serve instances must agree on; each instance is stateless apart from its
 * caches, which are checked against the database on every request that depends on them.
 *
 * Migrations are plain SQL files, `assets/sql/NNN-name.sql`, run in order at start inside one transaction each,
 * under an advisory lock, so instances starting together apply each once; `site_migrations` records which ran.
 * A database newer than this program (a migration it does not know) is refused rather than guessed at.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { KindedError } from '../../base/error-kind';
import { assetsDir } from '../assets';

/**
 * Pool settings an instance uses unless told otherwise. A statement waits at most 30 s (a lock held by a
 * stuck transaction must not hold requests for ever), and a connection idle inside a transaction is closed by
 * the server after 60 s (an instance frozen mid-transaction must not keep a counter row locked).
 */
export const SITE_POOL = {
  max: 10,
  idleTimeoutMillis: 30_000,
  connectionTimeoutMillis: 10_000,
  statement_timeout: 30_000,
  idle_in_transaction_session_timeout: 60_000,
} as const;

/** The advisory lock key migrations hold (any constant; "LDMG" in ASCII). */
const MIGRATION_LOCK = 0x4c444d47;

export class SiteDatabaseError extends Error {
  override name = 'SiteDatabaseError';
}

/**
 * The site database does not answer (refused, reset, shutting down or starting, timed out): a request that needs
 * it cannot be served now, and may be later — the HTTP face answers 503 with Retry-After, never 500. The
 * message names no host, port or user; the cause, for the log, is pg's error.
 */
export class SiteUnavailable extends KindedError {
  get kind() {
    return 'store-unavailable' as const;
  }

  constructor(override readonly cause: unknown) {
    super('the site database is unavailable');
    this.name = 'SiteUnavailable';
  }
}

/** Node's and PostgreSQL's codes for a connection that failed or went away (SQLSTATE class 08, 57P01–57P03). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

/** Whether `e` (from pg) means the database could not be reached or dropped the connection, not a bad query. */
export function isConnectionFailure(e: unknown): boolean {
  if (e instanceof SiteUnavailable) return true;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  // pg says these in words only: the server closed the socket, the pool waited connectionTimeoutMillis, the
  // statement waited statement_timeout (57014 is also a user's cancel, which we never send).
  const message = e instanceof Error ? e.message : '';
  return (
    code === '57014' ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|not queryable/i.test(
      message,
    )
  );
}

/** Runs `work`; a connection failure becomes SiteUnavailable, anything else is thrown as it is. */
async function reachable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw isConnectionFailure(e) ? new SiteUnavailable(e) : e;
  }
}

export interface SiteDb {
  pool: pg.Pool;
  /** One statement on any pooled connection. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<pg.QueryResult<R>>;
  /** Runs `work` in one transaction (BEGIN … COMMIT, ROLLBACK when it throws) on one connection. */
  tx<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations shipped with this program, in order. */
export function siteMigrations(dir = join(assetsDir(), 'sql')): Migration[] {
  return readdirSync(dir)
    .map((file) => /^(\d{3})-([a-z0-9-]+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[2] ?? '', sql: readFileSync(join(dir, m[0]), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/** A URL for messages: the password, if any, replaced by `***`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/** Whether `url` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Connects, applies the migrations this database lacks, and returns the pool. Throws SiteDatabaseError when
 * the database cannot be reached or is newer than this program.
 */
export async function openSiteDb(
  url: string,
  options: { max?: number; migrations?: Migration[]; onError?: (e: Error) => void } = {},
): Promise<SiteDb> {
  if (!isPostgresUrl(url)) throw new SiteDatabaseError('--database: expected a postgres:// URL');
  const pool = new pg.Pool({ ...SITE_POOL, connectionString: url, max: options.max ?? SITE_POOL.max });
  // An idle client's error (the server restarted, a connection was cut) is not a request's: heard, never thrown.
  pool.on('error', (e) => options.onError?.(e));
  const db: SiteDb = {
    pool,
    query: (text, values) => reachable(() => pool.query(text, values as unknown[] | undefined)),
    tx: (work) =>
      reachable(async () => {
        const client = await pool.connect();
        let broken: unknown;
        // A connection lost between two statements of the transaction is an 'error' event of the checked-out
        // client, which nobody would hear (pg's pool listens only while a client is idle): the process would
        // crash. Heard here; the next statement then fails and the transaction is given up.
        const lost = (e: Error) => (broken = e);
        client.on('error', lost);
        try {
          await client.query('BEGIN');
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (e) {
          await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback));
          throw e;
        } finally {
          // A connection lost, or whose ROLLBACK failed, is in no known state: destroyed, not given to the next
          // request.
          client.off('error', lost);
          client.release(broken instanceof Error ? broken : undefined);
        }
      }),
    close: () => pool.end(),
  };
  try {
    await migrate(db, options.migrations ?? siteMigrations());
  } catch (e) {
    await pool.end().catch(() => undefined);
    if (e instanceof SiteDatabaseError) throw e;
    throw new SiteDatabaseError(`database ${redactDatabaseUrl(url)}: ${(e as Error).message}`, { cause: e });
  }
  return db;
}

async function migrate(db: SiteDb, migrations: Migration[]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS site_migrations (
           version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const done = new Set(
        (await client.query<{ version: number }>('SELECT version FROM site_migrations')).rows.map(
          (r) => r.version,
        ),
      );
      const known = new Set(migrations.map((m) => m.version));
      const unknown = [...done].filter((v) => !known.has(v));
      if (unknown.length)
        throw new SiteDatabaseError(
          `the site database has migration ${Math.max(...unknown)}, which this LabelDesk does not know: ` +
            'a newer version set it up; upgrade this instance',
        );
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO site_migrations (version, name) VALUES ($1, $2)', [
            m.version,
            m.name,
          ]);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new SiteDatabaseError(`migration ${m.version}-${m.name} failed: ${(e as Error).message}`, {
            cause: e,
          });
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
