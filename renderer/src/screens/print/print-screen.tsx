/**
 * The Print screen (the default): template picker, the label's form with copies, printer and outputs, and
 * the live preview. Ctrl+P prints; the status bar shows the printer's status.
 */
import { useEffect } from 'react';
import { PreviewPanel } from '../../preview/preview-panel';
import { useDocument, useStores } from '../../store/stores-context';
import { ErrorNotice } from '../../components/error-notice';
import { FieldForm } from './field-form';
import { OutputPanel } from './output-panel';
import { TemplatePicker } from './template-picker';

export function PrintScreen() {
  const { document } = useStores();
  const loadError = useDocument((s) => s.loadError);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        // A held Ctrl+P repeats: one label, not one per repeat.
        if (e.repeat) return;
        void document.getState().print({ refocus: true });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [document]);

  return (
    <div className="print-screen">
      <TemplatePicker />
      <div className="print-middle">
        {loadError && <ErrorNotice error={loadError} />}
        <FieldForm />
        <OutputPanel />
      </div>
      <PreviewPanel />
    </div>
  );
}
