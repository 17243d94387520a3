/**
 * The bundled engine's outputs: Markup[] → ZPL jobs, PDFs, SVGs, PNGs, one per copy (spec §2.5–2.7,
 * §4.5–4.7). Pure orchestration over ports: fonts, image loading and rasterising are injected by the edge
 * (Node: src/node/render-ports.ts), so the same code serves the CLI, `labeldesk serve` and the app.
 */
import { KindedError } from '../base/error-kind';
import type { FontSet } from '../layout/fonts';
import { checkImageBudget, collectImageUrls, type ImageAssets, type ImageBudget } from '../layout/images';
import { layout } from '../layout/layout';
import { type LayoutTarget } from '../layout/element-context';
import type { Scene } from '../layout/scene';
import type { MonoBitmap } from '../render/bitmap';
import { renderPdf, type SvgImageRasterizer } from '../render/pdf';
import { renderSvg, svgLengthUnit } from '../render/svg';
import type { Markup } from '../model/schema';
import type { Deflate, GfaCompression } from '../zpl/gfa';
import { buildZplJobs, DEFAULT_MAX_WIDTH_DOTS, type Darkness, type ZplJobOptions } from '../zpl/job';
import { checkMarkupsFit, layoutDpiFor, orientFor, type FitCheck, type Oversize } from './fit';

export interface RenderPorts {
  fonts: FontSet;
  /** Loads every URL (data:, file, http) or throws ImageError naming the one that failed. */
  loadImages(urls: readonly string[]): Promise<ImageAssets>;
  /** Scene (in dots) → the 1-bit bitmap a thermal head prints. */
  toMonoBitmap(scene: Scene, fonts: FontSet): MonoBitmap;
  /** Scene → PNG at `dpi`. */
  renderPng(scene: Scene, fonts: FontSet, opts: { dpi: number }): Uint8Array;
  /** For SVG images inside a PDF. */
  rasterizeSvg?: SvgImageRasterizer;
  /** zlib compression for `:Z64:` data (Node: native zlib, src/node/render-ports.ts); fflate level 9 when absent. */
  deflate?: Deflate;
  /** Pixels an image may declare, checked before layout (default DEFAULT_IMAGE_BUDGET). */
  imageBudget?: ImageBudget;
}

/** A template with an RFID element asked for as PDF or SVG (spec §4.4, §4.7: 422). */
export class RfidRequiresZpl extends KindedError {
  get kind() {
    return 'rfid-requires-zpl' as const;
  }

  constructor(format: 'PDF' | 'SVG' = 'PDF') {
    super(`RFID labels must be rendered as ZPL because ${format} cannot encode RFID tags`);
    this.name = 'RfidRequiresZpl';
  }
}

export const DPI_RANGE = { min: 100, max: 1200, default: 203 } as const;
export const MAX_WIDTH_DOTS_RANGE = { min: 100, max: 10_000, default: DEFAULT_MAX_WIDTH_DOTS } as const;

export interface ZplRenderOptions {
  /** 100..1200, default 203 (spec §2.2). */
  dpi?: number;
  /** 100..10000, default 832; wider labels are cut, no error (spec §4.6 rule 3). */
  maxWidthDots?: number;
  compression?: GfaCompression;
  /** Printer profile: label home offsets in dots (sent as ^LH; ^LH0,0 otherwise, since ^LH persists). */
  labelHome?: { x: number; y: number };
  darkness?: Darkness;
  /** Printer profile: media tracking, print mode, speed (`^MN`, `^MM`, `^PR`); omitted: the printer's own. */
  mediaTracking?: ZplJobOptions['mediaTracking'];
  printMode?: ZplJobOptions['printMode'];
  printSpeed?: ZplJobOptions['printSpeed'];
  /**
   * A label wider than `maxWidthDots` (or longer than `labelLengthDots`): `cut` (default, spec §4.6 rule 3),
   * `fit` (laid out at a lower dpi, aspect kept) or `rotate` (turned 90° when that fits). See fit.ts.
   */
  oversize?: Oversize;
  /** The loaded labels' length in dots, when the printer reports it (fixed media). */
  labelLengthDots?: number;
}

/** The API's ZPL result (spec §2.6). */
export interface ZplResult {
  dpi: number;
  max_width_dots: number;
  count: number;
  labels: string[];
}

export const hasRfid = (markups: readonly Markup[]): boolean =>
  markups.some((m) => m.elements.some((e) => e.type === 'rfid' && e.visible !== false));

/**
 * Lays out each copy. Copies that resolved to identical markup (the common case: no counters) share one
 * Scene, so a 1,000-copy request lays out and rasterises once. Copies that are the same object (resolveShared)
 * are matched by identity; only distinct objects are compared by their JSON.
 */
export async function scenesFor(
  markups: readonly Markup[],
  target: LayoutTarget,
  ports: RenderPorts,
  onInvalid: 'throw' | 'mark' = 'throw',
): Promise<Scene[]> {
  const distinct = markups.length === 1 ? markups : [...new Set(markups)];
  const images = await ports.loadImages(collectImageUrls(distinct));
  checkImageBudget(images, distinct, target, ports.imageBudget);
  const opts = { fonts: ports.fonts, images, target, onInvalid };
  // One markup (the job queue renders label by label, or one object repeated): nothing to compare, no key.
  if (distinct.length === 1) {
    const scene = layout(distinct[0] as Markup, opts);
    return markups.length === 1 ? [scene] : new Array<Scene>(markups.length).fill(scene);
  }
  const byObject = new Map<Markup, Scene>();
  const byKey = new Map<string, Scene>();
  for (const markup of distinct) {
    const key = JSON.stringify(markup);
    let scene = byKey.get(key);
    if (!scene) {
      scene = layout(markup, opts);
      byKey.set(key, scene);
    }
    byObject.set(markup, scene);
  }
  return markups.map((markup) => byObject.get(markup) as Scene);
}

function checkRange(name: string, value: number, range: { min: number; max: number }): number {
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new RangeError(`${name}: expected a whole number from ${range.min} to ${range.max}, got ${value}`);
  }
  return value;
}

function mediaSettings(
  opts: ZplRenderOptions,
): Pick<ZplJobOptions, 'mediaTracking' | 'printMode' | 'printSpeed'> {
  return {
    ...(opts.mediaTracking ? { mediaTracking: opts.mediaTracking } : {}),
    ...(opts.printMode ? { printMode: opts.printMode } : {}),
    ...(opts.printSpeed !== undefined ? { printSpeed: opts.printSpeed } : {}),
  };
}

/** Whether the labels fit the printer these ZPL options describe (its dpi, print width, label length). */
export function zplFitCheck(markups: readonly Markup[], opts: ZplRenderOptions): FitCheck {
  const dpi = opts.dpi ?? DPI_RANGE.default;
  return checkMarkupsFit(markups, {
    dpi,
    widthDots: opts.maxWidthDots ?? MAX_WIDTH_DOTS_RANGE.default,
    ...(opts.labelLengthDots !== undefined ? { lengthDots: opts.labelLengthDots } : {}),
  });
}

/** One label's dots: its scene (for RFID writes) and the 1-bit bitmap at the printer's dpi. */
export interface MonoLabel {
  scene: Scene;
  bitmap: MonoBitmap;
}

/** The bitmap stage every 1-bit output shares (ZPL and the other printer languages, src/printers/languages). */
export interface MonoLabels {
  dpi: number;
  maxWidthDots: number;
  /** One per copy; copies that laid out to the same scene share one MonoLabel object (rasterised once). */
  labels: MonoLabel[];
}

/**
 * Markup[] → the 1-bit dots of each copy at `dpi`, laid out and oriented by the oversize rule (fit.ts). The
 * bitmap is not cut to `maxWidthDots` here: each encoder applies the width (ZPL cuts, spec §4.6 rule 3).
 */
export async function renderMonoLabels(
  markups: readonly Markup[],
  opts: Pick<ZplRenderOptions, 'dpi' | 'maxWidthDots' | 'oversize' | 'labelLengthDots'>,
  ports: RenderPorts,
): Promise<MonoLabels> {
  const dpi = checkRange('dpi', opts.dpi ?? DPI_RANGE.default, DPI_RANGE);
  const maxWidthDots = checkRange(
    'max_width_dots',
    opts.maxWidthDots ?? MAX_WIDTH_DOTS_RANGE.default,
    MAX_WIDTH_DOTS_RANGE,
  );
  const fit = zplFitCheck(markups, { ...opts, dpi, maxWidthDots });
  const oversize = opts.oversize ?? 'cut';
  const scenes = await scenesFor(markups, { unit: 'dots', dpi: layoutDpiFor(fit, oversize) }, ports);
  // One bitmap per distinct scene, shared by its copies (a 1,000-copy answer rasterises once).
  const labelOf = new Map<Scene, MonoLabel>();
  for (const scene of new Set(scenes)) {
    labelOf.set(scene, { scene, bitmap: orientFor(ports.toMonoBitmap(scene, ports.fonts), fit, oversize) });
  }
  return { dpi, maxWidthDots, labels: scenes.map((scene) => labelOf.get(scene) as MonoLabel) };
}

/** One complete `^XA…^XZ` job per copy, rasterised at `dpi` (spec §4.6). */
export async function renderZplLabels(
  markups: readonly Markup[],
  opts: ZplRenderOptions,
  ports: RenderPorts,
): Promise<ZplResult> {
  const { dpi, maxWidthDots, labels: copies } = await renderMonoLabels(markups, opts, ports);
  // A job is a function of its scene (bitmap and RFID writes) and the shared settings: one job string per
  // distinct scene, repeated for its copies (a 1,000-copy answer holds one string 1,000 times).
  const distinct = [...new Set(copies)];
  const jobs = buildZplJobs(
    distinct.map(({ scene, bitmap }) => ({ bitmap, rfid: scene.rfid })),
    {
      maxWidthDots,
      compression: opts.compression ?? 'z64',
      labelHome: opts.labelHome ?? { x: 0, y: 0 },
      ...(opts.darkness ? { darkness: opts.darkness } : {}),
      ...mediaSettings(opts),
      ...(ports.deflate ? { deflate: ports.deflate } : {}),
    },
  );
  const jobOf = new Map(distinct.map((label, i) => [label, jobs[i] as string]));
  const labels = copies.map((label) => jobOf.get(label) as string);
  return { dpi, max_width_dots: maxWidthDots, count: labels.length, labels };
}

export interface PdfRenderOptions {
  /** One multi-page PDF of every copy instead of one PDF per copy. */
  merge?: boolean;
  title?: string;
  creationDate?: Date;
}

/** One vector PDF per copy (spec §2.7), or one multi-page PDF with `merge`. */
export async function renderPdfLabels(
  markups: readonly Markup[],
  ports: RenderPorts,
  opts: PdfRenderOptions = {},
): Promise<Uint8Array[]> {
  if (hasRfid(markups)) throw new RfidRequiresZpl();
  const scenes = await scenesFor(markups, { unit: 'px' }, ports);
  const pdfOpts = {
    ...(opts.title ? { title: opts.title } : {}),
    ...(opts.creationDate ? { creationDate: opts.creationDate } : {}),
    ...(ports.rasterizeSvg ? { rasterizeSvg: ports.rasterizeSvg } : {}),
    ...(ports.deflate ? { deflate: ports.deflate } : {}),
  };
  if (opts.merge) return [await renderPdf(scenes, ports.fonts, pdfOpts)];
  const cache = new Map<Scene, Uint8Array>();
  const out: Uint8Array[] = [];
  for (const scene of scenes) {
    let pdf = cache.get(scene);
    if (!pdf) {
      pdf = await renderPdf([scene], ports.fonts, pdfOpts);
      cache.set(scene, pdf);
    }
    out.push(pdf);
  }
  return out;
}

/** One self-contained SVG per copy (spec §4.5). */
export async function renderSvgLabels(markups: readonly Markup[], ports: RenderPorts): Promise<string[]> {
  if (hasRfid(markups)) throw new RfidRequiresZpl();
  const scenes = await scenesFor(markups, { unit: 'px' }, ports);
  const cache = new Map<Scene, string>();
  return scenes.map((scene, i) => {
    let svg = cache.get(scene);
    if (svg === undefined) {
      // Declared in the stage's unit (4in × 6in), so dpi-aware tools render it at the label's real size.
      svg = renderSvg(scene, ports.fonts, { unit: svgLengthUnit(markups[i]?.stage.unit ?? 'in') });
      cache.set(scene, svg);
    }
    return svg;
  });
}

/** One PNG per copy at `dpi` (previews, attachments). RFID is not drawn; a PNG is not a print path. */
export async function renderPngLabels(
  markups: readonly Markup[],
  dpi: number,
  ports: RenderPorts,
): Promise<Uint8Array[]> {
  checkRange('dpi', dpi, { min: 10, max: DPI_RANGE.max });
  const scenes = await scenesFor(markups, { unit: 'dots', dpi }, ports);
  const cache = new Map<Scene, Uint8Array>();
  const out: Uint8Array[] = [];
  for (const scene of scenes) {
    let png = cache.get(scene);
    if (!png) {
      // A turn of the event loop before each new render: resvg-js frees a render's native memory (~9 MB for a
      // 4x6 label) only from a later turn, so 100 different labels in one call would otherwise hold ~900 MB.
      if (cache.size > 0) await nextTurn();
      png = ports.renderPng(scene, ports.fonts, { dpi });
      cache.set(scene, png);
    }
    out.push(png);
  }
  return out;
}

/** Resolves on a later turn of the event loop (timers run after the turn's pending native callbacks). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The renders of the output stage as one port, so that the edge may run them elsewhere: `labeldesk serve`
 * sends the heavy ones to a worker thread (server/render-offload.ts). Each takes the ports holding the
 * request's loaded images, and answers what the function of the same name here answers.
 */
export interface OutputStage {
  zpl(markups: readonly Markup[], opts: ZplRenderOptions, ports: RenderPorts): Promise<ZplResult>;
  pdf(markups: readonly Markup[], ports: RenderPorts, opts?: PdfRenderOptions): Promise<Uint8Array[]>;
  svg(markups: readonly Markup[], ports: RenderPorts): Promise<string[]>;
}

/** The output stage in this thread. */
export const IN_PROCESS_OUTPUTS: OutputStage = {
  zpl: renderZplLabels,
  pdf: renderPdfLabels,
  svg: renderSvgLabels,
};
