/**
 * The renderer is served from `app://labeldesk/`, a privileged custom scheme, not from `file://`: the page's
 * origin is then its own (not every file on disk), and the `GrantFileProtocolExtraPrivileges` fuse can be off
 * (electron-builder.yml). Only files of the renderer's dist folder are answered; `..`, encoded separators and
 * other hosts are not found. Every answer carries the renderer's CSP.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { RENDERER_CSP_HEADER } from '../app/csp';
import { mimeFor } from '../app/mime';

export const APP_SCHEME = 'app';
export const APP_HOST = 'labeldesk';
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * For `protocol.registerSchemesAsPrivileged` (before the app is ready): a standard, secure origin whose ES
 * modules and fetch work as on https. Not bypassCSP, no service workers, no streaming.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  // The built index.html loads its modules with `crossorigin`: CORS-mode requests to our own origin.
  corsEnabled: true,
} as const;

/** Whether a URL is a page of ours (`app://labeldesk/…`). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** The file under `root` an `app://labeldesk/…` URL names, or null: another host, `..`, `\`, NUL, bad escapes. */
export function rendererFile(url: string, root: string): string | null {
  if (!isAppUrl(url)) return null;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const file = join(root, ...(segments.length ? segments : ['index.html']));
  const rel = relative(root, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? null : file;
}

const headers = (contentType: string) => ({
  'content-type': contentType,
  'content-security-policy': RENDERER_CSP_HEADER,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

/** The `protocol.handle('app', …)` handler: the renderer's files from `root`, nothing else. */
export function rendererHandler(root: string): (request: { url: string }) => Promise<Response> {
  return async (request) => {
    const file = rendererFile(request.url, root);
    if (file !== null) {
      try {
        return new Response(new Uint8Array(await readFile(file)), {
          status: 200,
          headers: headers(mimeFor(file)),
        });
      } catch {
        // Missing or a folder: not found, as for a path that leads out.
      }
    }
    return new Response('not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
  };
}
