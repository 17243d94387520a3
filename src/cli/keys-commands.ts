/**
 * `labeldesk keys create|regenerate|list|revoke` and `labeldesk usage`: the API keys and the print allowance
 * ledger of `labeldesk serve`, in the same data folder (`--data-dir`, `$LABELDESK_DATA_DIR`, or the per-user
 * data folder; see src/node/files/data-dir.ts). A running server sees key changes on its next request.
 */
import { resolve as resolvePath } from 'node:path';
import { FileWriteError } from '../node/files/atomic-file';
import { dataFiles, defaultDataDir, securePrivateFolder } from '../node/files/data-dir';
import {
  createKey,
  readKeysFile,
  regenerateKey,
  revokeKey,
  UnknownKey,
  KeysFileError,
} from '../node/serve/key-store';
import { copiesOf, readUsageFile } from '../node/serve/usage-store';
import { CliError, UsageError, type CliIo } from './io';
import { cliActor, databaseOption, databaseUrlOf, openSiteDatabase } from './site-database';
import { siteKeys } from '../node/site/site-stores';
import { parseOptions } from './template-commands';

export const dataDirOption = { 'data-dir': { type: 'string' } } as const;

/** `--data-dir` (relative to the working directory), else `$LABELDESK_DATA_DIR`, else the OS default. */
export function dataDirOf(values: { 'data-dir'?: string | undefined }, io: CliIo): string {
  return values['data-dir'] ? resolvePath(io.cwd, values['data-dir']) : defaultDataDir(io.env);
}

/**
 * The data folder for a command that writes label data or keys into it: created 0700, or tightened to 0700
 * (with a note on stderr) when other users could read it. A folder that cannot be created is a user error.
 */
export function privateDataDir(values: { 'data-dir'?: string | undefined }, io: CliIo): string {
  const dir = dataDirOf(values, io);
  let widerMode: number | undefined;
  try {
    widerMode = securePrivateFolder(dir);
  } catch (e) {
    if (e instanceof FileWriteError)
      throw new CliError(`the data folder cannot be used: ${e.message} (choose another with --data-dir)`);
    throw e;
  }
  if (widerMode !== undefined)
    io.stderr(
      `note: ${dir} was open to other users (mode ${widerMode.toString(8).padStart(4, '0')}); ` +
        'it holds label data, so it is now 0700\n',
    );
  return dir;
}

export const KEYS_HELP = `Usage: labeldesk keys <create|regenerate|list|revoke> [options]

  keys create [--allowance N] [--templates-write] [--json]
                                         a new key and secret (the secret is shown only now)
  keys regenerate KEY [--json]           a new secret for KEY; the old one stops working at once
  keys list [--json]                     keys with their dates, allowance and copies used (no secrets)
  keys revoke KEY                        delete KEY; requests with it get 401

  --data-dir DIR   where keys.json lives (default: $LABELDESK_DATA_DIR, else the per-user data folder)
  --database URL   the site database of labeldesk serve --database instead (default: $LABELDESK_DATABASE_URL)
  --allowance N    copies this key may render in all routes together (default: unlimited)
  --templates-write  (with --database) the key may also save the site's templates (PUT /site/templates/NAME);
                   any key renders, reads templates and the history
`;

function printSecret(io: CliIo, json: boolean | undefined, pair: { key: string; secret: string }): void {
  if (json) {
    io.stdout(JSON.stringify(pair) + '\n');
    return;
  }
  io.stdout(`key:    ${pair.key}\nsecret: ${pair.secret}\n`);
  io.stderr(
    'The secret is shown only now and is stored only as a hash: keep it where the client keeps credentials.\n',
  );
}

function oneKey(positionals: string[], what: string): string {
  const [key, ...extra] = positionals;
  if (!key) throw new UsageError(`keys ${what} needs a KEY (see: labeldesk keys list)`);
  if (extra.length) throw new UsageError(`keys ${what} takes one KEY, got ${positionals.length}`);
  return key;
}

export async function keysCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    io.stdout(KEYS_HELP);
    return sub === undefined ? 2 : 0;
  }
  const { values, positionals } = parseOptions(
    rest,
    {
      ...dataDirOption,
      ...databaseOption,
      json: { type: 'boolean' },
      allowance: { type: 'string' },
      'templates-write': { type: 'boolean' },
    },
    true,
  );
  if (values.help) {
    io.stdout(KEYS_HELP);
    return 0;
  }
  if (values.allowance !== undefined && sub !== 'create')
    throw new UsageError('--allowance is for keys create');
  const allowance = allowanceOf(values.allowance);
  if (values['templates-write'] && sub !== 'create')
    throw new UsageError('--templates-write is for keys create');
  const url = databaseUrlOf(values, io);
  if (values['templates-write'] && url === undefined)
    throw new UsageError(
      '--templates-write is for a site database (--database or $LABELDESK_DATABASE_URL): a workstation has no template routes',
    );
  if (url !== undefined)
    return siteKeysCommand(
      sub,
      positionals,
      url,
      {
        ...(allowance === undefined ? {} : { allowance }),
        templatesWrite: values['templates-write'] === true,
      },
      values.json,
      io,
    );
  // list only reads; the others write keys.json, so its folder is made private first.
  const file = dataFiles(sub === 'list' ? dataDirOf(values, io) : privateDataDir(values, io)).keys;
  try {
    switch (sub) {
      case 'create': {
        if (positionals.length) throw new UsageError('keys create takes no arguments');
        printSecret(io, values.json, await createKey(file, allowance === undefined ? {} : { allowance }));
        return 0;
      }
      case 'regenerate':
        printSecret(io, values.json, await regenerateKey(file, oneKey(positionals, 'regenerate')));
        return 0;
      case 'revoke': {
        const key = oneKey(positionals, 'revoke');
        await revokeKey(file, key);
        io.stderr(`revoked ${key}\n`);
        return 0;
      }
      case 'list': {
        const keys = await readKeysFile(file);
        const usage = await readUsageFile(dataFiles(dataDirOf(values, io)).usage);
        const rows = keys.keys.map((k) => ({
          key: k.key,
          created_at: k.created_at,
          secret_created_at: k.secret_created_at,
          allowance: k.allowance ?? null,
          copies_used: copiesOf(usage, k.key),
        }));
        printKeyRows(io, values.json, rows, file);
        return 0;
      }
      default:
        throw new UsageError(`unknown keys command "${sub}" (create, regenerate, list, revoke)`);
    }
  } catch (e) {
    if (e instanceof UnknownKey || e instanceof KeysFileError) throw new CliError(e.message);
    throw e;
  }
}

function allowanceOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw))
    throw new UsageError(`--allowance: expected a whole number of copies, got "${raw}"`);
  return Number(raw);
}

function printKeyRows(
  io: CliIo,
  json: boolean | undefined,
  rows: {
    key: string;
    created_at: string;
    secret_created_at: string;
    allowance: number | null;
    copies_used: number;
    /** A site key's permission to save templates. */
    templates_write?: boolean;
  }[],
  where: string,
): void {
  if (json) io.stdout(JSON.stringify(rows, null, 2) + '\n');
  else if (!rows.length) io.stderr(`no keys in ${where} (create one: labeldesk keys create)\n`);
  else {
    for (const r of rows) {
      const allowance = r.allowance === null ? 'unlimited' : `${r.copies_used}/${r.allowance} copies`;
      const write = r.templates_write ? '  templates-write' : '';
      io.stdout(`${r.key}  created ${r.created_at}  secret ${r.secret_created_at}  ${allowance}${write}\n`);
    }
  }
}

/** `labeldesk keys … --database URL`: the same commands on the site database. */
async function siteKeysCommand(
  sub: string,
  positionals: string[],
  url: string,
  create: { allowance?: number; templatesWrite: boolean },
  json: boolean | undefined,
  io: CliIo,
): Promise<number> {
  const db = await openSiteDatabase(url);
  try {
    const keys = siteKeys(db, cliActor(io));
    switch (sub) {
      case 'create':
        if (positionals.length) throw new UsageError('keys create takes no arguments');
        printSecret(io, json, await keys.create(create));
        return 0;
      case 'regenerate':
        printSecret(io, json, await keys.regenerate(oneKey(positionals, 'regenerate')));
        return 0;
      case 'revoke': {
        const key = oneKey(positionals, 'revoke');
        await keys.revoke(key);
        io.stderr(`revoked ${key}\n`);
        return 0;
      }
      case 'list': {
        const rows = (await keys.list()).map((k) => ({
          key: k.key,
          created_at: k.created_at,
          secret_created_at: k.secret_created_at,
          allowance: k.allowance ?? null,
          copies_used: k.used,
          templates_write: k.templatesWrite,
        }));
        printKeyRows(io, json, rows, 'the site database');
        return 0;
      }
      default:
        throw new UsageError(`unknown keys command "${sub}" (create, regenerate, list, revoke)`);
    }
  } catch (e) {
    if (e instanceof UnknownKey) throw new CliError(e.message);
    throw e;
  } finally {
    await db.close();
  }
}

export async function usageCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { ...dataDirOption, json: { type: 'boolean' } });
  if (values.help) {
    io.stdout(
      'Usage: labeldesk usage [--json] [--data-dir DIR]\n\nRequests and copies rendered per API key and route.\n',
    );
    return 0;
  }
  const usage = await readUsageFile(dataFiles(dataDirOf(values, io)).usage).catch((e: Error) => {
    throw new CliError(e.message);
  });
  if (values.json) {
    io.stdout(JSON.stringify(usage.keys, null, 2) + '\n');
    return 0;
  }
  const rows = Object.entries(usage.keys).flatMap(([key, routes]) =>
    Object.entries(routes).map(([route, c]) => [key, route, String(c.requests), String(c.copies)]),
  );
  const header = ['KEY', 'ROUTE', 'REQUESTS', 'COPIES'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows])
    io.stdout(
      row
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd() + '\n',
    );
  return 0;
}
