/** The top bar: hosted/site/offline/local, prints used against the hosted allowance, the selected printer. */
import { describeConnection } from '../store/connection';
import { printingPrinter } from '../store/jobs';
import { useConnection, useDocument, useJobs, usePrinters, useStores } from '../store/stores-context';
import { Pill, StatusPill } from './status-pill';

const SCREEN_TITLES = {
  print: 'Print a label',
  design: 'Design a template',
  batch: 'Batch from a CSV file',
  history: 'History',
  settings: 'Printers & Settings',
} as const;

export function StatusBar({ screen }: { screen: keyof typeof SCREEN_TITLES }) {
  const { ui } = useStores();
  const status = useConnection((s) => s.status);
  const chosenId = useDocument((s) => s.printer);
  // What is printing now, when something is: a batch on another printer than the Print screen's choice.
  const printingId = useJobs((s) => printingPrinter(s.live));
  const printerId = printingId ?? chosenId;
  const printer = usePrinters(
    (s) => s.printers.find((p) => p.id === printerId) ?? s.sitePrinters.find((p) => p.id === printerId),
  );
  const printerStatus = usePrinters((s) => (printerId ? s.statuses[printerId] : undefined));
  const connection = describeConnection(status);
  const used = status && status.hosted !== 'unconfigured' ? status.printsUsed : null;

  return (
    <header className="statusbar">
      <h1 className="statusbar-title">{SCREEN_TITLES[screen]}</h1>
      <div className="statusbar-items">
        {connection.action === 'settings' ? (
          <button
            type="button"
            className="statusbar-item statusbar-action"
            title={status?.message ?? undefined}
            data-testid="connection"
            onClick={() => ui.getState().go('settings', status?.backend === 'site' ? 'site' : 'hosted')}
          >
            <Pill tone={connection.tone}>{connection.label}</Pill>
          </button>
        ) : (
          <span className="statusbar-item" title={status?.message ?? undefined} data-testid="connection">
            <Pill tone={connection.tone}>{connection.label}</Pill>
          </span>
        )}
        {used && (
          <span className="statusbar-item muted" data-testid="prints-used">
            {used.labels.toLocaleString()} {used.labels === 1 ? 'print' : 'prints'} used on the hosted API
          </span>
        )}
        <button
          type="button"
          className="statusbar-printer"
          onClick={() => ui.getState().go('settings', 'printers')}
          aria-label={
            printer
              ? `${printingId ? 'Printing on' : 'Selected printer'} ${printer.name}: open Printers`
              : 'No printer selected: open Printers'
          }
          data-testid="header-printer"
        >
          <span className="statusbar-printer-name">
            {printingId && <span className="muted small">Printing on </span>}
            {printer ? printer.name : 'No printer'}
          </span>
          {printer && <StatusPill status={printerStatus} testId="printer-status" />}
        </button>
      </div>
    </header>
  );
}
