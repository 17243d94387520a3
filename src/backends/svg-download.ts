/**
 * Keeping copies of exported SVGs (spec §4.5): the hosted files are public to anyone holding the URL and
 * expire after `ttl_hours`, so the app downloads them while valid and keeps the URLs to itself. Errors and
 * logs name a file by its copy number, never by its URL.
 */
import { systemClock, type Clock } from '../base/clock';
import {
  CancelledError,
  MalformedResponseError,
  SvgExpiredError,
  UnexpectedStatusError,
  UnreachableError,
} from './errors';
import type { SvgExportResult } from '../label-api/routes';

export interface DownloadedSvg {
  /** The storage path the service reported (spec §2.5 `files[].path`). */
  path: string;
  /** The SVG document. */
  svg: string;
}

export interface DownloadOptions {
  clock?: Clock;
  signal?: AbortSignal;
  /** Per file, default 30 s. */
  timeoutMs?: number;
}

function decodeDataUrl(url: string): string | undefined {
  const m = /^data:([^,]*),(.*)$/s.exec(url);
  if (!m) return undefined;
  const meta = m[1] ?? '';
  const payload = m[2] ?? '';
  return meta.endsWith(';base64')
    ? new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)))
    : decodeURIComponent(payload);
}

/**
 * Downloads every file of an export-svg result, in copy order. Refuses files already past their
 * `expires_at` (SvgExpiredError) before fetching anything. data: URLs (the local engine's export) are
 * decoded without a request. Downloads do not count as prints and are not paced (they are storage, not API).
 */
export async function downloadSvgFiles(
  result: SvgExportResult,
  doFetch: typeof fetch,
  options: DownloadOptions = {},
): Promise<DownloadedSvg[]> {
  const clock = options.clock ?? systemClock;
  const now = clock.now();
  result.files.forEach((file, index) => {
    if (Date.parse(file.expires_at) <= now) throw new SvgExpiredError(index, file.expires_at);
  });
  const out: DownloadedSvg[] = [];
  for (const [index, file] of result.files.entries()) {
    const which = `exported SVG file ${index + 1} of ${result.files.length}`;
    let svg = decodeDataUrl(file.url);
    if (svg === undefined) {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await doFetch(file.url, { signal, redirect: 'follow' });
        svg = await response.text();
      } catch {
        if (options.signal?.aborted) throw new CancelledError({ route: 'export-svg' });
        throw new UnreachableError(
          timeout.aborted ? 'timeout' : 'network',
          `${which} could not be downloaded`,
          { route: 'export-svg' },
        );
      }
      if (!response.ok) {
        throw new UnexpectedStatusError(response.status, {
          route: 'export-svg',
          serverMessage: `${which} could not be downloaded`,
        });
      }
    }
    if (!/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(svg)) {
      throw new MalformedResponseError([`${which} is not an SVG document`], { route: 'export-svg' });
    }
    out.push({ path: file.path, svg });
  }
  return out;
}
