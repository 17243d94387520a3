/** Test support: an in-memory JobStore with the SQLite store's semantics (durability aside), for worker tests. */
import {
  jobSpecSchema,
  LABEL_STATES,
  isUnfinished,
  type Job,
  type Label,
  type LabelCounts,
} from '../../src/jobs/model';
import { JobNotFound, type JobStore } from '../../src/jobs/store';

export function memoryJobStore(): JobStore {
  const jobs = new Map<number, Job>();
  const labels = new Map<number, { label: Label; payload: string }[]>();
  let nextId = 1;
  const at = (): string => new Date(0).toISOString();
  const must = (id: number): Job => {
    const job = jobs.get(id);
    if (!job) throw new JobNotFound(`no job ${id}`);
    return job;
  };
  const entry = (jobId: number, n: number) => {
    const e = labels.get(jobId)?.[n - 1];
    if (!e) throw new JobNotFound(`no label ${n} in job ${jobId}`);
    return e;
  };
  return {
    createJob(spec, render) {
      const id = nextId++;
      const payloads = render(id);
      const job: Job = {
        ...jobSpecSchema.parse(spec),
        id,
        state: 'queued',
        reason: null,
        labelCount: payloads.length,
        createdAt: at(),
        updatedAt: at(),
      };
      jobs.set(id, job);
      labels.set(
        id,
        payloads.map((payload, i) => ({
          payload,
          label: {
            jobId: id,
            number: i + 1,
            state: 'pending',
            possibleDuplicate: false,
            attempts: 0,
            updatedAt: at(),
          },
        })),
      );
      return { ...job };
    },
    getJob: (id) => {
      const job = jobs.get(id);
      return job && { ...job };
    },
    listJobs: () => [...jobs.values()].reverse().map((j) => ({ ...j })),
    unfinishedJobs: () => [...jobs.values()].filter((j) => isUnfinished(j.state)).map((j) => ({ ...j })),
    setJobState(id, state, reason = null) {
      const job = { ...must(id), state, reason };
      jobs.set(id, job);
      return { ...job };
    },
    labels: (jobId) => (labels.get(jobId) ?? []).map((e) => ({ ...e.label })),
    label: (jobId, n) => {
      const e = labels.get(jobId)?.[n - 1];
      return e && { ...e.label };
    },
    payload: (jobId, n) => entry(jobId, n).payload,
    setLabelState(jobId, n, update) {
      const e = entry(jobId, n);
      e.label = {
        ...e.label,
        state: update.state,
        possibleDuplicate: e.label.possibleDuplicate || (update.possibleDuplicate ?? false),
        attempts: e.label.attempts + (update.attempt ? 1 : 0),
      };
      return { ...e.label };
    },
    counts(jobId) {
      const counts = Object.fromEntries(LABEL_STATES.map((s) => [s, 0])) as LabelCounts;
      for (const { label } of labels.get(jobId) ?? []) counts[label.state]++;
      return counts;
    },
    close: () => undefined,
  };
}
