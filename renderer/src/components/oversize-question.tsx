/**
 * The question before printing a label wider than the printer's head (#42 item 1): scale to fit, rotate (when
 * turned it fits), print it cut, or cancel. An alert dialog in the page's flow: the first choice takes the
 * cursor, Tab moves between the choices, Enter picks one, Escape cancels. The Print screen and Batch ask it.
 */
import { useEffect, useRef } from 'react';
import type { PrintFit } from '../../../src/ipc/contract';
import type { Oversize } from '../../../src/outputs/fit';

export function OversizeQuestion({
  fit,
  printerName,
  onChoose,
  onCancel,
}: {
  fit: PrintFit;
  printerName: string;
  onChoose: (choice: Oversize) => void;
  onCancel: () => void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), [fit]);
  return (
    <div
      className="confirm-copies confirm-cuts confirm-oversize"
      role="alertdialog"
      aria-label="Label wider than the printer"
      aria-describedby="confirm-oversize-text"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        onCancel();
      }}
    >
      <div id="confirm-oversize-text" className="small">
        <p>
          {fit.problem} ({printerName}). Printed as it is, {fit.cut} would not print.
        </p>
      </div>
      <div className="row">
        <button
          ref={first}
          type="button"
          className="btn btn-primary btn-small"
          onClick={() => onChoose('fit')}
        >
          Scale to fit ({fit.fitPercent} %)
        </button>
        {fit.rotates && (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => onChoose('rotate')}>
            Rotate 90°
          </button>
        )}
        <button type="button" className="btn btn-secondary btn-small" onClick={() => onChoose('cut')}>
          Print it cut
        </button>
        <button type="button" className="btn btn-secondary btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
