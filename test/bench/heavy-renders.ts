/**
 * Heavy renders off the event loop (issue #16, item 1), measured: the bundled `labeldesk serve`
 * (scripts/build-cli.mjs) in its own process, once with `--render-workers 0` (every render on the event loop,
 * as before) and once with the defaults (one worker, `--heavy-render-dots` 16,000,000), each on one core
 * (taskset -c 0, as the load bench pins it) and on both. Per configuration:
 *  - the fast path: 300 render-zpl requests of the shipping 4×6 in label at 203 dpi, one at a time (a different
 *    tracking number each), after 50 to warm up: client-side latency, and the server's CPU per request;
 *  - small requests under heavy ones: two clients loop on heavy requests (packing-slip-a4 at 1200 dpi and
 *    max_width_dots 10,000: all its ~139 M dots encoded) while one client sends the shipping label one at a
 *    time for SECONDS: its latency, and how many heavy requests were answered.
 * First, in this process: what the decision costs a request that stays on the event loop. Not a test and not
 * part of `npm run bench`. Prints a table (and one JSON line).
 *
 *   tsx test/bench/heavy-renders.ts [SECONDS]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { IN_PROCESS_OUTPUTS } from '../../src/outputs/render';
import { prepareImages } from '../../src/engine/incomplete-markup';
import { DEFAULT_LIMITS } from '../../src/node/serve/budgets';
import { createKey } from '../../src/node/serve/key-store';
import { renderCost } from '../../src/node/serve/render-cost';
import { offloadingOutputs } from '../../src/node/serve/render-offload';
import { collectImageUrls } from '../../src/layout/images';
import { bundledTemplatesDir } from '../../src/node/assets';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { resolveShared } from '../../src/resolve/resolve';
import { bundledTemplate } from '../support/templates';
import { dataFor } from './inputs';

const seconds = Number(process.argv[2] ?? 15);
const repo = join(import.meta.dirname, '../..');
const root = mkdtempSync(join(tmpdir(), 'labeldesk-bench-heavy-'));
const dataDir = join(root, 'data');
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

type Key = { key: string; secret: string };

function post(base: string, body: unknown, key: Key): Promise<{ status: number; ms: number }> {
  const data = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      `${base}/custom-labels/render-zpl`,
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
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

async function serve(
  bundle: string,
  args: string[],
  pin: boolean,
): Promise<{ child: ChildProcess; base: string }> {
  const cmd = [
    ...(pin ? ['taskset', '-c', '0'] : []),
    process.execPath,
    bundle,
    'serve',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--rate-limit',
    '1000000',
    ...args,
  ];
  const child = spawn(cmd[0] as string, cmd.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
  const base = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`labeldesk serve exited ${code}`)));
  });
  return { child, base };
}

/** CPU seconds (user + system) of the process `pid`, all threads. */
function cpuSeconds(pid: number): number {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

/** The server's resident memory now, MB. */
const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** A worker ends after this many seconds idle in these runs (default 30), so the run can see its memory go. */
const IDLE_SECONDS = 3;

async function measure(bundle: string, key: Key, workers: 'none' | 'default', pin: boolean) {
  const { child, base } = await serve(
    bundle,
    workers === 'none' ? ['--render-workers', '0'] : ['--render-worker-idle', String(IDLE_SECONDS)],
    pin,
  );
  const pid = child.pid as number;
  const small = (i: number) =>
    post(base, { label_name: 'shipping-4x6', amount: 1, apiData: dataFor(i) }, key);
  const heavy = () =>
    post(
      base,
      { label_name: 'packing-slip-a4', amount: 1, apiData: {}, dpi: 1200, max_width_dots: 10_000 },
      key,
    );
  try {
    let i = 0;
    for (; i < 50; i++) await small(i);
    const rssBeforeHeavy = rssMb(pid);
    // Warm the worker too (the first heavy request starts it), so that neither run pays a start-up.
    await heavy();
    const fast: number[] = [];
    const cpuBefore = cpuSeconds(pid);
    for (let n = 0; n < 300; n++) fast.push((await small(i++)).ms);
    const cpuPerRequest = ((cpuSeconds(pid) - cpuBefore) / 300) * 1000;
    fast.sort((a, b) => a - b);

    const until = performance.now() + seconds * 1000;
    let heavyDone = 0;
    const heavyLoop = async () => {
      while (performance.now() < until) if ((await heavy()).status === 200) heavyDone++;
    };
    const smallMs: number[] = [];
    const smallLoop = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the heavy ones first
      while (performance.now() < until) smallMs.push((await small(i++)).ms);
    };
    await Promise.all([heavyLoop(), heavyLoop(), smallLoop()]);
    smallMs.sort((a, b) => a - b);
    const rssAfterHeavy = rssMb(pid);
    await new Promise((resolve) => setTimeout(resolve, (IDLE_SECONDS + 2) * 1000));
    const rssIdle = rssMb(pid);
    const vmHwmMb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
    return {
      workers,
      cores: pin ? 1 : 2,
      fast_path_ms: { p50: round(quantile(fast, 0.5), 2), p90: round(quantile(fast, 0.9), 2) },
      fast_path_server_cpu_ms: round(cpuPerRequest, 2),
      small_under_heavy_ms: {
        n: smallMs.length,
        p50: round(quantile(smallMs, 0.5)),
        p99: round(quantile(smallMs, 0.99)),
        max: round(smallMs.at(-1) ?? NaN),
      },
      heavy_answered_per_s: round(heavyDone / seconds, 2),
      peak_rss_mb: round(vmHwmMb, 0),
      rss_mb: {
        before_heavy: round(rssBeforeHeavy, 0),
        after_heavy: round(rssAfterHeavy, 0),
        idle: round(rssIdle, 0),
      },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** What deciding costs a request that stays on the event loop: the images looked up again and the estimate. */
async function decisionMicroseconds(): Promise<number> {
  const template = bundledTemplate('shipping-4x6');
  const markups = resolveShared(template, dataFor(0), 1);
  const ports = nodeRenderPorts({ baseDir: bundledTemplatesDir() });
  const prepared = await prepareImages(markups, ports, 'omit');
  const stay = offloadingOutputs(
    { run: () => Promise.reject(new Error('not heavy')), workers: 0, jobs: 0, close: async () => {} },
    DEFAULT_LIMITS.heavyRenderDots,
  );
  // Both paths render the same label; the difference between them is the decision.
  const time = async (render: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    for (let n = 0; n < 200; n++) await render();
    return (performance.now() - started) / 200;
  };
  const opts = { dpi: 203 };
  const direct = () => IN_PROCESS_OUTPUTS.zpl(prepared.markups, opts, prepared.ports);
  const decided = () => stay.zpl(prepared.markups, opts, prepared.ports);
  await time(direct);
  await time(decided);
  const deltas: number[] = [];
  for (let round = 0; round < 5; round++) deltas.push((await time(decided)) - (await time(direct)));
  const started = performance.now();
  const images = await prepared.ports.loadImages(collectImageUrls(prepared.markups));
  for (let n = 0; n < 10_000; n++) {
    renderCost(prepared.markups, { dpi: 203, raster: true, maxWidthDots: 832 }, images);
  }
  const estimateUs = ((performance.now() - started) / 10_000) * 1000;
  console.log(
    `decision on the fast path: the estimate ${round(estimateUs, 2)} µs; whole render with it minus without,` +
      ` 5 rounds of 200 (ms): ${deltas.map((d) => round(d, 3)).join(', ')}`,
  );
  return estimateUs;
}

async function main(): Promise<void> {
  await decisionMicroseconds();
  const bundle = join(repo, 'node_modules/.cache/labeldesk-bench-heavy/labeldesk.mjs');
  const built = spawnSync(process.execPath, [join(repo, 'scripts/build-cli.mjs'), bundle], {
    cwd: repo,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('scripts/build-cli.mjs failed');
  const key = await createKey(join(dataDir, 'keys.json'));
  const canPin = spawnSync('taskset', ['--version']).status === 0 && cpus().length > 1;
  const results = [];
  for (const pin of canPin ? [true, false] : [false]) {
    for (const workers of ['none', 'default'] as const)
      results.push(await measure(bundle, key, workers, pin));
  }
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.table(
    results.map((r) => ({
      workers: r.workers,
      cores: r.cores,
      'fast p50/p90 ms': `${r.fast_path_ms.p50} / ${r.fast_path_ms.p90}`,
      'fast server CPU ms': r.fast_path_server_cpu_ms,
      'small under heavy p50/p99/max ms': `${r.small_under_heavy_ms.p50} / ${r.small_under_heavy_ms.p99} / ${r.small_under_heavy_ms.max}`,
      'small n': r.small_under_heavy_ms.n,
      'heavy/s': r.heavy_answered_per_s,
      'peak RSS MB': r.peak_rss_mb,
      'RSS MB before / after heavy / idle': `${r.rss_mb.before_heavy} / ${r.rss_mb.after_heavy} / ${r.rss_mb.idle}`,
    })),
  );
  console.log(JSON.stringify(results));
}

try {
  await main();
} finally {
  agent.destroy();
  rmSync(root, { recursive: true, force: true });
}
