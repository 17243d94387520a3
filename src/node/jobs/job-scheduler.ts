/**
 * The job service's workers (job-service.ts): one per printer (src/jobs/queue.ts), running in the background,
 * with the ports the worker prints through (the store, the printer connection, the clock, label rendering as
 * printing reaches it). Requests that arrive while a printer's worker runs are served when it finishes its
 * pass; `stop()` ends every worker at its next wait.
 */
import type { Clock } from '../../base/clock';
import type { JobServiceEvent } from '../../jobs/events';
import { runPrinterQueue } from '../../jobs/queue';
import { LabelNotRendered, type JobEvent, type WorkerDeps, type WorkerTiming } from '../../jobs/worker';
import type { PrinterTransport } from '../../printers/transport';
import type { JobViews } from './job-views';
import { LabelRenderFailed, type LabelRenderer } from './label-renderer';
import type { SqliteJobStore } from './sqlite-job-store';

/** Thrown into a worker's sleep when the service closes. */
class ServiceClosing extends Error {
  override name = 'ServiceClosing';
}

export interface JobSchedulerDeps {
  store: SqliteJobStore;
  renderer: LabelRenderer;
  connect: (printer: string) => Promise<PrinterTransport>;
  clock: Clock;
  timing?: Partial<WorkerTiming> | undefined;
  views: Pick<JobViews, 'mustJob' | 'describeLabel'>;
  onWorkerEvent: (e: JobEvent) => void;
  emit: (event: JobServiceEvent) => void;
}

export interface JobScheduler {
  /** Runs a printer's queue (URI) or one job (id) in the background; resolves when that worker is idle. */
  start(target: string | number): Promise<void>;
  /** Resolves when no printer's worker is running. */
  idle(): Promise<void>;
  /** Stops the workers at their next wait and resolves when they have stopped. */
  stop(): Promise<void>;
}

export function createJobScheduler(options: JobSchedulerDeps): JobScheduler {
  const { store, renderer, connect, clock, views, onWorkerEvent, emit } = options;
  const { mustJob, describeLabel } = views;
  let closing = false;

  const deps: WorkerDeps = {
    store,
    claimPrinter: (printer) => store.claimPrinter(printer),
    connect,
    sleep: async (ms) => {
      if (closing) throw new ServiceClosing();
      await clock.sleep(ms);
      if (closing) throw new ServiceClosing();
    },
    onEvent: onWorkerEvent,
    preparePayload: async (jobId, labelNumber) => {
      if (closing) throw new ServiceClosing();
      try {
        await renderer.prepare(jobId, labelNumber);
      } catch (e) {
        if (!(e instanceof LabelRenderFailed)) throw e;
        throw new LabelNotRendered(`${describeLabel(jobId, labelNumber)} cannot be printed: ${e.message}`);
      }
    },
    ...(options.timing ? { timing: options.timing } : {}),
  };

  // One worker per printer; requests that arrive while it runs are served when it finishes its pass.
  const runners = new Map<string, Promise<void>>();
  const wanted = new Map<string, { all: boolean; jobs: Set<number> }>();
  const start = (target: string | number): Promise<void> => {
    const printer = typeof target === 'number' ? mustJob(target).printer : target;
    const want = wanted.get(printer) ?? { all: false, jobs: new Set<number>() };
    wanted.set(printer, want);
    if (typeof target === 'number') want.jobs.add(target);
    else want.all = true;
    const running = runners.get(printer);
    if (running) return running;
    const run = (async () => {
      try {
        while (!closing && (want.all || want.jobs.size)) {
          if (want.all) {
            want.all = false;
            want.jobs.clear();
            await runPrinterQueue(printer, deps);
          } else {
            const [jobId] = want.jobs;
            want.jobs.delete(jobId as number);
            await runPrinterQueue(printer, deps, jobId);
          }
        }
      } catch (e) {
        if (!(e instanceof ServiceClosing)) {
          emit({ kind: 'error', printer, message: e instanceof Error ? e.message : String(e) });
        }
      } finally {
        runners.delete(printer);
        wanted.delete(printer);
      }
    })();
    runners.set(printer, run);
    return run;
  };
  const idle = async (): Promise<void> => {
    while (runners.size) await Promise.all([...runners.values()]);
  };

  return {
    start,
    idle,
    async stop() {
      closing = true;
      await idle();
    },
  };
}
