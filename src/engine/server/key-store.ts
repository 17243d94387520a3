/**
 * Node-only: API keys of `labeldesk serve` (spec §5), in `keys.json` of the data folder.
 *
 * A key is an identifier (`ldk_…`, not secret); its secret (`lds_…`, 256 random bits) is shown once, when it is
 * created or regenerated, and stored only as an scrypt hash with a per-key salt. Files are replaced atomically.
 * The server re-reads the file when it changes (stat per request), so a regenerated or revoked secret stops
 * working on the very next request (spec §5 rule 4). Verified (key, secret) pairs are remembered as a SHA-256
 * of the pair, so scrypt runs once per key and secret, not per request; the memory is dropped on any change.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { fileVersion, writeFileAtomic } from './atomic-file';

const ScryptParamsSchema = z.object({ N: z.number().int(), r: z.number().int(), p: z.number().int() });

export const KeyRecordSchema = z.object({
  key: z.string(),
  /** base64 */
  salt: z.string(),
  /** base64 scrypt(secret, salt) */
  hash: z.string(),
  scrypt: ScryptParamsSchema,
  created_at: z.string(),
  secret_created_at: z.string(),
  /** Copies this key may render in all (`keys create --allowance N`); none = unlimited. */
  allowance: z.number().int().min(0).optional(),
});

export const KeysFileSchema = z.object({ version: z.literal(1), keys: z.array(KeyRecordSchema) });

export type KeyRecord = z.infer<typeof KeyRecordSchema>;
export type KeysFile = z.infer<typeof KeysFileSchema>;

/** 2^15 × 8 × 128 B = 32 MiB per hash, ~50–100 ms: slow for guessing, once per secret for us (cached). */
const SCRYPT = { N: 32_768, r: 8, p: 1 } as const;
const HASH_BYTES = 32;

function derive(secret: string, salt: Buffer, params: z.infer<typeof ScryptParamsSchema>): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, HASH_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

/** Reads keys.json; a missing file is no keys. Throws KeysFileError for a file that is not a keys file. */
export async function readKeysFile(file: string): Promise<KeysFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: [] };
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new KeysFileError(`${file} is not valid JSON`);
  }
  const parsed = KeysFileSchema.safeParse(json);
  if (!parsed.success) throw new KeysFileError(`${file} is not a LabelDesk keys file`);
  return parsed.data;
}

const nowIso = () => new Date().toISOString();

async function newSecret(): Promise<{ secret: string; salt: string; hash: string }> {
  const secret = `lds_${randomBytes(32).toString('base64url')}`;
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, SCRYPT);
  return { secret, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

/** Creates a key; returns it with its secret (the only time the secret exists outside the client). */
export async function createKey(
  file: string,
  opts: { allowance?: number } = {},
): Promise<{ key: string; secret: string }> {
  const keys = await readKeysFile(file);
  const key = `ldk_${randomBytes(12).toString('hex')}`;
  const { secret, salt, hash } = await newSecret();
  const at = nowIso();
  keys.keys.push({
    key,
    salt,
    hash,
    scrypt: { ...SCRYPT },
    created_at: at,
    secret_created_at: at,
    ...(opts.allowance !== undefined ? { allowance: opts.allowance } : {}),
  });
  await writeFileAtomic(file, JSON.stringify(keys, null, 2) + '\n');
  return { key, secret };
}

export class UnknownKey extends Error {
  constructor(key: string) {
    super(`no API key "${key}" (see: labeldesk keys list)`);
    this.name = 'UnknownKey';
  }
}

/** A new secret for `key`; the previous one stops working at once (spec §5 rule 4). */
export async function regenerateKey(file: string, key: string): Promise<{ key: string; secret: string }> {
  const keys = await readKeysFile(file);
  const record = keys.keys.find((k) => k.key === key);
  if (!record) throw new UnknownKey(key);
  const { secret, salt, hash } = await newSecret();
  Object.assign(record, { salt, hash, scrypt: { ...SCRYPT }, secret_created_at: nowIso() });
  await writeFileAtomic(file, JSON.stringify(keys, null, 2) + '\n');
  return { key, secret };
}

export async function revokeKey(file: string, key: string): Promise<void> {
  const keys = await readKeysFile(file);
  const left = keys.keys.filter((k) => k.key !== key);
  if (left.length === keys.keys.length) throw new UnknownKey(key);
  await writeFileAtomic(file, JSON.stringify({ ...keys, keys: left }, null, 2) + '\n');
}

export interface KeyVerifier {
  /** The key's record when `secret` is its current secret, else undefined. */
  verify(key: string, secret: string): Promise<KeyRecord | undefined>;
}

/**
 * The server side: verifies against the file as it is now. `onError` hears about an unreadable or corrupt
 * keys file; every request is then refused (fail closed) until the file is fixed.
 */
export function keyVerifier(file: string, onError: (e: unknown) => void = () => undefined): KeyVerifier {
  let version = '';
  let records = new Map<string, KeyRecord>();
  /** key → SHA-256 of (key, secret) already verified against the current file. */
  let verified = new Map<string, Buffer>();
  // An unknown key still costs one scrypt, so timing does not tell which keys exist.
  const dummySalt = randomBytes(16);

  async function refresh(): Promise<void> {
    const next = await fileVersion(file);
    if (next === version) return;
    let loaded: KeysFile;
    try {
      loaded = await readKeysFile(file);
    } catch (e) {
      onError(e);
      loaded = { version: 1, keys: [] };
    }
    records = new Map(loaded.keys.map((k) => [k.key, k]));
    verified = new Map();
    version = next;
  }

  return {
    async verify(key, secret) {
      await refresh();
      const record = records.get(key);
      const pair = createHash('sha256').update(key).update('\0').update(secret).digest();
      const known = verified.get(key);
      if (record && known && timingSafeEqual(known, pair)) return record;
      const cache = verified;
      const derived = await derive(
        secret,
        record ? Buffer.from(record.salt, 'base64') : dummySalt,
        record?.scrypt ?? SCRYPT,
      );
      if (!record) return undefined;
      const stored = Buffer.from(record.hash, 'base64');
      if (stored.length !== derived.length || !timingSafeEqual(stored, derived)) return undefined;
      // Only remember it if the file did not change while scrypt ran.
      if (cache === verified) verified.set(key, pair);
      return record;
    },
  };
}
