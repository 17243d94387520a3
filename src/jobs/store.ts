/**
 * The job store port. Implementations (src/node/jobs/sqlite-job-store.ts; an in-memory one for tests) must make
 * every call durable before it returns: the worker relies on "written before the next step".
 */
import { KindedError } from '../base/error-kind';
import type { Job, JobSpec, JobState, Label, LabelCounts, LabelState } from './model';

export interface LabelUpdate {
  state: LabelState;
  /** Sets the flag (never clears it: once possibly duplicated, always reported). */
  possibleDuplicate?: boolean;
  /** Adds one write attempt. */
  attempt?: boolean;
}

export interface JobStore {
  /** Creates a job with its rendered labels (one payload per label, label 1 first) atomically. */
  createJob(spec: JobSpec, render: (jobId: number) => readonly string[]): Job;
  getJob(id: number): Job | undefined;
  /** Newest first. */
  listJobs(): Job[];
  /** Unfinished jobs (queued, printing, paused), oldest first. */
  unfinishedJobs(): Job[];
  setJobState(id: number, state: JobState, reason?: string | null): Job;
  labels(jobId: number): Label[];
  label(jobId: number, labelNumber: number): Label | undefined;
  payload(jobId: number, labelNumber: number): string;
  setLabelState(jobId: number, labelNumber: number, update: LabelUpdate): Label;
  counts(jobId: number): LabelCounts;
  close(): void;
}

/** A store operation on a job or label that does not exist. */
export class JobNotFound extends KindedError {
  override name = 'JobNotFound';
  get kind() {
    return 'job-not-found' as const;
  }
}
