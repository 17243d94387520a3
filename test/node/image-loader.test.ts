/**
 * The Node image loader against real sources: data: URLs, files, and a real HTTP server on 127.0.0.1 (fetched
 * once then cached; 404, a server that never answers, a server that stalls mid-body, a body over the size cap,
 * a closed port). Every failure is an ImageError whose message names the URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageError } from '../../src/layout/images';
import { createImageLoader } from '../../src/node/image-loader';
import { encodePng } from '../render/fixtures';

const PNG = encodePng(40, 30, new Uint8Array(40 * 30 * 4).fill(255));

/** The header of a baseline JPEG (SOI, APP0/JFIF, SOF0) of 321 × 123 px: all the loader reads. */
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x7b, 0x01, 0x41, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01,
  0x03, 0x11, 0x01, 0xff, 0xd9,
]);

const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32"/></svg>';

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

async function loadError(load: (urls: string[]) => Promise<unknown>, url: string): Promise<ImageError> {
  try {
    await load([url]);
  } catch (e) {
    expect(e).toBeInstanceOf(ImageError);
    return e as ImageError;
  }
  throw new Error(`${url} loaded, expected an ImageError`);
}

describe('data: URLs', () => {
  const load = createImageLoader();

  it('decodes a PNG and reads its size', async () => {
    const url = `data:image/png;base64,${b64(PNG)}`;
    const image = (await load([url])).get(url);
    expect(image).toMatchObject({ mime: 'image/png', width: 40, height: 30 });
    expect(Buffer.from(image!.data).equals(Buffer.from(PNG))).toBe(true);
  });

  it('sniffs a JPEG by its bytes although it is declared as PNG', async () => {
    const url = `data:image/png;base64,${b64(JPEG)}`;
    expect((await load([url])).get(url)).toMatchObject({ mime: 'image/jpeg', width: 321, height: 123 });
  });

  it('sniffs an SVG declared as text/plain, and reads a URL-encoded (non-base64) SVG', async () => {
    const declaredText = `data:text/plain;base64,${b64(SVG)}`;
    const encoded = `data:image/svg+xml,${encodeURIComponent(SVG)}`;
    const assets = await load([declaredText, encoded]);
    expect(assets.get(declaredText)).toMatchObject({ mime: 'image/svg+xml', width: 64, height: 32 });
    expect(assets.get(encoded)).toMatchObject({ mime: 'image/svg+xml', width: 64, height: 32 });
  });

  it('rejects data that is not an image, naming only the start of the URL', async () => {
    const url = `data:image/png;base64,${b64('hello, I am not a picture at all')}`;
    const e = await loadError(load, url);
    expect(e.message).toBe('image data:image/png;base64,…: is not a PNG, JPEG or SVG image');
  });

  it('rejects a data: URL over the size cap', async () => {
    const url = `data:image/png;base64,${b64(PNG)}`;
    const e = await loadError(createImageLoader({ maxBytes: 100 }), url);
    expect(e.message).toContain('is larger than the limit of 100 bytes');
  });
});

describe('files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-images-'));
    writeFileSync(join(dir, 'logo.png'), PNG);
    writeFileSync(join(dir, 'notes.txt'), 'shopping list: milk, eggs');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves relative paths against baseDir, and reads absolute paths and file: URLs', async () => {
    const load = createImageLoader({ baseDir: dir });
    const abs = join(dir, 'logo.png');
    const fileUrl = pathToFileURL(abs).href;
    const assets = await load(['logo.png', './logo.png', abs, fileUrl]);
    for (const url of ['logo.png', './logo.png', abs, fileUrl]) {
      expect(assets.get(url), url).toMatchObject({ mime: 'image/png', width: 40, height: 30 });
    }
  });

  it('names a missing file and where it looked', async () => {
    const e = await loadError(createImageLoader({ baseDir: dir }), 'missing.png');
    expect(e.message).toBe(`image missing.png: no such file (${join(dir, 'missing.png')})`);
  });

  it('rejects a file that is not an image', async () => {
    const e = await loadError(createImageLoader({ baseDir: dir }), 'notes.txt');
    expect(e.message).toBe('image notes.txt: is not a PNG, JPEG or SVG image');
  });

  it('rejects an unsupported scheme', async () => {
    const e = await loadError(createImageLoader(), 'ftp://files.example/logo.png');
    expect(e.message).toBe(
      'image ftp://files.example/logo.png: only data:, http(s):, file: URLs and file paths are supported',
    );
  });
});

describe('http(s)', () => {
  let server: Server;
  let base: string;
  const hits = new Map<string, number>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      switch (path) {
        case '/logo.png':
        case '/other.png':
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
          res.end(PNG);
          return;
        case '/never':
          return; // accepts the request and never answers
        case '/stalls':
          // Headers and the first bytes, then nothing: a link that drops mid-download.
          res.writeHead(200, { 'content-type': 'image/png' });
          res.write(PNG.subarray(0, 40));
          return;
        case '/breaks':
          // The connection drops mid-body.
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
          res.write(PNG.subarray(0, 40), () => setTimeout(() => res.socket?.destroy(), 20));
          return;
        case '/big-declared':
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': 5000 });
          res.end(Buffer.alloc(5000));
          return;
        case '/big-chunked':
          // No content-length: the cap must hold while streaming.
          res.writeHead(200, { 'content-type': 'image/png' });
          for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500, i === 0 ? 0x89 : 0));
          res.end();
          return;
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches an image once and serves it from the cache afterwards', async () => {
    const load = createImageLoader();
    const url = `${base}/logo.png`;
    const first = await load([url]);
    const second = await load([url]);
    expect(first.get(url)).toMatchObject({ mime: 'image/png', width: 40, height: 30 });
    expect(second.get(url)).toBe(first.get(url));
    expect(hits.get('/logo.png')).toBe(1);
  });

  it('fetches again what fell out of a full cache (least recently used first)', async () => {
    const load = createImageLoader({ cacheSize: 1 });
    const before = hits.get('/logo.png') ?? 0;
    await load([`${base}/logo.png`]);
    await load([`${base}/other.png`]);
    await load([`${base}/logo.png`]);
    expect((hits.get('/logo.png') ?? 0) - before).toBe(2);
  });

  it('names the URL and the status of a 404', async () => {
    const e = await loadError(createImageLoader(), `${base}/nope.png`);
    expect(e.message).toBe(`image ${base}/nope.png: the server answered 404`);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const e = await loadError(createImageLoader({ timeoutMs: 300 }), `${base}/never`);
    expect(e.message).toBe(`image ${base}/never: no answer within 0.3 s`);
  });

  it('gives up on a download that stalls after the headers, still naming the URL', async () => {
    const e = await loadError(createImageLoader({ timeoutMs: 300 }), `${base}/stalls`);
    expect(e.message).toMatch(new RegExp(`^image ${base}/stalls: no answer within 0\\.3 s`));
  });

  it('says so when the connection breaks off mid-download', async () => {
    const e = await loadError(createImageLoader(), `${base}/breaks`);
    expect(e.message).toBe(`image ${base}/breaks: cannot be fetched (the download broke off)`);
  });

  it('rejects a body over the size cap, declared or streamed', async () => {
    const load = createImageLoader({ maxBytes: 1000 });
    expect((await loadError(load, `${base}/big-declared`)).message).toBe(
      `image ${base}/big-declared: is 5000 bytes; the limit is 1000`,
    );
    expect((await loadError(load, `${base}/big-chunked`)).message).toBe(
      `image ${base}/big-chunked: is larger than the limit of 1000 bytes`,
    );
  });

  it('says a URL cannot be fetched when nothing listens (offline, host unreachable)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/logo.png`;
    const e = await loadError(createImageLoader(), url);
    expect(e.message).toBe(`image ${url}: cannot be fetched (offline or host unreachable)`);
  });

  it('fails the whole batch on one bad URL, naming that URL', async () => {
    await expect(createImageLoader()([`${base}/logo.png`, `${base}/gone.png`])).rejects.toThrow(
      `image ${base}/gone.png: the server answered 404`,
    );
  });
});
