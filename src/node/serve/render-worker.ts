/**
 * Node-only: a render worker of `labeldesk serve` (render-pool.ts starts it). It renders one job at a time with
 * the engine's own output stage and the bundled fonts, from the images the server loaded and sent: it opens
 * no file and fetches no URL. Bundled as dist/render-worker.mjs beside the CLI (scripts/build-cli.mjs); from
 * the sources through render-worker-from-source.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadedImage } from '../../layout/images';
import { machineFonts } from '../fonts';
import { nodeOutputPorts } from '../render-ports';
import { IN_PROCESS_OUTPUTS, type RenderPorts } from '../../outputs/render';
import {
  RenderJobSchema,
  distinctOf,
  toWorkerError,
  type ParsedRenderJob,
  type RenderAnswer,
  type RenderOutput,
  RenderWorkerDataSchema,
} from './render-protocol';

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread of labeldesk serve');

// The fonts the server renders with: bundled, plus its data folder's fonts/ (the pool says which folder).
const { fontsDataDir } = RenderWorkerDataSchema.parse(workerData ?? {});
const base = nodeOutputPorts(
  fontsDataDir === undefined ? undefined : machineFonts({ dataDir: fontsDataDir, system: false }).fonts,
);

async function render(job: ParsedRenderJob): Promise<RenderOutput> {
  const images = new Map<string, LoadedImage>(job.images);
  const ports: RenderPorts = {
    ...base,
    // As the server's prepared ports answer (incomplete-markup.ts): the images it loaded, nothing else.
    loadImages: async (urls) => {
      const out = new Map<string, LoadedImage>();
      for (const url of urls) {
        const image = images.get(url);
        if (image) out.set(url, image);
      }
      return out;
    },
    imageBudget: job.imageBudget,
  };
  // The same object per identical copy, as the server resolved them (resolveShared): rendered once.
  const markups = job.copies.map((i) => job.markups[i] as (typeof job.markups)[number]);
  switch (job.output.kind) {
    case 'zpl': {
      const zpl = await IN_PROCESS_OUTPUTS.zpl(markups, job.output.options, ports);
      return { kind: 'zpl', dpi: zpl.dpi, max_width_dots: zpl.max_width_dots, ...distinctOf(zpl.labels) };
    }
    case 'pdf':
      return { kind: 'pdf', ...distinctOf(await IN_PROCESS_OUTPUTS.pdf(markups, ports, job.output.options)) };
    case 'svg':
      return { kind: 'svg', ...distinctOf(await IN_PROCESS_OUTPUTS.svg(markups, ports)) };
  }
}

port.on('message', (message: unknown) => {
  const id =
    typeof message === 'object' && message !== null && 'id' in message && typeof message.id === 'number'
      ? message.id
      : -1;
  const parsed = RenderJobSchema.safeParse(message);
  const answer: Promise<RenderAnswer> = parsed.success
    ? render(parsed.data).then(
        (output): RenderAnswer => ({ id, ok: true, output }),
        (e: unknown): RenderAnswer => ({ id, ok: false, error: toWorkerError(e) }),
      )
    : Promise.resolve({
        id,
        ok: false,
        error: { kind: 'failure', name: 'RenderJobInvalid', frames: '' },
      });
  void answer.then((a) => port.postMessage(a));
});
