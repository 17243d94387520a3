/**
 * Contract tests: the hosted-API client against a real `labeldesk serve` (in process, real sockets, its own
 * data folder and key from `labeldesk keys create --json`). Every route, every error of spec §7 that a real
 * server can be made to produce, and `labeldesk render --api-url …` printing the same label as the local engine.
 * (A 500 cannot be provoked from outside a healthy server; the client's 500 handling is covered in client.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostedApiBackend } from '../../src/backends/backend';
import { virtualClock } from '../../src/base/clock';
import {
  AuthError,
  HostedTemplateNotFound,
  RateLimitedError,
  RfidError,
  ValidationError,
} from '../../src/backends/errors';
import { Pacer } from '../../src/backends/pacer';
import { ROUTE_NAMES, type RouteName } from '../../src/label-api/routes';
import { downloadSvgFiles } from '../../src/backends/svg-download';
import { serve } from '../../src/cli/serve-command';
import type { CliIo } from '../../src/cli/io';
import { cli } from '../support/cli';

interface Running {
  url: string;
  stop: () => Promise<void>;
}

const quietIo = (): CliIo => ({
  stdout: () => {},
  stderr: () => {},
  stdoutBytes: () => {},
  env: {},
  cwd: process.cwd(),
  readStdin: async () => '',
});

/** Starts `labeldesk serve --port 0` with `args`; resolves once it listens. */
async function startServe(args: string[]): Promise<Running> {
  let release!: () => void;
  const stop = new Promise<void>((r) => (release = r));
  let onUrl!: (url: string) => void;
  const listening = new Promise<string>((r) => (onUrl = r));
  const done = serve(['--port', '0', ...args], quietIo(), { stop, onListening: onUrl });
  const url = await Promise.race([
    listening,
    done.then((code) => Promise.reject(new Error(`serve exited with ${code}`))),
  ]);
  return {
    url,
    stop: async () => {
      release();
      await done;
    },
  };
}

async function createKey(dataDir: string): Promise<{ key: string; secret: string }> {
  const r = await cli(['keys', 'create', '--json', '--data-dir', dataDir]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { key: string; secret: string };
}

const TRACKING = '1Z999AA10123456784';
const REQ = { label_name: 'shipping-4x6', amount: 2, apiData: { tracking: TRACKING } };
const RFID = { label_name: 'rfid-asset-4x2', amount: 1, apiData: {} };

let dir: string;
let server: Running;
let creds: { key: string; secret: string };
let archive: string;

const client = (
  over: Partial<{ apiKey: string; apiSecret: string; pacer: Pacer; rateLimitRetries: number }> = {},
) =>
  new HostedApiBackend({
    baseUrl: server.url,
    apiKey: over.apiKey ?? creds.key,
    apiSecret: over.apiSecret ?? creds.secret,
    fetch: globalThis.fetch,
    clock: virtualClock(),
    ...(over.pacer ? { pacer: over.pacer } : {}),
    ...(over.rateLimitRetries !== undefined ? { rateLimitRetries: over.rateLimitRetries } : {}),
  });

const reject = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-contract-'));
  archive = join(dir, 'archive.pdf');
  writeFileSync(
    join(dir, 'printers.json'),
    JSON.stringify([{ id: 7, uri: `file://${archive}`, name: 'Archive' }]),
  );
  creds = await createKey(dir);
  server = await startServe(['--data-dir', dir, '--printers', join(dir, 'printers.json')]);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('every route through the client', () => {
  it('01 fetch-markups and 02 print: one validated Markup per copy, values resolved', async () => {
    for (const markups of [await client().fetchMarkups(REQ), await client().print(REQ)]) {
      expect(markups).toHaveLength(2);
      expect(markups[0]?.elements.find((e) => e.id === 'tracking')).toMatchObject({
        type: 'barcode',
        text: TRACKING,
      });
    }
  });

  it('04 print-relay-pdf: accepted, status sent_to_printer_png, the PDF delivered', async () => {
    expect(await client().printRelayPdf({ ...REQ, printer_id: 7 })).toEqual({
      status: 'sent_to_printer_png',
    });
    expect(existsSync(archive) && readFileSync(archive).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('05 export-svg: one file per copy, downloadable while valid', async () => {
    const result = await client().exportSvg(REQ);
    expect(result).toMatchObject({ status: 'svg_exported', ttl_hours: 24 });
    expect(result.files).toHaveLength(2);
    const files = await downloadSvgFiles(result, globalThis.fetch);
    expect(files[0]?.svg).toMatch(/<svg[\s>]/);
  });

  it('06 render-zpl: one ^XA…^XZ job per copy at the requested dpi', async () => {
    const zpl = await client().renderZpl({ ...REQ, dpi: 300, max_width_dots: 1200 });
    expect(zpl).toMatchObject({ dpi: 300, max_width_dots: 1200, count: 2 });
    expect(zpl.labels.every((l) => /^\^XA[\s\S]*\^XZ\s*$/.test(l))).toBe(true);
  });

  it('07 render-pdf: one base64 PDF per copy', async () => {
    const pdf = await client().renderPdf(REQ);
    expect(pdf).toMatchObject({ mime: 'application/pdf', encoding: 'base64', count: 2 });
    expect(
      Buffer.from(pdf.labels[1] ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('a key that matches no field is not an error: 200 and the placeholder (§7 rule 2)', async () => {
    const [m] = await client().fetchMarkups({
      label_name: 'shipping-4x6',
      amount: 1,
      apiData: { Ship_To_Name: 'x' },
    });
    expect(m?.elements.find((e) => e.id === 'ship_to_name')).toMatchObject({ text: 'RECIPIENT NAME' });
  });
});

describe('every error of spec §7 through the client', () => {
  const bodyFor = (route: RouteName, label_name: string) =>
    route === 'print-relay' || route === 'print-relay-pdf'
      ? { ...REQ, label_name, printer_id: 7 }
      : { ...REQ, label_name };

  it.each(ROUTE_NAMES)('%s: a wrong secret → AuthError (401)', async (route) => {
    const e = await reject(
      client({ apiSecret: 'not-the-secret' }).call(route, bodyFor(route, 'shipping-4x6')),
    );
    expect(e).toBeInstanceOf(AuthError);
    expect((e as AuthError).status).toBe(401);
  });

  it('a wrong key → AuthError', async () => {
    expect(await reject(client({ apiKey: 'nobody' }).fetchMarkups(REQ))).toBeInstanceOf(AuthError);
  });

  it.each(ROUTE_NAMES)(
    '%s: an unknown label_name → HostedTemplateNotFound (404 on 01–05, 422 on 06–07)',
    async (route) => {
      const e = (await reject(
        client().call(route, bodyFor(route, 'Shipping-4x6')),
      )) as HostedTemplateNotFound;
      expect(e).toBeInstanceOf(HostedTemplateNotFound);
      expect(e.status).toBe(route === 'render-zpl' || route === 'render-pdf' ? 422 : 404);
    },
  );

  it.each([
    ['render-pdf', RFID],
    ['print-relay-pdf', { ...RFID, printer_id: 7 }],
  ] as const)('%s: a template with an RFID element → RfidError (422)', async (route, body) => {
    const e = (await reject(client().call(route, body))) as RfidError;
    expect(e).toBeInstanceOf(RfidError);
    expect(e.status).toBe(422);
  });

  it.each([
    ['amount 0', 'render-zpl', { ...REQ, amount: 0 }, 'amount'],
    ['dpi 50', 'render-zpl', { ...REQ, dpi: 50 }, 'dpi'],
    ['max_width_dots 99', 'render-zpl', { ...REQ, max_width_dots: 99 }, 'max_width_dots'],
    ['a non-string value', 'fetch-markups', { ...REQ, apiData: { tracking: 5 } }, 'apiData.tracking'],
    ['an unknown printer_id', 'print-relay', { ...REQ, printer_id: 99 }, 'printer_id'],
  ] as const)('%s → ValidationError (422) naming the field', async (_what, route, body, field) => {
    const e = (await reject(client().call(route, body as never))) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.status).toBe(422);
    expect(e.field).toBe(field);
  });

  it('a regenerated secret stops the old one at once (401)', async () => {
    const mine = await createKey(dir);
    expect(await client({ apiKey: mine.key, apiSecret: mine.secret }).fetchMarkups(REQ)).toHaveLength(2);
    const r = await cli(['keys', 'regenerate', mine.key, '--json', '--data-dir', dir]);
    const renewed = JSON.parse(r.stdout) as { secret: string };
    expect(
      await reject(client({ apiKey: mine.key, apiSecret: mine.secret }).fetchMarkups(REQ)),
    ).toBeInstanceOf(AuthError);
    expect(await client({ apiKey: mine.key, apiSecret: renewed.secret }).fetchMarkups(REQ)).toHaveLength(2);
  });
});

describe('rate limit (429)', () => {
  it('over the server limit → retried after Retry-After (bounded), then RateLimitedError', async () => {
    const limitedDir = mkdtempSync(join(tmpdir(), 'ld-contract-rl-'));
    const limited = await startServe(['--data-dir', limitedDir, '--rate-limit', '3']);
    try {
      const key = await createKey(limitedDir);
      // The client's pacer is told 100/min, so the server's 3/min is what stops it.
      const clock = virtualClock();
      const unpaced = new HostedApiBackend({
        baseUrl: limited.url,
        apiKey: key.key,
        apiSecret: key.secret,
        fetch: globalThis.fetch,
        clock,
        pacer: new Pacer({ clock, limit: 100 }),
        rateLimitRetries: 2,
      });
      const req = { label_name: 'product-2x1', amount: 1, apiData: {} };
      for (let i = 0; i < 3; i++) await unpaced.fetchMarkups(req);
      const e = (await reject(unpaced.fetchMarkups(req))) as RateLimitedError;
      expect(e).toBeInstanceOf(RateLimitedError);
      expect(e.status).toBe(429);
      expect(e.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await limited.stop();
      rmSync(limitedDir, { recursive: true, force: true });
    }
  });
});

describe('labeldesk render --api-url against labeldesk serve', () => {
  it('prints the same ZPL as the local engine', async () => {
    const data = JSON.stringify({ tracking: TRACKING, ship_to_name: 'Ada Lovelace' });
    const local = await cli(['render', '--template', 'shipping-4x6', '--format', 'zpl', '--data', data]);
    const hosted = await cli(
      [
        'render',
        '--api-url',
        server.url,
        '--api-key',
        creds.key,
        '--api-secret',
        creds.secret,
        '--template',
        'shipping-4x6',
        '--format',
        'zpl',
        '--data',
        data,
      ],
      { env: { LABELDESK_DATA_DIR: join(dir, 'client') } },
    );
    expect(hosted.stderr).toBe('');
    expect(hosted.code).toBe(0);
    expect(hosted.stdout).toBe(local.stdout);
    expect(hosted.stdout).toMatch(/^\^XA/);
    // The client's own tally counted the render.
    const tally = JSON.parse(readFileSync(join(dir, 'client', 'hosted-usage.json'), 'utf8'));
    expect(tally.keys[creds.key]['render-zpl']).toEqual({ requests: 1, labels: 1 });
  });

  it('markup through the hosted API equals the local markup', async () => {
    const args = ['--template', 'product-2x1', '--data', '{"sku":"SKU-9"}', '--compact'];
    const local = await cli(['markup', ...args]);
    const hosted = await cli(['markup', ...args], {
      env: {
        LABELDESK_API_URL: server.url,
        LABELDESK_API_KEY: creds.key,
        LABELDESK_API_SECRET: creds.secret,
        LABELDESK_DATA_DIR: join(dir, 'client'),
      },
    });
    expect(hosted.code).toBe(0);
    expect(hosted.stdout).toBe(local.stdout);
  });
});
