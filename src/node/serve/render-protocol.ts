/**
 * The messages between `labeldesk serve` and its render workers (render-pool.ts, render-worker.ts), parsed
 * with zod on both sides. A job carries the distinct markups of a request and, per copy, which one it is, so
 * identical copies cross once and come back as one output repeated; the images were loaded by the server under
 * its address policy and budgets, and cross as bytes (a worker loads nothing). The errors the HTTP face tells
 * apart (api-errors.ts: ImageError, ElementError, RfidRequiresZpl) cross as data and are made again as the
 * same classes with the same messages; any other failure is a 500 whatever it was, and crosses as its class
 * name and stack frames for the server's log.
 */
import { MEDIA_TRACKING, PRINT_MODES } from '../../zpl/job';
import { z } from 'zod';
import { ImageError, ImageTooLarge, type LoadedImage } from '../../layout/images';
import { ElementError } from '../../layout/element-context';
import { ELEMENT_TYPES } from '../../model/elements';
import type { Markup } from '../../model/schema';
import { RfidRequiresZpl, type PdfRenderOptions, type ZplRenderOptions } from '../../outputs/render';

/**
 * A markup's shape. Its content was checked where it was made (the template's schema, then resolve); layout
 * checks every element again and fails as in process. Unknown keys are kept, so the worker renders what the
 * server would have.
 */
const MarkupShape = z
  .looseObject({
    stage: z.looseObject({
      width: z.number().positive(),
      height: z.number().positive(),
      unit: z.enum(['in', 'cm', 'mm', 'px']),
    }),
    elements: z.array(z.looseObject({ type: z.enum(ELEMENT_TYPES) })),
  })
  .transform((markup) => markup as unknown as Markup);

/** Bytes: a Buffer sent arrives as a Uint8Array. */
const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');

/** What the pool hands each worker when it starts (its `workerData`). */
export const RenderWorkerDataSchema = z.object({
  /** The server's data folder: its fonts/ are loaded besides the bundled fonts. */
  fontsDataDir: z.string().optional(),
});
export type RenderWorkerData = z.infer<typeof RenderWorkerDataSchema>;

const LoadedImageSchema = z.object({
  mime: z.enum(['image/png', 'image/jpeg', 'image/svg+xml']),
  data: bytes,
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  embeddedPixels: z.number().nonnegative().optional(),
}) satisfies z.ZodType<LoadedImage>;

const ZplOptionsSchema = z.object({
  dpi: z.number().optional(),
  maxWidthDots: z.number().optional(),
  compression: z.enum(['z64', 'acs', 'hex']).optional(),
  labelHome: z.object({ x: z.number(), y: z.number() }).optional(),
  darkness: z
    .discriminatedUnion('mode', [
      z.object({ mode: z.literal('absolute'), level: z.number() }),
      z.object({ mode: z.literal('relative'), delta: z.number() }),
    ])
    .optional(),
  mediaTracking: z.enum(MEDIA_TRACKING).optional(),
  printMode: z.enum(PRINT_MODES).optional(),
  printSpeed: z.number().optional(),
}) satisfies z.ZodType<ZplRenderOptions>;

const PdfOptionsSchema = z.object({
  merge: z.boolean().optional(),
  title: z.string().optional(),
  creationDate: z.date().optional(),
}) satisfies z.ZodType<PdfRenderOptions>;

const copyIndex = z.number().int().nonnegative();

export const RenderJobSchema = z
  .object({
    id: z.number().int(),
    /** The distinct markups of the request. */
    markups: z.array(MarkupShape).min(1),
    /** Per copy, in order: its markup's index in `markups`. */
    copies: z.array(copyIndex).min(1),
    /** Every image the markups show, loaded: URL → image. */
    images: z.array(z.tuple([z.string(), LoadedImageSchema])),
    imageBudget: z.object({
      maxPixels: z.number().positive(),
      labelAreaFactor: z.number().positive(),
      minPixels: z.number().nonnegative(),
    }),
    output: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('zpl'), options: ZplOptionsSchema }),
      z.object({ kind: z.literal('pdf'), options: PdfOptionsSchema }),
      z.object({ kind: z.literal('svg') }),
    ]),
  })
  .refine((job) => job.copies.every((i) => i < job.markups.length), {
    message: 'a copy refers to no markup',
    path: ['copies'],
  });
export type RenderJob = z.input<typeof RenderJobSchema>;
export type ParsedRenderJob = z.output<typeof RenderJobSchema>;

/** Distinct outputs and, per copy, which one it is. */
const outputs = <T extends z.ZodType>(item: T) => ({ items: z.array(item), copies: z.array(copyIndex) });

export const RenderOutputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('zpl'), dpi: z.number(), max_width_dots: z.number(), ...outputs(z.string()) }),
  z.object({ kind: z.literal('pdf'), ...outputs(bytes) }),
  z.object({ kind: z.literal('svg'), ...outputs(z.string()) }),
]);
export type RenderOutput = z.infer<typeof RenderOutputSchema>;

const WorkerErrorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), tooLarge: z.boolean(), url: z.string(), message: z.string() }),
  z.object({
    kind: z.literal('element'),
    element: z.number().int(),
    elementType: z.string(),
    message: z.string(),
  }),
  z.object({ kind: z.literal('rfid'), message: z.string() }),
  /** Any other error: its class name and stack frames, never its message (it may quote a value). */
  z.object({ kind: z.literal('failure'), name: z.string(), frames: z.string() }),
]);
export type WorkerError = z.infer<typeof WorkerErrorSchema>;

export const RenderAnswerSchema = z.discriminatedUnion('ok', [
  z.object({ id: z.number().int(), ok: z.literal(true), output: RenderOutputSchema }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: WorkerErrorSchema }),
]);
export type RenderAnswer = z.infer<typeof RenderAnswerSchema>;

/** `values` as distinct items and per-copy indices (identity for objects, equality for strings). */
export function distinctOf<T>(values: readonly T[]): { items: T[]; copies: number[] } {
  const index = new Map<T, number>();
  const items: T[] = [];
  const copies = values.map((value) => {
    let i = index.get(value);
    if (i === undefined) {
      i = items.length;
      index.set(value, i);
      items.push(value);
    }
    return i;
  });
  return { items, copies };
}

/** The per-copy list again: repeated copies are the same string or object, as the render in process gives. */
export function perCopy<T>(answer: { items: readonly T[]; copies: readonly number[] }): T[] {
  return answer.copies.map((i) => {
    if (i >= answer.items.length) throw new Error('a render worker answered a copy with no output');
    return answer.items[i] as T;
  });
}

/** What a worker sends for an error thrown by a render. */
export function toWorkerError(e: unknown): WorkerError {
  if (e instanceof ImageError) {
    return { kind: 'image', tooLarge: e instanceof ImageTooLarge, url: e.url, message: e.message };
  }
  if (e instanceof ElementError) {
    return { kind: 'element', element: e.element, elementType: e.elementType, message: e.message };
  }
  if (e instanceof RfidRequiresZpl) return { kind: 'rfid', message: e.message };
  const error = e instanceof Error ? e : undefined;
  const frames = error?.stack?.split('\n').filter((line) => /^\s+at /.test(line)) ?? [];
  return { kind: 'failure', name: error?.name ?? typeof e, frames: frames.join('\n') };
}

/** The error a worker reported, as the class the render would have thrown in process, with its message. */
export function fromWorkerError(w: WorkerError): Error {
  let e: Error;
  switch (w.kind) {
    case 'image':
      e = w.tooLarge ? new ImageTooLarge(w.url, '') : new ImageError(w.url, '');
      e.message = w.message;
      return e;
    case 'element':
      e = new ElementError(w.element, w.elementType, '');
      e.message = w.message;
      return e;
    case 'rfid':
      e = new RfidRequiresZpl();
      e.message = w.message;
      return e;
    case 'failure':
      e = new Error('the render failed in a worker');
      e.name = w.name;
      e.stack = `${w.name}: the render failed in a worker\n${w.frames}`;
      return e;
  }
}
