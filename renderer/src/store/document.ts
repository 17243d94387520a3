/**
 * The print document: which template, the values typed into its fields, copies and printer, and what main
 * makes of them (the preview Scene, field problems, the printer's raster). Every change asks main for a new
 * preview; only the latest request's answer is kept, so a slow answer never overwrites a newer one.
 */
import { createStore } from 'zustand/vanilla';
import type {
  ExportedFile,
  FieldValues,
  JobView,
  LabelDeskApi,
  OutputFormat,
  PreviewResult,
  PrintFit,
  RasterPreview,
  ResponseOf,
  TemplateDetail,
  TemplateRef,
} from '../../../src/ipc/contract';
import type { FieldProblem, WireScene } from '../../../src/ipc/wire-scene';
import { applyWirePreview, MissingBaseScene } from '../../../src/ipc/wire-preview';
import { LruCache } from '../../../src/layout/lru';
import type { Field, Template } from '../../../src/model/schema';
import type { Oversize } from '../../../src/outputs/fit';
import { toUserError, type UserError } from '../ipc/user-error';
import { editableFields } from '../lib/form-keys';
import { sameRef } from './catalog';
import type { ToastCondition, UiStore } from './ui';

export const MAX_COPIES = 1000;

/** The copies rules that live in Settings (the defaults until Settings are loaded). */
export interface CopiesSettings {
  /** More copies than this ask first; 0 never asks. */
  confirmCopiesAbove: number;
  keepCopiesAfterPrint: boolean;
}

export const DEFAULT_COPIES_SETTINGS: CopiesSettings = {
  confirmCopiesAbove: 50,
  keepCopiesAfterPrint: false,
};

/** Side effects the document needs from its surroundings (the browser in the app, doubles in tests). */
export interface DocumentPorts {
  ui: UiStore;
  /** Hands an exported file to the user (a download; Electron turns it into a save dialog). */
  saveFile(file: ExportedFile): void;
  /** Opens the system print dialog for an SVG label of the given CSS page size. */
  printSvg(svg: string, page: { width: string; height: string }): void;
  /** A job was submitted: follow its progress. */
  trackJob(job: JobView): void;
  /** The copies rules from Settings, read at each print. */
  copiesSettings?(): CopiesSettings;
  /** The user chose a printer: keep it for the next start. */
  rememberPrinter?(printer: string): void;
  /** A label of `ref` was sent: main moved it to the front of the recent templates. */
  printed?(ref: TemplateRef): void;
  /**
   * The preview computed in the renderer (a worker, preview/engine/): no keystroke crosses IPC. `null` when it
   * cannot (an image by URL, fonts not loaded yet): main is asked instead. Absent in tests of the stores.
   */
  previewEngine?: {
    preview(ask: { template: Template; values: FieldValues; since?: string }): Promise<PreviewResult | null>;
  };
}

export interface PrintOptions {
  /** After a print, focus the first field and select its text (a print started from the keyboard). */
  refocus?: boolean;
  /** The number of copies the user said yes to (more than Settings let through without asking). */
  confirmedCopies?: number;
  /** The user said yes to printing a label whose text does not all fit (`cuts`). */
  confirmedCuts?: boolean;
  /** What the user chose for a label wider than the printer's head (#42 item 1). */
  oversize?: Oversize;
}

/** A print waits for the user's choice: the label is wider than the printer's head (`fit` says by how much). */
export type OversizeConfirm = {
  fit: PrintFit;
  /** What the print being asked about carried, given again with the choice. */
  confirmedCopies?: number;
  refocus?: boolean;
};

/** What waits for the user's yes because the label would print with text cut off. */
export type CutsConfirm = {
  action: 'print' | 'system-print';
  cuts: FieldProblem[];
  /** What the print being asked about carried: the copies already said yes to, the scanner flow's refocus. */
  confirmedCopies?: number;
  refocus?: boolean;
};

export type PrintSent = ResponseOf<'print.submit'>;

export type Busy = 'print' | 'system-print' | OutputFormat;

/**
 * Why the last print or save did not go out because of a field (#42 item 4): said next to the buttons, with the
 * cursor sent to the field, so a field below the fold is never the silent reason.
 */
export interface Blocked {
  action: Busy;
  field: string;
  message: string;
}

/** "Not printed" / "Not saved": what the blocked action did not do, for the sentence next to the buttons. */
export function blockedSentence(blocked: Blocked): string {
  const what = blocked.action === 'print' || blocked.action === 'system-print' ? 'Not printed' : 'Not saved';
  return `${what}: ${blocked.message}`;
}

export interface DocumentState {
  ref: TemplateRef | null;
  detail: TemplateDetail | null;
  loading: boolean;
  loadError: UserError | null;
  /** What the form shows, every field (empty text means "no value": the placeholder prints). */
  values: FieldValues;
  /** The last valid copies typed (what prints). */
  copies: number;
  /** The copies field as typed. */
  copiesText: string;
  /** Why `copiesText` cannot be printed ("Copies: type a whole number from 1 to 1000."), else null. */
  copiesProblem: string | null;
  /** A print of this many copies waits for the user's yes (more than Settings let through without asking). */
  confirmingCopies: number | null;
  printer: string | null;
  scene: WireScene | null;
  problems: FieldProblem[];
  /** Values that do not fit on the label (their text would be cut off), by field: printing asks first. */
  cuts: FieldProblem[];
  /** A print waits for the user's yes to printing a cut label. */
  confirmingCuts: CutsConfirm | null;
  /** A print waits for the user's choice: the label is wider than the printer (scale, turn, cut or cancel). */
  confirmingOversize: OversizeConfirm | null;
  previewError: UserError | null;
  raster: RasterPreview | null;
  rasterError: UserError | null;
  busy: Busy | null;
  /** The last print or save stopped by a field's problem (cleared once that field changes). */
  blocked: Blocked | null;

  /** Loads a template; `focus`: the cursor goes to its first field as soon as the form is there. */
  selectTemplate(ref: TemplateRef, options?: { focus?: boolean }): Promise<void>;
  setValue(field: string, value: string): void;
  /** Copies as typed: a whole number from 1 to MAX_COPIES is taken, anything else is refused inline. */
  setCopies(copies: number | string): void;
  setPrinter(printer: string | null): void;
  /** The user picked a printer (remembered for the next start). */
  choosePrinter(printer: string | null): void;
  /** The user said no to printing `confirmingCopies` copies. */
  cancelCopiesConfirm(): void;
  /** The user said no to printing a cut label: the cursor goes to the first field that does not fit. */
  cancelCutsConfirm(): void;
  /** The user cancelled the print of a label wider than the printer: nothing prints. */
  cancelOversizeConfirm(): void;
  /** Asks for a preview of the current values (coalesced per microtask, latest answer wins). */
  refreshPreview(): Promise<void>;
  loadRaster(): Promise<void>;
  /**
   * Prints to the chosen printer. Null when nothing was sent (refused, blocked by problems, or failed: the
   * user has been told); else main's answer (`job` null: an OS queue took one PDF and its spooler tracks it).
   */
  print(options?: PrintOptions): Promise<PrintSent | null>;
  exportAs(format: OutputFormat): Promise<ExportedFile | null>;
  systemPrint(options?: { confirmedCuts?: boolean }): Promise<void>;
}

/** The form's starting values: each field's default, else empty. Counters are assigned by main. */
export function initialValues(fields: readonly Field[]): FieldValues {
  const values: FieldValues = {};
  for (const field of fields) {
    if (field.type === 'counter') continue;
    values[field.name] = field.default ?? '';
  }
  return values;
}

/** Values sent to main: empty ones left out so the template's placeholder prints (spec §2.1). */
export function valuesToSend(values: FieldValues): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

/** The copies field's text → a number of copies, or the sentence that says why it cannot be one. */
export function parseCopies(text: string): { copies: number } | { problem: string } {
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (trimmed === '' || !/^[+-]?\d+$/.test(trimmed) || n < 1 || n > MAX_COPIES) {
    return { problem: `Copies: type a whole number from 1 to ${MAX_COPIES}.` };
  }
  return { copies: n };
}

/** The stage size as CSS lengths for `@page { size }`. */
export function pageSize(detail: TemplateDetail): { width: string; height: string } {
  const { width, height, unit } = detail.template.stage;
  return { width: `${width}${unit}`, height: `${height}${unit}` };
}

/** base64 → text (UTF-8). */
export function decodeBase64Text(base64: string): string {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function createDocumentStore(api: LabelDeskApi, ports: DocumentPorts) {
  /** Bumped by every preview request and template change; an answer for an older number is dropped. */
  let previewSeq = 0;
  let rasterSeq = 0;
  let scheduled: Promise<void> | null = null;
  let inflight: Promise<void> = Promise.resolve();
  /** The values (as sent) whose preview answer — scene, problems, cuts, or error — the state holds. */
  let previewed: string | null = null;
  /**
   * The last preview scenes by id: main sends only the nodes that changed since the one named in `since`, and
   * an unchanged node is this scene's own object, so the preview redraws only what changed.
   */
  const heldScenes = new LruCache<string, WireScene>(4);
  let latestScene: string | null = null;
  const holdScene = (id: string | undefined, scene: WireScene): void => {
    if (id === undefined) return;
    heldScenes.set(id, scene);
    latestScene = id;
  };

  return createStore<DocumentState>()((set, get) => {
    const label = () => {
      const { ref, values } = get();
      return ref ? { ref, values: valuesToSend(values) } : null;
    };

    const runPreview = async (): Promise<void> => {
      const mine = ++previewSeq;
      const request = label();
      if (!request || !get().detail) return;
      const key = JSON.stringify(request.values);
      try {
        const since = latestScene ? { since: latestScene } : {};
        const template = get().detail?.template;
        const here =
          ports.previewEngine && template
            ? await ports.previewEngine.preview({ template, values: request.values, ...since })
            : null;
        if (mine !== previewSeq) return;
        const result = here ?? (await api.invoke('preview.scene', { ...request, ...since }));
        if (mine !== previewSeq) return;
        let scene: WireScene;
        try {
          scene = applyWirePreview(
            result.scene,
            result.scene.base ? heldScenes.get(result.scene.base) : undefined,
          );
        } catch (e) {
          if (!(e instanceof MissingBaseScene)) throw e;
          // The scene it builds on is gone (it cannot be, but if it were): ask for the whole scene.
          heldScenes.clear();
          latestScene = null;
          return await runPreview();
        }
        holdScene(result.scene.id, scene);
        previewed = key;
        set({ scene, problems: result.problems, cuts: result.cuts, previewError: null });
      } catch (e) {
        if (mine !== previewSeq) return;
        previewed = key;
        set({ previewError: toUserError(e) });
      }
    };

    const fail = (e: unknown, action: Busy, printer?: string): null => {
      const error = toUserError(e);
      if (error.field !== null) set({ blocked: { action, field: error.field, message: error.message } });
      const condition: ToastCondition | undefined =
        error.field !== null
          ? `field:${error.field}`
          : printer && (error.code === 'printer' || error.code === 'unreachable')
            ? `printer:${printer}`
            : undefined;
      ports.ui.getState().notify({ kind: 'error', error, ...(condition ? { condition } : {}) });
      if (error.action === 'field' && error.field) ports.ui.getState().focusField(error.field);
      return null;
    };

    /** The template's detail is loaded, so the values are the form's and not an empty placeholder set. */
    const ready = (): boolean => get().detail !== null && !get().loading;

    /** The scanner flow: the cursor back on the first field with its text selected, so a scan replaces it. */
    const focusFirstField = (): void => {
      const first = editableFields(get().detail?.template.fields ?? [])[0];
      if (first) ports.ui.getState().focusField(first.name, { select: true });
    };

    /**
     * Waits until the preview's problems and cuts are those of the values as they are now: a user who types
     * on after clicking Print makes the answer being waited for stale (it is dropped), so it asks again — a
     * few times at most; past that the values are checked by main when the print is submitted.
     */
    const settledPreview = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) {
        await (scheduled ?? inflight);
        const now = label();
        if (!now || previewed === JSON.stringify(now.values)) return;
        void get().refreshPreview();
      }
    };

    /** Problems block output: show them all, say which next to the buttons and put the cursor on the first. */
    const blockedByProblems = async (action: Busy): Promise<boolean> => {
      await settledPreview();
      const first = get().problems[0];
      if (!first) {
        set({ blocked: null });
        return false;
      }
      set({ blocked: { action, field: first.field, message: first.message } });
      const ui = ports.ui.getState();
      ui.revealProblems();
      ui.focusField(first.field);
      return true;
    };

    /**
     * A label whose text would be cut off prints only after a yes (#17 item 6: the country line dropped without
     * a word). Called after `blockedByProblems`, so the cuts are the current values'.
     */
    const waitsForCutsYes = (action: CutsConfirm['action'], options: PrintOptions): boolean => {
      const { cuts } = get();
      if (!cuts.length || options.confirmedCuts) return false;
      set({
        confirmingCuts: {
          action,
          cuts,
          ...(options.confirmedCopies !== undefined ? { confirmedCopies: options.confirmedCopies } : {}),
          ...(options.refocus ? { refocus: true } : {}),
        },
      });
      return true;
    };

    return {
      ref: null,
      detail: null,
      loading: false,
      loadError: null,
      values: {},
      copies: 1,
      copiesText: '1',
      copiesProblem: null,
      confirmingCopies: null,
      printer: null,
      scene: null,
      problems: [],
      cuts: [],
      confirmingCuts: null,
      confirmingOversize: null,
      previewError: null,
      raster: null,
      rasterError: null,
      busy: null,
      blocked: null,

      selectTemplate: async (ref, options = {}) => {
        previewSeq++;
        rasterSeq++;
        set({
          ref,
          detail: null,
          loading: true,
          loadError: null,
          values: {},
          // Another template, another job: copies start again from 1 (BarTender's rule).
          copies: 1,
          copiesText: '1',
          copiesProblem: null,
          confirmingCopies: null,
          scene: null,
          problems: [],
          cuts: [],
          confirmingCuts: null,
          confirmingOversize: null,
          previewError: null,
          raster: null,
          rasterError: null,
          blocked: null,
        });
        ports.ui.getState().resetForm();
        try {
          const detail = await api.invoke('templates.get', { ref });
          if (!sameRef(get().ref, ref)) return;
          set({ detail, values: initialValues(detail.template.fields), loading: false });
          // Now, not after the preview: by then the user may be typing elsewhere.
          if (options.focus) {
            const first = editableFields(detail.template.fields)[0];
            if (first) ports.ui.getState().focusField(first.name);
          }
          await get().refreshPreview();
        } catch (e) {
          if (!sameRef(get().ref, ref)) return;
          set({ loading: false, loadError: toUserError(e) });
        }
      },

      setValue: (field, value) => {
        // Asked first: the preview's microtask (it reads the values when it runs) then goes out ahead of the
        // form's re-render, which React schedules when the values change.
        void get().refreshPreview();
        // A yes to printing the label as it was is not a yes to a changed one.
        const blocked = get().blocked?.field === field ? null : get().blocked;
        set({
          values: { ...get().values, [field]: value },
          confirmingCuts: null,
          confirmingOversize: null,
          blocked,
        });
        ports.ui.getState().resolve(`field:${field}`);
      },

      setCopies: (input) => {
        const copiesText = String(input);
        const parsed = parseCopies(copiesText);
        set(
          'copies' in parsed
            ? {
                copiesText,
                copies: parsed.copies,
                copiesProblem: null,
                confirmingCopies: null,
                confirmingCuts: null,
              }
            : { copiesText, copiesProblem: parsed.problem, confirmingCopies: null, confirmingCuts: null },
        );
      },

      cancelCopiesConfirm: () => set({ confirmingCopies: null }),

      cancelOversizeConfirm: () => set({ confirmingOversize: null }),

      cancelCutsConfirm: () => {
        const first = get().confirmingCuts?.cuts[0];
        set({ confirmingCuts: null });
        if (first) ports.ui.getState().focusField(first.field, { select: true });
      },

      setPrinter: (printer) => {
        rasterSeq++;
        set({ printer, raster: null, rasterError: null, confirmingOversize: null });
        if (printer) ports.ui.getState().resolve('no-printer');
      },

      choosePrinter: (printer) => {
        get().setPrinter(printer);
        if (printer) ports.rememberPrinter?.(printer);
      },

      refreshPreview: () => {
        // Several changes in one task (a paste, a scanner burst) make one request.
        scheduled ??= new Promise<void>((resolve) =>
          queueMicrotask(() => {
            scheduled = null;
            inflight = runPreview();
            // The printer view asks for its dots at the same time, not after the scene has come back.
            if (ports.ui.getState().printerView) void get().loadRaster();
            resolve(inflight);
          }),
        );
        return scheduled;
      },

      loadRaster: async () => {
        const mine = ++rasterSeq;
        const request = label();
        if (!request) return;
        try {
          const raster = await api.invoke('preview.raster', {
            ...request,
            ...(get().printer ? { printer: get().printer! } : {}),
          });
          if (mine === rasterSeq) set({ raster, rasterError: null });
        } catch (e) {
          if (mine === rasterSeq) set({ rasterError: toUserError(e) });
        }
      },

      print: async (options = {}) => {
        if (!get().ref) return null;
        const { busy, printer } = get();
        if (busy) {
          const message =
            busy === 'print' ? 'Still sending the previous label.' : 'Wait for the current output to finish.';
          ports.ui.getState().notify({ kind: 'info', message });
          return null;
        }
        // Before the template is loaded the values are empty: printing now would send placeholders.
        if (!ready()) return null;
        if (!printer) {
          ports.ui.getState().notify({
            kind: 'error',
            error: {
              code: 'client',
              message: 'Choose a printer to print to.',
              field: null,
              action: 'choose-printer',
            },
            condition: 'no-printer',
          });
          ports.ui.getState().focusControl('printer');
          return null;
        }
        if (get().copiesProblem) {
          ports.ui.getState().focusControl('copies');
          return null;
        }
        const rules = ports.copiesSettings?.() ?? DEFAULT_COPIES_SETTINGS;
        /** More copies than Settings let through, and not the number the user said yes to. */
        const asksFirst = (n: number): boolean =>
          rules.confirmCopiesAbove > 0 && n > rules.confirmCopiesAbove && options.confirmedCopies !== n;
        const wanted = get().copies;
        if (asksFirst(wanted)) {
          set({ confirmingCopies: wanted });
          return null;
        }
        set({ confirmingCopies: null, confirmingCuts: null, confirmingOversize: null });
        // Busy from here on, so a second Enter or click while the preview settles is refused.
        set({ busy: 'print' });
        try {
          if (await blockedByProblems('print')) return null;
          if (waitsForCutsYes('print', options)) return null;
          const request = label();
          if (!request || !ready()) return null;
          // Copies typed while the preview settled: the rules again, for what would print now.
          const { copies, copiesProblem } = get();
          if (copiesProblem) {
            ports.ui.getState().focusControl('copies');
            return null;
          }
          if (asksFirst(copies)) {
            set({ confirmingCopies: copies });
            return null;
          }
          // A label wider than the printer's head is never cut without the user's choice (#42 item 1).
          if (options.oversize === undefined) {
            const fit = await api.invoke('print.fit', { ...request, printer });
            if (!fit.fits) {
              set({
                confirmingOversize: {
                  fit,
                  ...(options.confirmedCopies !== undefined
                    ? { confirmedCopies: options.confirmedCopies }
                    : {}),
                  ...(options.refocus ? { refocus: true } : {}),
                },
              });
              return null;
            }
          }
          const sent = await api.invoke('print.submit', {
            ...request,
            copies,
            printer,
            ...(options.oversize ? { oversize: options.oversize } : {}),
          });
          ports.printed?.(request.ref);
          if (sent.job) {
            ports.trackJob(sent.job);
            const title = `${copies} ${copies === 1 ? 'label' : 'labels'} of ${request.ref.name}`;
            ports.ui.getState().notify({ kind: 'job', jobId: sent.job.id, title });
          } else {
            // An OS queue took one PDF: its spooler tracks it, there is no job here to follow.
            ports.ui.getState().notify({ kind: 'info', message: sent.message });
          }
          if (!rules.keepCopiesAfterPrint) set({ copies: 1, copiesText: '1', copiesProblem: null });
          if (options.refocus) focusFirstField();
          return sent;
        } catch (e) {
          return fail(e, 'print', printer);
        } finally {
          set({ busy: null });
        }
      },

      exportAs: async (format) => {
        if (!get().ref || get().busy || !ready()) return null;
        if (get().copiesProblem) {
          ports.ui.getState().focusControl('copies');
          return null;
        }
        set({ busy: format });
        try {
          if (await blockedByProblems(format)) return null;
          const request = label();
          if (!request || !ready()) return null;
          const { copies, printer } = get();
          const file = await api.invoke('output.export', {
            ...request,
            copies,
            format,
            ...(printer ? { printer } : {}),
          });
          ports.saveFile(file);
          return file;
        } catch (e) {
          return fail(e, format);
        } finally {
          set({ busy: null });
        }
      },

      systemPrint: async (options = {}) => {
        if (!get().ref || get().busy || !ready()) return;
        set({ busy: 'system-print', confirmingCuts: null });
        try {
          if (await blockedByProblems('system-print')) return;
          if (waitsForCutsYes('system-print', options)) return;
          const request = label();
          const { detail } = get();
          if (!request || !detail) return;
          const file = await api.invoke('output.export', { ...request, copies: 1, format: 'svg' });
          ports.printSvg(decodeBase64Text(file.base64), pageSize(detail));
        } catch (e) {
          fail(e, 'system-print');
        } finally {
          set({ busy: null });
        }
      },
    };
  });
}

export type DocumentStore = ReturnType<typeof createDocumentStore>;
