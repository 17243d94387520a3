/**
 * Load child of run.ts: `labeldesk serve` on one core (taskset -c 0 when available) under 32 well-behaved
 * clients, render-zpl then fetch-markups, each phase first alone and then with a hostile mix alongside:
 * decompression bombs (a file in the templates folder and one fetched over http from an allowed local host),
 * 1,000-copy requests, and wrong secrets. Reports labels/s and p50/p99 latency of the well-behaved clients, what
 * the hostile requests were answered, the server's peak RSS (VmHWM) and the CPU it used per phase (all threads,
 * and its event loop alone: the rest is libuv's pool, e.g. scrypt for wrong secrets). The server is the bundled CLI
 * (scripts/build-cli.mjs), as users run it; the clients are keep-alive HTTP loops of this process (no
 * autocannon: the repository's dependencies stay as they are). Prints one JSON line.
 *
 *   tsx test/bench/load.ts [SECONDS_PER_PHASE]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createKey } from '../../src/node/serve/key-store';
import { listen, whitePng } from '../node/serve/hostile';
import { dataFor } from './inputs';

const seconds = Number(process.argv[2] ?? 10);
const CLIENTS = 32;
const root = mkdtempSync(join(tmpdir(), 'labeldesk-bench-load-'));
const dataDir = join(root, 'data');
const templatesDir = join(root, 'templates');
const keysFile = join(dataDir, 'keys.json');

interface Answer {
  status: number;
  ms: number;
  /** Which of the loops (one keep-alive connection each) sent it. */
  loop?: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let base = '';

function post(route: string, body: unknown, key: { key: string; secret: string }): Promise<Answer> {
  const data = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      `${base}/custom-labels/${route}`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          'x-api-key': key.key,
          'x-api-secret': key.secret,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(data);
  });
}

const quantile = (sorted: number[], q: number): number =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) : 0;

/** `workers` loops sending `next()` until `until`; the answers. */
async function loops(
  workers: number,
  until: number,
  next: (i: number) => Promise<Answer>,
): Promise<Answer[]> {
  const out: Answer[] = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, loop) => {
      while (performance.now() < until) out.push({ ...(await next(i++)), loop });
    }),
  );
  return out;
}

function perConnection(answers: Answer[]): [number, number] {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.loop ?? -1, (counts.get(a.loop ?? -1) ?? 0) + 1);
  const values = [...counts.values()];
  return values.length ? [Math.min(...values), Math.max(...values)] : [0, 0];
}

function countByStatus(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

async function main(): Promise<void> {
  const good = await createKey(keysFile);
  const hostileKey = await createKey(keysFile);
  const bomb = await whitePng(24_000, 24_000);
  const bombHost = await listen((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(bomb));
  const logoTemplate = {
    ...JSON.parse(readFileSync(join(import.meta.dirname, '../../assets/templates/product-2x1.json'), 'utf8')),
    name: 'logo-2x1',
    fields: [{ name: 'logo', label: 'Logo', placeholder: 'bomb.png' }],
    elements: [{ type: 'image', x: 4, y: 4, width: 80, height: 80, url: '{logo}' }],
  };
  mkdirSync(templatesDir, { recursive: true });
  writeFileSync(join(templatesDir, 'logo-2x1.json'), JSON.stringify(logoTemplate));
  writeFileSync(join(templatesDir, 'bomb.png'), bomb);

  // The bundled CLI as users run it (tsx's compiler would add its own memory to the server's RSS).
  const repo = join(import.meta.dirname, '../..');
  const bundle = join(repo, 'node_modules/.cache/labeldesk-bench-load/labeldesk.mjs');
  const built = spawnSync(process.execPath, [join(repo, 'scripts/build-cli.mjs'), bundle], {
    cwd: repo,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('scripts/build-cli.mjs failed');
  const taskset = spawnSync('taskset', ['--version']).status === 0 ? ['taskset', '-c', '0'] : [];
  // The server on core 0, these clients on core 1 (npm run bench pins everything to core 0).
  if (taskset.length && cpus().length > 1) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)]);
  const [cmd, ...args] = [
    ...taskset,
    process.execPath,
    bundle,
    'serve',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--templates',
    templatesDir,
    '--rate-limit',
    '1000000',
    '--image-host',
    '127.0.0.1',
  ];
  const server = spawn(cmd as string, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  base = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdout?.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m?.[1]) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`labeldesk serve exited ${code}`)));
  });
  const pid = server.pid as number;
  const vmHwmMb = (): number =>
    Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  // CPU seconds (user + system) of the whole server and of its main thread (the event loop): the difference
  // is its other threads' work: libuv's pool (scrypt for every secret checked, file reads), GC helpers.
  const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
  const cpuSeconds = (stat: string): number => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticks;
  };
  const serverCpu = (): { all: number; main: number } => ({
    all: cpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    main: cpuSeconds(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')),
  });

  const renderZpl = (i: number) =>
    post('render-zpl', { label_name: 'shipping-4x6', amount: 1, apiData: dataFor(i) }, good);
  const fetchMarkups = (i: number) =>
    post('fetch-markups', { label_name: 'shipping-4x6', amount: 1, apiData: dataFor(i) }, good);
  // Warm up (fonts, templates, the verified secret) on all 32 connections, so that the first phase, like the
  // others, measures 32 keep-alive clients: a saturated Node server accepts new connections only a few per
  // turn of its loop (a bare node:http server doing 4 ms of work per request does the same), which with 4
  // warm-up clients put 28 connection set-ups of up to 2-3 s into the first phase's p99.
  await loops(CLIENTS, performance.now() + 3000, renderZpl);

  const hostile = (until: number) =>
    Promise.all([
      loops(2, until, () =>
        post(
          'render-zpl',
          { label_name: 'logo-2x1', amount: 1, apiData: { logo: 'bomb.png' }, strict: true },
          hostileKey,
        ),
      ),
      loops(2, until, () =>
        post(
          'render-zpl',
          { label_name: 'logo-2x1', amount: 1, apiData: { logo: `${bombHost.url}/bomb.png` }, strict: true },
          hostileKey,
        ),
      ),
      loops(2, until, (i) =>
        post('render-zpl', { label_name: 'shipping-4x6', amount: 1000, apiData: dataFor(i) }, hostileKey),
      ),
      loops(8, until, () =>
        post(
          'fetch-markups',
          { label_name: 'shipping-4x6', amount: 1, apiData: {} },
          { ...hostileKey, secret: 'lds_guess' },
        ),
      ),
    ]).then((groups) => ({
      bombs_file: countByStatus(groups[0]),
      bombs_http: countByStatus(groups[1]),
      copies_1000: countByStatus(groups[2]),
      wrong_secrets: countByStatus(groups[3]),
    }));

  const phases: Record<string, unknown> = {};
  for (const [name, next] of [
    ['render_zpl', renderZpl],
    ['fetch_markups', fetchMarkups],
  ] as const) {
    for (const withHostile of [false, true]) {
      const cpuBefore = serverCpu();
      const clientCpuBefore = process.cpuUsage();
      const started = performance.now();
      const until = started + seconds * 1000;
      const [answers, hostileAnswers] = await Promise.all([
        loops(CLIENTS, until, next),
        withHostile ? hostile(until) : Promise.resolve(undefined),
      ]);
      const elapsed = (performance.now() - started) / 1000;
      const cpuAfter = serverCpu();
      const clientCpu = process.cpuUsage(clientCpuBefore);
      const share = (seconds: number): number => Math.round((seconds / elapsed) * 100) / 100;
      const ok = answers.filter((a) => a.status === 200);
      const ms = ok.map((a) => a.ms).sort((a, b) => a - b);
      phases[`${name}${withHostile ? '_with_hostile_mix' : ''}`] = {
        requests_per_s: Math.round((ok.length / elapsed) * 10) / 10,
        p50_ms: Math.round(quantile(ms, 0.5)),
        p99_ms: Math.round(quantile(ms, 0.99)),
        statuses: countByStatus(answers),
        // Answers of the least and the most served of the 32 connections: a server that answers in arrival
        // order serves each once a round (work-gate.ts; before, two of 32 got half as many, at twice the latency).
        answers_per_connection_min_max: perConnection(ok),
        ...(hostileAnswers ? { hostile: hostileAnswers } : {}),
        server_peak_rss_mb: Math.round(vmHwmMb()),
        // Cores' worth of CPU the server used over the phase: all threads, and its event loop alone.
        server_cpu_cores: share(cpuAfter.all - cpuBefore.all),
        server_cpu_cores_event_loop: share(cpuAfter.main - cpuBefore.main),
        // The clients' own process (core 1): near 1.00 would mean the clients, not the server, set the pace.
        client_cpu_cores: share((clientCpu.user + clientCpu.system) / 1e6),
      };
    }
  }
  const peak = vmHwmMb();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await bombHost.close();
  agent.destroy();
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({ clients: CLIENTS, seconds_per_phase: seconds, one_core: taskset.length > 0, server_peak_rss_mb: Math.round(peak), ...phases })}\n`,
  );
}

await main();
