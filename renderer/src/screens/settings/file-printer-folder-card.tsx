/**
 * Folder for file printers: "print to file" printers (`file://…`) write only into this folder. It is picked
 * in main's own folder dialog (the desktop app) or given at start (web mode: `--file-printer-folder DIR`),
 * never typed here: a page must not be able to point a printer at any file the user can write.
 */
import { ErrorNotice } from '../../components/error-notice';
import { useConnection, useStores } from '../../store/stores-context';

export function FilePrinterFolderCard() {
  const { connection } = useStores();
  const folder = useConnection((s) => s.settings?.filePrinterFolder ?? null);
  const shell = useConnection((s) => s.info?.shell);
  const error = useConnection((s) => s.folderError);

  return (
    <section className="card" aria-labelledby="file-folder-title" id="file-printers">
      <h2 id="file-folder-title">Folder for file printers</h2>
      <p className="muted">
        Print-to-file printers (file://…) write their label files into this folder only.
      </p>
      <p className={folder ? 'mono' : 'muted'} data-testid="file-printer-folder">
        {folder ?? 'No folder chosen: print-to-file printers cannot be added.'}
      </p>
      {shell === 'web' ? (
        <p className="muted small">
          Web mode has no folder dialog: {folder ? 'to change it, start' : 'start'} it with{' '}
          <span className="mono">--file-printer-folder DIR</span>.
        </p>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void connection.getState().chooseFilePrinterFolder()}
          >
            {folder ? 'Choose another folder…' : 'Choose folder…'}
          </button>
        </div>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  );
}
