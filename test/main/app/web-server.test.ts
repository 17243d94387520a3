/**
 * Web mode over real HTTP on loopback: the same services the Electron shell uses, a temp data folder, and the
 * guards that keep other pages and processes out.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { startWebServer, webCookieName, type WebServer } from '../../../main/app/web-server';
import { RENDERER_CSP } from '../../../main/app/csp';
import { packageRoot } from '../../../src/node/assets';
import type { AppEvent } from '../../../src/ipc/contract';

let dir: string;
let services: AppServices;
let server: WebServer;
const SECRET = 'sk-very-secret-4f9a2c';

async function call(channel: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-labeldesk-token': server.token, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: JSON.parse(text) as { ok: boolean; result?: any; error?: any },
  };
}

/** A raw request with a chosen Host header (fetch does not let a page set it; an attacker's DNS can). */
function rawRequest(path: string, host: string): Promise<number> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', 'x-labeldesk-token': server.token },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

/** A GET with a raw request line (fetch normalises `//host` paths away). */
function rawGet(path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: port(), path, method: 'GET' }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on('error', reject);
    req.end();
  });
}

const port = () => Number(new URL(server.origin).port);
/** The cookie the printed URL gives the browser. */
const signedIn = () => `${webCookieName(port())}=${server.token}`;

const ref = { source: 'bundled', name: 'shipping-4x6' } as const;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'labeldesk-web-'));
  const staticDir = join(dir, 'static');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>LabelDesk</title>');
  await writeFile(join(dir, 'outside.txt'), 'not served');
  services = await createAppServices({
    dataDir: join(dir, 'data'),
    shell: 'web',
    version: '0.0.0-test',
    cipher: plainCipher,
  });
  server = await startWebServer({ services, staticDir });
});

afterAll(async () => {
  await server.close();
  await services.close();
  await rm(dir, { recursive: true, force: true });
});

describe('web mode', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token', () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).toBe(`${server.origin}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(40);
  });

  it('serves nothing without the token: not even the page', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/?token=wrong']) {
      const res = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
      expect(res.status).toBe(401);
      expect(res.headers.get('set-cookie')).toBeNull();
      const text = await res.text();
      expect(text).not.toContain('<title>LabelDesk</title><body');
      expect(text).toContain('open the address LabelDesk printed');
    }
  });

  it('signs the browser in from the printed URL: an HttpOnly SameSite=Strict cookie, the token off the address bar', async () => {
    const res = await fetch(server.url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^${webCookieName(port())}=${server.token};`));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    // Other query parameters survive; a path that would leave the site does not.
    const deep = await fetch(`${server.origin}/index.html?token=${server.token}&x=1#y`, {
      redirect: 'manual',
    });
    expect(deep.headers.get('location')).toBe('/index.html?x=1');
    for (const path of ['//evil.example/', '/.//evil.example/', '/%2F%2Fevil.example/']) {
      const { status, location } = await rawGet(`${path}?token=${server.token}`);
      expect(status).toBe(303);
      expect(location).toMatch(/^\/(?![/\\])/);
    }
  });

  it('serves the renderer to a signed-in browser, and nothing outside its folder', async () => {
    const page = await fetch(`${server.origin}/`, { headers: { cookie: signedIn() } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>LabelDesk</title>');
    for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/..%2foutside.txt']) {
      const res = await fetch(`${server.origin}${path}`, { headers: { cookie: signedIn() } });
      expect(await res.text()).not.toContain('not served');
    }
    // Another run's cookie (another port) is not this one's.
    const other = await fetch(`${server.origin}/`, {
      headers: { cookie: `${webCookieName(port() + 1)}=${server.token}` },
    });
    expect(other.status).toBe(401);
  });

  it("answers the signed-in page's calls by its cookie, but never another origin's", async () => {
    const byCookie = await call('app.info', {}, { 'x-labeldesk-token': '', cookie: signedIn() });
    expect(byCookie.status).toBe(200);
    expect(byCookie.json.result.shell).toBe('web');
    const otherPort = await call(
      'app.info',
      {},
      { 'x-labeldesk-token': '', cookie: signedIn(), origin: `http://127.0.0.1:${port() + 1}` },
    );
    expect(otherPort.status).toBe(403);
  });

  it("sends the page's own Content Security Policy, without unsafe-inline, on every response", async () => {
    const html = readFileSync(join(packageRoot(), 'renderer', 'index.html'), 'utf8');
    const declared = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(declared).toBe(RENDERER_CSP);
    expect(declared).not.toContain('unsafe-inline');
    for (const res of [
      await fetch(`${server.origin}/`, { headers: { cookie: signedIn() } }),
      await fetch(`${server.origin}/`),
      await fetch(`${server.origin}/ipc/app.info`, { method: 'POST', headers: { cookie: signedIn() } }),
    ]) {
      expect(res.headers.get('content-security-policy')).toBe(`${RENDERER_CSP}; frame-ancestors 'none'`);
    }
  });

  it('refuses calls without the token, from another origin, or for another host name', async () => {
    const noToken = await call('app.info', {}, { 'x-labeldesk-token': 'wrong' });
    expect(noToken.status).toBe(401);
    expect(noToken.json.ok).toBe(false);
    const otherSite = await call('app.info', {}, { origin: 'http://evil.example' });
    expect(otherSite.status).toBe(403);
    expect(await rawRequest('/ipc/app.info', 'evil.example')).toBe(421);
    expect(await rawRequest('/ipc/app.info', `localhost:${new URL(server.origin).port}`)).toBe(200);
  });

  it('lets no token holder point a printer at a file outside the chosen folder, or choose the folder', async () => {
    // No folder chosen in this run: no file printer at all, and a payload cannot choose one.
    const target = join(dir, 'outside.txt');
    const saved = await call('printers.save', { name: 'Overwrite', uri: `file://${target}` });
    expect(saved.json).toMatchObject({
      ok: false,
      error: { code: 'invalid', field: 'uri', action: 'settings' },
    });
    const folder = await call('settings.update', { filePrinterFolder: dir });
    expect(folder.status).toBe(400);
    const dialog = await call('settings.chooseFilePrinterFolder', {});
    expect(dialog.json).toMatchObject({ ok: false, error: { field: 'filePrinterFolder' } });
    expect((await call('printers.list', {})).json.result).toEqual([]);
    expect(await readFile(target, 'utf8')).toBe('not served');
  });

  it('parses every payload: a bad one names the channel, the field and the problem', async () => {
    const bad = await call('preview.scene', { ref: { source: 'bundled' }, values: {} });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'bad-request', field: 'ref.name' });
    // The sentence names the field by its label, never the channel or the property path (#42 item 13).
    expect(bad.json.error.message).toMatch(/^Name: /);
    expect(bad.json.error.message).not.toMatch(/preview\.scene|ref\.name/);
    const extra = await call('printers.list', { sneaky: true });
    expect(extra.json.error.code).toBe('bad-request');
    const unknown = await call('fs.readFile', {});
    expect(unknown.status).toBe(404);
    const notJson = await fetch(`${server.origin}/ipc/app.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-labeldesk-token': server.token },
      body: '{not json',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error.code).toBe('bad-request');
  });

  it('lists the bundled templates and previews one, reporting field problems by field', async () => {
    const list = await call('templates.list', {});
    expect(list.json.result.templates.map((t: any) => t.ref.name)).toContain('shipping-4x6');
    const detail = await call('templates.get', { ref });
    expect(detail.json.result.template.fields.map((f: any) => f.name)).toContain('tracking');
    // The tracking barcode's element points at the tracking field (click-to-focus).
    expect(Object.values(detail.json.result.elementFields).flat()).toContain('tracking');

    const preview = await call('preview.scene', { ref, values: { ship_to_name: 'Ada Lovelace' } });
    const { scene, problems } = preview.json.result;
    expect(scene.unit).toBe('px');
    const texts = JSON.stringify(scene);
    expect(texts).toContain('Ada Lovelace');
    // Required fields left empty are named; the one typed is not.
    const fields = problems.map((p: any) => p.field);
    expect(fields).toContain('tracking');
    expect(fields).not.toContain('ship_to_name');
  });

  it('answers a missing template with a sentence, not a stack', async () => {
    const missing = await call('templates.get', { ref: { source: 'bundled', name: 'no-such-label' } });
    expect(missing.json.error.code).toBe('not-found');
    expect(missing.json.error.message).toContain('no-such-label');
    expect(missing.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('keeps the API secret in main: stored, reported as present, never sent back', async () => {
    const updated = await call('settings.update', {
      apiBaseUrl: 'http://127.0.0.1:9/api',
      apiKey: 'key-1',
      apiSecret: SECRET,
      mode: 'hosted',
    });
    expect(updated.json.result.hasSecret).toBe(true);
    const responses = await Promise.all([
      call('settings.get', {}),
      call('connection.status', {}),
      call('connection.test', {}),
    ]);
    for (const r of responses) expect(r.text).not.toContain(SECRET);
    // Unreachable host: a sentence that says so, and the test fails honestly.
    expect(responses[2]!.json.result.ok).toBe(false);
    expect(responses[2]!.json.result.message).toMatch(/unreachable/i);
  });

  it('pushes events to subscribers over Server-Sent Events', async () => {
    const events: AppEvent[] = [];
    const isLocal = (e: AppEvent) => e.kind === 'connection' && e.status.backend === 'local';
    const controller = new AbortController();
    const stream = await fetch(`${server.origin}/events?token=${server.token}`, {
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.getReader();
    const reading = (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += new TextDecoder().decode(value);
        for (const m of buffer.matchAll(/^data: (.*)$/gm)) events.push(JSON.parse(m[1]!));
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
        // The status this test's settings change causes (one from an earlier test's call may come first).
        if (events.some(isLocal) || events.length > 10) return;
      }
    })();
    await call('settings.update', { mode: 'local' });
    await reading;
    controller.abort();
    expect(events.find(isLocal)).toMatchObject({ kind: 'connection', status: { backend: 'local' } });
    const refused = await fetch(`${server.origin}/events?token=nope`);
    expect(refused.status).toBe(401);
  });
});
