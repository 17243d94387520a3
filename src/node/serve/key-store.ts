/**
 * Node-only: API keys of `labeldesk serve` (spec §5), in `keys.json` of the data folder.
 *
 * A key is an identifier (`ldk_…`, not secret); its secret (`lds_…`, 256 random bits) is shown once, when it is
 * created or regenerated, and stored only as an scrypt hash with a per-key salt. Files are replaced atomically.
 * The server re-reads the file when it changes (stat per request), so a regenerated or revoked secret stops
 * working on the very next request (spec §5 rule 4). Verified (key, secret) pairs are remembered as a SHA-256
 * of the pair, so scrypt runs once per key and secret, not per request; a key's memory is dropped when its
 * hash changes. Scrypt for pairs not remembered is rationed (see keyVerifier and auth-limits.ts).
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { jsonFile } from '../files/json-file';
import { fileVersionSync } from '../files/atomic-file';
import { failureWindow, isRefusal } from './auth-limits';
import { workGate } from './work-gate';

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

/**
 * Scrypt for new and regenerated secrets: 2^10 × 8 × 128 B = 1 MiB, ~2 ms. A slow hash protects secrets people
 * choose; ours are 256 random bits, which no guessing reaches at any hash speed (as API tokens stored as a
 * SHA-256 elsewhere), while each wrong secret a server checks costs its CPU: at 2^15 (~100 ms, the earlier
 * setting, which records made then keep) 45 wrong secrets in 10 s took half of a core (docs/performance.md).
 */
const SCRYPT = { N: 1024, r: 8, p: 1 } as const;
const HASH_BYTES = 32;
/** Failed attempts per address, as a multiple of those per key id. */
const ADDRESS_FACTOR = 5;

function derive(secret: string, salt: Buffer, params: z.infer<typeof ScryptParamsSchema>): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, HASH_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

/** keys.json as a jsonFile: a missing file is no keys; KeysFileError for a file that is not a keys file. */
const keysFile = (file: string) =>
  jsonFile(file, KeysFileSchema, { version: 1, keys: [] } as KeysFile, {
    notJson: () => new KeysFileError(`${file} is not valid JSON`),
    parse: (json) => {
      const parsed = KeysFileSchema.safeParse(json);
      if (!parsed.success) throw new KeysFileError(`${file} is not a LabelDesk keys file`);
      return parsed.data;
    },
  });

/** Reads keys.json; a missing file is no keys. Throws KeysFileError for a file that is not a keys file. */
export const readKeysFile = (file: string): Promise<KeysFile> => keysFile(file).read();

const nowIso = () => new Date().toISOString();

/** A new secret and its stored form (salt, hash, scrypt parameters). */
export async function newSecret(): Promise<{
  secret: string;
  salt: string;
  hash: string;
  scrypt: z.infer<typeof ScryptParamsSchema>;
}> {
  const secret = `lds_${randomBytes(32).toString('base64url')}`;
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, SCRYPT);
  return { secret, salt: salt.toString('base64'), hash: hash.toString('base64'), scrypt: { ...SCRYPT } };
}

/** A new key id (`ldk_` and 96 random bits, hex): an identifier, not a secret. */
export const newKeyId = (): string => `ldk_${randomBytes(12).toString('hex')}`;

/** Creates a key; returns it with its secret (the only time the secret exists outside the client). */
export async function createKey(
  file: string,
  opts: { allowance?: number } = {},
): Promise<{ key: string; secret: string }> {
  const key = newKeyId();
  let secret = '';
  await keysFile(file).update(async (keys) => {
    const made = await newSecret();
    secret = made.secret;
    const at = nowIso();
    keys.keys.push({
      key,
      salt: made.salt,
      hash: made.hash,
      scrypt: { ...SCRYPT },
      created_at: at,
      secret_created_at: at,
      ...(opts.allowance !== undefined ? { allowance: opts.allowance } : {}),
    });
    return keys;
  });
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
  let secret = '';
  await keysFile(file).update(async (keys) => {
    const record = keys.keys.find((k) => k.key === key);
    if (!record) throw new UnknownKey(key);
    const made = await newSecret();
    secret = made.secret;
    Object.assign(record, {
      salt: made.salt,
      hash: made.hash,
      scrypt: { ...SCRYPT },
      secret_created_at: nowIso(),
    });
    return keys;
  });
  return { key, secret };
}

export async function revokeKey(file: string, key: string): Promise<void> {
  await keysFile(file).update((keys) => {
    const left = keys.keys.filter((k) => k.key !== key);
    if (left.length === keys.keys.length) throw new UnknownKey(key);
    return { ...keys, keys: left };
  });
}

/** What a verification found; `throttled` means scrypt did not run (Retry-After: `retryAfterSeconds`). */
export type Verdict =
  | { outcome: 'valid'; record: KeyRecord }
  | { outcome: 'wrong' }
  | { outcome: 'throttled'; by: 'address' | 'key' | 'busy'; retryAfterSeconds: number };

export interface KeyVerifier {
  /** Whether `secret` is `key`'s current secret, asked from `address` (the client's IP). */
  verify(key: string, secret: string, address: string): Promise<Verdict>;
}

export interface VerifierOptions {
  /** Hears about an unreadable or corrupt keys file; every key is then refused (fail closed). */
  onError?: (e: unknown) => void;
  /**
   * Failed attempts per key id in any 60 s (default 60); per client address, five times as many, so one
   * attacked key does not stop the other keys of a shared address (a NAT: the whole site).
   */
  failuresPerMinute?: number;
  /**
   * Scrypts at once (default: the cores but one, at most 2 — of libuv's 4 threads, so file reads keep the
   * others) and waiting (default 16).
   */
  scryptRunning?: number;
  scryptWaiting?: number;
  now?: () => number;
}

/**
 * Where a verifier finds a key's record as it is now: keys.json (fileKeyRecords) or the site database
 * (src/node/site/site-keys.ts). Asked on every request, so a regenerated or revoked secret stops working on the
 * very next one. Throws only when the store cannot be read at all.
 */
export type KeyRecords = (key: string) => Promise<KeyRecord | undefined>;

/**
 * keys.json as it is now: one stat per request, re-read when it changed. An unreadable or corrupt file is
 * heard by `onError` and is no keys (fail closed).
 */
export function fileKeyRecords(file: string, onError: (e: unknown) => void = () => undefined): KeyRecords {
  let version = '';
  let records = new Map<string, KeyRecord>();
  return async (key) => {
    const next = fileVersionSync(file);
    if (next !== version) {
      let loaded: KeysFile;
      try {
        loaded = await readKeysFile(file);
      } catch (e) {
        onError(e);
        loaded = { version: 1, keys: [] };
      }
      records = new Map(loaded.keys.map((k) => [k.key, k]));
      version = next;
    }
    return records.get(key);
  };
}

/**
 * The server side: verifies against the key's record as it is now (`records`: one stat of keys.json, or one
 * query of the site database, per request). A pair verified once is remembered as a SHA-256 digest with the
 * record's hash, so a valid request costs no scrypt and never waits behind wrong secrets, whatever the limits
 * below say; the memory is no use once the key's hash changes (regenerated or revoked, also by `labeldesk
 * keys` in another process or on another instance). A pair not remembered needs a scrypt, which is bounded: a
 * slot in the failure windows of its key id and of its address is reserved first (given back if the secret is
 * right), and at most `scryptRunning` run at once; the same pair asked again while its check runs shares it.
 */
export function keyVerifier(source: string | KeyRecords, options: VerifierOptions = {}): KeyVerifier {
  const onError = options.onError ?? (() => undefined);
  const records = typeof source === 'string' ? fileKeyRecords(source, onError) : source;
  const now = options.now ?? Date.now;
  const limit = options.failuresPerMinute ?? 60;
  const perKey = failureWindow({ limit, now });
  const perAddress = failureWindow({ limit: limit * ADDRESS_FACTOR, now });
  // One core stays free for the event loop (each scrypt keeps a core busy for its ~50–100 ms).
  const scryptWaiting = options.scryptWaiting ?? 16;
  // One address holds at most half the places, so a flood from one leaves room for the others.
  const scrypts = workGate(
    options.scryptRunning ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
    scryptWaiting,
    Math.max(1, Math.ceil(scryptWaiting / 2)),
  );
  /** key → SHA-256 of (key, secret) verified against the record with `hash` and `salt`. */
  const verified = new Map<string, { pair: Buffer; hash: string; salt: string }>();
  // An unknown key still costs one scrypt, so timing does not tell which keys exist.
  const dummySalt = randomBytes(16);
  /**
   * Checks running now, by (key, secret) digest and the record's hash: the same pair asked again meanwhile
   * waits for that check instead of taking a scrypt place of its own — a WMS opening 32 connections with its
   * key right after an instance (re)started would otherwise find the places full and get 429 "busy". Each
   * attempt still reserves its failure slots, so a repeated wrong secret counts every time.
   */
  const checking = new Map<string, Promise<boolean>>();

  async function scryptCheck(record: KeyRecord | undefined, secret: string, pair: Buffer): Promise<boolean> {
    const derived = await derive(
      secret,
      record ? Buffer.from(record.salt, 'base64') : dummySalt,
      record?.scrypt ?? SCRYPT,
    );
    if (!record) return false;
    const stored = Buffer.from(record.hash, 'base64');
    if (stored.length !== derived.length || !timingSafeEqual(stored, derived)) return false;
    verified.set(record.key, { pair, hash: record.hash, salt: record.salt });
    return true;
  }

  return {
    async verify(key, secret, address) {
      const record = await records(key);
      const pair = createHash('sha256').update(key).update('\0').update(secret).digest();
      const known = verified.get(key);
      if (known && (!record || known.hash !== record.hash || known.salt !== record.salt))
        verified.delete(key);
      else if (record && known && timingSafeEqual(known.pair, pair)) return { outcome: 'valid', record };
      const byAddress = perAddress.reserve(address);
      if (isRefusal(byAddress)) return { outcome: 'throttled', by: 'address', ...byAddress };
      const byKey = perKey.reserve(key);
      if (isRefusal(byKey)) {
        byAddress.release();
        return { outcome: 'throttled', by: 'key', ...byKey };
      }
      const flight = `${pair.toString('hex')}:${record?.hash ?? ''}`;
      let running = checking.get(flight);
      if (!running) {
        const started = scrypts.run(() => scryptCheck(record, secret, pair), address);
        if (typeof started === 'string') {
          byAddress.release();
          byKey.release();
          return { outcome: 'throttled', by: 'busy', retryAfterSeconds: 1 };
        }
        running = started;
        checking.set(flight, started);
        started.then(
          () => checking.delete(flight),
          () => checking.delete(flight),
        );
      }
      if (!(await running)) return { outcome: 'wrong' };
      byAddress.release();
      byKey.release();
      // The record may have changed while scrypt ran (regenerated on another instance): ask again.
      const current = await records(key);
      return current && current.hash === record?.hash
        ? { outcome: 'valid', record: current }
        : { outcome: 'wrong' };
    },
  };
}
