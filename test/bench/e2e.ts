/**
 * End-to-end child of run.ts (its own process, so its peak RSS is the sender's alone): renders N different
 * shipping-4x6 labels to ZPL at 203 dpi one after another and writes each, as soon as it is rendered, over ONE
 * TCP connection (src/node/printers/tcp.ts) to the Zebra emulator the parent runs. Prints one JSON line.
 *
 *   tsx test/bench/e2e.ts PORT N
 */
import { performance } from 'node:perf_hooks';
import { createTcpTransport } from '../../src/node/printers/tcp';
import { renderZplLabels } from '../../src/outputs/render';
import { monoRasterStats } from '../../src/node/resvg';
import { batchPorts, distinctMarkups, shippingTemplate } from './inputs';

const port = Number(process.argv[2]);
const n = Number(process.argv[3] ?? 1000);
// Diagnostic only (BENCH_E2E_GC=1 with node --expose-gc): collect after each label, to tell retained memory
// from memory V8 merely has not collected yet (resvg's pixels live outside the JS heap).
const forceGc = process.env.BENCH_E2E_GC === '1' ? (globalThis as { gc?: () => void }).gc : undefined;
const template = shippingTemplate();
const ports = batchPorts();

// Warm-up outside the clock: fonts, the logo, the JIT (2 labels, different from the measured ones).
await renderZplLabels(distinctMarkups(template, 2, 1_000_000), { dpi: 203 }, ports);

const start = performance.now();
const transport = createTcpTransport({ scheme: 'tcp', host: '127.0.0.1', port });
await transport.open();
let bytes = 0;
// A guard, not a limit of the product: the old resvg path's native buffers made RSS grow with every label (see
// docs/performance.md), so the run stops once RSS passes BENCH_RSS_GUARD_MB (default 8192) rather than take the
// machine down. The report then says how many labels were sent.
const guardMb = Number(process.env.BENCH_RSS_GUARD_MB ?? 8192);
let sent = 0;
let stoppedAtMb: number | undefined;
const rssMbNow = (): number => process.memoryUsage.rss() / 1024 / 1024;
const rssAfterWarmup = rssMbNow();
// RSS after the first 100 labels (caches warm) and at the end: growth per label in between.
let rssAt100: number | undefined;
// Markups are resolved lazily, one at a time, like a queue that streams its jobs.
for (let i = 0; i < n; i++) {
  const [markup] = distinctMarkups(template, 1, i);
  const { labels } = await renderZplLabels([markup!], { dpi: 203 }, ports);
  for (const label of labels) {
    bytes += Buffer.byteLength(label);
    await transport.write(label);
  }
  forceGc?.();
  sent++;
  const rssMb = rssMbNow();
  if (sent === 100) rssAt100 = rssMb;
  if (rssMb > guardMb) {
    stoppedAtMb = rssMb;
    break;
  }
}
await transport.close();
const seconds = (performance.now() - start) / 1000;
const rssEnd = rssMbNow();
process.stdout.write(
  `${JSON.stringify({
    labels: sent,
    requested: n,
    stopped_by_rss_guard:
      stoppedAtMb === undefined ? false : `RSS ${Math.round(stoppedAtMb)} MB > ${guardMb} MB`,
    seconds,
    labels_per_s: sent / seconds,
    bytes,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    rss_after_warmup_mb: Math.round(rssAfterWarmup),
    rss_at_100_mb: rssAt100 === undefined ? null : Math.round(rssAt100),
    rss_end_mb: Math.round(rssEnd),
    rss_growth_kb_per_label_after_100:
      rssAt100 === undefined || sent <= 100 ? null : Math.round(((rssEnd - rssAt100) * 1024) / (sent - 100)),
    mono_raster: { ...monoRasterStats },
    end_memory_mb: Object.fromEntries(
      Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1024 / 1024)]),
    ),
    forced_gc: forceGc !== undefined,
  })}\n`,
);
