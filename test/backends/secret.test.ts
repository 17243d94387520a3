/**
 * The API secret never appears in an error message, a stack, a cause chain, JSON.stringify or util.inspect of
 * an error, a log event, or CLI output — even when the server (or a proxy) echoes it back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostedApiClient, type ApiLogEvent } from '../../src/backends/hosted-client';
import { virtualClock } from '../../src/base/clock';
import { cli } from '../support/cli';
import { closedPortUrl, json, startServer, type Handler, type TestServer } from './support/http-server';

const SECRET = 'sk_live_TOPSECRET_4242';
let server: TestServer;
let dataDir: string;
beforeAll(async () => {
  server = await startServer((_q, res) => json(res, 200, []));
  dataDir = mkdtempSync(join(tmpdir(), 'ld-secret-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Everything an error exposes, flattened to text. */
function exposed(e: unknown): string {
  const parts: string[] = [String(e), JSON.stringify(e), inspect(e, { depth: 10, showHidden: true })];
  let current: unknown = e;
  for (let i = 0; i < 10 && current instanceof Error; i++) {
    parts.push(
      current.message,
      current.stack ?? '',
      JSON.stringify(current),
      inspect(current, { depth: 10, showHidden: true }),
    );
    current = current.cause;
  }
  return parts.join('\n');
}

const echo =
  (status: number): Handler =>
  (req, res) =>
    json(res, status, {
      message: `bad secret ${req.headers['x-api-secret']}`,
      field: String(req.headers['x-api-secret']),
    });

const scenarios: [string, Handler][] = [
  ['401 echoing the secret', echo(401)],
  ['403 echoing the secret', echo(403)],
  ['422 echoing the secret', echo(422)],
  ['500 echoing the secret', echo(500)],
  ['429 echoing the secret', echo(429)],
  ['404 echoing the secret', echo(404)],
  [
    'an HTML page echoing the secret',
    (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<p>${req.headers['x-api-secret']}</p>`);
    },
  ],
  [
    'malformed JSON echoing the secret',
    (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"x": ${req.headers['x-api-secret']}`);
    },
  ],
  [
    'a wrong shape echoing the secret',
    (req, res) =>
      json(res, 200, [
        { stage: req.headers['x-api-secret'], elements: [{ type: req.headers['x-api-secret'] }] },
      ]),
  ],
  [
    'a redirect echoing the secret',
    (req, res) => {
      res.writeHead(302, { Location: `https://app.example/login?s=${req.headers['x-api-secret']}` });
      res.end();
    },
  ],
  ['a reset connection', (_q, _res, raw) => void raw.socket.destroy()],
  ['no answer (timeout)', () => new Promise(() => {})],
];

describe('the secret stays secret', () => {
  it.each(scenarios)('%s', async (_name, handler) => {
    server.handle(handler);
    const log: ApiLogEvent[] = [];
    const client = new HostedApiClient({
      baseUrl: server.url,
      apiKey: 'key-1',
      apiSecret: SECRET,
      fetch: globalThis.fetch,
      clock: virtualClock(),
      timeoutMs: 200,
      rateLimitRetries: 1,
      log: (e) => log.push(e),
    });
    const error = await client.fetchMarkups({ label_name: 'x', amount: 1, apiData: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(exposed(error)).not.toContain(SECRET);
    expect(JSON.stringify(log)).not.toContain(SECRET);
    expect(JSON.stringify(client)).not.toContain(SECRET);
    expect(inspect(client, { depth: 5, showHidden: true })).not.toContain(SECRET);
  });

  it('what the server echoes is redacted, not dropped', async () => {
    server.handle(echo(422));
    const client = new HostedApiClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      fetch: globalThis.fetch,
    });
    const error = (await client
      .renderZpl({ label_name: 'x', amount: 1, apiData: {} })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('bad secret [redacted]');
  });

  it('a refused connection', async () => {
    const client = new HostedApiClient({
      baseUrl: await closedPortUrl(),
      apiKey: 'k',
      apiSecret: SECRET,
      fetch: globalThis.fetch,
    });
    const error = await client
      .renderZpl({ label_name: 'x', amount: 1, apiData: {} })
      .catch((e: unknown) => e);
    expect(exposed(error)).not.toContain(SECRET);
  });

  it('CLI output, from the flag and from the environment', async () => {
    server.handle(echo(401));
    const flag = await cli(
      [
        'render',
        '--api-url',
        server.url,
        '--api-key',
        'k',
        '--api-secret',
        SECRET,
        '--template',
        'x',
        '--format',
        'zpl',
      ],
      {
        env: { LABELDESK_DATA_DIR: dataDir },
      },
    );
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/check the API key and secret in Settings/);
    const env = await cli(['markup', '--template', 'x'], {
      env: {
        LABELDESK_API_URL: await closedPortUrl(),
        LABELDESK_API_KEY: 'k',
        LABELDESK_API_SECRET: SECRET,
        LABELDESK_DEBUG: '1',
        LABELDESK_DATA_DIR: dataDir,
      },
    });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/unreachable/);
    for (const r of [flag, env]) expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});
