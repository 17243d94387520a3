/**
 * Node-only: the output stage of `labeldesk serve`. A render whose estimated work (render-cost.ts) is above
 * `heavyRenderDots` runs in a worker thread (render-pool.ts), so that one large label does not hold the event
 * loop every other request waits on; the others, the shipping labels of every day, run here as before. Both
 * give the same bytes: the worker runs the same output stage on the same markups, fonts and images (loaded
 * here, under the server's address policy and budgets), and its errors come back as the same classes.
 */
import {
  checkImageBudget,
  collectImageUrls,
  DEFAULT_IMAGE_BUDGET,
  type ImageAssets,
} from '../../layout/images';
import type { Markup } from '../../model/schema';
import {
  DPI_RANGE,
  IN_PROCESS_OUTPUTS,
  MAX_WIDTH_DOTS_RANGE,
  type OutputStage,
  type RenderPorts,
} from '../../outputs/render';
import { renderCost, type CostTarget } from './render-cost';
import type { RenderPool } from './render-pool';
import type { GatePlace } from './work-gate';
import { distinctOf, perCopy, type RenderJob, type RenderOutput } from './render-protocol';

/** PDF and SVG are measured at the output budget's dpi (budgets.ts). */
const VECTOR: CostTarget = { dpi: DPI_RANGE.default, raster: false };

/**
 * The output stage of one request. `place`: its place among the renders (work-gate.ts), given to the next
 * render while this one waits for and runs in a worker.
 */
export function offloadingOutputs(pool: RenderPool, heavyRenderDots: number, place?: GatePlace): OutputStage {
  const inWorker = (message: Omit<RenderJob, 'id'>): Promise<RenderOutput> =>
    place ? place.elsewhere(() => pool.run(message)) : pool.run(message);

  /** The request's images when its render is heavy; undefined when it runs here. */
  async function heavy(
    markups: readonly Markup[],
    ports: RenderPorts,
    target: CostTarget,
  ): Promise<ImageAssets | undefined> {
    const distinct = markups.length === 1 ? markups : [...new Set(markups)];
    let images: ImageAssets;
    try {
      // The ports hold what the request loaded (incomplete-markup.ts): nothing is fetched again.
      images = await ports.loadImages(collectImageUrls(distinct));
    } catch {
      return undefined; // the render here fails the same way, with its own error
    }
    // An image over its budget (a decompression bomb) is refused here, from its header, as the render here
    // would: no worker is started for a request that can never succeed.
    checkImageBudget(
      images,
      distinct,
      target.raster ? { unit: 'dots', dpi: target.dpi } : { unit: 'px' },
      ports.imageBudget,
    );
    return renderCost(markups, target, images) > heavyRenderDots ? images : undefined;
  }

  function job(
    markups: readonly Markup[],
    images: ImageAssets,
    ports: RenderPorts,
    output: RenderJob['output'],
  ): Omit<RenderJob, 'id'> {
    const { items, copies } = distinctOf(markups);
    return {
      markups: items,
      copies,
      images: [...images],
      imageBudget: ports.imageBudget ?? DEFAULT_IMAGE_BUDGET,
      output,
    };
  }

  function expect<K extends RenderOutput['kind']>(
    output: RenderOutput,
    kind: K,
  ): Extract<RenderOutput, { kind: K }> {
    if (output.kind !== kind) throw new Error(`a render worker answered ${output.kind} for ${kind}`);
    return output as Extract<RenderOutput, { kind: K }>;
  }

  return {
    async zpl(markups, opts, ports) {
      const target = {
        dpi: opts.dpi ?? DPI_RANGE.default,
        raster: true,
        maxWidthDots: opts.maxWidthDots ?? MAX_WIDTH_DOTS_RANGE.default,
      } as const;
      const images = await heavy(markups, ports, target);
      if (!images) return IN_PROCESS_OUTPUTS.zpl(markups, opts, ports);
      const output = expect(
        await inWorker(job(markups, images, ports, { kind: 'zpl', options: opts })),
        'zpl',
      );
      const labels = perCopy(output);
      return { dpi: output.dpi, max_width_dots: output.max_width_dots, count: labels.length, labels };
    },
    async pdf(markups, ports, opts = {}) {
      const images = await heavy(markups, ports, VECTOR);
      if (!images) return IN_PROCESS_OUTPUTS.pdf(markups, ports, opts);
      return perCopy(
        expect(await inWorker(job(markups, images, ports, { kind: 'pdf', options: opts })), 'pdf'),
      );
    },
    async svg(markups, ports) {
      const images = await heavy(markups, ports, VECTOR);
      if (!images) return IN_PROCESS_OUTPUTS.svg(markups, ports);
      return perCopy(expect(await inWorker(job(markups, images, ports, { kind: 'svg' })), 'svg'));
    },
  };
}
