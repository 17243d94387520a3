/**
 * The site server's history on the History screen (site mode, issue #24): every request the site recorded —
 * which template, how many labels, the first counter numbers, who (key id), where (instance, site printer), when
 * — and Reprint: the same labels with the same numbers on the printer chosen on the Print screen.
 */
import { useEffect } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { useDocument, usePrinters, useSiteHistory, useStores } from '../../store/stores-context';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

export function SiteHistoryCard() {
  const { siteHistory } = useStores();
  const jobs = useSiteHistory((s) => s.jobs);
  const loaded = useSiteHistory((s) => s.loaded);
  const nextBefore = useSiteHistory((s) => s.nextBefore);
  const error = useSiteHistory((s) => s.error);
  const message = useSiteHistory((s) => s.message);
  const reprinting = useSiteHistory((s) => s.reprinting);
  const printerId = useDocument((s) => s.printer);
  const printer = usePrinters((s) => s.printers.find((p) => p.id === printerId));

  useEffect(() => {
    void siteHistory.getState().load();
  }, [siteHistory]);

  return (
    <section className="card" aria-labelledby="site-jobs-title">
      <div className="card-head">
        <h2 id="site-jobs-title">Site history</h2>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => void siteHistory.getState().load()}
        >
          Refresh
        </button>
      </div>
      <p className="muted small">
        Every label request the site server recorded, from every workstation. Reprint prints the same labels,
        with the same counter numbers, on {printer ? printer.name : 'the printer chosen on the Print screen'}.
      </p>
      {error && <ErrorNotice error={error} />}
      {message && (
        <p className="muted" role="status" data-testid="site-reprint">
          {message}
        </p>
      )}
      {loaded && !jobs.length && !error && <p className="muted">The site has recorded no job yet.</p>}
      {jobs.length > 0 && (
        <div className="table-scroll">
          <table className="table" aria-label="Site history">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Template</th>
                <th scope="col">Labels</th>
                <th scope="col">First numbers</th>
                <th scope="col">Who</th>
                <th scope="col">Where</th>
                <th scope="col">When</th>
                <th scope="col">
                  <span className="visually-hidden">Reprint</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id} data-testid="site-job">
                  <td className="num">
                    {job.id}
                    {job.reprintOf !== null && (
                      <span className="muted small"> reprint of {job.reprintOf}</span>
                    )}
                  </td>
                  <td>{job.template}</td>
                  <td className="num">{job.labels}</td>
                  <td className="mono small">
                    {Object.entries(job.counters)
                      .map(([field, n]) => `${field} ${n}`)
                      .join(', ') || '—'}
                    {job.error && <span className="muted small"> · failed: {job.error}</span>}
                  </td>
                  <td className="mono small">{job.key}</td>
                  <td>
                    {job.instance}
                    {job.printer !== null && <span className="muted small"> · printer {job.printer}</span>}
                  </td>
                  <td>{when(job.createdAt)}</td>
                  <td>
                    {job.reprintable && (
                      <button
                        type="button"
                        className="btn btn-secondary btn-small"
                        disabled={reprinting !== null}
                        aria-label={`Reprint site job ${job.id}`}
                        onClick={() => void siteHistory.getState().reprint(job.id, printerId)}
                      >
                        {reprinting === job.id ? 'Reprinting…' : 'Reprint'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextBefore !== null && (
        <button type="button" className="btn btn-ghost" onClick={() => void siteHistory.getState().more()}>
          Older jobs
        </button>
      )}
    </section>
  );
}
