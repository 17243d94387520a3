/**
 * Web mode (`npm run web`): the renderer and the main-side services over localhost HTTP, with the same IPC
 * contract as the Electron shell, so the app runs in a browser where Electron cannot (and Playwright drives
 * it in Chromium).
 *
 *   GET  /                 the built renderer (dist/renderer), no secrets in it
 *   POST /ipc/<channel>    a contract call: JSON body parsed by the channel's schema; token header required
 *   GET  /events?token=…   Server-Sent Events: the pushed AppEvents
 *
 * Guards: binds 127.0.0.1 only; a random 256-bit token per run (constant-time compare); the Host header must
 * name this server (DNS rebinding) and a cross-origin Origin is refused, so another web page in the same
 * browser cannot drive the printers.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { isChannelName } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { dispatch } from './dispatch';
import { WEB_EVENTS_PATH, WEB_IPC_PATH, WEB_TOKEN_HEADER, WEB_TOKEN_PARAM } from '../../src/ipc/http-client';
import type { AppServices } from './services';

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

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

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

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts().has(request.headers.host ?? '')) {
      return refuse(reply, 421, new IpcError('bad-request', 'Open LabelDesk at the address it printed.'));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
      return refuse(reply, 403, new IpcError('bad-request', 'Requests from other web pages are refused.'));
    }
    reply.header('x-content-type-options', 'nosniff');
    // The page's own CSP is its meta tag; the header adds what a meta tag cannot: no framing by other sites.
    reply.header('content-security-policy', "frame-ancestors 'none'");
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    return undefined;
  });

  app.post(
    `${WEB_IPC_PATH}:channel`,
    async (request: FastifyRequest<{ Params: { channel: string } }>, reply) => {
      if (!tokenMatches(request.headers[WEB_TOKEN_HEADER], token)) {
        return refuse(
          reply,
          401,
          new IpcError(
            'bad-request',
            'This page is not signed in to LabelDesk: open the address LabelDesk printed.',
          ),
        );
      }
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

  app.get(WEB_EVENTS_PATH, (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    if (!tokenMatches(request.query[WEB_TOKEN_PARAM], token)) {
      void refuse(reply, 401, new IpcError('bad-request', 'Not signed in.'));
      return;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
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
    reply.header('content-type', MIME[extname(file)] ?? 'application/octet-stream');
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
