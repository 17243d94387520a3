/**
 * Web mode (`npm run web`): the renderer and the main-side services over localhost HTTP, with the same IPC
 * contract as the Electron shell, so the app runs in a browser where Electron cannot (and Playwright drives
 * it in Chromium).
 *
 *   GET  /?token=…         signs the browser in: an HttpOnly, SameSite=Strict cookie holding the token, then a
 *                          redirect to the same page without the token (not left in the address bar or history)
 *   GET  /                 the built renderer (dist/renderer)
 *   POST /ipc/<channel>    a contract call: JSON body parsed by the channel's schema
 *   GET  /events           Server-Sent Events: the pushed AppEvents
 *
 * Nothing answers without the token: every route wants the cookie, the token header (non-browser clients) or,
 * for /events, the token parameter. Guards: binds 127.0.0.1 only; a random 256-bit token per run
 * (constant-time compare); the Host header must name this server (DNS rebinding) and a cross-origin Origin is
 * refused, so another web page in the same browser cannot drive the printers (cookies are shared by every port
 * of 127.0.0.1, so the Origin check, not SameSite, is what keeps another local page out). Every response
 * carries the renderer's CSP.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { isChannelName } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { dispatch } from './dispatch';
import { WEB_EVENTS_PATH, WEB_IPC_PATH, WEB_TOKEN_HEADER, WEB_TOKEN_PARAM } from '../../src/ipc/http-client';
import type { AppServices } from './services';
import { RENDERER_CSP_HEADER } from './csp';
import { mimeFor } from './mime';

export interface WebServerOptions {
  services: AppServices;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); default random. */
  token?: string;
  /** Logs one line per failed request (never bodies or tokens). */
  log?: (line: string) => void;
}

export interface WebServer {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

/** One cookie per port: two web-mode runs on one machine must not sign each other out. */
export const webCookieName = (port: number) => `labeldesk-${port}`;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const SIGN_IN_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>LabelDesk</title>' +
  '<p>This browser is not signed in to LabelDesk: open the address LabelDesk printed when it started.</p></html>';

/** Same-length constant-time comparison. */
function tokenMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const log = options.log ?? (() => undefined);
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: 64 * 1024 * 1024,
    // Open event streams must not keep close() waiting.
    forceCloseConnections: true,
  });
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const refuse = (reply: FastifyReply, status: number, error: IpcError) =>
    reply.code(status).send({ ok: false, error: error.toBody() });
  const signInPage = (reply: FastifyReply) =>
    reply.code(401).header('content-type', 'text/html; charset=utf-8').send(SIGN_IN_PAGE);

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts().has(request.headers.host ?? '')) {
      return refuse(reply, 421, new IpcError('bad-request', 'Open LabelDesk at the address it printed.'));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
      return refuse(reply, 403, new IpcError('bad-request', 'Requests from other web pages are refused.'));
    }
    reply.header('x-content-type-options', 'nosniff');
    // The page's meta tag states the same policy; the header adds frame-ancestors, which a meta tag cannot.
    reply.header('content-security-policy', RENDERER_CSP_HEADER);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');

    const url = new URL(request.url, 'http://x');
    const isApi = url.pathname.startsWith(WEB_IPC_PATH) || url.pathname === WEB_EVENTS_PATH;
    const given = url.searchParams.get(WEB_TOKEN_PARAM);
    if (!isApi && given !== null && request.method === 'GET') {
      if (!tokenMatches(given, token)) return signInPage(reply);
      // Signed in: the token moves from the address bar to a cookie scripts cannot read.
      url.searchParams.delete(WEB_TOKEN_PARAM);
      reply.header('set-cookie', `${webCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`);
      // One leading slash: `//host` would send the browser to another site.
      const location = `/${url.pathname.replace(/^\/+/, '')}${url.search}`;
      return reply.code(303).header('location', location).send();
    }
    const signedIn =
      tokenMatches(request.headers[WEB_TOKEN_HEADER], token) ||
      tokenMatches(cookieValue(request.headers.cookie, webCookieName(port)), token) ||
      (url.pathname === WEB_EVENTS_PATH && tokenMatches(given, token));
    if (signedIn) return undefined;
    if (!isApi) return signInPage(reply);
    return refuse(
      reply,
      401,
      new IpcError(
        'bad-request',
        'This page is not signed in to LabelDesk: open the address LabelDesk printed.',
      ),
    );
  });

  app.post(
    `${WEB_IPC_PATH}:channel`,
    async (request: FastifyRequest<{ Params: { channel: string } }>, reply) => {
      const { channel } = request.params;
      if (!isChannelName(channel))
        return refuse(reply, 404, new IpcError('bad-request', `No channel "${channel}".`));
      const answer = await dispatch(options.services, channel, request.body, log);
      return reply.code(!answer.ok && answer.error.code === 'bad-request' ? 400 : 200).send(answer);
    },
  );
  // Any other method or a malformed body on /ipc answers in the contract's shape too.
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    const ipc =
      status < 500
        ? new IpcError('bad-request', `The request could not be read (${error.message ?? status}).`)
        : new IpcError('internal', 'LabelDesk could not answer.');
    return reply.code(status).send({ ok: false, error: ipc.toBody() });
  });

  app.get(WEB_EVENTS_PATH, (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      // Hijacked: the hook's headers were set on the reply, not on the raw response.
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    const unsubscribe = options.services.onEvent((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    request.raw.on('close', () => {
      clearInterval(ping);
      unsubscribe();
    });
  });

  const root = normalize(options.staticDir);
  app.get('/*', async (request, reply) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (file !== root && !file.startsWith(root + sep)) return reply.code(404).send('not found');
    try {
      if (!(await stat(file)).isFile()) return reply.code(404).send('not found');
    } catch {
      return reply.code(404).send('not found');
    }
    reply.header('content-type', mimeFor(file));
    reply.header('cache-control', 'no-store');
    return reply.send(await readFile(file));
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?${WEB_TOKEN_PARAM}=${token}`,
    origin,
    token,
    close: async () => {
      await app.close();
    },
  };
}
