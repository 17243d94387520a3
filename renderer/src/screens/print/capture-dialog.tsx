/**
 * "Capture a hosted template by name": the template's name on the hosted API and the fields it takes (the
 * API does not list them), then one fetch-markups call keeps a local copy.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TemplateRef } from '../../../../src/ipc/contract';
import { ErrorNotice } from '../../components/error-notice';
import { useCatalog, useStores } from '../../store/stores-context';

interface FieldRow {
  key: number;
  name: string;
  label: string;
  digits: boolean;
}

export function CaptureDialog({ onClose }: { onClose: (captured: TemplateRef | null) => void }) {
  const { catalog, ui } = useStores();
  const busy = useCatalog((s) => s.busy);
  const error = useCatalog((s) => s.error);
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState('');
  const [rows, setRows] = useState<FieldRow[]>([{ key: 1, name: '', label: '', digits: false }]);
  const [nextKey, setNextKey] = useState(2);

  useEffect(() => {
    catalog.getState().clearError();
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, [catalog]);

  const update = (key: number, patch: Partial<FieldRow>) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = rows
      .filter((r) => r.name.trim())
      .map((r) => ({
        name: r.name.trim(),
        ...(r.label.trim() ? { label: r.label.trim() } : {}),
        ...(r.digits ? { digits: true } : {}),
      }));
    if (!name.trim() || fields.length === 0) return;
    const result = await catalog.getState().capture({ name: name.trim(), fields });
    if (!result) return;
    const notes = result.notes.length ? ` ${result.notes.join(' ')}` : '';
    ui.getState().notify({ kind: 'info', message: `Captured ${result.summary.ref.name}.${notes}` });
    onClose(result.summary.ref);
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="capture-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose(null);
      }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <h2 id="capture-title">Capture a hosted template</h2>
        <p className="muted">
          LabelDesk asks the hosted API for the template once (it counts as one print) and keeps a local copy
          that prints offline too.
        </p>
        <label className="field">
          <span className="field-label">Template name on the hosted API</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        </label>
        <fieldset className="capture-fields">
          <legend>Fields it takes</legend>
          {rows.map((row, i) => (
            <div className="capture-row" key={row.key}>
              <input
                aria-label={`Field ${i + 1} name`}
                placeholder="name"
                value={row.name}
                onChange={(e) => update(row.key, { name: e.target.value })}
              />
              <input
                aria-label={`Field ${i + 1} label`}
                placeholder="Label (optional)"
                value={row.label}
                onChange={(e) => update(row.key, { label: e.target.value })}
              />
              <label className="check">
                <input
                  type="checkbox"
                  checked={row.digits}
                  onChange={(e) => update(row.key, { digits: e.target.checked })}
                />
                Digits only
              </label>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={`Remove field ${i + 1}`}
                disabled={rows.length === 1}
                onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
              >
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => {
              setRows([...rows, { key: nextKey, name: '', label: '', digits: false }]);
              setNextKey(nextKey + 1);
            }}
          >
            + Add field
          </button>
        </fieldset>
        {error && <ErrorNotice error={error} />}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => onClose(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>
            {busy ? 'Capturing…' : 'Capture'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
