/**
 * The outbound fetch policy of `labeldesk serve` (issue #16, item 2), over real HTTP with real listeners: one
 * on 127.0.0.1 stands in for an internal host (it must never be contacted), one on 127.0.0.2 for an intranet
 * logo server the site allowed (`imageHosts: ['127.0.0.2/32']`). Every failure answers the same sentence, so a
 * key holder cannot tell a port or path that exists from one that does not.
 */
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundled, startHarness, writeTemplate, type Harness } from './harness';
import { listen, whitePng, type Listener } from './hostile';

let h: Harness;
let internal: Listener;
let intranet: Listener;
let png: Buffer;

const UNIFORM =
  'cannot be fetched as an image: the server fetches only public http(s) addresses that answer with a PNG, JPEG or SVG of up to 10 KiB within 10 s';

function serve(res: ServerResponse, path: string): void {
  if (path === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  else if (path === '/text') res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  else if (path === '/big') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(20_000));
  else if (path === '/to-internal') res.writeHead(302, { location: `${internal.url}/logo.png` }).end();
  else if (path === '/to-self') res.writeHead(301, { location: '/logo.png' }).end();
  else if (path === '/loop') res.writeHead(307, { location: '/loop' }).end();
  else res.writeHead(404).end('not found');
}

beforeAll(async () => {
  png = await whitePng(40, 40);
  internal = await listen((req, res) => serve(res, (req.url ?? '').split('?')[0] ?? ''));
  intranet = await listen((req, res) => serve(res, (req.url ?? '').split('?')[0] ?? ''), '127.0.0.2');
  h = await startHarness({ imageHosts: ['127.0.0.2/32'], limits: { imageBytes: 10 * 1024 } });
  writeTemplate(h.templatesDir, 'logo-2x1', {
    ...bundled('product-2x1'),
    fields: [{ name: 'logo', label: 'Logo', placeholder: 'logo.png' }],
    elements: [{ type: 'image', x: 4, y: 4, width: 40, height: 40, url: '{logo}' }],
  });
});

afterAll(async () => {
  await h?.close();
  await internal?.close();
  await intranet?.close();
});

/** The answer for a label whose logo is `url`, strict (an image that cannot be loaded fails the request). */
async function render(url: string) {
  return h.post('render-zpl', { label_name: 'logo-2x1', amount: 1, apiData: { logo: url }, strict: true });
}

function expectUniformRefusal(a: Awaited<ReturnType<typeof render>>, url: string): void {
  expect(a.status).toBe(422);
  expect(a.json.field).toBe('apiData.logo');
  expect(a.json.message).toBe(`elements[0] (image): image ${url}: ${UNIFORM} (value from apiData.logo)`);
}

describe('refused by address, after resolution, before any connection', () => {
  const targets = {
    'loopback, a path that exists': () => `${internal.url}/logo.png`,
    'loopback, a path that does not': () => `${internal.url}/nope`,
    'loopback, a closed port': () => 'http://127.0.0.1:1/logo.png',
    'localhost (resolves to loopback)': () => `${internal.url.replace('127.0.0.1', 'localhost')}/logo.png`,
    'IPv4-mapped IPv6 loopback': () => `${internal.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')}/logo.png`,
    'IPv6 loopback': () => 'http://[::1]/logo.png',
    '0.0.0.0 (this host)': () => `${internal.url.replace('127.0.0.1', '0.0.0.0')}/logo.png`,
    'a private address': () => 'http://10.255.255.1/logo.png',
    'carrier-grade NAT': () => 'http://100.64.0.1/logo.png',
    'link-local (cloud metadata)': () => 'http://169.254.169.254/latest/meta-data/',
    'unique-local IPv6': () => 'http://[fd00::1]/logo.png',
    'a decimal IPv4 literal (URL parsing makes it 127.0.0.1)': () => 'http://2130706433/logo.png',
    'an allowed host redirecting to loopback': () => `${intranet.url}/to-internal`,
  };

  test.each(Object.keys(targets) as (keyof typeof targets)[])('%s', async (name) => {
    const url = targets[name]();
    expectUniformRefusal(await render(url), url);
    expect(internal.hits).toEqual([]);
  });
});

describe('an allowed host: redirects checked hop by hop, caps, and still one message', () => {
  test('an image, directly or through a redirect on the same host, is drawn', async () => {
    expect((await render(`${intranet.url}/logo.png`)).status).toBe(200);
    expect((await render(`${intranet.url}/to-self`)).status).toBe(200);
  });

  const failures = {
    '404': '/nope',
    'not an image': '/text',
    'larger than the byte cap': '/big',
    'a redirect loop (at most 3 redirects)': '/loop',
  };

  test.each(Object.keys(failures) as (keyof typeof failures)[])('%s: the same sentence', async (name) => {
    const url = `${intranet.url}${failures[name]}`;
    expectUniformRefusal(await render(url), url);
  });

  test('a closed port on the allowed host: the same sentence', async () => {
    const url = 'http://127.0.0.2:1/logo.png';
    expectUniformRefusal(await render(url), url);
  });

  test('the redirect loop stopped after 3 redirects', async () => {
    const before = intranet.hits.filter((p) => p.startsWith('/loop')).length;
    await render(`${intranet.url}/loop?again`);
    expect(intranet.hits.filter((p) => p.startsWith('/loop')).length - before).toBe(4);
  });
});

describe('an SVG image cannot reach a file or URL', () => {
  test('an SVG value referring to a PNG on the server: 422 with strict, left out without; never drawn', async () => {
    const file = join(import.meta.dirname, '../../../assets/images/logo.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><image width="40" height="40" href="${file}"/></svg>`;
    const url = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    const strict = await render(url);
    expect(strict.status).toBe(422);
    expect(strict.json.field).toBe('apiData.logo');
    expect(strict.json.message).toContain('an SVG image may embed only data: images');
    const lenient = await h.post('render-zpl', { label_name: 'logo-2x1', amount: 1, apiData: { logo: url } });
    expect(lenient.status).toBe(200);
    expect(lenient.headers.get('x-labeldesk-warnings') ?? '').toContain(
      'an SVG image may embed only data: images',
    );
  });
});

describe('configuration', () => {
  test('an allowlist entry that is neither a host nor an address or range is refused when the server starts', async () => {
    await expect(startHarness({ imageHosts: ['http://intranet/'] })).rejects.toThrow(
      '"http://intranet/" is neither a host name nor an IP address or CIDR range (like 10.1.2.0/24)',
    );
  });
});
