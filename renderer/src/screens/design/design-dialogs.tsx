/**
 * The designer's dialogs, each a modal <dialog> (focus kept inside, Escape cancels): a new template (a preset
 * or a size of its own, the unit, the printer resolution the grid follows, a name), open one (a user template
 * opens as it is; a bundled or captured one is copied under a name asked for first, as those stay read-only), and
 * what to do with unsaved changes.
 */
import { useState, type FormEvent } from 'react';
import type { TemplateRef, TemplateSummary } from '../../../../src/ipc/contract';
import { templateFileNameProblem } from '../../../../src/model/template-name';
import { ErrorNotice } from '../../components/error-notice';
import { Modal } from '../../components/modal';
import {
  DESIGN_DPIS,
  DESIGN_UNITS,
  LABEL_PRESETS,
  type DesignDpi,
  type DesignUnit,
  type NewDesign,
} from '../../design/design-document';
import { useCatalog, useDesign } from '../../store/stores-context';

/** A name no template in the catalogue has: `base`, `base-2`… */
export function freeName(base: string, templates: readonly TemplateSummary[]): string {
  const taken = new Set(templates.map((t) => t.ref.name));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

export function NewTemplateDialog({ onClose }: { onClose(spec: NewDesign | null): void }) {
  const templates = useCatalog((s) => s.templates);
  const [name, setName] = useState(() => freeName('my-label', templates));
  const [preset, setPreset] = useState<string>('4x6');
  const [unit, setUnit] = useState<DesignUnit>('in');
  const [dpi, setDpi] = useState<DesignDpi>(203);
  const [width, setWidth] = useState('4');
  const [height, setHeight] = useState('2');
  const nameProblem = newNameProblem(name.trim(), templates);
  const w = Number(width.replace(',', '.'));
  const h = Number(height.replace(',', '.'));
  const sizeProblem = preset === 'custom' && !(w > 0 && h > 0) ? 'Type a width and a height above 0.' : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (nameProblem || sizeProblem) return;
    onClose({
      name: name.trim(),
      size: preset === 'custom' ? { width: w, height: h } : preset,
      unit,
      dpi,
    });
  };

  return (
    <Modal title="New template" titleId="new-template-title" onCancel={() => onClose(null)}>
      <form onSubmit={submit} noValidate>
        <div className={`field${nameProblem ? ' field-invalid' : ''}`}>
          <label className="field-label" htmlFor="new-template-name">
            Name
          </label>
          <input
            id="new-template-name"
            value={name}
            autoFocus
            aria-invalid={nameProblem ? true : undefined}
            aria-describedby={nameProblem ? 'new-template-name-problem' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {nameProblem && (
            <span className="field-problem" id="new-template-name-problem">
              {nameProblem}
            </span>
          )}
        </div>
        <label className="field">
          <span className="field-label">Label size</span>
          <select value={preset} onChange={(e) => setPreset(e.target.value)}>
            {LABEL_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title}
              </option>
            ))}
            <option value="custom">Custom size…</option>
          </select>
        </label>
        {preset === 'custom' && (
          <div className="row">
            <label className="field field-grow">
              <span className="field-label">Width ({unit})</span>
              <input inputMode="decimal" value={width} onChange={(e) => setWidth(e.target.value)} />
            </label>
            <label className="field field-grow">
              <span className="field-label">Height ({unit})</span>
              <input inputMode="decimal" value={height} onChange={(e) => setHeight(e.target.value)} />
            </label>
          </div>
        )}
        {sizeProblem && <p className="field-problem">{sizeProblem}</p>}
        <div className="row">
          <label className="field field-grow">
            <span className="field-label">Unit</span>
            <select value={unit} onChange={(e) => setUnit(e.target.value as DesignUnit)}>
              {DESIGN_UNITS.map((u) => (
                <option key={u} value={u}>
                  {u === 'in' ? 'inches' : 'millimetres'}
                </option>
              ))}
            </select>
          </label>
          <label className="field field-grow">
            <span className="field-label">Printer resolution</span>
            <select value={dpi} onChange={(e) => setDpi(Number(e.target.value) as DesignDpi)}>
              {DESIGN_DPIS.map((d) => (
                <option key={d} value={d}>
                  {d} dpi
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => onClose(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary">
            Create
          </button>
        </div>
      </form>
    </Modal>
  );
}

export interface OpenChoice {
  ref: TemplateRef;
  /** For a bundled or captured template: the name of the copy to edit. */
  copyName?: string;
}

/** The problem of a new template name: not a file name on every OS, or a name a template has already. */
function newNameProblem(name: string, templates: readonly TemplateSummary[]): string | null {
  return (
    templateFileNameProblem(name) ??
    (templates.some((t) => t.ref.name === name) ? `A template is already called "${name}".` : null)
  );
}

export function OpenTemplateDialog({ onClose }: { onClose(choice: OpenChoice | null): void }) {
  const templates = useCatalog((s) => s.templates);
  const busy = useDesign((s) => s.busy);
  const error = useDesign((s) => s.error);
  const [picked, setPicked] = useState(0);
  // A bundled or captured template chosen: its copy's name is asked next (Escape comes back here).
  const [naming, setNaming] = useState(false);
  const chosen = templates[picked];
  const readOnly = chosen !== undefined && chosen.ref.source !== 'user';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    if (readOnly) setNaming(true);
    else onClose({ ref: chosen.ref });
  };

  if (naming && chosen)
    return (
      <NameCopyDialog
        original={chosen}
        onClose={(name) => {
          if (name === null) setNaming(false);
          else onClose({ ref: chosen.ref, copyName: name });
        }}
      />
    );

  return (
    <Modal title="Open a template" titleId="open-template-title" onCancel={() => onClose(null)}>
      <form onSubmit={submit} noValidate>
        <label className="field">
          <span className="field-label">Template</span>
          <select value={picked} autoFocus onChange={(e) => setPicked(Number(e.target.value))}>
            {templates.map((t, i) => (
              <option key={`${t.ref.source}/${t.ref.name}`} value={i}>
                {t.ref.name} ({t.ref.source}, {t.size})
              </option>
            ))}
          </select>
        </label>
        {readOnly && (
          <p className="muted">
            A {chosen.ref.source} template stays as it is: LabelDesk copies it into your templates under a
            name you choose next, and you edit the copy.
          </p>
        )}
        {error && <ErrorNotice error={error} />}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => onClose(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!chosen || busy}>
            {readOnly ? 'Open a copy…' : 'Open'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * The name of the copy of a bundled or captured template: proposed (`name-copy`, or `-2`… when taken), editable,
 * checked as any template name; Enter accepts, Escape goes back (null).
 */
function NameCopyDialog({
  original,
  onClose,
}: {
  original: TemplateSummary;
  onClose(name: string | null): void;
}) {
  const templates = useCatalog((s) => s.templates);
  const busy = useDesign((s) => s.busy);
  const error = useDesign((s) => s.error);
  const [name, setName] = useState(() => freeName(`${original.ref.name}-copy`, templates));
  const problem = newNameProblem(name.trim(), templates);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) onClose(name.trim());
  };
  return (
    <Modal title="Name the copy" titleId="name-copy-title" onCancel={() => onClose(null)}>
      <form onSubmit={submit} noValidate>
        <p className="muted">
          “{original.ref.name}” is a {original.ref.source} template and stays as it is. LabelDesk copies it
          into your templates under this name, and you edit the copy.
        </p>
        <div className={`field${problem ? ' field-invalid' : ''}`}>
          <label className="field-label" htmlFor="copy-name">
            Name of the copy
          </label>
          <input
            id="copy-name"
            value={name}
            autoFocus
            onFocus={(e) => e.target.select()}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'copy-name-problem' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {problem && (
            <span className="field-problem" id="copy-name-problem">
              {problem}
            </span>
          )}
        </div>
        {error && <ErrorNotice error={error} />}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => onClose(null)}>
            Back
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || problem !== null}>
            Copy and open
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Unsaved changes: save them, throw them away, or stay. */
export function UnsavedDialog({
  name,
  onChoose,
}: {
  name: string;
  onChoose(choice: 'save' | 'discard' | 'cancel'): void;
}) {
  return (
    <Modal title="Unsaved changes" titleId="unsaved-title" onCancel={() => onChoose('cancel')}>
      <p>“{name}” has changes that are not saved.</p>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={() => onChoose('cancel')}>
          Keep editing
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-danger-text"
          onClick={() => onChoose('discard')}
        >
          Discard changes
        </button>
        <button type="button" className="btn btn-primary" autoFocus onClick={() => onChoose('save')}>
          Save
        </button>
      </div>
    </Modal>
  );
}

/** The user's folder has a template of that name: replace it? */
export function ReplaceDialog({ name, onChoose }: { name: string; onChoose(replace: boolean): void }) {
  return (
    <Modal title="Replace the template?" titleId="replace-title" onCancel={() => onChoose(false)}>
      <p>
        Your templates already have one called “{name}”. Saving replaces it (its current version is kept).
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" autoFocus onClick={() => onChoose(false)}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={() => onChoose(true)}>
          Replace
        </button>
      </div>
    </Modal>
  );
}
