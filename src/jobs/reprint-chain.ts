/**
 * Reprints followed back: label n of a reprint job is label `reprintOf.labels[n - 1]` of the job it reprints,
 * itself perhaps a reprint. The job at the end of the chain is the one that resolved the label (its rows,
 * counters, markup and image folder). One walker serves the job service (which job's rows a label shows,
 * whether a reprint can be drawn again for another printer) and the label renderer (the markup to draw).
 */
import type { Job } from './model';
import { JobNotFound, type JobStore } from './store';

export interface FirstLabel {
  /** The job that resolved the label; or, when `unnamed`, the reprint whose list names no label `n`. */
  job: Job;
  /** The label's number in `job`. */
  n: number;
  /** The chain breaks at `job`: a reprint whose list of labels has no entry `n`. */
  unnamed: boolean;
}

/**
 * A walker for one call: each job is read from `store` once per walker, not once per label (a job's spec holds
 * all its rows: 10,000 labels would read it 10,000 times). Throws JobNotFound for a job that is not stored.
 */
export function reprintChain(store: Pick<JobStore, 'getJob'>): (jobId: number, n: number) => FirstLabel {
  const loaded = new Map<number, Job>();
  const load = (jobId: number): Job => {
    let job = loaded.get(jobId);
    if (!job) {
      job = store.getJob(jobId);
      if (!job) throw new JobNotFound(`no job ${jobId}`);
      loaded.set(jobId, job);
    }
    return job;
  };
  return (jobId, n) => {
    let job = load(jobId);
    while (job.reprintOf) {
      const source = job.reprintOf.labels[n - 1];
      if (source === undefined) return { job, n, unnamed: true };
      job = load(job.reprintOf.jobId);
      n = source;
    }
    return { job, n, unnamed: false };
  };
}
