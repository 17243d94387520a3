/**
 * The Batch screen: a CSV file or a workbook (.xlsx, .ods; a sheet picker when it has several), a template
 * and a printer; the plan (which column feeds which field, which rows main refuses); then printing with
 * progress, pause, resume and cancel. Rows with problems do not need a separate choice: "Print valid rows"
 * asks, naming the records it skips.
 */
import { useRef, useState } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { Icon } from '../../components/icons';
import { ProgressBar } from '../../components/job-bits';
import { JobControls } from '../../components/job-controls';
import { Pill, StatusPill } from '../../components/status-pill';
import { OversizeQuestion } from '../../components/oversize-question';
import { invalidRowCount, listNumbers, skippedRecords, startBlocker } from '../../store/batch';
import { ACTIVE_JOB_STATES, formatEta, jobProgress, jobRunStatus } from '../../store/jobs';
import {
  formatMegabytes,
  looksLikeWorkbookName,
  WORKBOOK_LIMITS,
} from '../../../../src/jobs/workbook-limits';
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
  const runningStatus = running ? jobRunStatus(running) : null;
  const [confirming, setConfirming] = useState(false);
  const skipped = plan ? skippedRecords(plan) : [];

  const onFile = async (file: File | undefined) => {
    setConfirming(false);
    if (!file) return;
    if (looksLikeWorkbookName(file.name) || (await isWorkbookFile(file))) {
      // The budget before the work: a file too large is not read, let alone sent.
      if (file.size > WORKBOOK_LIMITS.maxBytes) {
        batch
          .getState()
          .refuseFile(
            file.name,
            `${file.name} is ${formatMegabytes(file.size)}; a workbook for a batch is at most ${formatMegabytes(WORKBOOK_LIMITS.maxBytes)}. Save the rows you need in a smaller file.`,
          );
        return;
      }
      await batch.getState().setWorkbook(file.name, toBase64(new Uint8Array(await file.arrayBuffer())));
      return;
    }
    await batch.getState().setFile(file.name, await file.text());
  };

  return (
    <div className="screen batch-screen">
      <section className="card" aria-labelledby="batch-setup">
        <h2 id="batch-setup">Set up</h2>
        <div className="grid-3">
          <div className="field">
            <span className="field-label" aria-hidden="true">
              File (CSV, Excel, OpenDocument)
            </span>
            <label className="btn btn-secondary file-button">
              <Icon name="upload" size={16} />
              <span>{state.fileName ?? 'Choose a file…'}</span>
              <input
                ref={fileInput}
                type="file"
                accept=".csv,.txt,.xlsx,.xlsm,.ods,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.oasis.opendocument.spreadsheet"
                className="visually-hidden"
                aria-label="Spreadsheet or CSV file"
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
            </label>
            {plan && (
              <p className="field-hint">
                {plan.rows} rows · {plan.columns.length} columns
                {plan.sheet !== null ? ` · sheet ${plan.sheet}` : ''}
              </p>
            )}
            {plan?.sheets && plan.sheets.length > 1 && (
              <label className="field field-inline">
                <span className="field-label">Sheet</span>
                <select
                  value={plan.sheet ?? ''}
                  onChange={(e) => void batch.getState().setSheet(e.target.value)}
                >
                  {plan.sheets.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
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
        {/* While the batch's job is paused its button is Resume, in the job's controls below. */}
        {!(running && runningStatus?.button === null) && (
          <div className="row">
            <button
              type="button"
              className="btn btn-primary"
              disabled={blocker !== null || state.starting || running !== null}
              onClick={() => {
                if (plan && invalid > 0) setConfirming(true);
                else void batch.getState().start();
              }}
            >
              {runningStatus?.button
                ? runningStatus.button
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
        )}
        {confirming && plan && invalid > 0 && running === null && (
          <div
            className="confirm-copies"
            role="alertdialog"
            aria-label={`Skip ${invalid} ${invalid === 1 ? 'record' : 'records'}?`}
            aria-describedby="batch-skip-text"
          >
            <p className="small" id="batch-skip-text">
              Print {plan.labels} {plan.labels === 1 ? 'label' : 'labels'} from the {plan.validRows} valid{' '}
              {plan.validRows === 1 ? 'record' : 'records'} and skip{' '}
              {skipped.length === 1 ? 'record' : 'records'} {listNumbers(skipped)}? The validation report
              above says what is wrong with {skipped.length === 1 ? 'it' : 'each'}.
            </p>
            <div className="row">
              <button
                type="button"
                className="btn btn-primary btn-small"
                onClick={() => {
                  setConfirming(false);
                  void batch.getState().start({ skipInvalid: true });
                }}
              >
                Print {plan.labels} {plan.labels === 1 ? 'label' : 'labels'}, skip {invalid}
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => setConfirming(false)}
              >
                Back
              </button>
            </div>
          </div>
        )}
        {state.confirmingOversize && (
          <OversizeQuestion
            fit={state.confirmingOversize.fit}
            printerName={printers.find((p) => p.id === state.printer)?.name ?? 'the printer'}
            onChoose={(choice) =>
              void batch.getState().start({
                skipInvalid: state.confirmingOversize?.skipInvalid ?? false,
                oversize: choice,
              })
            }
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
  const status = jobRunStatus(job);
  // Main's passing messages (a lost connection, a resend) while it prints; the state's own note otherwise.
  const note = job.state === 'printing' ? (live.message ?? status.note) : status.note;
  return (
    <div className="batch-progress" data-testid="batch-progress" data-state={job.state}>
      <div className="row">
        <strong>Job {job.id}</strong>
        <Pill tone={status.tone}>{status.badge}</Pill>
        <span className="muted">
          {progress.done} of {progress.total} labels
          {eta && job.state === 'printing' ? ` · about ${eta} left` : ''}
        </span>
      </div>
      <ProgressBar fraction={progress.fraction} label="Batch progress" />
      {note && <p className="field-hint">{note}</p>}
      <JobControls job={job} cancelLabel="Stop" />
    </div>
  );
}

/** Whether a picked file is a workbook by its first bytes (a zip, or an OLE file), whatever its name. */
async function isWorkbookFile(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return (
    (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) ||
    (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0)
  );
}

/** Bytes → base64, in slices (a spread of megabytes would overflow the call stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}
