/**
 * Printers: the list with live status, add / edit (name, URI, dpi, darkness, media type, speed, print mode),
 * calibrate, remove, discover.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type {
  NetworkScanProgress,
  NetworkScanView,
  PrinterInput,
  PrinterView,
} from '../../../../src/ipc/contract';
import { ErrorNotice } from '../../components/error-notice';
import { StatusPill } from '../../components/status-pill';
import { useConnection, usePrinters, useStores } from '../../store/stores-context';

interface Draft {
  id?: string;
  name: string;
  uri: string;
  dpi: string;
  darkness: string;
  /** '' = the printer's own setting. */
  mediaType: '' | NonNullable<PrinterInput['mediaType']>;
  printSpeed: string;
  printMode: '' | NonNullable<PrinterInput['printMode']>;
}

const EMPTY: Draft = {
  name: '',
  uri: '',
  dpi: '',
  darkness: '',
  mediaType: '',
  printSpeed: '',
  printMode: '',
};

const MEDIA_TYPES: [NonNullable<PrinterInput['mediaType']>, string][] = [
  ['gap', 'Labels with gaps (die-cut)'],
  ['mark', 'Labels with a black mark'],
  ['continuous', 'Continuous'],
];
const PRINT_MODES: [NonNullable<PrinterInput['printMode']>, string][] = [
  ['tear-off', 'Tear-off'],
  ['peel', 'Peel-off'],
  ['cutter', 'Cutter'],
  ['rewind', 'Rewind'],
];

const toDraft = (p: PrinterView): Draft => ({
  id: p.id,
  name: p.name,
  uri: p.uri,
  // A detected dpi stays the printer's to report: only a dpi a person set is shown as typed in.
  dpi: p.dpi && p.dpiSource === 'set' ? String(p.dpi) : '',
  darkness: p.darkness === null ? '' : String(p.darkness),
  mediaType: p.mediaType ?? '',
  printSpeed: p.printSpeed == null ? '' : String(p.printSpeed),
  printMode: p.printMode ?? '',
});

type DraftField = 'name' | 'uri' | 'dpi' | 'darkness' | 'mediaType' | 'printSpeed' | 'printMode';

const whole = (text: string) => /^\d+$/.test(text.trim());

/**
 * What is wrong with the form, by field, in sentences (our own messages, shown under each field, instead of the
 * browser's popups). Empty when it can be saved.
 */
export function draftProblems(d: Draft): Partial<Record<DraftField, string>> {
  const problems: Partial<Record<DraftField, string>> = {};
  if (!d.name.trim()) problems.name = 'Name: type a name people will recognise, such as "Dock Zebra".';
  if (!d.uri.trim())
    problems.uri = 'Address: type where the printer is, such as 10.0.0.5 or tcp://10.0.0.5:9100.';
  const dpi = d.dpi.trim();
  if (dpi && (!whole(dpi) || Number(dpi) < 100 || Number(dpi) > 1200)) {
    problems.dpi =
      'Resolution: type a whole number of dpi from 100 to 1200, or leave it empty to ask the printer.';
  }
  const darkness = d.darkness.trim();
  if (darkness && (!whole(darkness) || Number(darkness) > 30)) {
    problems.darkness =
      "Darkness: type a whole number from 0 to 30, or leave it empty for the printer's own.";
  }
  const speed = d.printSpeed.trim();
  if (speed && (!whole(speed) || Number(speed) < 1 || Number(speed) > 14)) {
    problems.printSpeed =
      "Print speed: type whole inches per second from 1 to 14, or leave it empty for the printer's own.";
  }
  return problems;
}

/**
 * The form's text → the request; blank dpi means "ask the printer", a blank printer setting (darkness, media,
 * speed, mode) "the printer's own" (null: nothing is sent for it).
 */
export function draftToInput(d: Draft): PrinterInput {
  return {
    ...(d.id ? { id: d.id } : {}),
    name: d.name.trim(),
    uri: d.uri.trim(),
    ...(d.dpi.trim() ? { dpi: Number(d.dpi) } : {}),
    darkness: d.darkness.trim() ? Number(d.darkness) : null,
    mediaType: d.mediaType || null,
    printSpeed: d.printSpeed.trim() ? Number(d.printSpeed) : null,
    printMode: d.printMode || null,
  };
}

/** The printer settings the profile sends, in words for the list. */
function settingsWords(p: PrinterView): string {
  const words: string[] = [];
  if (p.darkness !== null) words.push(`darkness ${p.darkness}`);
  const media = MEDIA_TYPES.find(([v]) => v === p.mediaType)?.[1];
  if (media) words.push(media.toLowerCase());
  if (p.printSpeed != null) words.push(`${p.printSpeed} in/s`);
  const mode = PRINT_MODES.find(([v]) => v === p.printMode)?.[1];
  if (mode) words.push(mode.toLowerCase());
  return words.map((w) => ` · ${w}`).join('');
}

export function PrintersCard({ highlight }: { highlight: boolean }) {
  const { printers, connection } = useStores();
  const list = usePrinters((s) => s.printers);
  const statuses = usePrinters((s) => s.statuses);
  const discovered = usePrinters((s) => s.discovered);
  const discoverProblems = usePrinters((s) => s.discoverProblems);
  const discovering = usePrinters((s) => s.discovering);
  const error = usePrinters((s) => s.error);
  const calibrations = usePrinters((s) => s.calibrations);
  const defaultPrinter = useConnection((s) => s.settings?.defaultPrinter ?? null);
  const [draft, setDraft] = useState<Draft | null>(null);
  // Problems show once Save was pressed, then follow the typing.
  const [checked, setChecked] = useState(false);
  const open = (next: Draft) => {
    setDraft(next);
    setChecked(false);
  };
  const [removing, setRemoving] = useState<string | null>(null);
  // Whether Discover has been asked in this visit: only then does an empty result say "No printers found".
  const [looked, setLooked] = useState(false);
  // The network scan panel: open once "Scan network" is pressed.
  const [scanOpen, setScanOpen] = useState(false);
  const scan = usePrinters((s) => s.scan);
  const scanned = usePrinters((s) => s.scanned);

  useEffect(
    () => printers.getState().watch(() => printers.getState().printers.map((p) => p.id), 4000),
    [printers],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setChecked(true);
    const problems = draftProblems(draft);
    const first = (['name', 'uri', 'dpi', 'darkness', 'printSpeed'] as const).find((f) => problems[f]);
    if (first) {
      window.document.getElementById(`printer-${first}`)?.focus();
      return;
    }
    const saved = await printers.getState().save(draftToInput(draft));
    if (saved) setDraft(null);
    else if (printers.getState().error?.field === 'uri')
      window.document.getElementById('printer-uri')?.focus();
  };

  return (
    <section
      className={`card${highlight ? ' card-highlight' : ''}`}
      aria-labelledby="printers-title"
      id="printers"
    >
      <div className="card-head">
        <h2 id="printers-title">Printers</h2>
        <span className="spacer" />
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={discovering}
          onClick={() => {
            setLooked(true);
            void printers.getState().discover();
          }}
        >
          {discovering ? 'Looking…' : 'Discover'}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          aria-expanded={scanOpen}
          onClick={() => setScanOpen(true)}
        >
          Scan network
        </button>
        <button type="button" className="btn btn-primary btn-small" onClick={() => open({ ...EMPTY })}>
          Add printer
        </button>
      </div>
      {scanOpen && (
        <NetworkScan
          scan={scan}
          scanned={scanned}
          problem={error?.field === 'range' ? error.message : null}
          onScan={(range, port) => void printers.getState().scanNetwork(range, port)}
          onCancel={() => void printers.getState().cancelScan()}
          onAdd={(name, uri) => open({ ...EMPTY, name, uri })}
          onClose={() => setScanOpen(false)}
        />
      )}
      {error && !(draft && error.field === 'uri') && !(scanOpen && error.field === 'range') && (
        <ErrorNotice error={error} />
      )}
      {list.length === 0 ? (
        <p className="muted empty">
          No printers yet. Add one by its address, or let LabelDesk discover them.
        </p>
      ) : (
        <ul className="printer-list">
          {list.map((p) => (
            <li key={p.id} className="printer-row">
              <div className="printer-main">
                <strong>{p.name}</strong>
                {p.id === defaultPrinter && <span className="tag">Default</span>}
                <div className="muted small">
                  {p.kind} · <span className="mono">{p.uri}</span>
                  {p.dpi ? ` · ${p.dpi} dpi ${p.dpiSource === 'set' ? 'set' : 'detected'}` : ''}
                  {settingsWords(p)} · {p.language === 'zpl' ? 'ZPL' : 'PDF'}
                </div>
                {statuses[p.id] && statuses[p.id]!.state !== 'ready' && (
                  <div className="small">{statuses[p.id]!.message}</div>
                )}
                {calibrations[p.id] && (
                  <div className="small" role="status" aria-label={`Calibration of ${p.name}`}>
                    {calibrations[p.id] === 'calibrating'
                      ? 'Calibrating: the printer feeds a few labels to measure them…'
                      : (calibrations[p.id] as { message: string }).message}
                  </div>
                )}
              </div>
              <StatusPill status={statuses[p.id]} />
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={`Edit ${p.name}`}
                onClick={() => open(toDraft(p))}
              >
                Edit
              </button>
              {p.language === 'zpl' && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-label={`Calibrate ${p.name}`}
                  title="The printer feeds a few labels to measure their length and set its media sensor"
                  disabled={calibrations[p.id] === 'calibrating'}
                  onClick={() => void printers.getState().calibrate(p.id)}
                >
                  Calibrate
                </button>
              )}
              {removing === p.id ? (
                <span className="confirm" role="group" aria-label={`Remove ${p.name}?`}>
                  <span className="small">Remove?</span>
                  <button
                    type="button"
                    className="btn btn-danger btn-small"
                    onClick={() => {
                      setRemoving(null);
                      void printers.getState().remove(p.id);
                    }}
                  >
                    Yes, remove
                  </button>
                  <button type="button" className="btn btn-ghost btn-small" onClick={() => setRemoving(null)}>
                    Keep
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="btn btn-ghost btn-small btn-danger-text"
                  aria-label={`Remove ${p.name}`}
                  onClick={() => setRemoving(p.id)}
                >
                  Remove
                </button>
              )}
              {p.id !== defaultPrinter && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-label={`Make ${p.name} the default printer`}
                  onClick={() => void connection.getState().save({ defaultPrinter: p.id })}
                >
                  Make default
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      {draft && (
        <PrinterForm
          draft={draft}
          problems={{
            ...(checked ? draftProblems(draft) : {}),
            // Main's word on the address (it parses it the one way the CLI and the printers file do).
            ...(error?.field === 'uri' ? { uri: error.message } : {}),
          }}
          onChange={setDraft}
          onSubmit={(e) => void submit(e)}
          onCancel={() => {
            setDraft(null);
            setChecked(false);
          }}
        />
      )}

      {(discovered.length > 0 || discoverProblems.length > 0 || (looked && !discovering)) && (
        <div className="discovered">
          <h3>Found on this computer</h3>
          {discovered.length === 0 && !discovering && (
            <p className="muted small">
              No printers found on this computer (USB, serial ports, CUPS queues). Add a network printer by
              its address, such as tcp://10.0.0.5:9100.
            </p>
          )}
          <ul className="printer-list">
            {discovered.map((d) => (
              <li key={d.uri} className="printer-row">
                <div className="printer-main">
                  <strong>{d.name}</strong>
                  <div className="muted small">
                    {d.source} · <span className="mono">{d.uri}</span>
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`Add ${d.name}`}
                  onClick={() => open({ ...EMPTY, name: d.name, uri: d.uri })}
                >
                  Add
                </button>
              </li>
            ))}
          </ul>
          {discoverProblems.map((p) => (
            <p key={p} className="muted small">
              {p}
            </p>
          ))}
        </div>
      )}
    </section>
  );
}

function PrinterForm({
  draft,
  problems,
  onChange,
  onSubmit,
  onCancel,
}: {
  draft: Draft;
  problems: Partial<Record<DraftField, string>>;
  onChange(draft: Draft): void;
  onSubmit(e: FormEvent): void;
  onCancel(): void;
}) {
  /** The input's wiring: its id, its problem under it, and the problem's link for screen readers. */
  const wire = (field: DraftField) => ({
    id: `printer-${field}`,
    value: draft[field],
    'aria-invalid': problems[field] ? true : undefined,
    'aria-describedby': problems[field] ? `printer-${field}-problem` : undefined,
    onChange: (e: { target: { value: string } }) => onChange({ ...draft, [field]: e.target.value }),
  });
  const problem = (field: DraftField) =>
    problems[field] && (
      <span className="field-problem" id={`printer-${field}-problem`}>
        {problems[field]}
      </span>
    );
  const cls = (field: DraftField) => `field${problems[field] ? ' field-invalid' : ''}`;
  return (
    <form
      className="printer-form"
      onSubmit={onSubmit}
      noValidate
      aria-label={draft.id ? 'Edit printer' : 'Add printer'}
    >
      <h3>{draft.id ? `Edit ${draft.name || 'printer'}` : 'Add a printer'}</h3>
      <div className="grid-2">
        <label className={cls('name')}>
          <span className="field-label">Name</span>
          <input {...wire('name')} aria-required autoFocus />
          {problem('name')}
        </label>
        <label className={cls('uri')}>
          <span className="field-label">Address (URI)</span>
          <input {...wire('uri')} aria-required className="mono" placeholder="192.168.1.50" />
          {problem('uri')}
          <span className="field-hint">
            host or host:port (network, port 9100) · usb://0a5f:0181 · serial:///dev/ttyUSB0?baud=9600 · COM3
            · cups://Queue
          </span>
        </label>
        <label className={cls('dpi')}>
          <span className="field-label">Resolution (dpi)</span>
          <input {...wire('dpi')} inputMode="numeric" placeholder="Ask the printer" />
          {problem('dpi')}
        </label>
        <label className={cls('darkness')}>
          <span className="field-label">Darkness (0–30)</span>
          <input {...wire('darkness')} inputMode="numeric" placeholder="Printer’s own" />
          {problem('darkness')}
        </label>
        <label className={cls('mediaType')}>
          <span className="field-label">Media type</span>
          <select {...wire('mediaType')}>
            <option value="">Printer’s own</option>
            {MEDIA_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className={cls('printSpeed')}>
          <span className="field-label">Print speed (in/s, 1–14)</span>
          <input {...wire('printSpeed')} inputMode="numeric" placeholder="Printer’s own" />
          {problem('printSpeed')}
        </label>
        <label className={cls('printMode')}>
          <span className="field-label">Print mode</span>
          <select {...wire('printMode')}>
            <option value="">Printer’s own</option>
            {PRINT_MODES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="row">
        <button type="submit" className="btn btn-primary">
          Save printer
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * "Scan network": port 9100 of this computer's network (or the addresses typed), with progress and a Stop; each
 * printer that answers is listed with its model and dpi, to add in one click.
 */
function NetworkScan({
  scan,
  scanned,
  problem,
  onScan,
  onCancel,
  onAdd,
  onClose,
}: {
  scan: NetworkScanProgress | null;
  scanned: NetworkScanView | null;
  problem: string | null;
  onScan(range: string, port: number | undefined): void;
  onCancel(): void;
  onAdd(name: string, uri: string): void;
  onClose(): void;
}) {
  const [range, setRange] = useState('');
  const [port, setPort] = useState('9100');
  const portNumber = /^\d{1,5}$/.test(port.trim()) ? Number(port) : NaN;
  const portProblem =
    portNumber >= 1 && portNumber <= 65535
      ? null
      : 'Port: type a whole number from 1 to 65535, such as 9100.';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (scan || portProblem) return;
    onScan(range, portNumber);
  };
  return (
    <form className="printer-form" aria-label="Scan network" onSubmit={submit} noValidate>
      <h3>Scan the network for printers</h3>
      <div className="grid-2">
        <label className={`field${problem ? ' field-invalid' : ''}`}>
          <span className="field-label">Addresses</span>
          <input
            id="scan-range"
            className="mono"
            value={range}
            placeholder="This computer’s network"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'scan-range-problem' : undefined}
            onChange={(e) => setRange(e.target.value)}
          />
          {problem && (
            <span className="field-problem" id="scan-range-problem">
              {problem}
            </span>
          )}
          <span className="field-hint">Empty: the /24 around this computer · 192.168.1.0/24 · 10.0.0.5</span>
        </label>
        <label className={`field${portProblem ? ' field-invalid' : ''}`}>
          <span className="field-label">Port</span>
          <input
            value={port}
            inputMode="numeric"
            aria-invalid={portProblem ? true : undefined}
            onChange={(e) => setPort(e.target.value)}
          />
          {portProblem && <span className="field-problem">{portProblem}</span>}
        </label>
      </div>
      {scan && (
        <div role="status" aria-label="Network scan progress">
          <progress max={scan.total || 1} value={scan.probed} aria-label="Addresses scanned" />{' '}
          <span className="small">
            {scan.total
              ? `Scanned ${scan.probed} of ${scan.total} addresses · ${scan.found} printer${scan.found === 1 ? '' : 's'} found`
              : 'Starting…'}
          </span>
        </div>
      )}
      {scanned && !scan && (
        <div role="status" aria-label="Network scan result">
          <p className="small">
            {scanned.stopped === 'cancelled'
              ? `Stopped after ${scanned.probed} of ${scanned.total} addresses. `
              : scanned.stopped === 'budget'
                ? `Ran out of time after ${scanned.probed} of ${scanned.total} addresses. `
                : `Scanned ${scanned.total} addresses. `}
            {scanned.printers.length === 0
              ? 'No printer answered on that port.'
              : `${scanned.printers.length} printer${scanned.printers.length === 1 ? '' : 's'} found.`}
          </p>
          <ul className="printer-list">
            {scanned.printers.map((d) => (
              <li key={d.uri} className="printer-row">
                <div className="printer-main">
                  <strong>{d.name}</strong>
                  <div className="muted small mono">{d.uri}</div>
                </div>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`Add ${d.name}`}
                  onClick={() => onAdd(d.name, d.uri)}
                >
                  Add
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="row">
        {scan ? (
          <button type="button" className="btn btn-danger" onClick={onCancel}>
            Stop scan
          </button>
        ) : (
          <button type="submit" className="btn btn-primary">
            Scan
          </button>
        )}
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={scan !== null}>
          Close
        </button>
      </div>
    </form>
  );
}
