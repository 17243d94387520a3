/**
 * `labeldesk serve`: the bundled engine over HTTP with the hosted API's contract (src/node/serve/server.ts).
 * Listens on 127.0.0.1 unless `--host` says otherwise; prints its URL; stops cleanly on SIGINT/SIGTERM.
 */
import { resolve as resolvePath } from 'node:path';
import { AllowlistError, addressPolicy } from '../node/address-policy';
import { DEFAULT_LIMITS, type ServerLimits } from '../node/serve/budgets';
import { DEFAULTS, startServer, type ServerOptions } from '../node/serve/server';
import { LABELARY_DEFAULTS, type LabelaryLimits } from '../node/serve/labelary-route';
import {
  filePrinterLookup,
  readPrintersFile,
  relayPrinterGateway,
  type FilePrinterGatewayOptions,
  type PrinterLookup,
} from '../node/serve/file-printer-gateway';
import { sitePrinterLookup, sitePrinters } from '../node/site/site-printers';
import { createTransport } from '../node/printers/open-transport';
import { createProfileStore } from '../node/printers/profile-store';
import { describeResends } from '../printers/deliver';
import { PrintersFileError } from '../printers/printers-file';
import { CliError, UsageError, type CliIo } from './io';
import { dataDirOption, privateDataDir } from './keys-commands';
import { parseOptions } from './template-commands';
import { databaseOption, databaseUrlOf, instanceName, openSiteDatabase } from './site-database';
import { redactDatabaseUrl } from '../node/site/db';
import { PRINT_QUEUE_DEFAULTS } from '../node/site/print-queue';

const MIB = 1024 * 1024;

export const SERVE_HELP = `Usage: labeldesk serve [options]

The seven routes of the Label and Document Rendering API (POST /custom-labels/...), done locally.

  --host ADDR            interface to listen on (default ${DEFAULTS.host}; another only when given)
  --port N               default ${DEFAULTS.port}; 0 picks a free port
  --data-dir DIR         keys.json, usage.json and exported SVGs (default: $LABELDESK_DATA_DIR,
                         else the per-user data folder)
  --templates DIR        your templates, over the bundled ones (default: $LABELDESK_TEMPLATES)
  --database URL         a site server: keys, rate limits, usage, SVG files, templates, counters and
                         history in this PostgreSQL database, shared by every instance on it
                         (postgres://user:password@host:5432/labeldesk; default: $LABELDESK_DATABASE_URL;
                         without it all is in the data folder). Keys: labeldesk keys create --database URL
  --printers FILE        the print relay: [{"id":7,"uri":"tcp://10.0.0.5:9100","name":"Dock 7"}]
                         With --database the relay's printers are the site's (labeldesk site-printers
                         add), plus this file's if given (an id in both is refused: remove one); its
                         jobs are queued in the database, and each printer is driven by one instance
                         at a time; another takes it over if that one stops:
  --lease-seconds N      how long a printer stays with an instance that stopped renewing its lease
                         (default ${PRINT_QUEUE_DEFAULTS.leaseMs / 1000})
  --print-wait-seconds N longest a print-relay request waits for its job; then the job is cancelled
                         and the answer is 500 (default ${PRINT_QUEUE_DEFAULTS.waitMs / 1000})
  --rate-limit N         requests per minute per key (default ${DEFAULTS.rateLimitPerMinute})
  --svg-ttl-hours N      lifetime of export-svg files (default ${DEFAULTS.svgTtlHours})
  --public-url URL       base of the SVG file URLs (default: from the request's Host header)
  --cors-origin ORIGIN   a browser origin allowed to call the API (the SDK's pages); repeatable

Limits (each refusal names the field and the limit; README "Limits of labeldesk serve"):
  --image-host HOST|CIDR  a private or loopback host images may be fetched from (an intranet logo
                          server); repeatable. Public addresses are always allowed, others never
  --max-image-pixels N    width × height an image may declare (default ${DEFAULT_LIMITS.imagePixels})
  --max-output-dots N     copies × label dots one request may render (default ${DEFAULT_LIMITS.outputDots})
  --max-response-mb N     largest answer (default ${DEFAULT_LIMITS.responseBytes / MIB})
  --renders N             renders at once (default ${DEFAULT_LIMITS.renders}: the cores, up to 4)
  --renders-waiting N     renders queued before answering 429 (default ${DEFAULT_LIMITS.rendersWaiting})
  --renders-per-key N     renders one key may have running and waiting (default ${DEFAULT_LIMITS.rendersPerKey})
  --max-image-mb N        largest image downloaded (default ${DEFAULT_LIMITS.imageBytes / MIB})
  --image-timeout N       seconds for an image download, redirects included (default ${DEFAULT_LIMITS.imageTimeoutMs / 1000})
  --image-cache-mb N      memory for fetched images (default ${DEFAULT_LIMITS.imageCacheBytes / MIB})
  --auth-failures N       wrong secrets per key per minute, 5× that per address (default ${DEFAULT_LIMITS.authFailuresPerMinute}, whatever --rate-limit)
  --refusal-delay MS      ms before a 429 for those, or for a key past --rate-limit, is answered (default ${DEFAULT_LIMITS.refusalDelayMs}; 0: at once)

Heavy renders (large labels, high dpi, big images) run in worker threads, the others on the event loop:
  --render-workers N      worker threads at most, started when needed (default ${DEFAULT_LIMITS.renderWorkers}; 0: none)
  --heavy-render-dots N   estimated work (label dots at the dpi, images weighted) above which a render
                          goes to a worker (default ${DEFAULT_LIMITS.heavyRenderDots})
  --render-worker-idle N  seconds a worker waits for work before it ends (default ${DEFAULT_LIMITS.renderWorkerIdleMs / 1000})
  --render-worker-heap-mb N  JavaScript heap of a worker; past it its request is a 500 (default ${DEFAULT_LIMITS.renderWorkerHeapMb})

Labelary's ZPL web service shape (POST /v1/printers/{dpmm}dpmm/labels/{w}x{h}/{index}/), for clients
written for Labelary; they send no key, so it is off unless asked for (docs/deployment.md):
  --labelary              turn the route on: a request with X-API-KEY/X-API-SECRET is a key's request;
                          one without is limited per client address by:
  --labelary-rate N       requests per second per address (default ${LABELARY_DEFAULTS.perSecond})
  --labelary-labels N     labels in one request's ZPL (default ${LABELARY_DEFAULTS.labels})
  --labelary-kb N         KB of one request's body (default ${LABELARY_DEFAULTS.bodyBytes / 1024})
  --labelary-inches N     largest label side in the URL, inches (default ${LABELARY_DEFAULTS.inches})

Keys: labeldesk keys create. Also served: GET /openapi.json, /sdk/labeldesk-sdk.js, /files/svg/<token>.
`;

type OpenTransport = FilePrinterGatewayOptions['openTransport'];

export interface ServeDeps {
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  stop?: Promise<unknown>;
  /** Creates printer transports for the print relay (default: src/node/printers, this CLI being a composition root). */
  openTransport?: OpenTransport;
  /** Called once listening (tests). */
  onListening?: (url: string) => void;
}

/** TCP ports are 16-bit; 0 asks the system for a free one. */
function portOption(raw: string | undefined): number | undefined {
  const port = positiveInt('--port', raw, 0);
  if (port !== undefined && port > 65535)
    throw new UsageError(`--port: expected a port number from 0 to 65535, got "${raw}"`);
  return port;
}

function positiveInt(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(`${name}: expected a whole number from ${min}, got "${raw}"`);
  return Number(raw);
}

function signals(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function serve(args: string[], io: CliIo, deps: ServeDeps = {}): Promise<number> {
  const { values } = parseOptions(args, {
    ...dataDirOption,
    ...databaseOption,
    host: { type: 'string' },
    port: { type: 'string' },
    templates: { type: 'string' },
    printers: { type: 'string' },
    'rate-limit': { type: 'string' },
    'svg-ttl-hours': { type: 'string' },
    'public-url': { type: 'string' },
    'cors-origin': { type: 'string', multiple: true },
    'image-host': { type: 'string', multiple: true },
    'max-image-pixels': { type: 'string' },
    'max-output-dots': { type: 'string' },
    'max-response-mb': { type: 'string' },
    renders: { type: 'string' },
    'renders-waiting': { type: 'string' },
    'renders-per-key': { type: 'string' },
    'max-image-mb': { type: 'string' },
    'image-timeout': { type: 'string' },
    'image-cache-mb': { type: 'string' },
    'auth-failures': { type: 'string' },
    'refusal-delay': { type: 'string' },
    'render-workers': { type: 'string' },
    'heavy-render-dots': { type: 'string' },
    'render-worker-idle': { type: 'string' },
    'render-worker-heap-mb': { type: 'string' },
    'lease-seconds': { type: 'string' },
    'print-wait-seconds': { type: 'string' },
    labelary: { type: 'boolean' },
    'labelary-rate': { type: 'string' },
    'labelary-labels': { type: 'string' },
    'labelary-kb': { type: 'string' },
    'labelary-inches': { type: 'string' },
  });
  if (values.help) {
    io.stdout(SERVE_HELP);
    return 0;
  }
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) {
    throw new UsageError(`--public-url: expected http(s)://host[/path], got "${publicUrl}"`);
  }
  const imageHosts = values['image-host'] ?? [];
  try {
    addressPolicy(imageHosts);
  } catch (e) {
    if (e instanceof AllowlistError) throw new UsageError(`--image-host: ${e.message}`);
    throw e;
  }
  const limits: Partial<ServerLimits> = {};
  const limit = (option: string, key: keyof ServerLimits, min: number, scale = 1) => {
    const n = positiveInt(`--${option}`, values[option as keyof typeof values] as string | undefined, min);
    if (n !== undefined) limits[key] = n * scale;
  };
  limit('max-image-pixels', 'imagePixels', 1);
  limit('max-output-dots', 'outputDots', 1);
  limit('max-response-mb', 'responseBytes', 1, MIB);
  limit('renders', 'renders', 1);
  limit('renders-waiting', 'rendersWaiting', 0);
  limit('renders-per-key', 'rendersPerKey', 1);
  limit('max-image-mb', 'imageBytes', 1, MIB);
  limit('image-timeout', 'imageTimeoutMs', 1, 1000);
  limit('image-cache-mb', 'imageCacheBytes', 0, MIB);
  limit('auth-failures', 'authFailuresPerMinute', 1);
  limit('refusal-delay', 'refusalDelayMs', 0);
  if ((limits.refusalDelayMs ?? 0) > 60_000)
    throw new UsageError(`--refusal-delay: expected at most 60000 ms, got "${values['refusal-delay']}"`);
  limit('render-workers', 'renderWorkers', 0);
  limit('heavy-render-dots', 'heavyRenderDots', 0);
  limit('render-worker-idle', 'renderWorkerIdleMs', 1, 1000);
  // Below ~32 MB a worker cannot even load the fonts.
  limit('render-worker-heap-mb', 'renderWorkerHeapMb', 64);
  const labelary: Partial<LabelaryLimits> = {};
  const labelaryLimit = (option: string, key: keyof LabelaryLimits, scale = 1) => {
    const raw = values[option as keyof typeof values] as string | undefined;
    if (raw !== undefined && !values.labelary)
      throw new UsageError(`--${option} is for the Labelary-shaped route: add --labelary`);
    const n = positiveInt(`--${option}`, raw, 1);
    if (n !== undefined) labelary[key] = n * scale;
  };
  labelaryLimit('labelary-rate', 'perSecond');
  labelaryLimit('labelary-labels', 'labels');
  labelaryLimit('labelary-kb', 'bodyBytes', 1024);
  labelaryLimit('labelary-inches', 'inches');
  const templates = values.templates ?? io.env.LABELDESK_TEMPLATES;
  const databaseUrl = databaseUrlOf(values, io);
  for (const option of ['lease-seconds', 'print-wait-seconds'] as const)
    if (values[option] !== undefined && databaseUrl === undefined)
      throw new UsageError(`--${option} is for a site server's print queue (--database URL)`);
  const leaseSeconds = positiveInt('--lease-seconds', values['lease-seconds'], 1);
  const waitSeconds = positiveInt('--print-wait-seconds', values['print-wait-seconds'], 1);
  const options: ServerOptions = {
    host: values.host ?? DEFAULTS.host,
    port: portOption(values.port) ?? DEFAULTS.port,
    dataDir: privateDataDir(values, io),
    ...(templates ? { templatesDir: resolvePath(io.cwd, templates) } : {}),
    rateLimitPerMinute: positiveInt('--rate-limit', values['rate-limit'], 1) ?? DEFAULTS.rateLimitPerMinute,
    svgTtlHours: positiveInt('--svg-ttl-hours', values['svg-ttl-hours'], 1) ?? DEFAULTS.svgTtlHours,
    ...(publicUrl ? { publicUrl } : {}),
    corsOrigins: values['cors-origin'] ?? [],
    imageHosts,
    limits,
    ...(values.labelary ? { labelary } : {}),
    logStream: { write: (line) => io.stderr(line) },
  };
  /** The relay's transports, for the print queue's drivers too. */
  let relayTransport: OpenTransport | undefined;
  /** The printers file's lookup, when given. */
  let fileLookup: (PrinterLookup & { list(): Promise<{ id: number }[]> }) | undefined;
  const relay = {
    onPossibleDuplicates: (printer: { id: number; name: string }, labels: readonly number[]) => {
      for (const line of describeResends(labels)) {
        io.stderr(
          `labeldesk serve: warning: printer ${printer.id} ("${printer.name}"), print-relay job: ${line}\n`,
        );
      }
    },
  };
  if (values.printers || databaseUrl) {
    const env = { ...process.env, ...io.env };
    relayTransport =
      deps.openTransport ??
      ((uri, job) =>
        createTransport(uri, {
          cups: { env, contentType: job.format === 'pdf' ? 'pdf' : 'raw', title: 'LabelDesk' },
        }));
  }
  if (values.printers) {
    const file = resolvePath(io.cwd, values.printers);
    try {
      await readPrintersFile(file); // fail now, not on the first print
    } catch (e) {
      if (e instanceof PrintersFileError) throw new CliError(e.message);
      throw new CliError(`--printers ${values.printers}: ${(e as Error).message}`);
    }
    fileLookup = filePrinterLookup({
      file,
      profiles: createProfileStore(options.dataDir),
      onError: (e) =>
        io.stderr(`labeldesk serve: printers file: ${(e as Error).message} (keeping the last good one)\n`),
    });
    if (!databaseUrl)
      options.printers = relayPrinterGateway({
        ...relay,
        lookup: fileLookup,
        openTransport: relayTransport!,
      });
  }

  // Listen for signals before printing the URL: whoever reads that line may stop us at once.
  const stop = deps.stop ?? signals();
  const db = databaseUrl
    ? await openSiteDatabase(databaseUrl, (e) =>
        io.stderr(`labeldesk serve: database connection lost: ${e.message} (the pool reconnects)\n`),
      )
    : undefined;
  if (db) {
    // The site's printers (read at each lookup: one added applies to the next request on every instance), and
    // this instance's printers file if given; an id in both is refused (src/node/site/site-printers.ts).
    const site = sitePrinters(db, {
      onInvalid: (id, e) =>
        io.stderr(`labeldesk serve: site printer ${id} is not used: ${e.message.replace(/\n/g, '; ')}\n`),
    });
    options.printers = relayPrinterGateway({
      ...relay,
      lookup: sitePrinterLookup(site, fileLookup),
      openTransport: relayTransport!,
    });
    if (fileLookup) {
      const inFile = new Set((await fileLookup.list()).map((p) => p.id));
      const both = (await site.list().catch(() => [])).filter((p) => inFile.has(p.id));
      for (const p of both)
        io.stderr(
          `labeldesk serve: warning: printer ${p.id} is both the site's "${p.name}" and in ${values.printers}; ` +
            'requests for it are refused until one is removed\n',
        );
    }
    options.site = {
      db,
      instance: instanceName(),
      ...(relayTransport ? { openTransport: relayTransport } : {}),
      printQueue: {
        ...(leaseSeconds !== undefined ? { leaseMs: leaseSeconds * 1000 } : {}),
        ...(waitSeconds !== undefined ? { waitMs: waitSeconds * 1000 } : {}),
      },
    };
  }
  let server;
  try {
    server = await startServer(options);
  } catch (e) {
    await db?.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new CliError(`port ${options.port} on ${options.host} is in use (try --port)`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
      throw new CliError(`--host ${options.host}: no such address or host name (give an IP address)`);
    if (code === 'EADDRNOTAVAIL')
      throw new CliError(
        `--host ${options.host}: not an address of this computer, so serve cannot listen on it`,
      );
    if (code === 'EACCES')
      throw new CliError(
        `port ${options.port} on ${options.host} needs administrator rights (try --port 8080)`,
      );
    throw e;
  }
  io.stdout(
    `labeldesk serve: listening on ${server.url} (data: ${options.dataDir}` +
      (databaseUrl && options.site
        ? `; site database ${redactDatabaseUrl(databaseUrl)} as ${options.site.instance}`
        : '') +
      ')\n',
  );
  if (!['127.0.0.1', '::1', 'localhost'].includes(server.host)) {
    io.stderr(
      `labeldesk serve: warning: listening on ${server.host}; anyone who can reach it can try keys\n`,
    );
  }
  if (values.labelary)
    io.stderr(
      `labeldesk serve: the Labelary-shaped route is on (${server.url}/v1/printers/…): requests without a key ` +
        `are limited per address, not refused\n`,
    );
  deps.onListening?.(server.url);
  const signal = await stop;
  io.stderr(`labeldesk serve: ${typeof signal === 'string' ? `${signal}, ` : ''}stopping\n`);
  await server.close();
  await db?.close();
  return 0;
}

export const serveCommand = (args: string[], io: CliIo): Promise<number> => serve(args, io);
