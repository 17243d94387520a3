/** reprintChain: label n of a reprint followed back to the job that resolved it, each job read once. */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/model';
import { reprintChain } from '../../src/jobs/reprint-chain';
import { JobNotFound } from '../../src/jobs/store';

const job = (id: number, reprintOf?: { jobId: number; labels: number[] }): Job => ({ id, reprintOf }) as Job;

describe('reprintChain', () => {
  const jobs = new Map<number, Job>([
    [1, job(1)],
    [2, job(2, { jobId: 1, labels: [3, 1] })],
    [3, job(3, { jobId: 2, labels: [2, 2, 9] })],
  ]);
  const reads: number[] = [];
  const store = {
    getJob: (id: number) => {
      reads.push(id);
      return jobs.get(id);
    },
  };

  it('follows a reprint of a reprint back to the first job, reading each job once', () => {
    const first = reprintChain(store);
    expect(first(3, 1)).toEqual({ job: jobs.get(1), n: 1, unnamed: false });
    expect(first(3, 2)).toEqual({ job: jobs.get(1), n: 1, unnamed: false });
    expect(first(2, 1)).toEqual({ job: jobs.get(1), n: 3, unnamed: false });
    expect(first(1, 5)).toEqual({ job: jobs.get(1), n: 5, unnamed: false });
    expect(reads).toEqual([3, 2, 1]);
  });

  it('stops at a reprint that names no label n, and throws JobNotFound for a job not stored', () => {
    const first = reprintChain(store);
    expect(first(3, 4)).toEqual({ job: jobs.get(3), n: 4, unnamed: true });
    expect(first(2, 3)).toEqual({ job: jobs.get(2), n: 3, unnamed: true });
    expect(first(3, 3)).toEqual({ job: jobs.get(2), n: 9, unnamed: true });
    expect(() => first(7, 1)).toThrow(JobNotFound);
    expect(() => first(7, 1)).toThrow('no job 7');
  });
});
