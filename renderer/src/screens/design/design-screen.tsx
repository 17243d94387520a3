/**
 * The Design screen (issue #22): make and edit templates. A toolbar (New, Open, Import, Save, Export, Test
 * print, Undo, Redo, zoom, the printer view), the palette and the list of elements on the left, the canvas in the middle (drawn from the
 * Scene the preview engine makes of the document, so it is the label as printed), the selection's
 * properties and the fields on the right. The design store owns the document and one history of every
 * change; the canvas only sends edits. Keys: arrows move the selection one dot (Shift: ten), Delete,
 * Ctrl+C/X/V/D/A, Ctrl+Z and Ctrl+Shift+Z or Ctrl+Y, Ctrl+S, Ctrl+plus/minus zoom (Ctrl+0 fits), Escape; Space-drag pans. Leaving the screen or opening another
 * template with unsaved changes asks first.
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TemplateProblemView } from '../../../../src/ipc/contract';
import { applyWirePreview, MissingBaseScene } from '../../../../src/ipc/wire-preview';
import { toUserError } from '../../ipc/user-error';
import { notdefLines, sceneText } from '../../preview/scene-text';
import type { WireScene } from '../../../../src/ipc/wire-scene';
import { ELEMENT_TYPES, type Element } from '../../../../src/model/elements';
import type { Template } from '../../../../src/model/schema';
import { ErrorNotice } from '../../components/error-notice';
import { ZoomStepper } from '../../components/zoom-stepper';
import { downloadFile } from '../../lib/download';
import { useSize } from '../../lib/use-size';
import type { NewDesign } from '../../design/design-document';
import { freeSpot } from '../../design/free-spot';
import { labelBox, type Alignment, type ZOrder } from '../../design/operations';
import { mergeProblems, templateProblems } from '../../design/problems';
import { barcodeCanvasProblems, designStandIns } from '../../design/design-values';
import { sceneToKonva, type KonvaLabel } from '../../preview/scene-to-konva';
import { useDesign, useDocument, useStores } from '../../store/stores-context';
import { stepZoom, type Screen } from '../../store/ui';
import {
  NewTemplateDialog,
  OpenTemplateDialog,
  ReplaceDialog,
  UnsavedDialog,
  type OpenChoice,
} from './design-dialogs';
import { FieldsPanel } from './fields-panel';
import { ImportTemplateDialog } from './import-dialog';
import { useSpacePan } from './use-space-pan';
import { KIND_NAMES, PropertiesPanel } from './properties-panel';
import { RULER } from './design-canvas-constants';

const DesignCanvas = lazy(() => import('./design-canvas'));

/** Room around the label when it is fitted, in CSS px (the rulers included). */
const FIT_MARGIN = RULER + 48;

const NO_PROBLEMS: readonly TemplateProblemView[] = [];

type Pending = { kind: 'leave'; to: Screen } | { kind: 'new' } | { kind: 'open' } | { kind: 'import' };
type Dialog = 'new' | 'open' | 'import' | null;

/**
 * The document drawn by the renderer's preview engine with no values typed (each field's placeholder prints;
 * a field with none is drawn as `{name}`: design-values.ts), redrawn on every change; only what changed since the last scene is handed over. What the page cannot draw
 * (its fonts still loading, text only a fallback or user font has, an image by address) main draws instead.
 */
function useDesignScene(template: Template | undefined): {
  label: KonvaLabel | null;
  note: string | null;
  /** The text lines drawn and how many draw `.notdef` (the canvas's data-lines / data-notdef, for tests). */
  lines: string;
  notdef: number;
} {
  const { previewEngine, api } = useStores();
  const [label, setLabel] = useState<KonvaLabel | null>(null);
  const [drawn, setDrawn] = useState<{ lines: string; notdef: number }>({ lines: '', notdef: 0 });
  const [note, setNote] = useState<string | null>(null);
  const held = useRef<{ id: string; scene: WireScene } | null>(null);
  useEffect(() => {
    if (!template) {
      setLabel(null);
      return;
    }
    if (!previewEngine) {
      setNote('The preview is not available here.');
      return;
    }
    let live = true;
    const values = designStandIns(template);
    const run = async (): Promise<void> => {
      const since = held.current?.id;
      let result = await previewEngine.preview({ template, values, ...(since ? { since } : {}) });
      if (!live) return;
      if (!result) {
        // The page cannot draw it (yet): main's whole scene, which the next page scene cannot build on.
        held.current = null;
        try {
          result = await api.invoke('preview.templateScene', { template, values });
        } catch (e) {
          if (live) setNote(`This label cannot be drawn: ${toUserError(e).message}`);
          return;
        }
        if (!live) return;
      }
      let scene: WireScene;
      try {
        scene = applyWirePreview(result.scene, result.scene.base ? held.current?.scene : undefined);
      } catch (e) {
        if (!(e instanceof MissingBaseScene)) throw e;
        held.current = null;
        return run();
      }
      if (result.scene.id) held.current = { id: result.scene.id, scene };
      setLabel(sceneToKonva(scene));
      setDrawn({ lines: sceneText(scene).join('\n'), notdef: notdefLines(scene) });
      setNote(null);
    };
    void run();
    return () => {
      live = false;
    };
  }, [template, previewEngine, api]);
  return { label, note, ...drawn };
}

/** Keys typed into these are theirs (text, numbers, choices), not the canvas's. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  return (
    target instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
  );
}

/** What the elements list calls an element: its kind, number, and what it says. */
function elementName(el: Element, index: number): string {
  const what = el.type === 'text' || el.type === 'barcode' ? el.text : el.type === 'rfid' ? el.epc : '';
  const short = what.length > 24 ? `${what.slice(0, 23)}…` : what;
  return `${KIND_NAMES[el.type]} ${index + 1}${short ? `: ${short}` : ''}`;
}

const ALIGN_BUTTONS: { to: Alignment; label: string }[] = [
  { to: 'left', label: 'Align left' },
  { to: 'centre', label: 'Align centres' },
  { to: 'right', label: 'Align right' },
  { to: 'top', label: 'Align top' },
  { to: 'middle', label: 'Align middles' },
  { to: 'bottom', label: 'Align bottom' },
];

const ORDER_BUTTONS: { to: ZOrder; label: string }[] = [
  { to: 'front', label: 'Bring to front' },
  { to: 'forward', label: 'Bring forward' },
  { to: 'backward', label: 'Send backward' },
  { to: 'back', label: 'Send to back' },
];

export function DesignScreen() {
  const { design, ui, catalog, jobs } = useStores();
  const printer = useDocument((s) => s.printer);
  const savedAs = useDesign((s) => s.savedAs);
  const doc = useDesign((s) => s.doc);
  const selection = useDesign((s) => s.selection);
  const dirty = useDesign((s) => s.dirty);
  const canUndo = useDesign((s) => s.past.length > 0);
  const canRedo = useDesign((s) => s.future.length > 0);
  const busy = useDesign((s) => s.busy);
  // What the last save found, while the document is the one it was about.
  const savedProblems = useDesign((s) =>
    s.doc && s.problemsFor === s.doc.template ? s.problems : NO_PROBLEMS,
  );
  const error = useDesign((s) => s.error);
  const raster = useDesign((s) => s.raster);
  const rasterError = useDesign((s) => s.rasterError);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [replacing, setReplacing] = useState(false);
  const [zoom, setZoom] = useState<'fit' | number>('fit');
  const [printerView, setPrinterView] = useState(false);
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const canvasBox = useRef<HTMLDivElement>(null);
  const size = useSize(canvasBox, doc !== null);
  useSpacePan(canvasBox, doc !== null);

  const template = doc?.template;
  const { label, note, lines, notdef } = useDesignScene(template);
  const schemaProblems = useMemo(
    () => mergeProblems(template ? templateProblems(template) : [], savedProblems),
    [template, savedProblems],
  );
  // Barcodes the canvas cannot draw: not in the way of a save (a value typed at print may be right), but named.
  const barcodes = useMemo(
    () => (template ? barcodeCanvasProblems(template) : { problems: [], notes: new Map<number, string>() }),
    [template],
  );
  const problems = useMemo(
    () => mergeProblems(schemaProblems, barcodes.problems),
    [schemaProblems, barcodes],
  );
  const problemElements = useMemo(
    () => new Set(problems.flatMap((p) => (p.element === null ? [] : [p.element]))),
    [problems],
  );

  useEffect(() => {
    void catalog.getState().load();
  }, [catalog]);

  // Unsaved changes are asked about before another screen shows (and before the window goes).
  useEffect(() => {
    ui.getState().setLeaveGuard((to) => {
      if (!design.getState().dirty) return true;
      setPending({ kind: 'leave', to });
      return false;
    });
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (design.getState().dirty) e.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      ui.getState().setLeaveGuard(null);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [ui, design]);

  // The printer view follows every change (the latest answer wins).
  useEffect(() => {
    if (!printerView || !doc) return;
    const timer = window.setTimeout(() => void design.getState().loadRaster(), 120);
    return () => window.clearTimeout(timer);
  }, [printerView, doc, design]);

  const card = doc ? labelBox(doc.template) : null;
  const fitScale = card
    ? Math.max(
        0.1,
        Math.min((size.width - FIT_MARGIN) / card.width, (size.height - FIT_MARGIN) / card.height, 8),
      )
    : 1;
  const scale = zoom === 'fit' ? fitScale : zoom;

  /** Saves; a name the user's folder has already asks whether to replace it. True when saved. */
  const saveNow = useCallback(async (): Promise<boolean> => {
    setSavedNote(null);
    const saved = await design.getState().save();
    if (saved) {
      setSavedNote(`Saved as “${saved.ref.name}” in your templates.`);
      return true;
    }
    if (design.getState().error?.code === 'conflict') setReplacing(true);
    return false;
  }, [design]);

  const go = (next: Pending) => {
    if (next.kind === 'leave') ui.getState().go(next.to);
    else setDialog(next.kind);
  };

  const ask = (next: Pending) => {
    if (design.getState().dirty) setPending(next);
    else go(next);
  };

  const onUnsaved = async (choice: 'save' | 'discard' | 'cancel') => {
    const next = pending;
    setPending(null);
    if (!next || choice === 'cancel') return;
    if (choice === 'save') {
      if (!(await saveNow())) return;
    } else {
      design.getState().close({ discard: true });
    }
    go(next);
  };

  const onNew = (spec: NewDesign | null) => {
    setDialog(null);
    if (!spec) return;
    design.getState().create(spec);
    setSavedNote(null);
    setZoom('fit');
  };

  const onOpen = async (choice: OpenChoice | null) => {
    if (!choice) {
      setDialog(null);
      return;
    }
    const opened = await design.getState().openRef(choice.ref, {
      dpi: doc?.dpi ?? 203,
      ...(choice.copyName ? { copyName: choice.copyName } : {}),
    });
    if (opened) {
      setDialog(null);
      setSavedNote(null);
      setZoom('fit');
    }
  };

  const onKeyDown = (e: globalThis.KeyboardEvent) => {
    if (dialog || pending || replacing || !doc) return;
    if (e.target instanceof HTMLElement && e.target.closest('dialog')) return;
    const s = design.getState();
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === 'z') {
      e.preventDefault();
      if (e.shiftKey) s.redo();
      else s.undo();
      return;
    }
    if (mod && key === 'y') {
      e.preventDefault();
      s.redo();
      return;
    }
    if (mod && key === 's') {
      e.preventDefault();
      void saveNow();
      return;
    }
    if (mod && (key === '=' || key === '+' || key === '-' || key === '0')) {
      e.preventDefault();
      setZoom(key === '0' ? 'fit' : stepZoom(scale, key === '-' ? -1 : 1));
      return;
    }
    if (isTextEntry(e.target)) return;
    if (mod && !e.altKey) {
      const action = { c: s.copy, x: s.cut, v: s.paste, d: s.duplicateSelection, a: s.selectAll }[key];
      if (action) {
        e.preventDefault();
        action();
      }
      return;
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      if (s.selection.length) {
        e.preventDefault();
        s.deleteSelection();
      }
      return;
    }
    if (e.key === 'Escape') {
      s.select([]);
      return;
    }
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const arrow = arrows[e.key];
    if (arrow && s.selection.length) {
      e.preventDefault();
      const step = e.shiftKey ? 10 : 1;
      // A held key is one move to undo.
      s.moveSelection(arrow[0] * step, arrow[1] * step, e.repeat ? { coalesceKey: 'nudge' } : {});
    }
  };

  // The keys work wherever the focus is on this screen (also on the page itself, after the button that had it
  // was disabled), except in what they type into.
  const keyHandler = useRef(onKeyDown);
  keyHandler.current = onKeyDown;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => keyHandler.current(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Ctrl+wheel zooms (a listener of its own: React's wheel listeners are passive and cannot keep the page's
  // zoom from happening too).
  const scaleNow = useRef(scale);
  scaleNow.current = scale;
  const hasDoc = doc !== null;
  useEffect(() => {
    const el = canvasBox.current;
    if (!el) return;
    const onWheel = (e: globalThis.WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      setZoom(stepZoom(scaleNow.current, e.deltaY < 0 ? 1 : -1));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [hasDoc]);

  const elements = doc?.template.elements ?? [];
  const several = selection.length > 1;

  return (
    <div className="design-screen">
      <div className="design-toolbar card" role="toolbar" aria-label="Designer">
        <button type="button" className="btn btn-secondary btn-small" onClick={() => ask({ kind: 'new' })}>
          New…
        </button>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => ask({ kind: 'open' })}>
          Open…
        </button>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => ask({ kind: 'import' })}>
          Import…
        </button>
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={!doc || busy}
          onClick={() => void saveNow()}
        >
          Save
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={!doc || busy || dirty || savedAs === null}
          title={
            dirty || savedAs === null
              ? 'Save first: the file exported is the template as saved.'
              : 'The template’s file, to keep or to use on another computer.'
          }
          onClick={async () => {
            const file = await design.getState().exportSaved();
            if (file) downloadFile(file);
          }}
        >
          Export
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={!doc || busy || dirty || savedAs === null || printer === null}
          title={
            printer === null
              ? 'Choose a printer on the Print screen first.'
              : dirty || savedAs === null
                ? 'Save first: a test print is of the template as saved.'
                : 'One label, the placeholders filled in, to the printer chosen on the Print screen.'
          }
          onClick={async () => {
            if (printer === null || !doc) return;
            const sent = await design.getState().testPrint(printer);
            if (sent?.job) {
              jobs.getState().track(sent.job);
              ui.getState().notify({
                kind: 'job',
                jobId: sent.job.id,
                title: `Test label of ${doc.template.name}`,
              });
            } else if (sent) ui.getState().notify({ kind: 'info', message: sent.message });
          }}
        >
          Test print
        </button>
        <span className="design-toolbar-sep" aria-hidden="true" />
        <button
          type="button"
          className="btn btn-ghost btn-small"
          disabled={!canUndo}
          aria-keyshortcuts="Control+Z"
          onClick={() => design.getState().undo()}
        >
          Undo
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          disabled={!canRedo}
          aria-keyshortcuts="Control+Shift+Z Control+Y"
          onClick={() => design.getState().redo()}
        >
          Redo
        </button>
        <span className="design-toolbar-sep" aria-hidden="true" />
        <div className="zoom" role="group" aria-label="Zoom">
          <ZoomStepper scale={scale} disabled={!doc} onStep={(d) => setZoom(stepZoom(scale, d))} />
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-pressed={zoom === 'fit'}
            onClick={() => setZoom('fit')}
          >
            Fit
          </button>
        </div>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={printerView}
            disabled={!doc}
            onChange={(e) => setPrinterView(e.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          Printer view
        </label>
        {doc && (
          <span className="design-doc-name muted" aria-live="polite">
            {doc.template.name}
            {dirty ? ' — not saved' : ''} · {doc.dpi} dpi
          </span>
        )}
      </div>

      {!doc ? (
        <div className="card design-empty">
          <h2>Design a template</h2>
          <p className="muted">
            Start from a label size, or open one of your templates. A bundled or captured template is copied
            first: those stay as they are.
          </p>
          <div className="row">
            <button type="button" className="btn btn-primary" onClick={() => setDialog('new')}>
              New template…
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setDialog('open')}>
              Open a template…
            </button>
          </div>
        </div>
      ) : (
        <div className="design-body">
          <div className="design-left">
            <section className="card" aria-labelledby="design-palette-title">
              <h2 id="design-palette-title">Add</h2>
              <div className="design-palette">
                {ELEMENT_TYPES.map((type) => (
                  <button
                    key={type}
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Add ${KIND_NAMES[type].toLowerCase()}`}
                    onClick={() => design.getState().addElement(type, freeSpot(doc, type))}
                  >
                    {KIND_NAMES[type]}
                  </button>
                ))}
              </div>
            </section>
            <section className="card" aria-labelledby="design-elements-title">
              <h2 id="design-elements-title">Elements</h2>
              {elements.length === 0 ? (
                <p className="muted small">Nothing on the label yet.</p>
              ) : (
                <ul className="design-elements" aria-labelledby="design-elements-title">
                  {elements.map((el, i) => (
                    <li key={i}>
                      <button
                        type="button"
                        className={`design-element${problemElements.has(i) ? ' design-element-problem' : ''}`}
                        aria-pressed={selection.includes(i)}
                        onClick={(e) => {
                          const s = design.getState();
                          if (e.shiftKey || e.ctrlKey || e.metaKey)
                            s.select(
                              s.selection.includes(i)
                                ? s.selection.filter((j) => j !== i)
                                : [...s.selection, i],
                            );
                          else s.select([i]);
                        }}
                      >
                        {elementName(el, i)}
                        {problemElements.has(i) && <span className="visually-hidden"> (has a problem)</span>}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {elements.length > 1 && (
                <p className="muted small">
                  Shift+click or Shift+Enter adds to the selection; Ctrl+A selects all.
                </p>
              )}
            </section>
            <section className="card" aria-labelledby="design-arrange-title">
              <h2 id="design-arrange-title">Arrange</h2>
              <div className="design-palette">
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  disabled={!selection.length}
                  onClick={() => design.getState().duplicateSelection()}
                >
                  Duplicate
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-small btn-danger-text"
                  disabled={!selection.length}
                  onClick={() => design.getState().deleteSelection()}
                >
                  Delete
                </button>
                {ORDER_BUTTONS.map((b) => (
                  <button
                    key={b.to}
                    type="button"
                    className="btn btn-ghost btn-small"
                    disabled={!selection.length}
                    onClick={() => design.getState().reorderSelection(b.to)}
                  >
                    {b.label}
                  </button>
                ))}
                {ALIGN_BUTTONS.map((b) => (
                  <button
                    key={b.to}
                    type="button"
                    className="btn btn-ghost btn-small"
                    disabled={!selection.length}
                    onClick={() => design.getState().alignSelection(b.to)}
                  >
                    {b.label}
                  </button>
                ))}
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  disabled={selection.length < 3}
                  onClick={() => design.getState().distributeSelection('x')}
                >
                  Distribute across
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  disabled={selection.length < 3}
                  onClick={() => design.getState().distributeSelection('y')}
                >
                  Distribute down
                </button>
              </div>
              {several && <p className="muted small">Several selected: aligned to the box around them.</p>}
            </section>
          </div>

          <section className="card design-canvas-card" aria-label="Canvas">
            {error && error.code !== 'conflict' && <ErrorNotice error={error} />}
            {savedNote && !dirty && (
              <p className="notice design-saved" role="status">
                {savedNote}
              </p>
            )}
            {problems.length > 0 && (
              <div className="notice notice-error design-problems" role="status">
                <strong>
                  {problems.length === 1 ? 'One problem' : `${problems.length} problems`}
                  {schemaProblems.length > 0 ? ' to fix before this can be saved:' : ' with what prints:'}
                </strong>
                <ul>
                  {problems.slice(0, 6).map((p) => (
                    <li key={`${p.path}\n${p.message}`}>
                      {p.element !== null ? (
                        <button
                          type="button"
                          className="btn-link"
                          onClick={() => design.getState().select([p.element!])}
                        >
                          {elements[p.element] ? elementName(elements[p.element]!, p.element) : p.path}
                        </button>
                      ) : (
                        <span>{p.path || 'Template'}</span>
                      )}
                      : {p.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div
              className="design-canvas"
              ref={canvasBox}
              data-lines={lines}
              data-notdef={notdef}
              tabIndex={0}
              role="group"
              aria-roledescription="canvas"
              aria-label="Label canvas: arrow keys move the selection one dot, Shift ten; drag with Space held to pan"
              aria-describedby={barcodes.notes.size ? 'design-canvas-notes' : undefined}
            >
              {printerView ? (
                raster ? (
                  <img
                    className="raster design-raster"
                    src={raster.dataUrl}
                    alt={`Printer view: ${raster.widthDots} × ${raster.heightDots} dots at ${raster.dpi} dpi`}
                    width={Math.ceil((card?.width ?? 0) * scale)}
                    height={Math.ceil((card?.height ?? 0) * scale)}
                    data-dpi={raster.dpi}
                  />
                ) : rasterError ? (
                  <ErrorNotice error={rasterError} />
                ) : (
                  <p className="muted preview-wait">Rendering at {doc.dpi} dpi…</p>
                )
              ) : (
                <Suspense fallback={<p className="muted preview-wait">Loading the canvas…</p>}>
                  <DesignCanvas
                    doc={doc}
                    selection={selection}
                    label={label}
                    scale={scale}
                    problemElements={problemElements}
                    notes={barcodes.notes}
                  />
                </Suspense>
              )}
            </div>
            {note && !printerView && <p className="muted small design-note">{note}</p>}
            {barcodes.notes.size > 0 && (
              // What the canvas writes on the elements it cannot draw, for those who do not see it.
              <p id="design-canvas-notes" className="visually-hidden">
                {[...barcodes.notes]
                  .map(
                    ([i, text]) =>
                      `${elements[i] ? elementName(elements[i], i) : `Element ${i + 1}`}: ${text}`,
                  )
                  .join(' ')}
              </p>
            )}
          </section>

          <div className="design-right">
            <PropertiesPanel problems={problems} />
            <FieldsPanel problems={problems} />
          </div>
        </div>
      )}

      {dialog === 'new' && <NewTemplateDialog onClose={onNew} />}
      {dialog === 'open' && <OpenTemplateDialog onClose={(c) => void onOpen(c)} />}
      {dialog === 'import' && (
        <ImportTemplateDialog
          dpi={doc?.dpi ?? 203}
          onClose={(imported) => {
            setDialog(null);
            if (!imported) return;
            setSavedNote(`Imported as “${design.getState().savedAs ?? ''}” in your templates.`);
            setZoom('fit');
          }}
        />
      )}
      {pending && doc && <UnsavedDialog name={doc.template.name} onChoose={(c) => void onUnsaved(c)} />}
      {replacing && doc && (
        <ReplaceDialog
          name={doc.template.name}
          onChoose={async (replace) => {
            setReplacing(false);
            if (!replace) return;
            const saved = await design.getState().save({ overwrite: true });
            if (saved) setSavedNote(`Saved as “${saved.ref.name}” in your templates.`);
          }}
        />
      )}
    </div>
  );
}
