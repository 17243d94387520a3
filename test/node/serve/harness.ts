/**
 * Test support for the contract tests of `labeldesk serve`: a real server on 127.0.0.1, port 0, in a fresh
 * data folder, with a key, a clock the test moves, captured logs, and a `post()` that speaks HTTP.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../../../src/node/serve/key-store';
import { startServer, type ApiServer, type ServerOptions } from '../../../src/node/serve/server';
import { rawTemplate } from '../../support/templates';

export interface Harness {
  server: ApiServer;
  url: string;
  dataDir: string;
  templatesDir: string;
  key: string;
  secret: string;
  headers: Record<string, string>;
  logs: string[];
  clock: { now: Date; advanceHours(h: number): void };
  post(route: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
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
  const { key, secret } = await createKey(join(dataDir, 'keys.json'));
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
    ...options,
  });
  const headers = { 'content-type': 'application/json', 'x-api-key': key, 'x-api-secret': secret };
  return {
    server,
    url: server.url,
    dataDir,
    templatesDir,
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
    async close() {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Adds a key as `labeldesk keys create` made it before new secrets got the ~2 ms scrypt: its record keeps
 * N=2^15 (~100 ms a check), the parameters it was made with.
 */
export function addKeyWithEarlierScrypt(dataDir: string): { key: string; secret: string } {
  const file = join(dataDir, 'keys.json');
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { version: 1; keys: Record<string, unknown>[] };
  const secret = `lds_${randomBytes(32).toString('base64url')}`;
  const salt = randomBytes(16);
  const params = { N: 32768, r: 8, p: 1 };
  const at = new Date().toISOString();
  const key = `ldk_${randomBytes(12).toString('hex')}`;
  stored.keys.push({
    key,
    salt: salt.toString('base64'),
    hash: scryptSync(secret, salt, 32, { ...params, maxmem: 64 * 1024 * 1024 }).toString('base64'),
    scrypt: params,
    created_at: at,
    secret_created_at: at,
  });
  writeFileSync(file, JSON.stringify(stored));
  return { key, secret };
}
