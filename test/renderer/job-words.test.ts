/**
 * A job's state reads the same wherever it is shown — the Batch screen, History and the job notes (#42 item 9):
 * a job the user paused is "Paused", never "Held"; a printer fault is "Waiting for printer".
 */
import { describe, expect, it } from 'vitest';
import { JOB_STATE_NAMES, type JobView } from '../../src/ipc/contract';
import { jobRunStatus } from '../../renderer/src/store/jobs';
import { JOB } from './fake-api';

const job = (over: Partial<JobView>): JobView => ({
  ...JOB,
  labelCount: 27,
  counts: { pending: 24, sending: 0, sent: 0, confirmed: 3, failed: 0 },
  ...over,
});

describe('the words for a job', () => {
  it('a job paused by the user is Paused with how far it got; no word is a raw state id', () => {
    const paused = jobRunStatus(job({ state: 'held', reason: 'paused by the user' }));
    expect(paused).toMatchObject({
      badge: 'Paused',
      note: 'Paused by you after 3 of 27 labels.',
      button: null,
    });
    const waiting = jobRunStatus(job({ state: 'paused', reason: 'paper out' }));
    expect(waiting.badge).toBe('Waiting for printer');
    expect(waiting.note).toMatch(/^Paper out: printing goes on by itself when Desk Zebra is ready/);
    for (const state of JOB_STATE_NAMES) {
      const { badge } = jobRunStatus(job({ state }));
      expect(badge, state).not.toMatch(/^(held|queued|printing|paused|done|cancelled|failed)$/);
      expect(badge, state).not.toBe('Held');
    }
  });
});
