/** Copies, printer (with its live status) and the ways out: print, save PDF / ZPL, export SVG / PNG, system dialog. */
import { useEffect, useRef } from 'react';
import type { OutputFormat } from '../../../../src/ipc/contract';
import { StatusPill } from '../../components/status-pill';
import { blockedSentence, type Blocked } from '../../store/document';
import { OversizeQuestion } from '../../components/oversize-question';
import type { Oversize } from '../../../../src/outputs/fit';
import { useDocument, usePrinters, useStores, useUi } from '../../store/stores-context';

const EXPORTS: { format: OutputFormat; label: string }[] = [
  { format: 'pdf', label: 'Save PDF' },
  { format: 'zpl', label: 'Save ZPL' },
  { format: 'svg', label: 'Export SVG' },
  { format: 'png', label: 'Export PNG' },
];

export function OutputPanel() {
  const { document, ui } = useStores();
  const copiesText = useDocument((s) => s.copiesText);
  const copiesProblem = useDocument((s) => s.copiesProblem);
  const confirming = useDocument((s) => s.confirmingCopies);
  const confirmingCuts = useDocument((s) => s.confirmingCuts);
  const confirmingOversize = useDocument((s) => s.confirmingOversize);
  const printer = useDocument((s) => s.printer);
  const busy = useDocument((s) => s.busy);
  const blocked = useDocument((s) => s.blocked);
  const printBlocked = blocked && (blocked.action === 'print' || blocked.action === 'system-print');
  const ready = useDocument((s) => s.detail !== null);
  const printers = usePrinters((s) => s.printers);
  const sitePrinters = usePrinters((s) => s.sitePrinters);
  const status = usePrinters((s) => (printer ? s.statuses[printer] : undefined));
  const controlFocus = useUi((s) => s.controlFocus);
  const chosen = printers.find((p) => p.id === printer) ?? sitePrinters.find((p) => p.id === printer);
  const printerBox = useRef<HTMLSelectElement>(null);
  const copiesBox = useRef<HTMLInputElement>(null);
  const printButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const cutsButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (controlFocus?.target === 'printer') printerBox.current?.focus();
    if (controlFocus?.target === 'copies') copiesBox.current?.focus();
  }, [controlFocus]);

  // A large quantity waits for a yes: the cursor goes to it, so Enter confirms and Escape does not print.
  useEffect(() => {
    if (confirming !== null) confirmButton.current?.focus();
  }, [confirming]);

  // The same for a label that would print with text cut off: Enter prints it anyway, the other button edits.
  useEffect(() => {
    if (confirmingCuts !== null) cutsButton.current?.focus();
  }, [confirmingCuts]);

  /** Prints with the user's choice for a label wider than the printer, as the print asked about would have. */
  const printOversize = (oversize: Oversize) => {
    if (!confirmingOversize) return;
    const { confirmedCopies, refocus } = confirmingOversize;
    void document.getState().print({
      oversize,
      confirmedCuts: true,
      ...(confirmedCopies !== undefined ? { confirmedCopies } : {}),
      ...(refocus ? { refocus } : {}),
    });
    if (!refocus) printButton.current?.focus();
  };

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
            ref={printerBox}
            value={printer ?? ''}
            onChange={(e) => document.getState().choosePrinter(e.target.value || null)}
          >
            <option value="">
              {printers.length || sitePrinters.length ? 'Choose a printer' : 'No printers yet'}
            </option>
            {printers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            {sitePrinters.length > 0 && (
              // The site's printers print through the site server's print queue, not this computer's.
              <optgroup label="Site server printers">
                {sitePrinters.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} (site)
                  </option>
                ))}
              </optgroup>
            )}
          </select>
          {chosen && <StatusPill status={status} />}
        </div>
        {chosen && status && status.state !== 'ready' && <p className="field-hint">{status.message}</p>}
        {printers.length === 0 && sitePrinters.length === 0 && (
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
        <div className={`field field-copies${copiesProblem ? ' field-invalid' : ''}`}>
          <label className="field-label" htmlFor="copies-input">
            Copies
          </label>
          <input
            id="copies-input"
            ref={copiesBox}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={copiesText}
            aria-invalid={copiesProblem ? true : undefined}
            aria-describedby={copiesProblem ? 'copies-problem' : undefined}
            onChange={(e) => document.getState().setCopies(e.target.value)}
          />
        </div>
        <button
          ref={printButton}
          type="button"
          className="btn btn-primary btn-large"
          // Not `disabled` while sending: a disabled button drops the focus, and the next key goes nowhere.
          disabled={!ready}
          aria-disabled={busy !== null || undefined}
          onClick={() => void document.getState().print()}
          aria-keyshortcuts="Control+P"
          aria-describedby={printBlocked ? 'output-blocked' : undefined}
        >
          {busy === 'print' ? 'Sending…' : 'Print'}
          <span className="btn-shortcut" aria-hidden="true">
            Ctrl+P
          </span>
        </button>
      </div>
      {printBlocked && <BlockedNotice blocked={blocked} />}
      {copiesProblem && (
        <p className="field-problem" id="copies-problem">
          {copiesProblem}
        </p>
      )}
      {confirming !== null && (
        <div className="confirm-copies" role="alertdialog" aria-label={`Print ${confirming} copies?`}>
          <p className="small">
            Print {confirming} copies of this label on {chosen?.name ?? 'the printer'}?
          </p>
          <div className="row">
            <button
              ref={confirmButton}
              type="button"
              className="btn btn-primary btn-small"
              onClick={() => {
                void document.getState().print({ confirmedCopies: confirming });
                printButton.current?.focus();
              }}
            >
              Print {confirming} copies
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => {
                document.getState().cancelCopiesConfirm();
                copiesBox.current?.focus();
              }}
            >
              Change copies
            </button>
          </div>
        </div>
      )}
      {confirmingCuts !== null && (
        <div
          className="confirm-copies confirm-cuts"
          role="alertdialog"
          aria-label="Print with text cut off?"
          aria-describedby="confirm-cuts-text"
        >
          <div id="confirm-cuts-text" className="small">
            <p>This label would print with text cut off:</p>
            <ul>
              {confirmingCuts.cuts.map((c) => (
                <li key={`${c.field}:${c.message}`}>{c.message}</li>
              ))}
            </ul>
          </div>
          <div className="row">
            <button
              ref={cutsButton}
              type="button"
              className="btn btn-primary btn-small"
              onClick={() => {
                const state = document.getState();
                const { action, confirmedCopies, refocus } = confirmingCuts;
                if (action === 'print') {
                  void state.print({
                    confirmedCuts: true,
                    ...(confirmedCopies !== undefined ? { confirmedCopies } : {}),
                    ...(refocus ? { refocus } : {}),
                  });
                  // A print from the keyboard puts the cursor back on the first field (the scanner flow).
                  if (!refocus) printButton.current?.focus();
                } else void state.systemPrint({ confirmedCuts: true });
              }}
            >
              Print it cut
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => document.getState().cancelCutsConfirm()}
            >
              Shorten the text
            </button>
          </div>
        </div>
      )}
      {confirmingOversize !== null && (
        <OversizeQuestion
          fit={confirmingOversize.fit}
          printerName={chosen?.name ?? 'the printer'}
          onChoose={printOversize}
          onCancel={() => {
            document.getState().cancelOversizeConfirm();
            printButton.current?.focus();
          }}
        />
      )}
      <div className="export-row">
        {EXPORTS.map((e) => (
          <button
            key={e.format}
            type="button"
            className="btn btn-secondary btn-small"
            disabled={!ready || busy !== null}
            aria-describedby={blocked?.action === e.format ? 'output-blocked' : undefined}
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
      {blocked && !printBlocked && <BlockedNotice blocked={blocked} />}
    </section>
  );
}

/** Which field stopped the print or save, next to its button; the cursor is already in that field. */
function BlockedNotice({ blocked }: { blocked: Blocked }) {
  const { ui } = useStores();
  return (
    <p className="field-problem output-blocked" id="output-blocked" role="alert">
      {blockedSentence(blocked)}{' '}
      <button
        type="button"
        className="btn btn-link btn-small"
        onClick={() => ui.getState().focusField(blocked.field)}
      >
        Go to the field
      </button>
    </p>
  );
}
