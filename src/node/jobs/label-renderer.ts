/**
 * Renders a job's labels in chunks as printing reaches them, so a 10,000-row batch never holds all its labels
 * (the worker asks through `preparePayload` before a label's first send). A chunk's payloads are stored in one
 * transaction before any of them is sent and never rewritten: a resend is the identical bytes.
 *
 * Label n (1-based) of a job is row `floor((n - 1) / copies)` with counter numbers `first + (n - 1) × step`;
 * label n of a reprint is label `reprintOf.labels[n - 1]` of the original job, its bytes copied with the tag
 * changed (rendered first in the original job when it never was). A reprint with its own `render` (one to
 * another printer) draws those labels again at its own dpi and settings, from the job that first resolved them
 * (its rows, its counter numbers): the same labels, not new ones.
 */
import type { RenderPorts, ZplRenderOptions } from '../../outputs/render';
import { renderZplLabels } from '../../outputs/render';
import { prepareImages } from '../../engine/incomplete-markup';
import { retagLabel, tagLabel, type Job } from '../../jobs/model';
import { reprintChain } from '../../jobs/reprint-chain';
import { JobNotFound } from '../../jobs/store';
import { jobLabelCounters } from '../../resolve/counters';
import { resolveOne } from '../../resolve/resolve';
import { parseMarkup, parseTemplate } from '../../model/parse';
import type { Markup, Template } from '../../model/schema';
import { machineFonts } from '../fonts';
import { nodeRenderPorts } from '../render-ports';
import type { SqliteJobStore } from './sqlite-job-store';

/** Labels rendered per chunk by default. */
export const DEFAULT_CHUNK_SIZE = 50;

/** Markup[] → one `^XA…^XZ` string per markup; the engine's renderZplLabels unless a test injects another. */
export type RenderLabels = (
  markups: readonly Markup[],
  options: ZplRenderOptions,
  ports: RenderPorts,
) => Promise<readonly string[]>;

/**
 * The incomplete-markup policy (README): an image that cannot be loaded is left out, as the preview showed and
 * listed before the job was submitted.
 */
export const engineRenderLabels: RenderLabels = async (markups, options, ports) => {
  const prepared = await prepareImages(markups, ports, 'omit');
  return (await renderZplLabels(prepared.markups, options, prepared.ports)).labels;
};

export interface LabelRendererOptions {
  renderLabels?: RenderLabels;
  /** Render ports for a template whose relative image paths start in `baseDir`. */
  renderPorts?: (baseDir: string | undefined) => RenderPorts;
  chunkSize?: number;
  /** The data folder: without `renderPorts`, its fonts/ and the machine's fonts join the bundled ones. */
  dataDir?: string;
}

/** Label `labelNumber` of job `jobId` cannot be rendered (a value its barcode cannot encode, an image gone). */
export class LabelRenderFailed extends Error {
  override name = 'LabelRenderFailed';
  constructor(
    readonly jobId: number,
    readonly labelNumber: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export interface LabelRenderer {
  /**
   * Makes sure labels from `labelNumber` on (a chunk, or `count`) have their payloads stored. Throws
   * LabelRenderFailed only for `labelNumber` itself: a later label of the chunk that cannot be rendered is left
   * for its turn, so the labels before it still print.
   */
  prepare(jobId: number, labelNumber: number, count?: number): Promise<void>;
}

export function createLabelRenderer(
  store: SqliteJobStore,
  options: LabelRendererOptions = {},
): LabelRenderer {
  const render = options.renderLabels ?? engineRenderLabels;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const portsByDir = new Map<string, RenderPorts>();
  const portsFor = (baseDir: string | undefined): RenderPorts => {
    const key = baseDir ?? '';
    let ports = portsByDir.get(key);
    if (!ports) {
      ports = options.renderPorts
        ? options.renderPorts(baseDir)
        : nodeRenderPorts(
            baseDir ? { baseDir } : {},
            options.dataDir ? machineFonts({ dataDir: options.dataDir, system: true }).fonts : undefined,
          );
      portsByDir.set(key, ports);
    }
    return ports;
  };
  // The job being printed, parsed once (its rows can be 10,000 long), not once per chunk.
  let cached: { job: Job; template: Template | undefined } | undefined;
  const jobOf = (jobId: number): { job: Job; template: Template | undefined } => {
    if (cached?.job.id === jobId) return cached;
    const job = store.getJob(jobId);
    if (!job) throw new JobNotFound(`no job ${jobId}`);
    // A reprint that copies bytes (and a ZPL file's job) has no template to draw with.
    cached = { job, template: job.render ? parseTemplate(job.template, `job ${jobId}`) : undefined };
    return cached;
  };

  /** Label n of `job` as markup: given (hosted), else its row resolved with its counter numbers. */
  const markupAt = (job: Job, template: Template, n: number): Markup => {
    const how = job.render;
    if (!how) throw new JobNotFound(`label ${n} of job ${job.id} was never rendered`);
    const given = how.markups?.[n - 1];
    if (given !== undefined) return parseMarkup(given, `job ${job.id} label ${n}`);
    const row = job.rows[Math.floor((n - 1) / job.copies)] ?? {};
    return resolveOne(template, row, jobLabelCounters(template, job, n));
  };

  /**
   * Label n of a reprint, followed back to the job that resolved it: that job's markup and image folder. Jobs
   * are read and their templates parsed once per chunk (`jobs`), not once per label.
   */
  const originalMarkup = (
    chunk: { firstLabel: ReturnType<typeof reprintChain>; templates: Map<number, Template> },
    jobId: number,
    n: number,
  ): { markup: Markup; baseDir: string | undefined } => {
    const first = chunk.firstLabel(jobId, n);
    const { job } = first;
    if (first.unnamed) throw new JobNotFound(`label ${first.n} of reprint job ${job.id} names no label`);
    let template = chunk.templates.get(job.id);
    if (!template) chunk.templates.set(job.id, (template = parseTemplate(job.template, `job ${job.id}`)));
    return { markup: markupAt(job, template, first.n), baseDir: job.render?.baseDir };
  };

  const prepare = async (jobId: number, labelNumber: number, count = chunkSize): Promise<void> => {
    if (store.hasPayload(jobId, labelNumber)) return;
    const { job, template } = jobOf(jobId);
    const last = Math.min(job.labelCount, labelNumber + count - 1);
    const numbers: number[] = [];
    for (let n = labelNumber; n <= last && !store.hasPayload(jobId, n); n++) numbers.push(n);

    if (job.reprintOf && !job.render) {
      const { jobId: original, labels } = job.reprintOf;
      const payloads: string[] = [];
      for (const n of numbers) {
        const source = labels[n - 1];
        if (source === undefined) throw new JobNotFound(`label ${n} of reprint job ${jobId} names no label`);
        await prepare(original, source);
        const bytes = store.payload(original, source);
        // A ZPL file's label is sent as it came: its reprint is the same bytes, untagged.
        payloads.push(job.zplFile ? bytes : retagLabel(bytes, jobId, n));
      }
      store.putPayloads(jobId, labelNumber, payloads);
      return;
    }
    const how = job.render;
    if (!how) throw new JobNotFound(`label ${labelNumber} of job ${jobId} was never rendered`);
    let markups: Markup[];
    let baseDir = how.baseDir;
    if (job.reprintOf) {
      const { jobId: original, labels } = job.reprintOf;
      const jobs = { firstLabel: reprintChain(store), templates: new Map<number, Template>() };
      const sources = numbers.map((n) => {
        const source = labels[n - 1];
        if (source === undefined) throw new JobNotFound(`label ${n} of reprint job ${jobId} names no label`);
        return originalMarkup(jobs, original, source);
      });
      markups = sources.map((s) => s.markup);
      baseDir = sources[0]?.baseDir;
    } else {
      if (!template) throw new JobNotFound(`job ${jobId} has no template to render`);
      markups = numbers.map((n) => markupAt(job, template, n));
    }
    const options = { dpi: job.dpi, ...how.zpl };
    const ports = portsFor(baseDir);
    const keep = (zpl: readonly string[]) =>
      store.putPayloads(
        jobId,
        labelNumber,
        zpl.map((z, i) => tagLabel(z, jobId, labelNumber + i)),
      );
    try {
      keep(await render(markups, options, ports));
    } catch {
      // One label of the chunk cannot be rendered: render one by one up to it, and keep what rendered.
      const rendered: string[] = [];
      for (const [i, markup] of markups.entries()) {
        try {
          rendered.push(...(await render([markup], options, ports)));
        } catch (e) {
          if (i === 0) throw new LabelRenderFailed(jobId, labelNumber, e);
          break;
        }
      }
      keep(rendered);
    }
  };
  return { prepare };
}
