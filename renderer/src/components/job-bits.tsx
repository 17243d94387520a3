/** Small pieces shared by the job views: state chips and a progress bar. */
import type { JobView, LabelStateView } from '../../../src/ipc/contract';
import { jobRunStatus } from '../store/jobs';
import { assertNever } from '../../../src/base/assert-never';
import { Pill, type Tone } from './status-pill';

export function labelStateTone(state: LabelStateView): Tone {
  switch (state) {
    case 'pending':
      return 'neutral';
    case 'sending':
      return 'accent';
    case 'sent':
    case 'confirmed':
      return 'ok';
    case 'failed':
      return 'bad';
    default:
      return assertNever(state, 'label state');
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The job's state in the same word everywhere it is shown (jobRunStatus). */
export function JobStateChip({ job }: { job: JobView }) {
  const status = jobRunStatus(job);
  return <Pill tone={status.tone}>{status.badge}</Pill>;
}

export function LabelStateChip({ state }: { state: LabelStateView }) {
  return <Pill tone={labelStateTone(state)}>{capital(state)}</Pill>;
}

export function ProgressBar({ fraction, label }: { fraction: number; label: string }) {
  const percent = Math.round(fraction * 100);
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div className="progress-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
