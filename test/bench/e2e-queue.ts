/**
 * End-to-end through the job queue (child of run.ts, its own process so its peak RSS is the queue's alone):
 * one job of N different shipping-4x6 rows, created with the job service (src/node/jobs/job-service.ts: SQLite
 * store, labels rendered in chunks as printing reaches them, every label written and confirmed with `~HS`)
 * and printed to the Zebra emulator the parent runs. Samples RSS every N/10 labels. Prints one JSON line.
 *
 *   tsx test/bench/e2e-queue.ts PORT N DATA_DIR
 */
import { performance } from 'node:perf_hooks';
import { openJobService } from '../../src/node/jobs/job-service';
import { monoRasterStats } from '../../src/node/resvg';
import { dataFor, shippingTemplate } from './inputs';

const port = Number(process.argv[2]);
const n = Number(process.argv[3] ?? 1000);
const dataDir = process.argv[4]!;
const template = shippingTemplate();
const rssMb = (): number => Math.round(process.memoryUsage.rss() / 1024 / 1024);

const service = openJobService({ dataDir, user: 'bench' });
const samples: { labels: number; rss_mb: number }[] = [];
const every = Math.max(1, Math.floor(n / 10));
service.onEvent((e) => {
  if (e.kind === 'progress' && e.done % every === 0) samples.push({ labels: e.done, rss_mb: rssMb() });
});

const start = performance.now();
const rows = Array.from({ length: n }, (_, i) => ({ data: dataFor(i) }));
const { job } = await service.addJob({ template, printer: `tcp://127.0.0.1:${port}`, rows, dpi: 203 });
const created = performance.now();
await service.start(job.id);
await service.idle();
const seconds = (performance.now() - start) / 1000;
const done = service.getJob(job.id)!;
await service.close();
process.stdout.write(
  `${JSON.stringify({
    labels: done.counts.confirmed,
    requested: n,
    state: done.state,
    possible_duplicates: done.possibleDuplicates.length,
    seconds,
    create_ms: Math.round(created - start),
    labels_per_s: done.counts.confirmed / seconds,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    rss_samples: samples,
    mono_raster: { ...monoRasterStats },
  })}\n`,
);
