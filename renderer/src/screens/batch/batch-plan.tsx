/**
 * The batch plan: each column of the file, in the file's order, and the field it feeds (changeable); what no
 * column feeds, said once at the mapping; and the validation report — record, line (or sheet row), field, the
 * value as read and what is wrong with it.
 */
import type { BatchPlanView } from '../../../../src/ipc/contract';
import { useStores } from '../../store/stores-context';

/** Every template field a column can feed, in the template's order, as people read it: "Recipient (ship_to_name)". */
export function planFields(plan: BatchPlanView): { name: string; text: string }[] {
  return plan.fields.map((f) => ({
    name: f.name,
    text: f.label && f.label !== f.name ? `${f.label} (${f.name})` : f.name,
  }));
}

const REPORT_LIMIT = 500;

export function BatchPlanCard({ plan, copiesColumn }: { plan: BatchPlanView; copiesColumn: string | null }) {
  const { batch } = useStores();
  const fields = planFields(plan);
  const shown = plan.problems.slice(0, REPORT_LIMIT);
  return (
    <>
      <section className="card" aria-labelledby="batch-mapping">
        <div className="card-head">
          <h2 id="batch-mapping">Columns and fields</h2>
          <span className="muted small">
            {plan.validRows} of {plan.rows} rows valid · {plan.labels} labels
          </span>
        </div>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Feeds field</th>
            </tr>
          </thead>
          <tbody>
            {plan.columns.map((column) => (
              <tr key={column}>
                <th scope="row" className="mono">
                  {column}
                </th>
                <td>
                  <select
                    aria-label={`Field for column ${column}`}
                    value={column === copiesColumn ? '' : (plan.mapping[column] ?? '')}
                    disabled={column === copiesColumn}
                    onChange={(e) => void batch.getState().mapColumn(column, e.target.value)}
                  >
                    <option value="">{column === copiesColumn ? 'Copies per row' : 'Not used'}</option>
                    {fields.map((f) => (
                      <option key={f.name} value={f.name}>
                        {f.text}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {plan.missingRequired.length > 0 && (
          <p className="field-problem" role="alert">
            No column feeds {plan.missingRequired.map((f) => f.label).join(', ')}, which{' '}
            {plan.missingRequired.length === 1 ? 'is' : 'are'} required: choose{' '}
            {plan.missingRequired.length === 1 ? 'its column' : 'their columns'} above. Nothing prints until
            then.
          </p>
        )}
        {plan.unmappedFields.length > 0 && (
          <p className="field-hint">
            No column feeds{' '}
            {plan.unmappedFields
              .map((f) =>
                f.placeholder === '' ? `${f.label} (left empty)` : `${f.label} (prints "${f.placeholder}")`,
              )
              .join(', ')}
            .
          </p>
        )}
        <label className="field field-inline">
          <span className="field-label">Copies per row from column</span>
          <select
            value={copiesColumn ?? ''}
            onChange={(e) => void batch.getState().setCopiesColumn(e.target.value || null)}
          >
            <option value="">None: one label per row</option>
            {plan.columns.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </section>

      <section className="card" aria-labelledby="batch-report">
        <div className="card-head">
          <h2 id="batch-report">Validation report</h2>
          {plan.problems.length === 0 ? (
            <span className="pill pill-ok">
              <span className="pill-dot" aria-hidden="true" />
              Every row is valid
            </span>
          ) : (
            <span className="pill pill-bad">
              <span className="pill-dot" aria-hidden="true" />
              {plan.problems.length} {plan.problems.length === 1 ? 'problem' : 'problems'}
            </span>
          )}
        </div>
        {plan.problems.length > 0 && (
          <div className="table-scroll">
            <table className="table" aria-label="Problems by record">
              <thead>
                <tr>
                  <th scope="col" className="num">
                    Record
                  </th>
                  <th scope="col" className="num">
                    {plan.lineWord === 'row' ? 'Row' : 'Line'}
                  </th>
                  <th scope="col">Field</th>
                  <th scope="col">Value as read</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((p, i) => (
                  <tr key={`${p.record}:${p.field}:${i}`}>
                    <td className="num">{p.record}</td>
                    <td className="num">{p.line}</td>
                    <td>{p.field}</td>
                    <td className="mono">
                      {p.value === null ? (
                        ''
                      ) : p.value === '' ? (
                        <span className="muted">(empty)</span>
                      ) : (
                        p.value
                      )}
                    </td>
                    <td>{p.problem}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {plan.problems.length > shown.length && (
              <p className="muted small">and {plan.problems.length - shown.length} more.</p>
            )}
          </div>
        )}
      </section>
    </>
  );
}
