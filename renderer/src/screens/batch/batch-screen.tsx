/**
 * The Batch screen: a CSV file, a template and a printer; the plan (which column feeds which field, which
 * rows main refuses); then printing with progress, pause, resume and cancel.
 */
import { useRef } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { Icon } from '../../components/icons';
import { JobStateChip, ProgressBar } from '../../components/job-bits';
import { JobControls } from '../../components/job-controls';
import { StatusPill } from '../../components/status-pill';
import { OversizeQuestion } from '../../components/oversize-question';
import { invalidRowCount, startBlocker } from '../../store/batch';
import { ACTIVE_JOB_STATES, formatEta, jobProgress } from '../../store/jobs';
import { useBatch, useCatalog, useJobs, usePrinters, useStores } from '../../store/stores-context';
import { BatchPlanCard } from './batch-plan';

const refKey = (ref: { source: string; name: string }) => `${ref.source}/${ref.name}`;

export function BatchScreen() {
  const { batch } = useStores();
  const state = useBatch((s) => s);
  const templates = useCatalog((s) => s.templates);
  const printers = usePrinters((s) => s.printers);
  const status = usePrinters((s) => (state.printer ? s.statuses[state.printer] : undefined));
  const fileInput = useRef<HTMLInputElement>(null);
  const blocker = startBlocker(state);
  const plan = state.plan;
  const invalid = plan ? invalidRowCount(plan) : 0;
  // The batch's job while it is queued, printing, paused or held: the button shows it instead of starting another.
  const running = useJobs((s) => {
    const live = state.jobId === null ? undefined : s.live[state.jobId];
    return live && ACTIVE_JOB_STATES.has(live.job.state) ? live.job : null;
  });
  const runningProgress = running ? jobProgress(running) : null;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    await batch.getState().setFile(file.name, await file.text());
  };

  return (
    <div className="screen batch-screen">
      <section className="card" aria-labelledby="batch-setup">
        <h2 id="batch-setup">Set up</h2>
        <div className="grid-3">
          <div className="field">
            <span className="field-label" aria-hidden="true">
              CSV file
            </span>
            <label className="btn btn-secondary file-button">
              <Icon name="upload" size={16} />
              <span>{state.fileName ?? 'Choose a file…'}</span>
              <input
                ref={fileInput}
                type="file"
                accept=".csv,text/csv,text/plain"
                className="visually-hidden"
                aria-label="CSV file"
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
            </label>
            {plan && (
              <p className="field-hint">
                {plan.rows} rows · {plan.columns.length} columns
              </p>
            )}
          </div>
          <label className="field">
            <span className="field-label">Template</span>
            <select
              value={state.ref ? refKey(state.ref) : ''}
              onChange={(e) => {
                const t = templates.find((x) => refKey(x.ref) === e.target.value);
                void batch.getState().setTemplate(t ? t.ref : null);
              }}
            >
              <option value="">Choose a template</option>
              {templates.map((t) => (
                <option key={refKey(t.ref)} value={refKey(t.ref)}>
                  {t.ref.name} ({t.ref.source})
                </option>
              ))}
            </select>
          </label>
          <div className="field">
            <label className="field-label" htmlFor="batch-printer">
              Printer
            </label>
            <div className="printer-pick">
              <select
                id="batch-printer"
                value={state.printer ?? ''}
                onChange={(e) => batch.getState().setPrinter(e.target.value || null)}
              >
                <option value="">Choose a printer</option>
                {printers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
              {state.printer && <StatusPill status={status} />}
            </div>
          </div>
        </div>
        {state.error && <ErrorNotice error={state.error} />}
      </section>

      {plan && <BatchPlanCard plan={plan} copiesColumn={state.copiesColumn ?? plan.copiesColumn} />}

      <section className="card batch-run" aria-labelledby="batch-run">
        <h2 id="batch-run">Print</h2>
        {plan && invalid > 0 && (
          <label className="check">
            <input
              type="checkbox"
              checked={state.skipInvalid}
              onChange={(e) => batch.getState().setSkipInvalid(e.target.checked)}
            />
            Skip the {invalid} {invalid === 1 ? 'record' : 'records'} with problems
          </label>
        )}
        <div className="row">
          <button
            type="button"
            className="btn btn-primary"
            disabled={blocker !== null || state.starting || running !== null}
            onClick={() => void batch.getState().start()}
          >
            {runningProgress
              ? `Printing… ${runningProgress.done} of ${runningProgress.total}`
              : state.starting
                ? 'Starting…'
                : plan && invalid > 0
                  ? `Print valid rows (skip ${invalid})`
                  : plan
                    ? `Print ${plan.labels} ${plan.labels === 1 ? 'label' : 'labels'}`
                    : 'Print'}
          </button>
          {blocker && <span className="muted">{blocker}</span>}
        </div>
        {state.confirmingOversize && (
          <OversizeQuestion
            fit={state.confirmingOversize}
            printerName={printers.find((p) => p.id === state.printer)?.name ?? 'the printer'}
            onChoose={(choice) => void batch.getState().start(choice)}
            onCancel={() => batch.getState().cancelOversizeConfirm()}
          />
        )}
        {state.jobId !== null && <BatchProgress jobId={state.jobId} />}
      </section>
    </div>
  );
}

function BatchProgress({ jobId }: { jobId: number }) {
  const live = useJobs((s) => s.live[jobId]);
  if (!live) return null;
  const { job, etaSeconds } = live;
  const progress = jobProgress(job);
  const eta = formatEta(etaSeconds);
  return (
    <div className="batch-progress" data-testid="batch-progress" data-state={job.state}>
      <div className="row">
        <strong>Job {job.id}</strong>
        <JobStateChip state={job.state} />
        <span className="muted">
          {progress.done} of {progress.total} labels
          {eta && job.state === 'printing' ? ` · about ${eta} left` : ''}
        </span>
      </div>
      <ProgressBar fraction={progress.fraction} label="Batch progress" />
      {(live.message ?? job.reason) && <p className="field-hint">{live.message ?? job.reason}</p>}
      <JobControls job={job} cancelLabel="Stop" />
    </div>
  );
}
