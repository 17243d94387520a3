/** Content types of the renderer's built files, for both ways they are served (web mode, Electron's app://). */
import { extname } from 'node:path';

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

/** The content type for a file by its extension; unknown ones are bytes (sent with `nosniff`). */
export function mimeFor(file: string): string {
  return MIME[extname(file)] ?? 'application/octet-stream';
}
