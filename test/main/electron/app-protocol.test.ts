/**
 * The app:// handler the Electron shell serves the renderer with, on a real folder: its files with their
 * types and the CSP, and nothing else — not a file beside the folder, whatever the URL's spelling.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppUrl, rendererHandler } from '../../../main/electron/app-protocol';
import { RENDERER_CSP_HEADER } from '../../../main/app/csp';

let dir: string;
let serve: ReturnType<typeof rendererHandler>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-app-protocol-'));
  const root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>LabelDesk</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'export const x = 1;');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  serve = rendererHandler(root);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('app:// protocol', () => {
  it("serves the renderer's files with their type and the CSP", async () => {
    for (const url of ['app://labeldesk/', 'app://labeldesk/index.html']) {
      const page = await serve({ url });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(RENDERER_CSP_HEADER);
      expect(await page.text()).toContain('<title>LabelDesk</title>');
    }
    const script = await serve({ url: 'app://labeldesk/assets/index-abc.js?v=1#x' });
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('export const x = 1;');
  });

  it('answers nothing outside the folder, another host, or a folder itself', async () => {
    for (const url of [
      'app://labeldesk/../secret.txt',
      'app://labeldesk/%2e%2e/secret.txt',
      'app://labeldesk/assets/..%2f..%2fsecret.txt',
      'app://labeldesk/..%5csecret.txt',
      'app://labeldesk/%00index.html',
      'app://labeldesk/%E0%A4%A',
      'app://evil/index.html',
      'file:///etc/passwd',
      'app://labeldesk/assets',
      'app://labeldesk/missing.js',
    ]) {
      const res = await serve({ url });
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toContain('outside the renderer');
    }
  });

  it('knows our pages from others', () => {
    expect(isAppUrl('app://labeldesk/index.html#/settings')).toBe(true);
    expect(isAppUrl('app://labeldesk.evil/index.html')).toBe(false);
    expect(isAppUrl('file:///app/labeldesk/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});
