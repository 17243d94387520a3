/**
 * Node-only: `labeldesk serve`, the bundled engine's HTTP face with the hosted API's contract
 * (spec/label-rendering-api.md). Fastify does HTTP; everything the routes compute is in src/engine.
 *
 * Order of checks on a label route: 401 (auth, before the body is read; 429 when wrong secrets for the key or
 * from the address are past their limit) → 429 (rate per key) → 422 (body: JSON, UTF-8, size, schema) → 429
 * (render queue full) → 404/422 (template) → 422 (output budget, values, elements, images, RFID, printer,
 * allowance) → 500. Budgets and their defaults: budgets.ts.
 * Every answer of the API — errors, unknown routes, wrong methods — is JSON.
 */
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { RenderPorts } from '../../outputs/render';
import {
  API_PREFIX,
  API_ROUTES,
  ROUTE_NAMES,
  WARNINGS_HEADER,
  aliasesOf,
  type RouteName,
  type RouteRequest,
} from '../../label-api/contract';
import { JOB_HEADER } from '../../label-api/site-api';
import { HttpError, invalidRequest } from '../../engine/http-errors';
import { createOperations, type ReprintOf } from '../../engine/operations';
import type { PrinterGateway } from '../../engine/printer-gateway';
import { slidingWindowLimiter, type RateLimiter } from './rate-limit';
import type { TemplateStore } from '../../model/store';
import { assetsDir, bundledTemplatesDir } from '../assets';
import { machineFonts } from '../fonts';
import { nodeRenderPorts } from '../render-ports';
import { defaultTemplateStore } from '../template-store';
import { dataFiles } from '../files/data-dir';
import { confineImageFiles } from './image-policy';
import { DEFAULT_IMAGE_BUDGET } from '../../layout/images';
import { addressPolicy } from '../address-policy';
import {
  checkOutputDots,
  checkResponseBytes,
  DEFAULT_LIMITS,
  RENDERING_ROUTES,
  renderFairCost,
  serverBusy,
  type ServerLimits,
} from './budgets';
import { jsonBytes } from './json-body';
import { keyVerifier, type KeyVerifier } from './key-store';
import { offloadingOutputs } from './render-offload';
import { renderPool, type PoolEvent, type RenderPool } from './render-pool';
import { workGate, type GatePlace } from './work-gate';
import { defaultSdkBundle } from './sdk-assets';
import { svgFiles, type SvgFiles } from './svg-files';
import { openUsageLedger, type Reservation, type UsageLedger } from './usage-store';
import { installFileRoutes } from './file-routes';
import { installLabelaryRoute, LABELARY_DEFAULTS, type LabelaryLimits } from './labelary-route';
import type { SiteDb } from '../site/db';
import { sitePrintQueue, type PrintQueueSettings } from '../site/print-queue';
import { createTransport } from '../printers/open-transport';
import type { JobFormat } from '../../engine/printer-gateway';
import type { PrinterTransport } from '../../printers/transport';
import { installSiteRoutes } from '../site/site-routes';
import {
  siteCounters,
  siteKeys,
  siteRateLimiter,
  siteSvgFiles,
  siteTemplates,
  siteUsageLedger,
} from '../site/site-stores';
import {
  AUTH_THROTTLED,
  installBodyDeadline,
  installBodyParser,
  installCors,
  installErrorHandling,
  JSON_TYPE,
  tooMany,
  warningsHeader,
} from './http-plumbing';

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  rateLimitPerMinute: 60,
  svgTtlHours: 24,
  /** A request body larger than this is refused with 422 (the spec lists no 413). */
  bodyLimitBytes: 1024 * 1024,
  sweepIntervalMs: 10 * 60_000,
  /**
   * The whole request (headers and body) must arrive within this: a client that trickles a body, or stops
   * half-way, is answered 408 and its connection closed instead of holding it for ever. The answer's own time
   * (a print relay of many labels) is not counted.
   */
  requestTimeoutMs: 30_000,
} as const;

export interface ServerOptions {
  /** Default 127.0.0.1: other interfaces only when asked for explicitly. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** keys.json, usage.json, svg/. */
  dataDir: string;
  /** A folder of the user's templates, layered over the bundled ones. */
  templatesDir?: string;
  /** The print relay (routes 03, 04); without one every printer_id is unknown (422). */
  printers?: PrinterGateway;
  /** Requests per minute per key (spec §8: 60). */
  rateLimitPerMinute?: number;
  svgTtlHours?: number;
  /** Base of public file URLs, e.g. `https://labels.example.com`; default: from the request's Host. */
  publicUrl?: string;
  /** Origins allowed to call the API from a browser (the SDK's pages); `*` allows any. */
  corsOrigins?: readonly string[];
  bodyLimitBytes?: number;
  /** How long a client may take to send its whole request (default DEFAULTS.requestTimeoutMs). */
  requestTimeoutMs?: number;
  /** Injected clock (tests). */
  now?: () => Date;
  /** Where log lines go (JSON, one per line); none = no logging. */
  logStream?: { write(line: string): void };
  /**
   * Render ports (tests may inject failures); default: bundled fonts, image loader confined to template folders.
   * Given ports are used for every render in this thread: a render worker could not run them (no workers).
   */
  renderPorts?: RenderPorts;
  /**
   * Template store; default: bundled + `templatesDir`, listed on every request with synchronous stats (a
   * local folder's take ~40 µs; through the thread pool they cost ~10 % of a core under load).
   */
  templates?: TemplateStore;
  /** The SDK bundle file; default dist/sdk/labeldesk-sdk.js. */
  sdkBundle?: string;
  sweepIntervalMs?: number;
  /** Resource budgets (budgets.ts); each one given replaces its default. */
  limits?: Partial<ServerLimits>;
  /**
   * Hosts and CIDR ranges images may be fetched from although private or loopback (an intranet logo server);
   * public addresses are always allowed. Throws AllowlistError for an entry that is neither.
   */
  imageHosts?: readonly string[];
  /**
   * The Labelary-shaped route (`serve --labelary`, labelary-route.ts): off without this. Requests without a key
   * are limited per client address by these budgets (each given replaces its default, LABELARY_DEFAULTS).
   */
  labelary?: Partial<LabelaryLimits>;
  /**
   * A site server (issue #24): keys, rate windows, usage, exported SVGs, templates (over the bundled ones and
   * `templatesDir`), counter numbers and the history live in this PostgreSQL database, so any number of
   * instances on it behave as one service. `instance` names this one in the history and in printer leases.
   * Without it (the default) everything is in `dataDir` and memory, as on a workstation.
   */
  site?: {
    db: SiteDb;
    instance: string;
    /**
     * The print relay's shared queue (site/print-queue.ts): lease time, polls, the longest a request waits, and
     * retries; defaults PRINT_QUEUE_DEFAULTS.
     */
    printQueue?: Partial<PrintQueueSettings>;
    /** Transports for the queue's drivers (default: src/node/printers; CUPS gets raw ZPL, or the PDF). */
    openTransport?: (uri: string, job: { format?: JobFormat }) => PrinterTransport;
  };
}

export interface ApiServer {
  /** `http://host:port` it listens on. */
  url: string;
  port: number;
  host: string;
  app: FastifyInstance;
  /** Deletes expired SVG files now (also runs on a timer). */
  sweep(): Promise<number>;
  /** Waits until usage.json holds every request answered so far. */
  flush(): Promise<void>;
  /**
   * The render workers now: threads alive (0 when none has been needed for `renderWorkerIdleMs`) and requests
   * rendering in them or waiting for one.
   */
  readonly renderWorkers: { threads: number; jobs: number };
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key id (never the secret). */
    apiKey?: string;
    /** That key's print allowance in copies (undefined: unlimited). */
    allowance?: number;
  }
}

const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The status logged for a request whose client hung up before its render began (nginx's 499). */
const CLIENT_CLOSED = 499;

/** The print-relay routes, whose requests may carry an `Idempotency-Key`. */
const RELAY_ROUTES: ReadonlySet<RouteName> = new Set(['print-relay', 'print-relay-pdf']);

/**
 * The `Idempotency-Key` header of a print-relay request (1 to 200 visible ASCII characters, a UUID say), or
 * undefined. A site server's print queue delivers one job per key and API key (assets/sql/006); elsewhere it
 * is not read (any value is accepted and has no effect).
 */
function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = (Array.isArray(raw) ? raw.join(', ') : raw).trim();
  if (!/^[\x20-\x7e]{1,200}$/.test(value))
    throw new HttpError(
      422,
      'Idempotency-Key: expected 1 to 200 visible ASCII characters (a UUID, an order number)',
      'Idempotency-Key',
    );
  return value;
}

/** A render skipped because its client is gone. */
class ClientClosed extends Error {
  override name = 'ClientClosed';
}

function clientGone(req: FastifyRequest): boolean {
  return req.raw.socket.destroyed;
}

/** Refusals held back at once (each holds a socket and a timer); past this they are answered at once. */
const REFUSALS_HELD = 1024;

/** Builds and starts the server. Close it with `close()` (also stops timers and flushes the usage ledger). */
export async function startServer(options: ServerOptions): Promise<ApiServer> {
  const now = options.now ?? (() => new Date());
  const files = dataFiles(options.dataDir);
  const svgTtlHours = options.svgTtlHours ?? DEFAULTS.svgTtlHours;
  const perMinute = options.rateLimitPerMinute ?? DEFAULTS.rateLimitPerMinute;
  const corsOrigins = new Set(options.corsOrigins ?? []);
  const sdkBundle = options.sdkBundle ?? defaultSdkBundle();

  const app = Fastify({
    bodyLimit: options.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes,
    // Headers too (Node's own check, every few seconds); the body: installBodyDeadline.
    requestTimeout: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    forceCloseConnections: true,
    // Fastify's own request lines would carry the URL (an SVG token is a credential); ours are in onResponse.
    logController: new LogController({ disableRequestLogging: true }),
    logger: options.logStream
      ? {
          level: 'info',
          stream: options.logStream,
          serializers: { req: () => ({}), res: () => ({}) },
          redact: { paths: ['req.headers', 'headers', '*.headers'], remove: true },
        }
      : false,
  });

  const log = (level: 'info' | 'error', fields: Record<string, unknown>, msg: string) =>
    app.log[level](fields, msg);
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const site = options.site;
  // A site server's print relay queues its jobs in the site database; any instance driving the printer prints.
  const printQueue =
    site && options.printers
      ? sitePrintQueue({
          db: site.db,
          instance: site.instance,
          printers: options.printers,
          openTransport:
            site.openTransport ??
            ((uri, job) =>
              createTransport(uri, {
                cups: { contentType: job.format === 'pdf' ? 'pdf' : 'raw', title: 'LabelDesk' },
              })),
          settings: site.printQueue ?? {},
          log: (level, fields, message) => app.log[level](fields, message),
        })
      : undefined;
  const printers = printQueue?.gateway ?? options.printers;
  const keys: KeyVerifier = keyVerifier(site ? siteKeys(site.db).records : files.keys, {
    onError: (e) =>
      log(
        'error',
        { error: (e as Error).name },
        `keys file unusable, refusing every key: ${(e as Error).message}`,
      ),
    failuresPerMinute: limits.authFailuresPerMinute,
    now: () => now().getTime(),
  });
  // One render per turn of the event loop: requests are rendered in the order they arrived (work-gate.ts).
  const renders = workGate(limits.renders, limits.rendersWaiting, limits.rendersPerKey, {
    oneTaskPerTurn: true,
  });
  const usage: UsageLedger = site
    ? siteUsageLedger(site.db, (e) => log('error', { error: (e as Error).name }, 'cannot give copies back'))
    : await openUsageLedger(files.usage, (e) =>
        log('error', { error: (e as Error).name }, 'cannot write usage.json'),
      );
  const svgs: SvgFiles = site ? siteSvgFiles(site.db, now) : svgFiles(files.svg, now);
  const limiter: Pick<RateLimiter, 'take'> | ReturnType<typeof siteRateLimiter> = site
    ? siteRateLimiter(site.db, { limit: perMinute, now: () => now().getTime() })
    : slidingWindowLimiter({ limit: perMinute, now: () => now().getTime() });

  // Heavy renders in worker threads (render-offload.ts); none with injected ports, which a worker cannot run.
  // Bundled fonts and the server's own <data dir>/fonts, never the machine's: a key holder naming a family
  // could otherwise probe what is installed, and every system font named would stay in memory (docs/fonts.md).
  const fonts = machineFonts({ dataDir: options.dataDir, system: false });
  for (const s of fonts.skipped) log('info', { file: s.file, why: s.why }, 'font skipped');
  const pool: RenderPool | undefined =
    limits.renderWorkers > 0 && !options.renderPorts
      ? renderPool({
          size: limits.renderWorkers,
          idleMs: limits.renderWorkerIdleMs,
          heapMb: limits.renderWorkerHeapMb,
          onEvent: (event) => logPoolEvent(log, event),
          fontsDataDir: options.dataDir,
        })
      : undefined;

  const imageBase = options.templatesDir ?? bundledTemplatesDir();
  const imageRoots = [
    assetsDir(),
    bundledTemplatesDir(),
    ...(options.templatesDir ? [options.templatesDir] : []),
  ];
  const localTemplates = options.templates ?? defaultTemplateStore(options.templatesDir, { io: 'sync' });
  const siteTemplateStore = site ? siteTemplates(site.db, localTemplates) : undefined;
  const ops = createOperations(
    {
      templates: siteTemplateStore ?? localTemplates,
      ...(site && siteTemplateStore
        ? { counters: siteCounters(site.db, site.instance, siteTemplateStore.revisionOf) }
        : {}),
      render:
        options.renderPorts ??
        confineImageFiles(
          {
            ...nodeRenderPorts(
              {
                baseDir: imageBase,
                policy: addressPolicy(options.imageHosts),
                maxBytes: limits.imageBytes,
                timeoutMs: limits.imageTimeoutMs,
                cacheBytes: limits.imageCacheBytes,
                maxPixels: limits.imagePixels,
              },
              fonts.fonts,
            ),
            imageBudget: { ...DEFAULT_IMAGE_BUDGET, maxPixels: limits.imagePixels },
          },
          imageRoots,
          imageBase,
        ),
      ...(printers ? { printers } : {}),
      svgFiles: svgs,
      svgTtlHours,
      now,
    },
    { sharedCopies: true },
  );
  installBodyDeadline(app, options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs);
  installBodyParser(app);
  installErrorHandling(app);
  installCors(app, corsOrigins);

  // With the print queue, close() lets the requests in flight answer (those waiting for their print jobs above
  // all, once the queue let go of them) instead of cutting their connections.
  const inFlight = new Set<FastifyRequest>();
  if (printQueue) {
    app.addHook('onRequest', async (req) => void inFlight.add(req));
    app.addHook('onResponse', async (req) => void inFlight.delete(req));
    app.addHook('onRequestAbort', async (req) => void inFlight.delete(req));
  }

  app.addHook('onResponse', async (req, reply) => {
    req.log.info(
      {
        route: req.routeOptions.url ?? '(no route)',
        method: req.method,
        status: reply.statusCode,
        ...(req.apiKey ? { key: req.apiKey } : {}),
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  /**
   * Refusals of a client's own excess wait `limits.refusalDelayMs` before they are answered (budgets.ts); at
   * most REFUSALS_HELD at once, and none once the server is closing.
   */
  const pausedRefusals = new Set<() => void>();
  /** Set by close(): /ready says "stopping", refusals are no longer held. */
  let closing = false;
  // As the CLI bounds it: past a timer's range setTimeout would fire at once.
  const refusalDelayMs = Number.isFinite(limits.refusalDelayMs)
    ? Math.min(Math.max(0, limits.refusalDelayMs), 60_000)
    : 0;
  function pauseBeforeRefusal(): Promise<void> | undefined {
    if (refusalDelayMs <= 0 || closing || pausedRefusals.size >= REFUSALS_HELD) return undefined;
    return new Promise((resolve) => {
      const answer = () => {
        clearTimeout(timer);
        pausedRefusals.delete(answer);
        resolve();
      };
      const timer = setTimeout(answer, refusalDelayMs);
      pausedRefusals.add(answer);
    });
  }

  /** 401 without valid credentials (before the body is read), then 429 past the key's rate. */
  async function authenticate(req: FastifyRequest): Promise<void> {
    const key = req.headers['x-api-key'];
    const secret = req.headers['x-api-secret'];
    if (typeof key !== 'string' || typeof secret !== 'string' || !key || !secret) {
      throw new HttpError(401, 'the X-API-KEY and X-API-SECRET headers are required');
    }
    const verdict = await keys.verify(key, secret, req.ip);
    if (verdict.outcome === 'throttled') {
      // Past its failed attempts, a client is answered slowly; "busy" is the server's state, answered at once.
      if (verdict.by !== 'busy') await pauseBeforeRefusal();
      throw tooMany(verdict.retryAfterSeconds, AUTH_THROTTLED[verdict.by]);
    }
    if (verdict.outcome === 'wrong') {
      throw new HttpError(401, 'the API key or secret is wrong, or the secret has been regenerated');
    }
    const record = verdict.record;
    req.apiKey = record.key;
    req.allowance = record.allowance;
    const rate = await limiter.take(record.key);
    if (!rate.allowed) {
      await pauseBeforeRefusal();
      throw tooMany(rate.retryAfterSeconds, `more than ${perMinute} requests per minute for this API key`);
    }
  }

  let selfUrl = '';
  function publicBaseUrl(req: FastifyRequest): string {
    if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
    const host = req.headers.host;
    return host && HOST_HEADER.test(host) ? `${req.protocol}://${host}` : selfUrl;
  }

  /**
   * One label route's answer for a request already authenticated and parsed: budgets, allowance, the render in
   * its place, the usage. The site's reprint route answers through it too (`reprint`).
   */
  async function answerLabelRoute<R extends RouteName>(
    name: R,
    data: RouteRequest<R>,
    req: FastifyRequest,
    reply: FastifyReply,
    reprint?: ReprintOf,
    idempotencyKey?: string,
  ): Promise<FastifyReply> {
    const key = req.apiKey ?? '';
    let reservation: Reservation | undefined;
    try {
      const rendering = RENDERING_ROUTES.has(name);
      // A heavy render goes to a worker (render-offload.ts), its place among the renders to the next one.
      const run = (place?: GatePlace) =>
        // A client that hung up while its render waited for a place is not rendered for (nobody reads it).
        clientGone(req)
          ? Promise.reject(new ClientClosed())
          : ops.run(
              name,
              data,
              {
                publicBaseUrl: publicBaseUrl(req),
                apiKey: key,
                imagePolicy: data.strict === true ? 'strict' : 'omit',
                ...(pool && rendering
                  ? { outputs: offloadingOutputs(pool, limits.heavyRenderDots, place) }
                  : {}),
                ...(reprint ? { reprint } : {}),
                ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
              },
              async (copies, markups) => {
                if (rendering) checkOutputDots(data, markups, limits.outputDots);
                reservation = await usage.reserve(key, copies, req.allowance);
              },
            );
      // Renders wait for a place (budgets.ts); a full queue is a 429 before any work.
      const pending = rendering ? renders.run(run, key, renderFairCost(data)) : run();
      if (typeof pending === 'string') throw serverBusy(pending, limits);
      const result = await pending.catch((e: unknown) => {
        if (e instanceof ClientClosed) return undefined;
        throw e;
      });
      // Nginx's "client closed request": logged, never read.
      if (result === undefined) return reply.code(CLIENT_CLOSED).send();
      checkResponseBytes(result.body, result.copies, limits.responseBytes);
      // The work is done (for 03/04: the labels are at the printer). A usage tally that cannot be written now (a
      // site database gone this instant) is logged, not answered as a failure: a 503 here would make the client
      // send a delivered print again. The copies stay charged to an allowance (reserve did that).
      await reservation
        ?.commit(name)
        ?.catch((e: unknown) =>
          log(
            'error',
            { route: name, key, error: (e as Error).name },
            'usage not recorded for a request that succeeded',
          ),
        );
      if (result.warnings.length > 0) reply.header(WARNINGS_HEADER, warningsHeader(result.warnings));
      if (result.job !== undefined) reply.header(JOB_HEADER, result.job);
      // Identical copies are one object or string repeated: serialised once (json-body.ts).
      return reply.type(JSON_TYPE).send(jsonBytes(result.body));
    } finally {
      await reservation?.release();
    }
  }

  /**
   * A print-relay request sent again with the `Idempotency-Key` of a job already queued (its client lost the
   * answer, on this instance or another): no render, no counter numbers, no second job — it waits for that job
   * and answers as the first request would have (`Idempotent-Replayed: true`). False when the key is new.
   */
  async function answerQueuedJob(
    name: RouteName,
    printerId: number | undefined,
    req: FastifyRequest,
    reply: FastifyReply,
    idempotencyKey: string,
  ): Promise<boolean> {
    if (!printQueue) return false;
    const job = await printQueue.queued(req.apiKey ?? '', idempotencyKey);
    if (!job) return false;
    const format = name === 'print-relay' ? 'zpl' : 'pdf';
    if (job.printerId !== printerId || job.format !== format)
      throw new HttpError(
        422,
        `Idempotency-Key: already used by this API key for a ${job.format === 'zpl' ? 'print-relay' : 'print-relay-pdf'} ` +
          `job to printer ${job.printerId}; send another request with a new key`,
        'Idempotency-Key',
      );
    const printer = (await printQueue.gateway.find(job.printerId)) ?? {
      id: job.printerId,
      name: `printer ${job.printerId}`,
      uri: '(not in this instance’s printers)',
    };
    await printQueue.follow(printer, job);
    reply
      .header('Idempotent-Replayed', 'true')
      .type(JSON_TYPE)
      .send(
        format === 'zpl'
          ? { status: 'sent_to_printer', printer_dpi: job.printerDpi }
          : { status: 'sent_to_printer_png' },
      );
    return true;
  }

  for (const name of ROUTE_NAMES) {
    const route = API_ROUTES[name];
    // The hosted service's public names (print-node, print-node-pdf) are the same handler, counted as `name`.
    for (const path of [name, ...aliasesOf(name)]) {
      app.post(`${API_PREFIX}${path}`, { onRequest: authenticate }, async (req, reply) => {
        const parsed = route.request.safeParse(req.body, { reportInput: true });
        if (!parsed.success) throw invalidRequest(parsed.error);
        // Read only where a print queue keeps jobs to match it against: the embedded server ignores the header,
        // whatever it holds, as it did before #24.
        const idempotencyKey = printQueue && RELAY_ROUTES.has(name) ? idempotencyKeyOf(req) : undefined;
        if (idempotencyKey !== undefined && printQueue) {
          const printerId = 'printer_id' in parsed.data ? Number(parsed.data.printer_id) : undefined;
          // (A boolean, not the reply: an awaited FastifyReply is a thenable, which resolves to nothing.)
          if (await answerQueuedJob(name, printerId, req, reply, idempotencyKey)) return reply;
        }
        return answerLabelRoute(
          name,
          parsed.data as RouteRequest<typeof name>,
          req,
          reply,
          undefined,
          idempotencyKey,
        );
      });
    }
  }

  // A site server's templates and history (site-routes.ts); without --database these routes do not exist.
  if (site && siteTemplateStore)
    installSiteRoutes(app, {
      db: site.db,
      templates: siteTemplateStore,
      base: localTemplates,
      authenticate,
      answerLabelRoute,
    });

  if (options.labelary)
    installLabelaryRoute(app, {
      limits: { ...LABELARY_DEFAULTS, ...options.labelary },
      authenticate,
      renders,
      fonts: fonts.fonts,
      now: () => now().getTime(),
    });

  installFileRoutes(app, { svgs, now, sdkBundle, authenticate });

  // Operations: /health says the process answers; /ready whether it should be given requests (a load
  // balancer's check): not while it shuts down, nor when its site database does not answer.
  app.get('/health', async (_req, reply) => reply.type(JSON_TYPE).send({ status: 'ok' }));
  app.get('/ready', async (_req, reply) => {
    const instance = site ? { instance: site.instance } : {};
    if (closing)
      return reply
        .code(503)
        .type(JSON_TYPE)
        .send({ status: 'stopping', ...instance });
    if (site) {
      try {
        await site.db.query('SELECT 1');
      } catch (e) {
        log('error', { error: (e as Error).name }, 'readiness: the site database does not answer');
        return reply
          .code(503)
          .type(JSON_TYPE)
          .send({ status: 'database unavailable', ...instance });
      }
    }
    return reply.type(JSON_TYPE).send({ status: 'ready', ...instance });
  });

  const sweepTimer = setInterval(() => {
    svgs.sweep().catch((e: unknown) => log('error', { error: (e as Error).name }, 'SVG sweep failed'));
  }, options.sweepIntervalMs ?? DEFAULTS.sweepIntervalMs);
  sweepTimer.unref();
  await svgs.sweep();

  const host = options.host ?? DEFAULTS.host;
  try {
    await app.listen({ host, port: options.port ?? DEFAULTS.port });
  } catch (e) {
    clearInterval(sweepTimer);
    await app.close();
    await pool?.close();
    await printQueue?.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULTS.port);
  selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: selfUrl,
    port,
    host,
    app,
    sweep: () => svgs.sweep(),
    flush: () => usage.flush(),
    get renderWorkers() {
      return { threads: pool?.workers ?? 0, jobs: pool?.jobs ?? 0 };
    },
    close: async () => {
      closing = true;
      for (const answer of [...pausedRefusals]) answer();
      clearInterval(sweepTimer);
      // The print queue first: its drivers finish the label in flight and hand their printers to other instances.
      if (printQueue) {
        await printQueue.close();
        for (let i = 0; i < 100 && inFlight.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      }
      // Workers first: a render still running in one fails at once (500) instead of holding the close.
      await pool?.close();
      await app.close();
      await usage.flush();
    },
  };
}

/** Render workers in the log: started and ended with their count, a lost one as an error with its cause. */
function logPoolEvent(
  log: (level: 'info' | 'error', fields: Record<string, unknown>, msg: string) => void,
  event: PoolEvent,
): void {
  switch (event.type) {
    case 'started':
      log('info', { workers: event.workers }, 'render worker started');
      return;
    case 'idle':
      log('info', { workers: event.workers }, 'render worker ended (idle)');
      return;
    case 'lost':
      // The worker's own error names no request data (an exit code, a heap limit, a class name).
      log('error', { workers: event.workers, error: event.error.message }, 'render worker lost');
      return;
  }
}
