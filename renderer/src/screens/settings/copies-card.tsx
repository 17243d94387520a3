/** Copies on the Print screen: above how many a print asks first, and whether copies stay after a print. */
import { useEffect, useState } from 'react';
import { MAX_COPIES } from '../../store/document';
import { useConnection, useStores } from '../../store/stores-context';

export function CopiesCard() {
  const { connection } = useStores();
  const threshold = useConnection((s) => s.settings?.confirmCopiesAbove ?? 50);
  const keep = useConnection((s) => s.settings?.keepCopiesAfterPrint ?? false);
  const [text, setText] = useState(String(threshold));
  useEffect(() => setText(String(threshold)), [threshold]);
  const n = Number(text.trim());
  const valid = /^\d+$/.test(text.trim()) && n <= MAX_COPIES;

  return (
    <section className="card" aria-labelledby="copies-title">
      <h2 id="copies-title">Copies</h2>
      <div className={`field field-inline${valid ? '' : ' field-invalid'}`}>
        <label className="field-label" htmlFor="confirm-copies-above">
          Ask before printing more than
        </label>
        <input
          id="confirm-copies-above"
          className="input-narrow"
          inputMode="numeric"
          value={text}
          aria-invalid={valid ? undefined : true}
          aria-describedby="confirm-copies-help"
          onChange={(e) => setText(e.target.value)}
          onBlur={() => {
            if (valid && n !== threshold) void connection.getState().save({ confirmCopiesAbove: n });
          }}
        />
        <span>copies</span>
      </div>
      <p id="confirm-copies-help" className={valid ? 'field-hint' : 'field-problem'}>
        {valid
          ? '0 never asks.'
          : `Ask before printing more than: type a whole number from 0 to ${MAX_COPIES}.`}
      </p>
      <label className="check">
        <input
          type="checkbox"
          checked={keep}
          onChange={(e) => void connection.getState().save({ keepCopiesAfterPrint: e.target.checked })}
        />
        Keep copies after printing (off: back to 1 after each print)
      </label>
    </section>
  );
}
