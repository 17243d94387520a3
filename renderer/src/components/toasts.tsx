/**
 * Toasts: print jobs with their progress (from `job` events), errors with their action, short notes. Each can be
 * dismissed; they sit at the bottom left, over the end of the template list, where they cover neither the
 * label's preview nor the Print button (#42 item 14).
 */
import { useEffect } from 'react';
import { formatEta, jobProgress } from '../store/jobs';
import { useJobs, useStores, useUi } from '../store/stores-context';
import type { Toast } from '../store/ui';
import { ErrorNotice } from './error-notice';
import { JobControls } from './job-controls';
import { JobStateChip, ProgressBar } from './job-bits';

const INFO_MS = 4000;
const DONE_JOB_MS = 8000;
/** An error toast goes when its condition ends (ui.resolve), or after this long at most. */
const ERROR_MS = 20_000;

function JobToast({ toast }: { toast: Extract<Toast, { kind: 'job' }> }) {
  const { ui } = useStores();
  const live = useJobs((s) => s.live[toast.jobId]);
  const job = live?.job;
  const finished = job && (job.state === 'done' || job.state === 'cancelled');
  useEffect(() => {
    if (!finished) return;
    const timer = setTimeout(() => ui.getState().dismiss(toast.id), DONE_JOB_MS);
    return () => clearTimeout(timer);
  }, [finished, toast.id, ui]);
  const progress = job ? jobProgress(job) : null;
  const eta = formatEta(live?.etaSeconds ?? null);
  return (
    <div className="toast" role="status" data-testid="job-toast" data-job={toast.jobId}>
      <div className="toast-head">
        <strong>Job {toast.jobId}</strong>
        {job && <JobStateChip job={job} />}
        <button
          type="button"
          className="btn btn-ghost btn-small toast-close"
          aria-label="Dismiss"
          onClick={() => ui.getState().dismiss(toast.id)}
        >
          ×
        </button>
      </div>
      <p className="toast-text">{toast.title}</p>
      {progress && (
        <>
          <ProgressBar fraction={progress.fraction} label={`Job ${toast.jobId} progress`} />
          <p className="toast-meta">
            {progress.done} of {progress.total} sent
            {eta && job?.state === 'printing' ? ` · about ${eta} left` : ''}
            {(live?.message ?? job?.reason) ? ` · ${live?.message ?? job?.reason}` : ''}
          </p>
        </>
      )}
      {job && <JobControls job={job} small />}
    </div>
  );
}

function ErrorToast({ toast }: { toast: Extract<Toast, { kind: 'error' }> }) {
  const { ui } = useStores();
  useEffect(() => {
    const timer = setTimeout(() => ui.getState().dismiss(toast.id), ERROR_MS);
    return () => clearTimeout(timer);
  }, [toast.id, ui]);
  return (
    <div className="toast toast-error" data-testid="error-toast">
      <ErrorNotice error={toast.error} onDismiss={() => ui.getState().dismiss(toast.id)} />
    </div>
  );
}

function InfoToast({ toast }: { toast: Extract<Toast, { kind: 'info' }> }) {
  const { ui } = useStores();
  useEffect(() => {
    const timer = setTimeout(() => ui.getState().dismiss(toast.id), INFO_MS);
    return () => clearTimeout(timer);
  }, [toast.id, ui]);
  return (
    <div className="toast toast-info" role="status">
      <p className="toast-text">{toast.message}</p>
      <button
        type="button"
        className="btn btn-ghost btn-small toast-close"
        aria-label="Dismiss"
        onClick={() => ui.getState().dismiss(toast.id)}
      >
        ×
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => {
        switch (toast.kind) {
          case 'job':
            return <JobToast key={toast.id} toast={toast} />;
          case 'info':
            return <InfoToast key={toast.id} toast={toast} />;
          case 'error':
            return <ErrorToast key={toast.id} toast={toast} />;
        }
      })}
    </div>
  );
}
