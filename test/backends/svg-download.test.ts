/** Downloading exported SVGs while valid; a file is named by its copy number, never by its URL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../src/base/clock';
import {
  MalformedResponseError,
  SvgExpiredError,
  UnexpectedStatusError,
  UnreachableError,
} from '../../src/backends/errors';
import type { SvgExportResult } from '../../src/label-api/routes';
import { downloadSvgFiles } from '../../src/backends/svg-download';
import { closedPortUrl, startServer, type TestServer } from './support/http-server';

const TOKEN = 'public-token-9a8b7c';
let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.path.endsWith('/bad')) {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>login</html>');
    } else if (req.path.includes('/missing')) {
      res.writeHead(404);
      res.end();
    } else {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      res.end(
        `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" id="${req.path.split('/').pop()}"/>`,
      );
    }
  });
});
afterAll(() => server.close());

const clock = virtualClock(Date.UTC(2026, 9, 1));
const result = (paths: string[], expires = '2026-10-02T00:00:00+00:00'): SvgExportResult => ({
  status: 'svg_exported',
  ttl_hours: 24,
  expires_at: expires,
  files: paths.map((p, i) => ({
    url: `${server.url}/files/${TOKEN}/${p}`,
    path: `svg/${i}.svg`,
    expires_at: expires,
  })),
});

const message = (e: unknown) => `${(e as Error).message} ${JSON.stringify(e)}`;

describe('downloadSvgFiles', () => {
  it('downloads every file in copy order', async () => {
    const files = await downloadSvgFiles(result(['a', 'b']), globalThis.fetch, { clock });
    expect(files.map((f) => f.path)).toEqual(['svg/0.svg', 'svg/1.svg']);
    expect(files[1]?.svg).toContain('id="b"');
  });

  it('refuses files past expires_at before fetching anything', async () => {
    const before = server.received.length;
    const e = await downloadSvgFiles(result(['a'], '2026-09-30T00:00:00+00:00'), globalThis.fetch, {
      clock,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SvgExpiredError);
    expect((e as Error).message).toBe(
      'exported SVG file 1 expired at 2026-09-30T00:00:00+00:00; export it again',
    );
    expect(server.received.length).toBe(before);
  });

  it.each([
    ['a 404', ['a', 'missing'], UnexpectedStatusError, /exported SVG file 2 of 2 could not be downloaded/],
    ['not an SVG', ['bad'], MalformedResponseError, /exported SVG file 1 of 1 is not an SVG document/],
  ] as const)('%s: a typed error without the URL', async (_w, paths, type, text) => {
    const e = await downloadSvgFiles(result([...paths]), globalThis.fetch, { clock }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(type);
    expect(message(e)).toMatch(text);
    expect(message(e)).not.toContain(TOKEN);
  });

  it('an unreachable storage host: UnreachableError without the URL', async () => {
    const r = result(['a']);
    r.files[0]!.url = `${await closedPortUrl()}/files/${TOKEN}/a`;
    const e = await downloadSvgFiles(r, globalThis.fetch, { clock }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnreachableError);
    expect(message(e)).not.toContain(TOKEN);
  });
});
