/** Copies, printer (with its live status) and the ways out: print, save PDF / ZPL, export SVG / PNG, system dialog. */
import { useEffect, useState } from 'react';
import type { OutputFormat } from '../../../../src/ipc/contract';
import { StatusPill } from '../../components/status-pill';
import { MAX_COPIES, clampCopies } from '../../store/document';
import { useDocument, usePrinters, useStores } from '../../store/stores-context';

const EXPORTS: { format: OutputFormat; label: string }[] = [
  { format: 'pdf', label: 'Save PDF' },
  { format: 'zpl', label: 'Save ZPL' },
  { format: 'svg', label: 'Export SVG' },
  { format: 'png', label: 'Export PNG' },
];

export function OutputPanel() {
  const { document, ui } = useStores();
  const copies = useDocument((s) => s.copies);
  const printer = useDocument((s) => s.printer);
  const busy = useDocument((s) => s.busy);
  const ready = useDocument((s) => s.detail !== null);
  const printers = usePrinters((s) => s.printers);
  const status = usePrinters((s) => (printer ? s.statuses[printer] : undefined));
  const chosen = printers.find((p) => p.id === printer);

  return (
    <section className="card output" aria-labelledby="output-title">
      <h2 id="output-title" className="visually-hidden">
        Output
      </h2>
      <div className="field field-printer">
        <label className="field-label" htmlFor="printer-select">
          Printer
        </label>
        <div className="printer-pick">
          <select
            id="printer-select"
            value={printer ?? ''}
            onChange={(e) => document.getState().setPrinter(e.target.value || null)}
          >
            <option value="">{printers.length ? 'Choose a printer' : 'No printers yet'}</option>
            {printers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          {chosen && <StatusPill status={status} />}
        </div>
        {chosen && status && status.state !== 'ready' && <p className="field-hint">{status.message}</p>}
        {printers.length === 0 && (
          <button
            type="button"
            className="btn btn-link btn-small"
            onClick={() => ui.getState().go('settings', 'printers')}
          >
            Add a printer
          </button>
        )}
      </div>
      <div className="output-row">
        <CopiesInput copies={copies} onCommit={(n) => document.getState().setCopies(n)} />
        <button
          type="button"
          className="btn btn-primary btn-large"
          disabled={!ready || busy !== null}
          onClick={() => void document.getState().print()}
          aria-keyshortcuts="Control+P"
        >
          {busy === 'print' ? 'Sending…' : 'Print'}
        </button>
      </div>
      <p className="shortcut-hint muted small" aria-hidden="true">
        Ctrl+P
      </p>
      <div className="export-row">
        {EXPORTS.map((e) => (
          <button
            key={e.format}
            type="button"
            className="btn btn-secondary btn-small"
            disabled={!ready || busy !== null}
            onClick={() => void document.getState().exportAs(e.format)}
          >
            {busy === e.format ? 'Saving…' : e.label}
          </button>
        ))}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={!ready || busy !== null}
          onClick={() => void document.getState().systemPrint()}
        >
          System print dialog…
        </button>
      </div>
    </section>
  );
}

/** Copies as typed: the store gets each valid number at once and a clamped one when the input is left. */
function CopiesInput({ copies, onCommit }: { copies: number; onCommit(copies: number): void }) {
  const [text, setText] = useState(String(copies));
  useEffect(() => setText(String(copies)), [copies]);
  return (
    <label className="field field-copies">
      <span className="field-label">Copies</span>
      <input
        type="number"
        min={1}
        max={MAX_COPIES}
        step={1}
        inputMode="numeric"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = Number(e.target.value);
          if (e.target.value !== '' && Number.isInteger(n) && n >= 1 && n <= MAX_COPIES) onCommit(n);
        }}
        onBlur={() => {
          const n = clampCopies(Number(text));
          onCommit(n);
          setText(String(n));
        }}
      />
    </label>
  );
}
