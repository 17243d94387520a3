/**
 * Node-only: the worker threads `labeldesk serve` renders heavy requests in (render-offload.ts decides which).
 * At most `size` workers, each rendering one job at a time; more jobs wait here in arrival order (the server's
 * work gate already bounds how many renders run or wait). A worker starts on the first job that finds none
 * free and ends after `idleMs` without work, so an idle server holds no worker. A worker that dies — an
 * uncaught error, its heap limit, its exit — fails the job it had with RenderWorkerLost (a 500) and is
 * replaced by the next job that needs one; the server stays up.
 */
import { Worker } from 'node:worker_threads';
import {
  RenderAnswerSchema,
  fromWorkerError,
  type RenderJob,
  type RenderOutput,
  type RenderWorkerData,
} from './render-protocol';

/** A worker ended before it answered its job (it crashed, ran out of heap, or the server is closing). */
export class RenderWorkerLost extends Error {
  constructor(why: string, cause?: unknown) {
    super(`the render worker ended before it answered: ${why}`, { cause });
    this.name = 'RenderWorkerLost';
  }
}

export type PoolEvent =
  | { type: 'started'; workers: number }
  | { type: 'idle'; workers: number }
  | { type: 'lost'; workers: number; error: Error };

export interface RenderPoolOptions {
  /** Workers at most (≥ 1). */
  size: number;
  /** A worker without work for this long ends, ms. */
  idleMs: number;
  /** The V8 old-generation limit of each worker, MB. */
  heapMb: number;
  /** Started, ended idle, lost: for the server's log. */
  onEvent?: (event: PoolEvent) => void;
  /** The data folder whose fonts/ the workers load besides the bundled fonts (never the machine's). */
  fontsDataDir?: string;
  /** The worker's entry; default renderWorkerEntry(). */
  entry?: URL;
}

export interface RenderPool {
  /** Renders `job` in a worker. Rejects with what the render threw (the same classes), or RenderWorkerLost. */
  run(job: Omit<RenderJob, 'id'>): Promise<RenderOutput>;
  /** Workers alive now. */
  readonly workers: number;
  /** Jobs rendering or waiting for a worker now. */
  readonly jobs: number;
  /** Ends every worker; their jobs and the waiting ones fail with RenderWorkerLost. Later jobs too. */
  close(): Promise<void>;
}

/**
 * Where the worker's code is: from the bundle (dist/labeldesk.mjs), dist/render-worker.mjs beside it
 * (scripts/build-cli.mjs writes both); from the TypeScript sources (vitest, tsx), a bootstrap that has tsx
 * compile render-worker.ts.
 */
export function renderWorkerEntry(moduleUrl: string = import.meta.url): URL {
  return moduleUrl.endsWith('.ts')
    ? new URL('./render-worker-from-source.mjs', moduleUrl)
    : new URL('./render-worker.mjs', moduleUrl);
}

interface Job {
  id: number;
  message: Omit<RenderJob, 'id'>;
  resolve(output: RenderOutput): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  idle?: NodeJS.Timeout;
  /** Ended by the pool (idle, close): its exit is expected. */
  ending: boolean;
}

export function renderPool(options: RenderPoolOptions): RenderPool {
  const entry = options.entry ?? renderWorkerEntry();
  const slots = new Set<Slot>();
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;
  const emit = (event: PoolEvent) => options.onEvent?.(event);

  function start(): Slot {
    const workerData: RenderWorkerData = { fontsDataDir: options.fontsDataDir };
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
      workerData,
    });
    // An idle worker never keeps the process alive; a busy one is awaited by its request.
    worker.unref();
    const slot: Slot = { worker, ending: false };
    slots.add(slot);
    worker.on('message', (message: unknown) => answered(slot, message));
    worker.on('messageerror', (e) => lose(slot, new RenderWorkerLost('its answer could not be read', e)));
    worker.on('error', (e) => lose(slot, new RenderWorkerLost(`${e.name}: ${e.message}`, e)));
    worker.on('exit', (code) => lose(slot, new RenderWorkerLost(`it exited with code ${code}`)));
    emit({ type: 'started', workers: slots.size });
    return slot;
  }

  function dispatch(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ ...job.message, id: job.id });
  }

  /** Gives waiting jobs to free workers, starting workers up to `size`. */
  function pump(): void {
    while (waiting.length > 0 && !closed) {
      let free: Slot | undefined;
      for (const slot of slots) if (!slot.job && !slot.ending) free = slot;
      if (!free && slots.size < options.size) free = start();
      if (!free) return;
      dispatch(free, waiting.shift() as Job);
    }
  }

  function answered(slot: Slot, message: unknown): void {
    const job = slot.job;
    const parsed = RenderAnswerSchema.safeParse(message);
    if (!job || !parsed.success || parsed.data.id !== job.id) {
      // Not an answer to the job it has: nothing it says can be trusted any more.
      lose(slot, new RenderWorkerLost('it sent a message that answers no job'));
      return;
    }
    slot.job = undefined;
    slot.worker.unref();
    if (parsed.data.ok) job.resolve(parsed.data.output);
    else job.reject(fromWorkerError(parsed.data.error));
    pump();
    if (!slot.job && !slot.ending) {
      slot.idle = setTimeout(() => {
        if (slot.job) return;
        void end(slot);
        emit({ type: 'idle', workers: slots.size });
      }, options.idleMs);
      slot.idle.unref();
    }
  }

  /** The worker is gone or going: fail its job and forget it; a waiting job gets another worker. */
  function lose(slot: Slot, error: RenderWorkerLost): void {
    if (!slots.has(slot)) return;
    slots.delete(slot);
    clearTimeout(slot.idle);
    const job = slot.job;
    slot.job = undefined;
    if (job) job.reject(error);
    if (!slot.ending) {
      emit({ type: 'lost', workers: slots.size, error });
      void slot.worker.terminate();
    }
    pump();
  }

  /** Ends a worker on purpose (idle, close): its exit is no loss. */
  async function end(slot: Slot): Promise<void> {
    slot.ending = true;
    slots.delete(slot);
    clearTimeout(slot.idle);
    const job = slot.job;
    slot.job = undefined;
    job?.reject(new RenderWorkerLost('the server is closing'));
    await slot.worker.terminate();
  }

  return {
    run(message) {
      if (closed) return Promise.reject(new RenderWorkerLost('the server is closing'));
      return new Promise<RenderOutput>((resolve, reject) => {
        waiting.push({ id: nextId++, message, resolve, reject });
        pump();
      });
    },
    get workers() {
      return slots.size;
    },
    get jobs() {
      let busy = 0;
      for (const slot of slots) if (slot.job) busy++;
      return busy + waiting.length;
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new RenderWorkerLost('the server is closing'));
      await Promise.all([...slots].map(end));
    },
  };
}
