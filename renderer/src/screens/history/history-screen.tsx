/**
 * The History screen: jobs with what is on them (the first values of each, #42 item 12) and a filter (state,
 * printer, text); a job's labels with their states and possible duplicates marked; reprint the job (after a
 * yes naming the job and the printer) or the labels ticked.
 */
import { useEffect, useState } from 'react';
import { JOB_STATE_NAMES } from '../../../../src/ipc/contract';
import type { HistoryFilter } from '../../store/jobs';
import { ErrorNotice } from '../../components/error-notice';
import { JobStateChip, LabelStateChip } from '../../components/job-bits';
import { JobControls } from '../../components/job-controls';
import { useConnection, useJobs, usePrinters, useStores } from '../../store/stores-context';
import { Modal } from '../../components/modal';
import { SiteHistoryCard } from './site-history-card';

const STATES = JOB_STATE_NAMES;
/** The filter's words for the states: the ones the jobs' badges use (jobRunStatus). */
const STATE_WORDS: Record<(typeof STATES)[number], string> = {
  queued: 'Queued',
  printing: 'Printing',
  paused: 'Waiting for printer',
  held: 'Paused or stopped',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** A value on one line (an address's lines joined by " / "), as a summary shows it. */
const oneLine = (value: string) => value.replace(/\s*\n+\s*/g, ' / ');

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

export function HistoryScreen() {
  const { jobs } = useStores();
  const list = useJobs((s) => s.list);
  const loaded = useJobs((s) => s.listLoaded);
  const filter = useJobs((s) => s.filter);
  const selected = useJobs((s) => s.selected);
  const error = useJobs((s) => s.error);
  const printers = usePrinters((s) => s.printers);
  const siteMode = useConnection((s) => s.settings?.mode === 'site');

  useEffect(() => {
    void jobs.getState().loadList();
  }, [jobs]);

  return (
    <div className="screen history-screen">
      {siteMode && <SiteHistoryCard />}
      <section className="card" aria-labelledby="jobs-title">
        <div className="card-head">
          <h2 id="jobs-title">Jobs</h2>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => void jobs.getState().loadList()}
          >
            Refresh
          </button>
        </div>
        <div className="filters" role="search">
          <label className="field field-inline">
            <span className="field-label">State</span>
            <select
              value={filter.state}
              onChange={(e) => jobs.getState().setFilter({ state: e.target.value as HistoryFilter['state'] })}
            >
              <option value="">Any</option>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {STATE_WORDS[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="field field-inline">
            <span className="field-label">Printer</span>
            <select
              value={filter.printer}
              onChange={(e) => jobs.getState().setFilter({ printer: e.target.value })}
            >
              <option value="">Any</option>
              {printers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field field-inline field-grow">
            <span className="field-label">Find</span>
            <input
              type="search"
              placeholder="Name, tracking number, template…"
              value={filter.text}
              onChange={(e) => jobs.getState().setFilter({ text: e.target.value })}
            />
          </label>
        </div>
        {error && <ErrorNotice error={error} />}
        <div className="table-scroll">
          <table className="table table-hover" aria-label="Jobs">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Created</th>
                <th scope="col">On it</th>
                <th scope="col">Template</th>
                <th scope="col">Printer</th>
                <th scope="col" className="num">
                  Labels
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.map((job) => (
                <tr key={job.id} className={selected?.job.id === job.id ? 'row-selected' : undefined}>
                  <td>
                    <button
                      type="button"
                      className="btn btn-link"
                      onClick={() => void jobs.getState().open(job.id)}
                    >
                      Job {job.id}
                    </button>
                    {job.reprintOf !== null && (
                      <span className="muted small"> reprint of {job.reprintOf}</span>
                    )}
                  </td>
                  <td>{when(job.createdAt)}</td>
                  <td className="label-values">
                    {job.onIt.map((v) => (
                      <span key={v.label} className="label-value">
                        <span className="muted small">{v.label}: </span>
                        {oneLine(v.value)}
                      </span>
                    ))}
                  </td>
                  <td className="mono">{job.template}</td>
                  <td>{job.printerName}</td>
                  <td className="num">{job.labelCount}</td>
                  <td>
                    <JobStateChip job={job} />
                    {job.possibleDuplicates.length > 0 && (
                      <span className="pill pill-warn" title="Labels that may have printed twice">
                        <span className="pill-dot" aria-hidden="true" />
                        {job.possibleDuplicates.length} possible duplicate
                        {job.possibleDuplicates.length === 1 ? '' : 's'}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {loaded && list.length === 0 && <p className="muted empty">No jobs match.</p>}
        </div>
      </section>
      {selected && <JobDetail key={selected.job.id} />}
    </div>
  );
}

function JobDetail() {
  const { jobs } = useStores();
  const selected = useJobs((s) => s.selected)!;
  const picked = useJobs((s) => s.picked);
  const reprinting = useJobs((s) => s.reprinting);
  const printers = usePrinters((s) => s.printers);
  const { job, labels } = selected;
  const allPicked = labels.length > 0 && picked.length === labels.length;
  // Where a reprint goes: the job's own printer (the same bytes) unless another is chosen (drawn for it).
  const [target, setTarget] = useState('');
  // "Reprint job" asks first: a whole job again is a roll of labels (#42 item 12).
  const [confirming, setConfirming] = useState(false);
  const labelPrinters = printers.filter((p) => p.language !== 'pdf' && p.id !== job.printerId);
  const reprintOn = target || undefined;
  const targetName = printers.find((p) => p.id === target)?.name ?? job.printerName;
  return (
    <section className="card" aria-labelledby="job-detail-title">
      <div className="card-head">
        <h2 id="job-detail-title">
          Job {job.id} · {job.template}
        </h2>
        <JobStateChip job={job} />
        <span className="spacer" />
        <button type="button" className="btn btn-ghost btn-small" onClick={() => jobs.getState().close()}>
          Close
        </button>
      </div>
      <p className="muted small">
        {job.labelCount} {job.labelCount === 1 ? 'label' : 'labels'} to {job.printerName} · created{' '}
        {when(job.createdAt)} by {job.createdBy}
        {job.reason ? ` · ${job.reason}` : ''}
      </p>
      <JobControls job={job} />
      <div className="row reprint-row">
        <label className="field-label" htmlFor="reprint-printer">
          Reprint on
        </label>
        <select id="reprint-printer" value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">{job.printerName} (same printer, same bytes)</option>
          {labelPrinters.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={reprinting}
          onClick={() => setConfirming(true)}
        >
          Reprint job
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={picked.length === 0 || reprinting}
          onClick={() => void jobs.getState().reprint(job.id, picked, reprintOn)}
        >
          Reprint selected labels{picked.length ? ` (${picked.length})` : ''}
        </button>
      </div>
      {confirming && (
        <Modal
          title={`Reprint job ${job.id}?`}
          titleId="reprint-confirm-title"
          onCancel={() => setConfirming(false)}
        >
          <p id="reprint-confirm-text">
            {job.labelCount} {job.labelCount === 1 ? 'label' : 'labels'} of {job.template}
            {job.onIt.length ? ` (${job.onIt.map((v) => oneLine(v.value)).join(', ')})` : ''} will print again
            on {targetName}.
          </p>
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-primary"
              // The yes is not the default: Enter on a dialog opened by mistake does not print a job again.
              onClick={() => {
                setConfirming(false);
                void jobs.getState().reprint(job.id, undefined, reprintOn);
              }}
            >
              Reprint {job.labelCount} {job.labelCount === 1 ? 'label' : 'labels'} on {targetName}
            </button>
          </div>
        </Modal>
      )}
      <div className="table-scroll">
        <table className="table" aria-label={`Labels of job ${job.id}`}>
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all labels"
                  checked={allPicked}
                  onChange={() => jobs.getState().setPicked(allPicked ? [] : labels.map((l) => l.number))}
                />
              </th>
              <th scope="col">Label</th>
              <th scope="col">On it</th>
              <th scope="col">State</th>
              <th scope="col" className="num">
                Attempts
              </th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {labels.map((label) => (
              <tr key={label.number} className={label.possibleDuplicate ? 'row-warn' : undefined}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select label ${label.number}`}
                    checked={picked.includes(label.number)}
                    onChange={() => jobs.getState().togglePick(label.number)}
                  />
                </td>
                <td className="num">
                  {label.number}
                  {label.record !== null && <span className="muted small"> · record {label.record}</span>}
                </td>
                <td className="label-values">
                  {label.values.slice(0, 4).map((v) => (
                    <span key={v.label} className="label-value">
                      <span className="muted small">{v.label}: </span>
                      {v.value}
                    </span>
                  ))}
                </td>
                <td>
                  <LabelStateChip state={label.state} />
                  {label.possibleDuplicate && (
                    <span className="pill pill-warn">
                      <span className="pill-dot" aria-hidden="true" />
                      Possible duplicate
                    </span>
                  )}
                </td>
                <td className="num">{label.attempts}</td>
                <td>{when(label.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
