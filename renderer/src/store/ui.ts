/**
 * UI state, kept apart from the document (STYLE.md §10): which screen, zoom, printer view, the selected
 * preview element, which form fields have been touched, a pending focus request, and toasts.
 */
import { createStore } from 'zustand/vanilla';
import type { UserError } from '../ipc/user-error';

export const SCREENS = ['print', 'design', 'batch', 'history', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

/** `fit`: the label fills the preview area; a number: scale where 1 is 100 % (96 px per inch). */
export type Zoom = 'fit' | number;

export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;

/** The settings screen's sections an error action can lead to. */
export type SettingsSection = 'printers' | 'hosted' | 'site';

/**
 * What an error toast is about, when that is a condition the app can see end: `no-printer` (none chosen),
 * `field:NAME` (a field's value), `printer:ID` (a printer that was not ready). The toast goes once it ends.
 */
export type ToastCondition = 'no-printer' | `field:${string}` | `printer:${string}`;

export type Toast =
  | { id: number; kind: 'job'; jobId: number; title: string }
  | { id: number; kind: 'error'; error: UserError; condition?: ToastCondition }
  | { id: number; kind: 'info'; message: string };

export type ToastInput =
  | { kind: 'job'; jobId: number; title: string }
  | { kind: 'error'; error: UserError; condition?: ToastCondition }
  | { kind: 'info'; message: string };

/** Controls outside the template's fields that a message or a key can send the cursor to. */
export type FocusTarget = 'printer' | 'copies' | 'first-field';

export interface UiState {
  screen: Screen;
  settingsSection: SettingsSection | null;
  zoom: Zoom;
  /** The scale `fit` works out to, reported by the preview (for the zoom steps from there). */
  fitScale: number;
  printerView: boolean;
  /** Markup element index selected by clicking the preview. */
  selectedElement: number | null;
  /** Fields whose problems are shown (touched by the user, or all after a print attempt). */
  touched: Record<string, true>;
  revealAllProblems: boolean;
  /**
   * A field the form should focus; `seq` makes a repeated request for the same field count; `select` also
   * selects its text (so the next scan replaces it).
   */
  focusRequest: { field: string; seq: number; select: boolean } | null;
  toasts: Toast[];
  /** A control the screen should focus (`seq` makes a repeated request count). */
  controlFocus: { target: FocusTarget; seq: number } | null;
  /**
   * Asked before the screen changes (the designer with unsaved changes): false keeps the current screen (the
   * guard then asks the user, and goes on itself once they said so).
   */
  leaveGuard: ((to: Screen) => boolean) | null;

  /** Changes screens, unless the leave guard keeps the current one (then false). */
  go(screen: Screen, section?: SettingsSection): boolean;
  setLeaveGuard(guard: ((to: Screen) => boolean) | null): void;
  setZoom(zoom: Zoom): void;
  zoomBy(direction: 1 | -1): void;
  setFitScale(scale: number): void;
  setPrinterView(on: boolean): void;
  selectElement(element: number | null): void;
  touch(field: string): void;
  revealProblems(): void;
  resetForm(): void;
  focusField(field: string, options?: { select?: boolean }): void;
  notify(toast: ToastInput): number;
  dismiss(id: number): void;
  /** The condition is over (a printer chosen, the field changed, the printer ready): its toasts go. */
  resolve(condition: ToastCondition): void;
  focusControl(target: FocusTarget): void;
  /** Follows an error's action: Settings, the printers list, or the field at fault. */
  followAction(error: UserError): void;
}

/** The next zoom step from `current` in `direction`. */
export function stepZoom(current: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((s) => s > current + 1e-6) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
  return [...ZOOM_STEPS].reverse().find((s) => s < current - 1e-6) ?? ZOOM_STEPS[0];
}

/** A toast about the Print screen's form (a field's value): it means nothing on another screen or template. */
const aboutTheForm = (t: Toast): boolean => t.kind === 'error' && !!t.condition?.startsWith('field:');

export function createUiStore() {
  let nextToast = 1;
  let focusSeq = 0;
  return createStore<UiState>()((set, get) => ({
    screen: 'print',
    settingsSection: null,
    zoom: 'fit',
    fitScale: 1,
    printerView: false,
    selectedElement: null,
    touched: {},
    revealAllProblems: false,
    focusRequest: null,
    toasts: [],
    controlFocus: null,
    leaveGuard: null,

    go: (screen, section) => {
      const { leaveGuard, screen: current } = get();
      if (screen !== current && leaveGuard && !leaveGuard(screen)) return false;
      // A form's toasts stay with the form (#42 item 3): they do not follow the user to other screens.
      const toasts = screen !== current ? get().toasts.filter((t) => !aboutTheForm(t)) : get().toasts;
      set({ screen, settingsSection: section ?? null, toasts });
      return true;
    },
    setLeaveGuard: (leaveGuard) => set({ leaveGuard }),
    setZoom: (zoom) => set({ zoom }),
    zoomBy: (direction) => {
      const { zoom, fitScale } = get();
      set({ zoom: stepZoom(zoom === 'fit' ? fitScale : zoom, direction) });
    },
    setFitScale: (fitScale) => set({ fitScale }),
    setPrinterView: (printerView) => set({ printerView }),
    selectElement: (selectedElement) => set({ selectedElement }),
    touch: (field) => {
      if (!get().touched[field]) set({ touched: { ...get().touched, [field]: true } });
    },
    revealProblems: () => set({ revealAllProblems: true }),
    resetForm: () =>
      set({
        touched: {},
        revealAllProblems: false,
        selectedElement: null,
        toasts: get().toasts.filter((t) => !aboutTheForm(t)),
      }),
    focusField: (field, options) =>
      set({ focusRequest: { field, seq: ++focusSeq, select: options?.select ?? false } }),
    notify: (toast) => {
      const id = nextToast++;
      // Errors replace an identical one rather than stacking up while a printer stays offline.
      const toasts = get().toasts.filter(
        (t) => !(t.kind === 'error' && toast.kind === 'error' && t.error.message === toast.error.message),
      );
      set({ toasts: [...toasts, { ...toast, id } as Toast].slice(-5) });
      return id;
    },
    dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
    resolve: (condition) => {
      const toasts = get().toasts.filter((t) => !(t.kind === 'error' && t.condition === condition));
      if (toasts.length !== get().toasts.length) set({ toasts });
    },
    focusControl: (target) => set({ controlFocus: { target, seq: ++focusSeq } }),
    // Through `go`: unsaved changes in the designer are asked about first (the action is then not taken).
    followAction: (error) => {
      switch (error.action) {
        case 'settings':
          get().go('settings', 'hosted');
          return;
        case 'printers':
          get().go('settings', 'printers');
          return;
        case 'field':
          if (get().go('print') && error.field) get().focusField(error.field);
          return;
        case 'choose-printer':
          if (get().go('print')) get().focusControl('printer');
          return;
        case null:
          return;
      }
    },
  }));
}

export type UiStore = ReturnType<typeof createUiStore>;
