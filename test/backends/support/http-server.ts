/** Test support: a real HTTP server on 127.0.0.1, port 0, whose behaviour each test scripts. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Received, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  url: string;
  received: Received[];
  /** Replace the handler (between requests). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a server; every request is recorded, then passed to the current handler. */
export async function startServer(handler: Handler): Promise<TestServer> {
  let current = handler;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (raw, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const req = {
      method: raw.method ?? '',
      path: raw.url ?? '',
      headers: raw.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    received.push(req);
    try {
      await current(req, res, raw);
    } catch (e) {
      res.destroy(e as Error);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    handle: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with `status`. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A minimal valid markup for `amount` copies. */
export function markups(amount: number, text = 'hello'): unknown[] {
  return Array.from({ length: amount }, () => ({
    stage: { width: 2, height: 1, unit: 'in', background: '#ffffff' },
    elements: [
      { type: 'text', x: 4, y: 4, width: 180, height: 20, text, font: { size: 12, family: 'Arial' } },
    ],
  }));
}

/** A valid 200 body for each route, for `amount` copies. */
export function okBody(path: string, amount = 1): unknown {
  const route = path.replace(/^.*\/custom-labels\//, '');
  switch (route) {
    case 'fetch-markups':
    case 'print':
      return markups(amount);
    case 'print-relay':
      return { status: 'sent_to_printer', printer_dpi: 203 };
    case 'print-relay-pdf':
      return { status: 'sent_to_printer_png' };
    case 'export-svg':
      return {
        status: 'svg_exported',
        ttl_hours: 24,
        expires_at: '2099-01-01T00:00:00+00:00',
        files: Array.from({ length: amount }, (_, i) => ({
          url: `https://files.example/svg/${i}`,
          path: `svg/${i}.svg`,
          expires_at: '2099-01-01T00:00:00+00:00',
        })),
      };
    case 'render-zpl':
      return {
        dpi: 203,
        max_width_dots: 832,
        count: amount,
        labels: Array.from(
          { length: amount },
          () => '^XA^PW832^LL406^FO0,0^GFA,1,1,1,:Z64:eJwDAAAAAAE=:0000^XZ',
        ),
      };
    case 'render-pdf':
      return {
        mime: 'application/pdf',
        encoding: 'base64',
        count: amount,
        labels: Array.from({ length: amount }, () => 'JVBERi0xLjQK'),
      };
    default:
      throw new Error(`unknown route ${route}`);
  }
}
