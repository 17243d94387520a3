/**
 * Test support for the hostile-input tests of `labeldesk serve`: real PNGs of any declared size (a 1-bit
 * 24000 × 24000 white PNG compresses to ~70 KB: the decompression bomb of issue #16), a local HTTP listener
 * standing in for an internal host, and the process's resident memory.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeflate, crc32 } from 'node:zlib';

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 1-bit greyscale PNG, every pixel white; deflated row band by row band (no full-size buffer). */
export async function whitePng(width: number, height: number): Promise<Buffer> {
  const rowBytes = 1 + Math.ceil(width / 8);
  const band = Buffer.alloc(rowBytes * 256, 0xff);
  for (let r = 0; r < 256; r++) band[r * rowBytes] = 0; // filter: none
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  for (let y = 0; y < height; y += 256) {
    const rows = Math.min(256, height - y);
    if (!deflate.write(band.subarray(0, rows * rowBytes))) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(out)),
    chunk('IEND', new Uint8Array()),
  ]);
}

export const dataUrlOf = (png: Uint8Array): string =>
  `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

export interface Listener {
  url: string;
  /** Paths requested so far, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** An HTTP server on `host` (127.0.0.1 or another loopback address), port 0, answering with `handle`. */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<Listener> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handle(req, res);
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The process's peak resident memory so far, bytes: a decode between two readings shows as growth. */
export const peakResidentBytes = (): number => process.resourceUsage().maxRSS * 1024;
