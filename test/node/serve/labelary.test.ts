/**
 * `labeldesk serve --labelary` (issue #33 item 5): Labelary's ZPL web service shape, answered by a real server.
 * The npm package `labelary` (a Labelary client) renders through it with only its base URL changed; the PNG is
 * the label's size in dots and its bar code reads back; the PDF has a page per label. Then what a hostile or
 * careless client sends: every budget refused with its status and a sentence, before the work.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CORPUS } from '../../zpl/read/corpus';
import { zbarValues } from '../../support/zbar';
import { startHarness, type Harness } from './harness';

const parcel = CORPUS.find((l) => l.name === 'parcel-code128')!;
const ROUTE = '/v1/printers/8dpmm/labels/4x6';

interface LabelaryClient {
  importZplLabel(label: string, format: string, filename: string): [string, unknown];
  determineLabelFormat(format: 'PNG' | 'PDF'): [Record<string, string>, string];
  determineLabelIndex(index: 'Single-page' | 'Multi-page'): string;
  labelaryApiRequest(
    density: string,
    size: string,
    index: string,
    label: [string, unknown],
    format: [Record<string, string>, string],
  ): Promise<{ statusCode: number; headers: Record<string, string> } | Error>;
}

/** The npm package's lib/labelary.js as published, its base URL (api.labelary.com) pointed at `base`. */
function labelaryClientAt(base: string): LabelaryClient {
  const require = createRequire(import.meta.url);
  const file = require.resolve('labelary/lib/labelary.js');
  const source = readFileSync(file, 'utf8');
  expect(source).toContain('http://api.labelary.com/v1/');
  const module = new Module(file) as Module & { _compile(code: string, filename: string): void };
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    dirname(file),
  );
  module._compile(source.replaceAll('http://api.labelary.com', base), file);
  return module.exports as LabelaryClient;
}

async function post(url: string, body: BodyInit, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', body, headers });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Width and height of a PNG, from its IHDR. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('serve --labelary', () => {
  let harness: Harness;
  let dir: string;
  beforeAll(async () => {
    // The harness's clock stands still, so a rate per second would stop the suite: the rate has its own test.
    harness = await startHarness({ labelary: { perSecond: 1_000_000, labels: 3, bodyBytes: 64 * 1024 } });
    dir = mkdtempSync(join(tmpdir(), 'ld-labelary-'));
  });
  afterAll(async () => {
    await harness.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the labelary npm client, pointed at the server, gets the PNG and the PDF', async () => {
    const client = labelaryClientAt(harness.url);
    const zplFile = join(dir, 'parcel.zpl');
    writeFileSync(zplFile, `${parcel.zpl}\n^XA^FO50,50^A0N,40,40^FDSecond label^FS^XZ\n`);

    const pngFormat = client.determineLabelFormat('PNG');
    const png = client.importZplLabel(join(dir, 'one'), pngFormat[1], zplFile);
    const pngAnswer = await client.labelaryApiRequest(
      '8dpmm',
      '4x6',
      client.determineLabelIndex('Single-page'),
      png,
      pngFormat,
    );
    expect(pngAnswer).not.toBeInstanceOf(Error);
    expect((pngAnswer as { headers: Record<string, string> }).headers['x-total-count']).toBe('2');
    const image = readFileSync(join(dir, 'one.png'));
    expect(pngSize(image)).toEqual({ width: 4 * 203, height: 6 * 203 });
    expect(zbarValues(join(dir, 'one.png'))).toEqual(parcel.barcodes);

    const pdfFormat = client.determineLabelFormat('PDF');
    const pdf = client.importZplLabel(join(dir, 'all'), pdfFormat[1], zplFile);
    const pdfAnswer = await client.labelaryApiRequest(
      '8dpmm',
      '4x6',
      client.determineLabelIndex('Multi-page'),
      pdf,
      pdfFormat,
    );
    expect(pdfAnswer).not.toBeInstanceOf(Error);
    const info = execFileSync('pdfinfo', [join(dir, 'all.pdf')], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+2\n/);
    expect(info).toMatch(/Page size:\s+288 x 432 pts/);
    // The first page, drawn by poppler at 203 dpi, scans as the PNG did.
    execFileSync('pdftoppm', [
      '-r',
      '203',
      '-f',
      '1',
      '-l',
      '1',
      '-png',
      join(dir, 'all.pdf'),
      join(dir, 'page'),
    ]);
    expect(zbarValues(join(dir, 'page-1.png'))).toEqual(parcel.barcodes);
  });

  test('the raw body as curl --data sends it; decimals in the size; 12 dpmm is 300 dpi', async () => {
    const { response, bytes } = await post(
      `${harness.url}/v1/printers/12dpmm/labels/2.5x1.25/0/`,
      parcel.zpl,
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(pngSize(bytes)).toEqual({ width: 750, height: 375 });
  });

  test('GET with the ZPL in the path', async () => {
    const zpl = encodeURIComponent('^XA^FO50,50^BY2^BCN,100,Y,N,N^FD12345678^FS^XZ');
    const response = await fetch(`${harness.url}${ROUTE}/0/${zpl}`);
    expect(response.status).toBe(200);
    const file = join(dir, 'get.png');
    writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
    expect(zbarValues(file)).toEqual(['12345678']);
  });

  test('API key headers are accepted, and a wrong secret is refused', async () => {
    const ok = await post(`${harness.url}${ROUTE}/0/`, parcel.zpl, {
      'x-api-key': harness.key,
      'x-api-secret': harness.secret,
    });
    expect(ok.response.status).toBe(200);
    const wrong = await post(`${harness.url}${ROUTE}/0/`, parcel.zpl, {
      'x-api-key': harness.key,
      'x-api-secret': 'lds_wrong',
    });
    expect(wrong.response.status).toBe(401);
    expect(new TextDecoder().decode(wrong.bytes)).toMatch(/^ERROR: the API key or secret is wrong/);
  });

  test('each budget is refused with its status and a sentence', async () => {
    const text = async (path: string, body: BodyInit, headers: Record<string, string> = {}) => {
      const { response, bytes } = await post(`${harness.url}${path}`, body, headers);
      return { status: response.status, body: new TextDecoder().decode(bytes), headers: response.headers };
    };
    const big = await text(`${ROUTE}/0/`, `^XA^FX${'x'.repeat(70 * 1024)}^XZ`);
    expect(big.status).toBe(413);
    expect(big.body).toBe('ERROR: the request body is larger than this server reads: at most 64 KB');

    const many = await text(`${ROUTE}/`, '^XA^FDa^FS^XZ'.repeat(4), { accept: 'application/pdf' });
    expect(many.status).toBe(413);
    expect(many.body).toBe('ERROR: the ZPL holds more than 3 labels: this server draws at most 3 a request');

    const huge = await text('/v1/printers/24dpmm/labels/100x100/0/', parcel.zpl);
    expect(huge.status).toBe(400);
    expect(huge.body).toBe(
      'ERROR: the label size 100 x 100 inches is larger than this server draws: at most 15 x 15 inches',
    );

    const density = await text('/v1/printers/7dpmm/labels/4x6/0/', parcel.zpl);
    expect(density.status).toBe(400);
    expect(density.body).toMatch(/print density "7dpmm" is not one of 6dpmm, 8dpmm, 12dpmm, 24dpmm/);

    const index = await text(`${ROUTE}/5/`, parcel.zpl);
    expect(index.status).toBe(400);
    expect(index.body).toBe('ERROR: label index 5 is out of range: the ZPL holds 1 label (indexes 0 to 0)');

    const noIndex = await text(`${ROUTE}/`, parcel.zpl, { accept: 'image/png' });
    expect(noIndex.status).toBe(400);
    expect(noIndex.body).toMatch(/a PNG is one label: give its index/);

    const empty = await text(`${ROUTE}/0/`, '', { 'content-type': 'text/plain' });
    expect(empty.status).toBe(400);
  });

  test('garbage is a blank label with warnings; text without a label is a 400', async () => {
    const blank = await post(`${harness.url}${ROUTE}/0/`, '^XA^QQ nonsense ^ZZ^XZ');
    expect(blank.response.status).toBe(200);
    expect(blank.response.headers.get('x-labeldesk-warnings')).toMatch(/\^QQ at byte 3/);
    expect(pngSize(blank.bytes)).toEqual({ width: 812, height: 1218 });
    const none = await post(`${harness.url}${ROUTE}/0/`, 'hello, no ZPL here');
    expect(none.response.status).toBe(400);
    expect(new TextDecoder().decode(none.bytes)).toBe('ERROR: the ZPL holds no label (^XA…^XZ)');
  });

  test('multipart without a "file" field is named', async () => {
    const form = new FormData();
    form.append('zpl', parcel.zpl);
    const { response, bytes } = await post(`${harness.url}${ROUTE}/0/`, form);
    expect(response.status).toBe(400);
    expect(new TextDecoder().decode(bytes)).toBe(
      'ERROR: the multipart body has no field "file" holding the ZPL',
    );
  });
});

test('the route is off unless --labelary turns it on', async () => {
  const harness = await startHarness();
  try {
    const { response } = await post(`${harness.url}${ROUTE}/0/`, parcel.zpl);
    expect(response.status).toBe(404);
  } finally {
    await harness.close();
  }
});

test('past its rate an address gets 429 with Retry-After; a key is not held to it', async () => {
  const harness = await startHarness({ labelary: { perSecond: 2 } });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await post(`${harness.url}${ROUTE}/0/`, parcel.zpl)).response.status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await post(`${harness.url}${ROUTE}/0/`, parcel.zpl);
    expect(refused.response.headers.get('retry-after')).toBe('1');
    expect(new TextDecoder().decode(refused.bytes)).toMatch(
      /^ERROR: more than 2 requests per second from this address; retry in 1 s/,
    );
    const keyed = await post(`${harness.url}${ROUTE}/0/`, parcel.zpl, harness.headers);
    expect(keyed.response.status).toBe(200);
  } finally {
    await harness.close();
  }
});

test('a body that is still coming holds no render: other clients are answered meanwhile', async () => {
  const harness = await startHarness({ labelary: {} });
  const socket = connect(harness.server.port, '127.0.0.1');
  socket.on('error', () => {}); // reset when the server closes
  try {
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${ROUTE}/0/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n^XA^FO`,
    );
    const other = await post(`${harness.url}${ROUTE}/0/`, parcel.zpl);
    expect(other.response.status).toBe(200);
    expect(harness.server.renderWorkers.jobs).toBe(0);
  } finally {
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await harness.close();
    await closed;
  }
});

test('a body that stops half-way is answered 408 and its connection closed once the request time is up', async () => {
  const harness = await startHarness({ labelary: {}, requestTimeoutMs: 500 });
  const socket = connect(harness.server.port, '127.0.0.1');
  socket.on('error', () => {});
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  try {
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${ROUTE}/0/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n^XA^FO`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(harness.server.renderWorkers.jobs).toBe(0);
  } finally {
    socket.destroy();
    await harness.close();
  }
}, 60_000);
