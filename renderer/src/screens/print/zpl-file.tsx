/**
 * A ZPL file made elsewhere (a carrier's label; issue #33) on the Print screen: "Open ZPL…" (or a file dropped
 * on the screen), its labels listed with their numbers, the selected one large as the printer burns it, and
 * print / export. The template's form comes back with "Close file".
 */
import { useEffect, useRef } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { Icon } from '../../components/icons';
import { useDocument, usePrinters, useStores, useZpl } from '../../store/stores-context';
import { ZPL_FILE_EXTENSIONS } from '../../store/zpl';

/** The "Open ZPL…" button: a file picker (the file is read here; no path crosses to main). */
export function OpenZplButton() {
  const { zpl } = useStores();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="btn btn-secondary btn-small" onClick={() => input.current?.click()}>
        <Icon name="upload" size={16} />
        <span>Open ZPL…</span>
      </button>
      <input
        ref={input}
        type="file"
        accept={ZPL_FILE_EXTENSIONS.join(',')}
        className="visually-hidden"
        aria-label="ZPL file"
        tabIndex={-1}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void zpl.getState().open(file);
        }}
      />
    </>
  );
}

export function ZplFilePanel() {
  const { zpl } = useStores();
  const file = useZpl((s) => s.file);
  const selected = useZpl((s) => s.selected);
  const raster = useZpl((s) => s.raster);
  const printer = useZpl((s) => s.printer);
  const copies = useZpl((s) => s.copies);
  const keepSettings = useZpl((s) => s.keepSettings);
  const remember = useZpl((s) => s.remember);
  const asIs = useZpl((s) => s.asIs);
  const printing = useZpl((s) => s.printing);
  const message = useZpl((s) => s.message);
  const printers = usePrinters((s) => s.printers);
  const documentPrinter = useDocument((s) => s.printer);

  // A file's printer settings are kept or taken out as saved for the printer, until the user says otherwise.
  const chosen = printers.find((p) => p.id === printer);
  const saved = chosen?.zplKeepSettings ?? false;
  const token = file?.token;
  useEffect(() => {
    if (token) zpl.getState().setKeepSettings(saved);
  }, [zpl, token, printer, saved]);

  // The printer chosen for templates is the file's too, until another is chosen here.
  useEffect(() => {
    if (zpl.getState().printer === null && documentPrinter && !documentPrinter.startsWith('site:'))
      void zpl.getState().setPrinter(documentPrinter);
  }, [zpl, documentPrinter]);

  if (!file) return null;
  const count = file.labels.length;
  const shown = file.labels[selected - 1];
  return (
    <div className="zpl-file">
      <section className="card" aria-labelledby="zpl-file-title">
        <div className="row">
          <h2 id="zpl-file-title">{file.fileName}</h2>
          <span className="field-hint">
            {count} label{count === 1 ? '' : 's'}
          </span>
          <button type="button" className="btn btn-link btn-small" onClick={() => zpl.getState().close()}>
            Close file
          </button>
        </div>
        {file.warnings.length > 0 && (
          <ul className="small" aria-label="About this file">
            {file.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
        <ul className="zpl-labels" aria-label="Labels in the file">
          {file.labels.map((l) => (
            <li key={l.number}>
              <button
                type="button"
                className={`btn btn-small ${l.number === selected ? 'btn-primary' : 'btn-secondary'}`}
                aria-pressed={l.number === selected}
                onClick={() => void zpl.getState().select(l.number)}
              >
                Label {l.number}
                <span className="field-hint">
                  {' '}
                  {l.size}
                  {l.summary ? ` · ${l.summary}` : ''}
                  {l.copies > 1 ? ` · ×${l.copies}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section className="card output" aria-labelledby="zpl-output-title">
        <h2 id="zpl-output-title" className="visually-hidden">
          Print the file
        </h2>
        <div className="field">
          <label className="field-label" htmlFor="zpl-printer">
            Printer
          </label>
          <select
            id="zpl-printer"
            value={printer ?? ''}
            onChange={(e) => void zpl.getState().setPrinter(e.target.value || null)}
          >
            <option value="">{printers.length ? 'Choose a printer' : 'No printers yet'}</option>
            {printers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="zpl-copies">
            Copies of the file
          </label>
          <input
            id="zpl-copies"
            type="number"
            min={1}
            max={1000}
            value={copies}
            onChange={(e) =>
              zpl.getState().setCopies(Math.min(1000, Math.max(1, Number(e.target.value) || 1)))
            }
          />
        </div>
        <label className="field field-inline">
          <input
            type="checkbox"
            checked={keepSettings}
            onChange={(e) => zpl.getState().setKeepSettings(e.target.checked)}
          />
          <span>Keep the file&apos;s printer settings (~SD ^MD ^PR ^MN…)</span>
        </label>
        {chosen && keepSettings !== saved && (
          <label className="field field-inline">
            <input
              type="checkbox"
              checked={remember}
              onChange={(e) => zpl.getState().setRemember(e.target.checked)}
            />
            <span>Remember for {chosen.name}</span>
          </label>
        )}
        {file.dpiMismatch && (
          <fieldset className="field">
            <legend className="field-label">
              Made for {file.dpiMismatch.fileDpi} dpi; the printer prints at {file.dpiMismatch.printerDpi} dpi
            </legend>
            <label className="field-inline">
              <input
                type="radio"
                name="zpl-dpi"
                checked={!asIs}
                onChange={() => zpl.getState().setAsIs(false)}
              />
              <span>Re-rasterise at {file.dpiMismatch.printerDpi} dpi (keeps the label&apos;s size)</span>
            </label>
            <label className="field-inline">
              <input
                type="radio"
                name="zpl-dpi"
                checked={asIs}
                onChange={() => zpl.getState().setAsIs(true)}
              />
              <span>
                Send as is (prints at {(file.dpiMismatch.fileDpi / file.dpiMismatch.printerDpi).toFixed(2)} ×
                its size)
              </span>
            </label>
          </fieldset>
        )}
        <div className="row">
          <button
            type="button"
            className="btn btn-primary btn-large"
            aria-disabled={printing || undefined}
            onClick={() => void zpl.getState().print()}
          >
            {printing ? 'Sending…' : `Print ${count * copies} label${count * copies === 1 ? '' : 's'}`}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void zpl.getState().export('pdf')}
          >
            Save PDF
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void zpl.getState().export('png')}
          >
            Export PNG of label {selected}
          </button>
        </div>
        {message && (
          <p role="status" className="small">
            {message}
          </p>
        )}
      </section>
      <section className="card preview" aria-labelledby="zpl-view-title">
        <h2 id="zpl-view-title">
          Label {selected} of {count}
          {shown ? ` · ${shown.size}` : ''}
        </h2>
        {raster ? (
          <>
            <img
              className="zpl-raster"
              src={raster.dataUrl}
              alt={`Printer view of label ${selected}: the dots at ${raster.dpi} dpi`}
              style={{ maxWidth: '100%', imageRendering: 'pixelated' }}
            />
            <p className="field-hint">
              {raster.dpi} dpi{raster.dpiAssumed ? ' (the printer’s dpi is not known yet: a guess)' : ''},{' '}
              {raster.widthDots} × {raster.heightDots} dots
            </p>
          </>
        ) : (
          <p className="field-hint">Drawing the label…</p>
        )}
      </section>
    </div>
  );
}

/** The file's error, where the Print screen shows its notices. */
export function ZplError() {
  const { zpl } = useStores();
  const error = useZpl((s) => s.error);
  if (!error) return null;
  return <ErrorNotice error={error} onDismiss={() => zpl.setState({ error: null })} />;
}
