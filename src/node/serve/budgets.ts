/**
 * The resource budgets of `labeldesk serve`, each checked before the work it bounds: an image's declared
 * pixels (src/layout/images.ts, on its header), the dots a request renders (copies × label dots at its dpi),
 * the bytes of an answer, renders at once per server (a queue; past it 429 with Retry-After), the remote
 * image cache in bytes, and failed authentications; and where a render runs (heavy ones in a worker thread,
 * so that they do not hold the event loop every other request waits on). A request that can never fit is a 422 naming the field
 * and the limit; one that found the server busy is a 429.
 */
import { itemJson } from './json-body';
import { availableParallelism } from 'node:os';
import type { RouteName } from '../../label-api/contract';
import { HttpError } from '../../engine/http-errors';
import { DEFAULT_IMAGE_BUDGET } from '../../layout/images';
import type { Markup } from '../../model/schema';
import { stageToInches } from '../../units/units';
import { DPI_RANGE } from '../../outputs/render';

export interface ServerLimits {
  /** Largest width × height an image may declare, whatever the label (its header is read, nothing decoded). */
  imagePixels: number;
  /** Dots one request may render: the sum over its copies of label width × height in dots at its dpi. */
  outputDots: number;
  /** Largest answer body, bytes (checked before it is serialised). */
  responseBytes: number;
  /** Renders running at once; more wait in a queue. */
  renders: number;
  /** Renders waiting; past this a request is answered 429 with Retry-After at once. */
  rendersWaiting: number;
  /** Renders one API key may have running and waiting together (a flood from one key leaves room for others). */
  rendersPerKey: number;
  /** Largest image downloaded, bytes. */
  imageBytes: number;
  /** Whole download of an image (redirects and body), ms. */
  imageTimeoutMs: number;
  /** Remote images kept in memory, bytes. */
  imageCacheBytes: number;
  /**
   * Failed authentications per key id in any 60 s, five times as many per client address. Not tied to the
   * request rate limit: a key allowed thousands of requests a minute (a WMS) is not allowed thousands of
   * guesses, each of which costs a scrypt.
   */
  authFailuresPerMinute: number;
  /**
   * How long a refusal for a client's own excess waits before it is answered, ms: the 429 of an address or key
   * past its failed authentications, and of a key past its request rate. A client that ignores Retry-After and
   * asks again at once (a script guessing secrets, a runaway integration) then costs the server one answer a
   * second per connection instead of thousands, which it took from every other client's renders (as sshd and
   * Dovecot delay failed logins). At most 1,024 are held at once; past that they are answered at once.
   * 0: answered at once.
   */
  refusalDelayMs: number;
  /**
   * Worker threads for heavy renders (render-pool.ts): started on the first heavy request, ended after
   * `renderWorkerIdleMs` without work. 0: every render runs on the event loop.
   */
  renderWorkers: number;
  /**
   * A render whose estimated work (render-cost.ts: the dots of its distinct labels at its dpi, plus its images
   * weighted by what decoding and encoding them costs) is above this runs in a worker; at or below, on the event
   * loop. Chosen by measurement: docs/performance.md, "Renders off the event loop".
   */
  heavyRenderDots: number;
  /** A render worker without work for this long ends (an idle server holds no worker's memory), ms. */
  renderWorkerIdleMs: number;
  /** A render worker's JavaScript heap (V8 old generation), MB: past it the worker ends and its request is a 500. */
  renderWorkerHeapMb: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  imagePixels: DEFAULT_IMAGE_BUDGET.maxPixels,
  // 1,000 copies of a 4 × 6 in label at 203 dpi (0.99 G dots) fit; 150 MB as 1-bit bitmaps if all differ.
  outputDots: 1_200_000_000,
  responseBytes: 64 * 1024 * 1024,
  renders: Math.max(1, Math.min(4, availableParallelism())),
  rendersWaiting: 64,
  authFailuresPerMinute: 60,
  refusalDelayMs: 1000,
  rendersPerKey: 32,
  imageBytes: 10 * 1024 * 1024,
  imageTimeoutMs: 10_000,
  imageCacheBytes: 32 * 1024 * 1024,
  renderWorkers: 1,
  // ~30-50 ms of rendering on the 2-core VM: the bundled labels at 203 and 300 dpi stay on the event loop, the
  // larger ones at 600 dpi and up go to the worker (docs/performance.md, "Renders off the event loop").
  heavyRenderDots: 16_000_000,
  renderWorkerIdleMs: 30_000,
  renderWorkerHeapMb: 512,
};

/** Routes that render (the others only resolve a template into markup). */
export const RENDERING_ROUTES: ReadonlySet<RouteName> = new Set<RouteName>([
  'print-relay',
  'print-relay-pdf',
  'export-svg',
  'render-zpl',
  'render-pdf',
]);

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const MIB = 1024 * 1024;
const fmtBytes = (n: number): string =>
  n >= MIB ? `${Math.round((n / MIB) * 10) / 10} MiB` : `${fmt(n)} bytes`;

/**
 * The dpi a route's output is budgeted at: render-zpl's own; a relayed job at 203 (the printer is asked later);
 * PDF and SVG, being vector, at 203 as a measure of their size.
 */
function budgetDpi(request: object): number {
  return 'dpi' in request && typeof request.dpi === 'number' ? request.dpi : DPI_RANGE.default;
}

/**
 * What a render request counts against its key in the renders' fair order (work-gate.ts): its copies, weighted
 * by its dpi's dots against 203 dpi — known before the template is read, proportional to the output the request
 * asks for. A 1,000-copy request therefore waits as long as a thousand single labels from other keys would.
 */
export function renderFairCost(request: object): number {
  const amount = 'amount' in request && typeof request.amount === 'number' ? request.amount : 1;
  const scale = budgetDpi(request) / DPI_RANGE.default;
  return Math.max(1, amount * scale * scale);
}

/** Throws a 422 on `amount` when the copies' dots at the route's dpi exceed `limit`. */
export function checkOutputDots(request: object, markups: readonly Markup[], limit: number): void {
  const dpi = budgetDpi(request);
  let total = 0;
  for (const m of markups) {
    total +=
      stageToInches(m.stage.width, m.stage.unit) * dpi * (stageToInches(m.stage.height, m.stage.unit) * dpi);
  }
  if (total <= limit) return;
  const perCopy = total / Math.max(1, markups.length);
  const fits = Math.floor(limit / perCopy);
  throw new HttpError(
    422,
    `amount: ${markups.length} ${markups.length === 1 ? 'copy' : 'copies'} at ${dpi} dpi come to ${fmt(total)} dots, more than the limit of ${fmt(limit)} per request; ` +
      (fits > 0
        ? `send at most ${fits} copies per request`
        : 'lower the dpi or the label size (the server sets the limit: --max-output-dots)'),
    'amount',
  );
}

/** Bytes the JSON of `body` takes, estimated from its strings without serialising it. */
export function estimateBodyBytes(body: unknown): number {
  if (Array.isArray(body)) {
    // fetch-markups: copies of one template, alike in size; measure the first.
    const first: unknown = body[0];
    return first === undefined ? 2 : itemJson(first).length * body.length;
  }
  if (body && typeof body === 'object' && 'labels' in body && Array.isArray(body.labels)) {
    let bytes = 0;
    for (const label of body.labels as unknown[]) bytes += typeof label === 'string' ? label.length + 3 : 0;
    return bytes;
  }
  return 0;
}

/** Throws a 422 on `amount` when the answer would be larger than `limit` bytes. */
export function checkResponseBytes(body: unknown, copies: number, limit: number): void {
  const bytes = estimateBodyBytes(body);
  if (bytes <= limit) return;
  const fits = Math.floor((limit / bytes) * copies);
  throw new HttpError(
    422,
    `amount: the answer for ${copies} ${copies === 1 ? 'copy' : 'copies'} would be ${fmtBytes(bytes)}, more than the limit of ${fmtBytes(limit)}; ` +
      (fits > 0 ? `send at most ${fits} copies per request` : 'make the label smaller or simpler'),
    'amount',
  );
}

/** The 429 for a full render queue, or for a key holding its share of it. */
export function serverBusy(why: 'full' | 'owner', limits: ServerLimits): HttpError {
  return new HttpError(
    429,
    why === 'full'
      ? `the server is busy: ${limits.rendersWaiting} renders are already waiting; retry in 1 s`
      : `this API key already has ${limits.rendersPerKey} ${limits.rendersPerKey === 1 ? 'render' : 'renders'} running or waiting; retry in 1 s`,
    undefined,
    { headers: { 'Retry-After': '1' } },
  );
}
