/**
 * The template designer's store (issue #22): the design document, the selection, and one history over every
 * change — element edits, property edits, fields, the stage, the dpi — so Ctrl+Z undoes whatever was done last
 * (Konva stays a view: the canvas sends edits here and draws what the store holds). A drag or a burst of typing
 * in one property passes the same `coalesceKey` and becomes one entry. `dirty` compares the template with the
 * one last saved (or opened): undoing back to it makes the document clean again. Opening, saving, revisions and
 * duplicating go through the IPC contract (`templates.*`), the same in Electron and web mode.
 */
import { createStore } from 'zustand/vanilla';
import type {
  ExportedFile,
  FieldValues,
  JobView,
  LabelDeskApi,
  RasterPreview,
  TemplateProblemView,
  TemplateRef,
  TemplateRevisionView,
  TemplateSummary,
} from '../../../src/ipc/contract';
import { toUserError, type UserError } from '../ipc/user-error';
import type { Element, ElementType } from '../../../src/model/elements';
import type { Field, Template } from '../../../src/model/schema';
import {
  newDesign,
  openDesign,
  type DesignDocument,
  type DesignDpi,
  type DesignUnit,
  type NewDesign,
} from '../design/design-document';
import * as fields from '../design/fields';
import { printedBarcodeProblems } from '../../../src/model/barcode-fields';
import type { Box } from '../design/geometry';
import * as ops from '../design/operations';

/** How many changes can be undone. */
export const HISTORY_LIMIT = 200;

interface Snapshot {
  doc: DesignDocument;
  selection: number[];
}

/** Options of a change: changes passing the same key one after another are undone together. */
export interface ChangeOptions {
  coalesceKey?: string;
}

export interface DesignState {
  doc: DesignDocument | null;
  /** The name of the user template this document saves over; null: new, or not saved yet. */
  savedAs: string | null;
  /** The template as last saved or opened (what `dirty` compares with). */
  savedTemplate: Template | null;
  dirty: boolean;
  /** Selected elements, by index in `template.elements`. */
  selection: number[];
  past: Snapshot[];
  future: Snapshot[];
  /** The key of the last change, while it may still absorb the next one with the same key. */
  coalescing: string | null;
  clipboard: Element[];
  /** Pastes since the last copy: each lands one more offset away, so repeated pastes do not pile up. */
  pastes: number;
  /** A load or save in flight. */
  busy: boolean;
  /** What the last save found wrong, at their elements and fields (nothing was written). */
  problems: TemplateProblemView[];
  /** The template `problems` were found in (an edit since makes them stale; undoing back makes them current). */
  problemsFor: Template | null;
  /**
   * The last failure of a load or save, as the UI shows it. `code: 'conflict', field: 'name'`: the user's folder
   * has a template of that name; `save({ overwrite: true })` after the user says so.
   */
  error: UserError | null;
  /** The kept versions of the template as saved (`loadRevisions`). */
  revisions: TemplateRevisionView[];
  /** The printer view: the document drawn 1-bit at its dpi by main (`loadRaster`), and why it could not be. */
  raster: RasterPreview | null;
  rasterError: UserError | null;

  /** Starts a new template (clean until changed: closing it untouched asks nothing); the history starts empty. */
  create(spec: NewDesign): void;
  /**
   * Opens a template for editing; the history starts empty. `savedAs`: the user template it saves over (null:
   * one that is not in the user's folder, saved under a name of its own).
   */
  open(template: Template, options: { dpi: DesignDpi; savedAs: string | null }): void;
  /** Closes the document; refused (false) while it has unsaved changes, unless `discard`. */
  close(options?: { discard?: boolean }): boolean;
  /** The template was saved under `name`: the document is clean (its history stays). */
  markSaved(template: Template): void;

  /** Applies any edit of the document (the operations below are this with a named edit). */
  change(
    edit: (doc: DesignDocument, selection: number[]) => ops.Edit | DesignDocument,
    options?: ChangeOptions,
  ): void;
  /** Ends coalescing: the next change is an entry of its own even with the same key (a drag ended, a field left). */
  endCoalescing(): void;
  undo(): void;
  redo(): void;

  select(selection: readonly number[]): void;
  selectAll(): void;

  addElement(type: ElementType, at?: { x: number; y: number }): void;
  /** Moves the selection by whole dots (arrow keys). */
  moveSelection(dxDots: number, dyDots: number, options?: ChangeOptions): void;
  placeBoxes(boxes: ReadonlyMap<number, Box>, options?: ChangeOptions): void;
  setProperties(patch: Readonly<Record<string, unknown>>, options?: ChangeOptions): void;
  setTemplateProperties(
    patch: Parameters<typeof ops.setTemplateProperties>[1],
    options?: ChangeOptions,
  ): void;
  setDpi(dpi: DesignDpi): void;
  setUnit(unit: DesignUnit): void;
  deleteSelection(): void;
  duplicateSelection(): void;
  reorderSelection(to: ops.ZOrder): void;
  alignSelection(to: ops.Alignment): void;
  distributeSelection(axis: 'x' | 'y'): void;
  copy(): void;
  cut(): void;
  paste(): void;

  /**
   * Opens a template by reference: a user template to save over; a bundled or captured one is first copied into
   * the user's folder as `copyName` (those stay read-only). False when it could not be opened (see `error`).
   */
  openRef(ref: TemplateRef, options: { dpi: DesignDpi; copyName?: string }): Promise<boolean>;
  /**
   * Saves into the user's folder (over the template it was opened as, or under a new name only with
   * `overwrite` once the user said yes). Returns the saved summary, or null (`problems` or `error` say why).
   */
  save(options?: { overwrite?: boolean }): Promise<TemplateSummary | null>;
  loadRevisions(): Promise<void>;
  /** Asks main for the printer view of the document as it is now (the latest answer wins). */
  loadRaster(values?: FieldValues): Promise<void>;
  /**
   * Prints one label of the template as saved (the placeholders typed in) to `printer`: null when there is
   * nothing saved to print, the changes are not saved yet, or it failed (see `error`).
   */
  testPrint(printer: string): Promise<{ job: JobView | null; message: string } | null>;
  /** Makes a kept version current and opens it (its history starts again). */
  restoreRevision(id: string): Promise<boolean>;
  /** The file of the template as saved (`templates.export`), to hand to the user; null when there is none. */
  exportSaved(): Promise<ExportedFile | null>;
  /**
   * Adds a template read from a file to the user's folder under its name (never over another: a name taken,
   * here or by a bundled or captured template, comes back as `name-taken` to ask for another) and opens it.
   */
  importTemplate(template: Template, options: { dpi: DesignDpi }): Promise<ImportResult>;

  addField(field?: Partial<Field>): void;
  editField(index: number, patch: Partial<Field>, options?: ChangeOptions): void;
  removeField(index: number): void;
  moveField(from: number, to: number): void;
  bindField(element: number, name: string, options?: { attr?: string; at?: number | fields.InsertAt }): void;
}

/** What became of an import: opened, its name taken (ask for another), or what the save found wrong. */
export type ImportResult =
  | { kind: 'imported'; summary: TemplateSummary }
  | { kind: 'name-taken'; message: string }
  | { kind: 'problems'; problems: TemplateProblemView[] }
  | { kind: 'failed' };

const sameTemplate = (a: Template | null, b: Template | null): boolean =>
  a === b || (a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** What the design store needs around it: the IPC contract, and who to tell that the templates changed. */
export interface DesignPorts {
  /** A template was saved or restored: the catalogue (the Print screen's picker) reloads. */
  onSaved?(summary: TemplateSummary): void;
}

export function createDesignStore(api: LabelDeskApi, ports: DesignPorts = {}) {
  let rasterSeq = 0;
  return createStore<DesignState>()((set, get) => {
    const fresh = (doc: DesignDocument | null, savedTemplate: Template | null, savedAs: string | null) =>
      set({
        doc,
        savedAs,
        savedTemplate,
        dirty: doc !== null && !sameTemplate(doc.template, savedTemplate),
        selection: [],
        past: [],
        future: [],
        coalescing: null,
        problems: [],
        problemsFor: null,
        error: null,
        revisions: [],
        raster: null,
        rasterError: null,
      });

    /** Runs a call of the contract with `busy` set; a failure lands in `error` and gives null. */
    const busyWith = async <T>(task: () => Promise<T>): Promise<T | null> => {
      set({ busy: true, error: null });
      try {
        return await task();
      } catch (e) {
        set({ error: toUserError(e) });
        return null;
      } finally {
        set({ busy: false });
      }
    };

    /** Shows a snapshot (undo, redo), its own selection with it. */
    const show = (snapshot: Snapshot, past: Snapshot[], future: Snapshot[]) =>
      set({
        doc: snapshot.doc,
        selection: snapshot.selection,
        past,
        future,
        coalescing: null,
        dirty: !sameTemplate(snapshot.doc.template, get().savedTemplate),
      });

    const change: DesignState['change'] = (edit, options = {}) => {
      const { doc, selection, past, coalescing, savedTemplate } = get();
      if (!doc) return;
      const result = edit(doc, selection);
      const next = 'doc' in result ? result : { doc: result, selection };
      if (next.doc === doc && next.selection === selection) return;
      if (next.doc === doc) {
        set({ selection: next.selection });
        return;
      }
      const key = options.coalesceKey ?? null;
      const absorb = key !== null && key === coalescing && past.length > 0;
      set({
        doc: next.doc,
        selection: next.selection.filter((i) => i < next.doc.template.elements.length),
        past: absorb ? past : [...past, { doc, selection }].slice(-HISTORY_LIMIT),
        future: [],
        coalescing: key,
        dirty: !sameTemplate(next.doc.template, savedTemplate),
      });
    };

    const onSelection = (f: (doc: DesignDocument, selection: number[]) => ops.Edit | DesignDocument) =>
      change((doc, selection) => (selection.length ? f(doc, selection) : doc));

    return {
      doc: null,
      savedAs: null,
      savedTemplate: null,
      dirty: false,
      selection: [],
      past: [],
      future: [],
      coalescing: null,
      clipboard: [],
      pastes: 0,
      busy: false,
      problems: [],
      problemsFor: null,
      error: null,
      revisions: [],
      raster: null,
      rasterError: null,

      create: (spec) => {
        const doc = newDesign(spec);
        fresh(doc, doc.template, null);
      },
      open: (template, { dpi, savedAs }) => fresh(openDesign(template, dpi), template, savedAs),
      close: ({ discard = false } = {}) => {
        if (get().dirty && !discard) return false;
        fresh(null, null, null);
        return true;
      },
      markSaved: (template) => {
        const { doc } = get();
        set({
          savedTemplate: template,
          savedAs: template.name,
          dirty: doc !== null && !sameTemplate(doc.template, template),
          coalescing: null,
        });
      },

      change,
      endCoalescing: () => set({ coalescing: null }),
      undo: () => {
        const { past, future, doc, selection } = get();
        const previous = past[past.length - 1];
        if (!previous || !doc) return;
        show(previous, past.slice(0, -1), [{ doc, selection }, ...future]);
      },
      redo: () => {
        const { past, future, doc, selection } = get();
        const next = future[0];
        if (!next || !doc) return;
        show(next, [...past, { doc, selection }], future.slice(1));
      },

      select: (selection) => {
        const count = get().doc?.template.elements.length ?? 0;
        set({
          selection: [...new Set(selection)].filter((i) => i >= 0 && i < count).sort((a, b) => a - b),
          coalescing: null,
        });
      },
      selectAll: () =>
        set({ selection: (get().doc?.template.elements ?? []).map((_, i) => i), coalescing: null }),

      addElement: (type, at) => change((doc) => ops.addElement(doc, type, at)),
      moveSelection: (dx, dy, options) => {
        const { selection } = get();
        if (selection.length) change((doc) => ops.moveBy(doc, selection, dx, dy), options);
      },
      placeBoxes: (boxes, options) => change((doc) => ops.placeBoxes(doc, boxes), options),
      setProperties: (patch, options) => {
        const { selection } = get();
        if (selection.length) change((doc) => ops.setProperties(doc, selection, patch), options);
      },
      setTemplateProperties: (patch, options) =>
        change((doc) => ops.setTemplateProperties(doc, patch), options),
      setDpi: (dpi) => change((doc) => (doc.dpi === dpi ? doc : { ...doc, dpi })),
      setUnit: (unit) => change((doc) => (doc.unit === unit ? doc : { ...doc, unit })),
      deleteSelection: () => onSelection((doc, selection) => ops.deleteElements(doc, selection)),
      duplicateSelection: () => onSelection((doc, selection) => ops.duplicateElements(doc, selection)),
      reorderSelection: (to) => onSelection((doc, selection) => ops.reorder(doc, selection, to)),
      alignSelection: (to) => onSelection((doc, selection) => ops.align(doc, selection, to)),
      distributeSelection: (axis) => onSelection((doc, selection) => ops.distribute(doc, selection, axis)),
      copy: () => {
        const { doc, selection } = get();
        if (!doc || !selection.length) return;
        set({
          clipboard: selection
            .flatMap((i) => doc.template.elements[i] ?? [])
            .map((el) => structuredClone(el)),
          pastes: 0,
        });
      },
      cut: () => {
        get().copy();
        get().deleteSelection();
      },
      paste: () => {
        const { clipboard, pastes } = get();
        if (!clipboard.length || !get().doc) return;
        change((doc) => ops.insertElements(doc, clipboard, ops.pasteOffsetDots(doc.dpi) * (pastes + 1)));
        set({ pastes: pastes + 1 });
      },

      openRef: async (ref, { dpi, copyName }) => {
        const detail = await busyWith(async () => {
          if (ref.source === 'user') return api.invoke('templates.get', { ref });
          if (copyName === undefined)
            throw new Error(`A ${ref.source} template stays as it is: copy it to edit it.`);
          const copy = await api.invoke('templates.duplicate', { ref, name: copyName });
          ports.onSaved?.(copy);
          return api.invoke('templates.get', { ref: copy.ref });
        });
        if (!detail) return false;
        get().open(detail.template, { dpi, savedAs: detail.template.name });
        return true;
      },
      save: async ({ overwrite = false } = {}) => {
        const { doc, savedAs, busy } = get();
        // A second click or Ctrl+S while a save is in flight: not a second save (a new template's would find the
        // first one's file and ask to replace it).
        if (!doc || busy) return null;
        const template = doc.template;
        const result = await busyWith(() =>
          api.invoke('templates.save', { template, overwrite: overwrite || savedAs === template.name }),
        );
        if (!result) return null;
        set({ problems: result.problems, problemsFor: template });
        if (!result.saved) return null;
        get().markSaved(template);
        ports.onSaved?.(result.saved);
        return result.saved;
      },
      loadRevisions: async () => {
        const name = get().savedAs;
        if (name === null) return;
        const revisions = await busyWith(() => api.invoke('templates.revisions', { name }));
        if (revisions) set({ revisions });
      },
      loadRaster: async (values = {}) => {
        const mine = ++rasterSeq;
        const doc = get().doc;
        if (!doc) return;
        try {
          const raster = await api.invoke('preview.templateRaster', {
            template: doc.template,
            values,
            dpi: doc.dpi,
          });
          if (mine === rasterSeq) set({ raster, rasterError: null });
        } catch (e) {
          if (mine === rasterSeq) set({ raster: null, rasterError: toUserError(e) });
        }
      },
      testPrint: async (printer) => {
        const { savedAs, dirty, doc } = get();
        if (savedAs === null || dirty || !doc) return null;
        // The placeholders typed in, so a required field is not missing (counters number themselves).
        const values = Object.fromEntries(
          doc.template.fields.flatMap((f) =>
            f.type !== 'counter' && f.placeholder !== '' ? [[f.name, f.placeholder]] : [],
          ),
        );
        // A barcode its field leaves empty (or a value it refuses) is named here, by the field, before a job.
        const barcodes = printedBarcodeProblems(doc.template, values);
        if (barcodes.length) {
          const empty = barcodes.some((p) => p.problem === 'empty');
          set({
            error: {
              code: 'client',
              message: `Not sent: ${barcodes.map((p) => p.message.replace(/\.$/, '')).join('; ')}.${
                empty ? ' A test label prints each field’s placeholder: give the field one.' : ''
              }`,
              field: null,
              action: null,
            },
          });
          return null;
        }
        return busyWith(() =>
          api.invoke('print.submit', {
            ref: { source: 'user', name: savedAs },
            values,
            copies: 1,
            printer,
          }),
        );
      },
      restoreRevision: async (id) => {
        const { savedAs: name, doc } = get();
        if (name === null || !doc) return false;
        const detail = await busyWith(async () => {
          const summary = await api.invoke('templates.restoreRevision', { name, revision: id });
          ports.onSaved?.(summary);
          return api.invoke('templates.get', { ref: summary.ref });
        });
        if (!detail) return false;
        get().open(detail.template, { dpi: doc.dpi, savedAs: name });
        await get().loadRevisions();
        return true;
      },
      exportSaved: async () => {
        const name = get().savedAs;
        if (name === null) return null;
        return busyWith(() => api.invoke('templates.export', { ref: { source: 'user', name } }));
      },
      importTemplate: async (template, { dpi }) => {
        if (get().busy) return { kind: 'failed' };
        set({ busy: true, error: null });
        try {
          const result = await api.invoke('templates.save', { template, overwrite: false });
          if (!result.saved) {
            const name = result.problems.filter((p) => p.path === 'name');
            return name.length === result.problems.length && name[0]
              ? { kind: 'name-taken', message: name[0].message }
              : { kind: 'problems', problems: result.problems };
          }
          ports.onSaved?.(result.saved);
          get().open(template, { dpi, savedAs: template.name });
          return { kind: 'imported', summary: result.saved };
        } catch (e) {
          const error = toUserError(e);
          if (error.code === 'conflict') return { kind: 'name-taken', message: error.message };
          set({ error });
          return { kind: 'failed' };
        } finally {
          set({ busy: false });
        }
      },

      addField: (field) => change((doc) => fields.addField(doc, field)),
      editField: (index, patch, options) => change((doc) => fields.editField(doc, index, patch), options),
      removeField: (index) => change((doc) => fields.removeField(doc, index)),
      moveField: (from, to) => change((doc) => fields.moveField(doc, from, to)),
      bindField: (element, name, options) => change((doc) => fields.bindField(doc, element, name, options)),
    };
  });
}

export type DesignStore = ReturnType<typeof createDesignStore>;
