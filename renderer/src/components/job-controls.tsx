/**
 * Pause, resume and cancel for a job wherever it is shown (the job card, History's detail, the Batch screen);
 * cancelling asks first. A job held on a label that cannot be rendered offers to skip that label instead of a
 * resume that would only stop on it again.
 */
import { useState } from 'react';
import type { JobView } from '../../../src/ipc/contract';
import { ACTIVE_JOB_STATES, heldOnLabel } from '../store/jobs';
import { useStores } from '../store/stores-context';

export function JobControls({
  job,
  cancelLabel = 'Cancel',
  small = false,
}: {
  job: JobView;
  /** What the cancel button says ("Stop" for a batch). */
  cancelLabel?: string;
  small?: boolean;
}) {
  const { jobs } = useStores();
  const [confirming, setConfirming] = useState(false);
  if (!ACTIVE_JOB_STATES.has(job.state)) return null;
  const size = small ? ' btn-small' : '';
  const stuck = heldOnLabel(job);
  const stopped = job.state === 'held' || job.state === 'paused';
  const left = job.labelCount - job.counts.sent - job.counts.confirmed - job.counts.failed;

  if (confirming) {
    return (
      <div className="row job-controls" role="group" aria-label={`${cancelLabel} job ${job.id}?`}>
        <span className="small">
          {cancelLabel} job {job.id}? {left} {left === 1 ? 'label' : 'labels'} will not print.
        </span>
        <button
          type="button"
          className={`btn btn-danger${size}`}
          onClick={() => {
            setConfirming(false);
            void jobs.getState().control('cancel', job.id);
          }}
        >
          Yes, {cancelLabel.toLowerCase()} job {job.id}
        </button>
        <button type="button" className={`btn btn-secondary${size}`} onClick={() => setConfirming(false)}>
          Keep printing
        </button>
      </div>
    );
  }

  return (
    <div className="row job-controls" role="group" aria-label={`Job ${job.id} controls`}>
      {stuck !== null ? (
        <button
          type="button"
          className={`btn btn-primary${size}`}
          onClick={() => void jobs.getState().skip(job.id, stuck)}
        >
          Skip label {stuck}
        </button>
      ) : stopped ? (
        <button
          type="button"
          className={`btn btn-secondary${size}`}
          onClick={() => void jobs.getState().control('resume', job.id)}
        >
          Resume
        </button>
      ) : (
        <button
          type="button"
          className={`btn btn-secondary${size}`}
          onClick={() => void jobs.getState().control('pause', job.id)}
        >
          Pause
        </button>
      )}
      <button type="button" className={`btn btn-danger${size}`} onClick={() => setConfirming(true)}>
        {cancelLabel}
      </button>
    </div>
  );
}
