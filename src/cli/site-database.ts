/**
 * `--database postgres://…` (or `$LABELDESK_DATABASE_URL`): the site database of `labeldesk serve` and `labeldesk
 * keys` (issue #24). Without it they use the data folder, as on a workstation.
 */
import { hostname, userInfo } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  openSiteDb,
  redactDatabaseUrl,
  isPostgresUrl,
  SiteDatabaseError,
  type SiteDb,
} from '../node/site/db';
import { CliError, UsageError, type CliIo } from './io';

export const databaseOption = { database: { type: 'string' } } as const;

/** The site database URL asked for, or undefined (the data folder). */
export function databaseUrlOf(values: { database?: string | undefined }, io: CliIo): string | undefined {
  const url = values.database ?? (io.env.LABELDESK_DATABASE_URL || undefined);
  if (url === undefined) return undefined;
  if (!isPostgresUrl(url))
    throw new UsageError(
      `${values.database !== undefined ? '--database' : 'LABELDESK_DATABASE_URL'}: expected postgres://user@host:port/database, got "${redactDatabaseUrl(url)}"`,
    );
  return url;
}

/** Opens (and migrates) the site database; a database that cannot be used is a CliError naming it (no password). */
export async function openSiteDatabase(url: string, onError?: (e: Error) => void): Promise<SiteDb> {
  try {
    return await openSiteDb(url, onError ? { onError } : {});
  } catch (e) {
    if (e instanceof SiteDatabaseError) throw new CliError(e.message);
    throw e;
  }
}

/** This process's name among the site's instances: host, process id and a random part (pids repeat). */
export const instanceName = (): string => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Who runs this command, for the site's audit log: `cli:<OS user>@<host>`. */
export function cliActor(io: CliIo): string {
  let user = io.env.USER ?? io.env.USERNAME ?? '';
  try {
    user = userInfo().username || user;
  } catch {
    // No passwd entry (a container's arbitrary uid): the environment's name, if any.
  }
  return `cli:${user || 'unknown'}@${hostname()}`;
}
