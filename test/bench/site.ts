/**
 * Site child of run.ts (issue #24): `labeldesk serve --database postgres://…` — the bundled CLI, as users run it —
 * on one private PostgreSQL 15 (test/support/postgres.ts: fsync off, a watchdog), 1, 2 and 3 instances, against
 * the embedded store (one instance with its data folder) on the same machine in the same run. Prints one JSON line.
 *
 *   tsx test/bench/site.ts [SECONDS_PER_PHASE] [ROUNDS] [SEQUENTIAL_REQUESTS]
 *   LABELDESK_BENCH_BUNDLE=path/labeldesk.mjs tsx test/bench/site.ts …   (a bundle built already)
 *
 * Where everything runs: the instances, PostgreSQL (its postmaster and every backend) and this process (the 32
 * clients) are all free on every core this process may use (run.ts starts it under `taskset -c 0-1`: the VM has
 * two), so they compete for the same cores; each phase reports the CPU each of them used, in cores and in ms per
 * label, which is what says where the ceiling is. There is no load balancer: the clients send their requests
 * round-robin over the instances' URLs (request k to instance k mod n, one keep-alive pool per instance), so
 * nothing is measured that a site would not have; a balancer would add its own cost on top.
 *
 * 1. Load: 32 keep-alive clients in a closed loop (as load.ts), one API key each (the rate limit is one window per
 *    key; --rate-limit 1000000 so nothing is refused), for each configuration — embedded ×1, PostgreSQL ×1, ×2,
 *    ×3, and ×1 with `--renders 8` (a request holds its render place while it waits for the database) — render-zpl of shipping-4x6 (1 copy, a different tracking number each) and render-zpl of
 *    gs1-logistic-4x6 (its SSCC is a counter field: in PostgreSQL every request reserves its number in a
 *    transaction and records the job; the embedded server has no counter store and prints the placeholder).
 *    The configurations alternate, ROUNDS times; figures per configuration are the medians of the rounds.
 * 2. Per-request overhead: one client, one request at a time, alternating embedded and PostgreSQL (instance 1)
 *    request by request with the same data: the medians and their difference and ratio, and the CPU each side
 *    spent per request (the instance's, and PostgreSQL's).
 * 3. Round trips per request: an extra instance connects through a counting TCP relay in this process (each
 *    ReadyForQuery the server sends ends one round trip); it answers only these requests, one at a time.
 * 4. ld_rate_take against the size of the key's window (60, 600, 6,000 requests in the last minute), with
 *    `SELECT 1` and the key lookup for scale, straight from a pg client.
 * 5. Counters: every SSCC handed out by every instance is unique — checked in the jobs table (ranges disjoint,
 *    one row per answered request) and end to end (fetch-markups of gs1-logistic-4x6 on all instances at once,
 *    each answer's SSCC read back). Throws if it does not hold.
 * 6. What the database holds afterwards: bytes (with indexes and TOAST) and rows per table.
 *
 * Every process it starts stops by itself: PostgreSQL and each instance run under a watchdog shell that stops them
 * (and removes their folders) when this process is gone, however it ended.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createConnection, createServer, type Server } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createKey } from '../../src/node/serve/key-store';
import { startPostgres } from '../support/postgres';
import { SAMPLE_DATA } from '../support/templates';
import { dataFor } from './inputs';

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const sequentialN = Number(process.argv[4] ?? 200);
const CLIENTS = 32;
const INSTANCES = 3;
const COUNTER_TEMPLATE = 'gs1-logistic-4x6';
const root = mkdtempSync(join(tmpdir(), 'labeldesk-bench-site-'));
const repo = join(import.meta.dirname, '../..');
const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

interface Key {
  key: string;
  secret: string;
}
interface Answer {
  status: number;
  ms: number;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function post(base: string, route: string, body: unknown, key: Key, keepBody = false): Promise<Answer> {
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
        const chunks: Buffer[] = [];
        if (keepBody) res.on('data', (c: Buffer) => chunks.push(c));
        else res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: keepBody ? Buffer.concat(chunks).toString('utf8') : '',
          }),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, body: '' }));
    req.end(data);
  });
}

const quantile = (sorted: number[], q: number): number =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) : 0;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length % 2 ? (s[Math.floor(m)] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const r1 = (x: number): number => Math.round(x * 10) / 10;
const r2 = (x: number): number => Math.round(x * 100) / 100;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function countByStatus(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

// ------------------------------------------------------------------------------------------- CPU from /proc

/** utime + stime (and, with `children`, cutime + cstime: children that ended and were reaped), seconds. */
function procCpu(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / ticks;
  } catch {
    return 0; // gone between listing and reading
  }
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/** PostgreSQL's CPU: the postmaster (with its reaped children) and every process it runs now (backends, …). */
function postgresCpu(postmaster: number): number {
  let total = procCpu(postmaster, true);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (parentOf(pid) === postmaster) total += procCpu(pid);
  }
  return total;
}

// ------------------------------------------------------------------------------------------- the instances

interface Instance {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The bundled CLI's `serve` under a watchdog shell: it stops when told (SIGTERM to the shell) or when this
 * process is gone, whichever comes first, and removes its data folder.
 */
async function startInstance(bundle: string, dataDir: string, extra: string[], env = {}): Promise<Instance> {
  const cores = `0-${availableParallelism() - 1}`;
  const q = (list: string[]) => list.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const cmd = q([
    'taskset',
    '-c',
    cores,
    process.execPath,
    bundle,
    'serve',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--rate-limit',
    '1000000',
    ...extra,
  ]);
  // The bench's folder goes with its last instance (rmdir: only once empty).
  const cleanUp = `rm -rf ${q([dataDir])}; rmdir ${q([dirname(dataDir)])} 2>/dev/null`;
  const script =
    `${cmd} & s=$!; echo "pid $s"; trap 'kill -TERM $s 2>/dev/null; wait $s; ${cleanUp}; exit 0' TERM; ` +
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 $s 2>/dev/null; do sleep 1 & wait $!; done; ` +
    `kill -TERM $s 2>/dev/null; wait $s; ${cleanUp}`;
  const child: ChildProcess = spawn('sh', ['-c', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url, pid } = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (c: Buffer) => {
      text += c.toString();
      const u = /listening on (http:\/\/\S+)/.exec(text);
      const p = /^pid (\d+)$/m.exec(text);
      if (u?.[1] && p?.[1]) resolve({ url: u[1], pid: Number(p[1]) });
    });
    child.on('exit', (code) => reject(new Error(`labeldesk serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    pid,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * A TCP relay to PostgreSQL that counts round trips: every ReadyForQuery ('Z') the server sends closes one
 * (a simple or extended-protocol query, BEGIN and COMMIT included); and notes the statements the client sends
 * (simple 'Q' and extended 'P' messages), for the report.
 */
function countingRelay(pgPort: number): Promise<{
  port: number;
  count: () => number;
  statements: string[];
  server: Server;
}> {
  let z = 0;
  const statements: string[] = [];
  const cstring = (b: Buffer, at: number): [string, number] => {
    const end = b.indexOf(0, at);
    return [b.toString('utf8', at, end), end + 1];
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: pgPort });
    // Every message is typed (1 byte, then its length) but the client's first (startup: its length alone);
    // node-pg asks for no SSL on a plain URL.
    let fromClient = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      fromClient = Buffer.concat([fromClient, chunk]);
      for (;;) {
        if (!started) {
          if (fromClient.length < 4 || fromClient.length < fromClient.readUInt32BE(0)) break;
          fromClient = fromClient.subarray(fromClient.readUInt32BE(0));
          started = true;
          continue;
        }
        if (fromClient.length < 5) break;
        const len = fromClient.readUInt32BE(1);
        if (fromClient.length < 1 + len) break;
        const msg = fromClient.subarray(0, 1 + len);
        if (msg[0] === 0x51) statements.push(cstring(msg, 5)[0]);
        if (msg[0] === 0x50) statements.push(cstring(msg, cstring(msg, 5)[1])[0]);
        fromClient = fromClient.subarray(1 + len);
      }
    });
    let fromServer = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      fromServer = Buffer.concat([fromServer, chunk]);
      while (fromServer.length >= 5) {
        const len = fromServer.readUInt32BE(1);
        if (fromServer.length < 1 + len) break;
        if (fromServer[0] === 0x5a) z++;
        fromServer = fromServer.subarray(1 + len);
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve({ port: typeof a === 'object' && a ? a.port : 0, count: () => z, statements, server });
    }),
  );
}

/** `labeldesk keys create --database URL --json` of the bundle: the new key and its secret. */
function cliKey(bundle: string, url: string): Promise<Key> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, 'keys', 'create', '--database', url, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`labeldesk keys create exited ${code}: ${err}`));
      const made = JSON.parse(out) as Key;
      resolve({ key: made.key, secret: made.secret });
    });
  });
}

// ------------------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  const loadStart = loadavg();
  // The bundled CLI as users run it, a private copy (dist/ may be rebuilt by others while this runs), or one
  // built already (LABELDESK_BENCH_BUNDLE: another build to compare with).
  const bundle =
    process.env.LABELDESK_BENCH_BUNDLE ??
    join(repo, 'node_modules/.cache/labeldesk-bench-site/labeldesk.mjs');
  if (!process.env.LABELDESK_BENCH_BUNDLE) {
    const built = spawnSync(process.execPath, [join(repo, 'scripts/build-cli.mjs'), bundle], {
      cwd: repo,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('scripts/build-cli.mjs failed');
  }

  const server = await startPostgres();
  const instances: Instance[] = [];
  const relays: Server[] = [];
  let admin: pg.Client | undefined;
  try {
    const url = await server.createDatabase('labeldesk_bench');
    const embeddedDir = join(root, 'embedded');
    mkdirSync(embeddedDir, { mode: 0o700 });
    const embKeys: Key[] = [];
    for (let i = 0; i < CLIENTS; i++) embKeys.push(await createKey(join(embeddedDir, 'keys.json')));

    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const backend = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const postmaster = parentOf(backend);
    const pgVersion = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
      .rows[0]!.v;

    const embedded = await startInstance(bundle, embeddedDir, []);
    instances.push(embedded);
    const pgInstances: Instance[] = [];
    for (let i = 0; i < INSTANCES; i++) {
      const dir = join(root, `pg-${i}`);
      mkdirSync(dir, { mode: 0o700 });
      // The URL from the environment (as a deployment would give it), not the command line.
      const inst = await startInstance(bundle, dir, [], { LABELDESK_DATABASE_URL: url });
      pgInstances.push(inst);
      instances.push(inst);
    }
    // One more with 8 render places instead of the cores' 2: a request holds its place while it waits for the
    // database (the template lookup, the counter reservation, the job's row), so with 2 places the CPU may idle.
    const wideDir = join(root, 'pg-renders-8');
    mkdirSync(wideDir, { mode: 0o700 });
    const wide = await startInstance(bundle, wideDir, ['--renders', '8'], { LABELDESK_DATABASE_URL: url });
    instances.push(wide);
    // The first instance applied the bundle's migrations; one key per client made by the bundle's own
    // `keys create --database` (this checkout's stores may be newer than the bundle's schema), four at a time.
    const pgKeys: Key[] = [];
    for (let i = 0; i < CLIENTS; i += 4)
      pgKeys.push(
        ...(await Promise.all(Array.from({ length: Math.min(4, CLIENTS - i) }, () => cliKey(bundle, url)))),
      );

    const shippingBody = (i: number) => ({ label_name: 'shipping-4x6', amount: 1, apiData: dataFor(i) });
    const counterBody = () => ({
      label_name: COUNTER_TEMPLATE,
      amount: 1,
      apiData: SAMPLE_DATA[COUNTER_TEMPLATE],
    });
    /** 200 answers of counter-template requests to the PostgreSQL instances (each reserved one number). */
    let counterOk = 0;

    /** 32 clients, round-robin over `targets`, until `until`. */
    async function drive(
      targets: string[],
      keys: Key[],
      route: string,
      body: (i: number) => unknown,
      until: number,
      keepBody = false,
    ): Promise<Answer[]> {
      const out: Answer[] = [];
      let k = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          while (performance.now() < until) {
            const i = k++;
            out.push(await post(targets[i % targets.length]!, route, body(i), keys[c]!, keepBody));
          }
        }),
      );
      return out;
    }

    // Warm-up: fonts, templates, every key verified once on every instance (a remembered pair costs no scrypt).
    for (const [targets, keys] of [
      [[embedded.url], embKeys],
      [[...pgInstances, wide].map((x) => x.url), pgKeys],
    ] as const) {
      for (const [route, body] of [
        ['render-zpl', shippingBody],
        ['render-zpl', counterBody],
      ] as const) {
        const answers = await drive([...targets], keys, route, body, performance.now() + 2000);
        if (keys === pgKeys && body === counterBody)
          counterOk += answers.filter((a) => a.status === 200).length;
      }
    }

    // 1. Load, configurations alternating.
    const configs: { name: string; targets: Instance[]; keys: Key[]; pg: boolean }[] = [
      { name: 'embedded_x1', targets: [embedded], keys: embKeys, pg: false },
      ...[1, 2, 3].map((n) => ({
        name: `postgres_x${n}`,
        targets: pgInstances.slice(0, n),
        keys: pgKeys,
        pg: true,
      })),
      { name: 'postgres_x1_renders_8', targets: [wide], keys: pgKeys, pg: true },
    ];
    const runs: Record<string, Record<string, Record<string, number>[]>> = {};
    const statuses: Record<string, Record<string, number>> = {};
    for (let round = 0; round < rounds; round++) {
      // Alternate the order too, so no configuration always comes first after a quiet spell.
      const order = round % 2 ? [...configs].reverse() : configs;
      for (const cfg of order) {
        for (const [phase, body] of [
          ['shipping', shippingBody],
          ['counter', counterBody],
        ] as const) {
          const cpuInst0 = cfg.targets.map((t) => procCpu(t.pid));
          const pg0 = postgresCpu(postmaster);
          const me0 = process.cpuUsage();
          const started = performance.now();
          const answers = await drive(
            cfg.targets.map((t) => t.url),
            cfg.keys,
            'render-zpl',
            body,
            started + seconds * 1000,
          );
          const elapsed = (performance.now() - started) / 1000;
          const inst = cfg.targets.reduce((s, t, i) => s + procCpu(t.pid) - cpuInst0[i]!, 0);
          const pgCpu = postgresCpu(postmaster) - pg0;
          const me = process.cpuUsage(me0);
          const ok = answers.filter((a) => a.status === 200);
          if (cfg.pg && phase === 'counter') counterOk += ok.length;
          const ms = ok.map((a) => a.ms).sort((a, b) => a - b);
          const perLabel = (cpuS: number) => (ok.length ? (cpuS * 1000) / ok.length : 0);
          const tally = (statuses[cfg.name] ??= {});
          for (const [s, n] of Object.entries(countByStatus(answers)))
            tally[`${phase}_${s}`] = (tally[`${phase}_${s}`] ?? 0) + n;
          ((runs[cfg.name] ??= {})[phase] ??= []).push({
            labels_per_s: ok.length / elapsed,
            p50_ms: quantile(ms, 0.5),
            p99_ms: quantile(ms, 0.99),
            instances_cpu_cores: inst / elapsed,
            postgres_cpu_cores: pgCpu / elapsed,
            clients_cpu_cores: (me.user + me.system) / 1e6 / elapsed,
            instances_cpu_ms_per_label: perLabel(inst),
            postgres_cpu_ms_per_label: perLabel(pgCpu),
          });
          console.error(
            `  site ${cfg.name} ${phase} (round ${round + 1}): ${r1(ok.length / elapsed)} labels/s, p50 ${r1(quantile(ms, 0.5))} ms, p99 ${r1(quantile(ms, 0.99))} ms; CPU cores: instances ${r2(inst / elapsed)}, PostgreSQL ${r2(pgCpu / elapsed)}, clients ${r2((me.user + me.system) / 1e6 / elapsed)}`,
          );
        }
      }
    }
    const load: Record<string, Record<string, Record<string, number>>> = {};
    for (const [cfg, phases] of Object.entries(runs)) {
      for (const [phase, list] of Object.entries(phases)) {
        const keys = Object.keys(list[0] ?? {});
        const med = Object.fromEntries(keys.map((k) => [k, median(list.map((x) => x[k]!))]));
        (load[cfg] ??= {})[phase] = {
          labels_per_s: r1(med.labels_per_s!),
          p50_ms: r1(med.p50_ms!),
          p99_ms: r1(med.p99_ms!),
          instances_cpu_cores: r2(med.instances_cpu_cores!),
          postgres_cpu_cores: r2(med.postgres_cpu_cores!),
          clients_cpu_cores: r2(med.clients_cpu_cores!),
          postgres_cpu_share: r2(
            med.postgres_cpu_cores! /
              (med.instances_cpu_cores! + med.postgres_cpu_cores! + med.clients_cpu_cores!),
          ),
          instances_cpu_ms_per_label: r2(med.instances_cpu_ms_per_label!),
          postgres_cpu_ms_per_label: r2(med.postgres_cpu_ms_per_label!),
          rounds: list.length,
          ...Object.fromEntries(list.map((x, i) => [`labels_per_s_round_${i + 1}`, r1(x.labels_per_s!)])),
        };
      }
    }

    // 2. Per-request overhead, one request at a time, embedded and PostgreSQL alternating.
    const overhead: Record<string, Record<string, number>> = {};
    for (const [name, route, body] of [
      ['render_zpl_shipping', 'render-zpl', shippingBody],
      ['render_zpl_counter', 'render-zpl', counterBody],
      ['fetch_markups_shipping', 'fetch-markups', shippingBody],
    ] as const) {
      const emb: number[] = [];
      const pgMs: number[] = [];
      const e0 = procCpu(embedded.pid);
      const p0 = procCpu(pgInstances[0]!.pid);
      const g0 = postgresCpu(postmaster);
      for (let i = -10; i < sequentialN; i++) {
        const one = async (store: 'emb' | 'pg') => {
          const a = await post(
            store === 'emb' ? embedded.url : pgInstances[0]!.url,
            route,
            body(100_000 + i),
            store === 'emb' ? embKeys[0]! : pgKeys[0]!,
          );
          if (a.status !== 200) throw new Error(`${name} on ${store}: ${a.status}`);
          if (store === 'pg' && body === counterBody) counterOk++;
          if (i >= 0) (store === 'emb' ? emb : pgMs).push(a.ms);
        };
        for (const store of i % 2 ? (['emb', 'pg'] as const) : (['pg', 'emb'] as const)) await one(store);
      }
      const n = sequentialN + 10;
      const me = median(emb);
      const mp = median(pgMs);
      overhead[name] = {
        embedded_median_ms: r3(me),
        postgres_median_ms: r3(mp),
        overhead_ms: r3(mp - me),
        ratio: r2(mp / me),
        embedded_p90_ms: r3(
          quantile(
            [...emb].sort((a, b) => a - b),
            0.9,
          ),
        ),
        postgres_p90_ms: r3(
          quantile(
            [...pgMs].sort((a, b) => a - b),
            0.9,
          ),
        ),
        embedded_instance_cpu_ms: r2(((procCpu(embedded.pid) - e0) * 1000) / n),
        postgres_instance_cpu_ms: r2(((procCpu(pgInstances[0]!.pid) - p0) * 1000) / n),
        postgres_server_cpu_ms: r2(((postgresCpu(postmaster) - g0) * 1000) / n),
        requests: sequentialN,
      };
      console.error(
        `  site overhead ${name}: embedded ${r2(me)} ms, PostgreSQL ${r2(mp)} ms (+${r2(mp - me)} ms, ×${r2(mp / me)}); CPU per request: instance ${overhead[name]!.embedded_instance_cpu_ms} → ${overhead[name]!.postgres_instance_cpu_ms} ms, + PostgreSQL ${overhead[name]!.postgres_server_cpu_ms} ms`,
      );
    }

    // 3. Round trips per request, through the counting relay.
    const relay = await countingRelay(server.port);
    relays.push(relay.server);
    const countedDir = join(root, 'pg-counted');
    mkdirSync(countedDir, { mode: 0o700 });
    const counted = await startInstance(bundle, countedDir, [], {
      LABELDESK_DATABASE_URL: url.replace(`:${server.port}/`, `:${relay.port}/`),
    });
    instances.push(counted);
    const roundTrips: Record<string, number> = {};
    const statementsOf: Record<string, string[]> = {};
    const K = 20;
    for (const [name, route, body] of [
      ['render_zpl_shipping', 'render-zpl', shippingBody],
      ['render_zpl_counter', 'render-zpl', counterBody],
      ['fetch_markups_shipping', 'fetch-markups', shippingBody],
    ] as const) {
      await post(counted.url, route, body(0), pgKeys[0]!); // the key verified, the template parsed
      if (body === counterBody) counterOk++;
      const z0 = relay.count();
      let s0 = relay.statements.length;
      for (let i = 0; i < K; i++) {
        if (i === K - 1) s0 = relay.statements.length;
        const a = await post(counted.url, route, body(i), pgKeys[0]!);
        if (a.status !== 200) throw new Error(`round trips ${name}: ${a.status}`);
        if (body === counterBody) counterOk++;
      }
      roundTrips[name] = r2((relay.count() - z0) / K);
      // The last request's statements, shortened (one line each).
      statementsOf[name] = relay.statements.slice(s0).map((q) => q.replace(/\s+/g, ' ').trim().slice(0, 90));
    }
    console.error(`  site round trips to PostgreSQL per request: ${JSON.stringify(roundTrips)}`);
    for (const [name, list] of Object.entries(statementsOf))
      console.error(`    ${name}: ${list.map((q) => `[${q}]`).join(' ')}`);

    // 4. ld_rate_take against the window's size, and two one-row statements for scale.
    const statementMs: Record<string, number> = {};
    const timeIt = async (name: string, sql: string, values: () => unknown[]) => {
      const samples: number[] = [];
      for (let i = -20; i < 300; i++) {
        const t = performance.now();
        await admin!.query(sql, values());
        if (i >= 0) samples.push(performance.now() - t);
      }
      statementMs[name] = r3(median(samples));
    };
    await timeIt('select_1', 'SELECT 1', () => []);
    await timeIt('key_lookup', 'SELECT * FROM api_keys WHERE key = $1', () => [pgKeys[0]!.key]);
    for (const size of [60, 600, 6000]) {
      const key = `bench-window-${size}`;
      await admin.query(
        `INSERT INTO rate_windows (key, times)
         SELECT $1, ARRAY(SELECT $2::bigint - g * 5 FROM generate_series($3::int, 1, -1) g)`,
        [key, Date.now(), size],
      );
      // The limit is far above the window, so every call is allowed and appends (the window grows by 320).
      await timeIt(`rate_take_window_${size}`, 'SELECT ld_rate_take($1, 1000000000, 60000, $2)', () => [
        key,
        Date.now(),
      ]);
    }
    const windows = (
      await admin.query<{ max: number; avg: string }>(
        `SELECT max(cardinality(times)) AS max, avg(cardinality(times)) AS avg FROM rate_windows WHERE key NOT LIKE 'bench-window-%'`,
      )
    ).rows[0];
    console.error(
      `  site statements (ms, median, one client): ${JSON.stringify(statementMs)}; the load's rate windows reached ${windows?.max} entries (mean ${Math.round(Number(windows?.avg))})`,
    );

    // 5. Counters: end to end on all instances at once, then the whole jobs table.
    const e2e = await drive(
      pgInstances.map((x) => x.url),
      pgKeys,
      'fetch-markups',
      counterBody,
      performance.now() + Math.max(1000, (seconds * 1000) / 5),
      true,
    );
    const ssccs: string[] = [];
    for (const a of e2e) {
      if (a.status !== 200) continue;
      counterOk++;
      // The SSCC's 18 digits after its AI (00), in the markup's barcode data.
      const m = /\(00\)(\d{18})/.exec(a.body) ?? /"sscc"\s*:\s*"(\d{18})"/.exec(a.body);
      if (!m?.[1]) throw new Error(`no SSCC in a fetch-markups answer: ${a.body.slice(0, 300)}`);
      if (/^0+$/.test(m[1])) throw new Error('an SSCC placeholder in a site answer: no number reserved');
      ssccs.push(m[1]);
    }
    const e2eUnique = new Set(ssccs).size;
    const jobs = (
      await admin.query<{ first: string; labels: number; instance: string }>(
        `SELECT (counters->>'sscc')::bigint AS first, labels, instance FROM jobs WHERE template = $1 ORDER BY 1`,
        [COUNTER_TEMPLATE],
      )
    ).rows;
    let overlaps = 0;
    for (let i = 1; i < jobs.length; i++)
      if (Number(jobs[i]!.first) < Number(jobs[i - 1]!.first) + jobs[i - 1]!.labels) overlaps++;
    const numbers = jobs.reduce((s, j) => s + j.labels, 0);
    const byInstance = new Set(jobs.map((j) => j.instance)).size;
    const counters = {
      reserved_numbers: numbers,
      job_rows: jobs.length,
      answered_200: counterOk,
      overlapping_ranges: overlaps,
      instances_that_reserved: byInstance,
      end_to_end_answers: ssccs.length,
      end_to_end_distinct_ssccs: e2eUnique,
      unique: overlaps === 0 && e2eUnique === ssccs.length && jobs.length >= counterOk,
    };
    console.error(
      `  site counters: ${numbers} numbers reserved by ${byInstance} instances in ${jobs.length} jobs (${counterOk} answered 200), ${overlaps} overlapping; end to end ${ssccs.length} SSCCs from 3 instances at once, ${e2eUnique} distinct — ${counters.unique ? 'every number unique' : 'NOT UNIQUE'}`,
    );
    if (!counters.unique) throw new Error(`counter numbers not unique: ${JSON.stringify(counters)}`);

    // What the site database holds after all this: rows and bytes (tables with their indexes and TOAST).
    const storage = Object.fromEntries(
      (
        await admin.query<{ name: string; rows: string; bytes: string }>(
          `SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid) AS bytes
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 3 DESC`,
        )
      ).rows.map((r) => [r.name, { bytes: Number(r.bytes) }]),
    ) as Record<string, { bytes: number; rows?: number }>;
    for (const table of ['jobs', 'rate_windows', 'usage', 'counters'])
      if (storage[table])
        storage[table]!.rows = Number(
          (await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n,
        );
    const jobsBytesPerRow = storage.jobs?.rows ? Math.round(storage.jobs.bytes / storage.jobs.rows) : 0;
    console.error(
      `  site database: ${Object.entries(storage)
        .filter(([, v]) => v.bytes > 16_384)
        .map(
          ([k, v]) =>
            `${k} ${Math.round(v.bytes / 1024)} KB${v.rows !== undefined ? ` (${v.rows} rows)` : ''}`,
        )
        .join(', ')}; jobs: ${jobsBytesPerRow} bytes a row`,
    );

    process.stdout.write(
      `${JSON.stringify({
        clients: CLIENTS,
        seconds_per_phase: seconds,
        rounds,
        cores: availableParallelism(),
        placement:
          'instances, PostgreSQL and the 32 clients (one process) all free on every core (taskset -c 0-1); clients round-robin over the instances, no balancer',
        postgres: `${pgVersion}, fsync off, synchronous_commit off, pool of 10 per instance`,
        loadavg_start: loadStart.map(r2),
        loadavg_end: loadavg().map(r2),
        load,
        statuses,
        overhead,
        round_trips_per_request: roundTrips,
        statements_per_request: statementsOf,
        statement_ms: statementMs,
        rate_window_entries_after_load: { max: windows?.max, mean: Math.round(Number(windows?.avg)) },
        counters,
        storage,
        jobs_bytes_per_row: jobsBytesPerRow,
      })}\n`,
    );
  } finally {
    await admin?.end().catch(() => undefined);
    for (const inst of instances) await inst.stop();
    for (const r of relays) r.close();
    agent.destroy();
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
