/**
 * The Print screen (the default): template picker, the label's form with copies, printer and outputs, and
 * the live preview. Ctrl+P prints; the status bar shows the printer's status.
 */
import { useEffect, type DragEvent } from 'react';
import { PreviewPanel } from '../../preview/preview-panel';
import { useDocument, useStores, useZpl } from '../../store/stores-context';
import { ErrorNotice } from '../../components/error-notice';
import { FieldForm } from './field-form';
import { OutputPanel } from './output-panel';
import { TemplatePicker } from './template-picker';
import { OpenZplButton, ZplError, ZplFilePanel } from './zpl-file';

export function PrintScreen() {
  const { document, zpl } = useStores();
  const loadError = useDocument((s) => s.loadError);
  const zplOpen = useZpl((s) => s.file !== null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        // A held Ctrl+P repeats: one label, not one per repeat.
        if (e.repeat) return;
        if (zpl.getState().file) void zpl.getState().print();
        else void document.getState().print({ refocus: true });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [document, zpl]);

  // A ZPL file dropped anywhere on the screen opens as "Open ZPL…" would (read here, no path to main).
  const onDrop = (e: DragEvent) => {
    const file = e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    void zpl.getState().open(file);
  };
  const onDragOver = (e: DragEvent) => {
    if (e.dataTransfer.types.includes('Files')) e.preventDefault();
  };

  return (
    <div className="print-screen" onDrop={onDrop} onDragOver={onDragOver}>
      <div className="print-side">
        <div className="row zpl-open">
          <OpenZplButton />
        </div>
        {!zplOpen && <TemplatePicker />}
      </div>
      {zplOpen ? (
        <div className="print-middle print-zpl">
          <ZplError />
          <ZplFilePanel />
        </div>
      ) : (
        <>
          <div className="print-middle">
            <ZplError />
            {loadError && <ErrorNotice error={loadError} />}
            <FieldForm />
            <OutputPanel />
          </div>
          <PreviewPanel />
        </>
      )}
    </div>
  );
}
