/**
 * A ZPL file made elsewhere (a carrier's label; issue #33) on the Print screen: opened (read here, sized before
 * it is read, read by main's ZPL reader), its labels listed, the selected one shown as the printer burns it,
 * printed through main's job queue, exported as PDF or PNG.
 */
import { createStore } from 'zustand/vanilla';
import {
  ZPL_FILE_MAX_BYTES,
  type ExportedFile,
  type JobView,
  type LabelDeskApi,
  type RasterPreview,
  type ZplFileView,
} from '../../../src/ipc/contract';
import { toUserError, type UserError } from '../ipc/user-error';

/** What the store needs of a picked or dropped file (a browser `File`). */
export interface PickedFile {
  name: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export const ZPL_FILE_EXTENSIONS = ['.zpl', '.prn', '.txt'] as const;

export interface ZplState {
  file: ZplFileView | null;
  /** The label shown large (1-based). */
  selected: number;
  raster: RasterPreview | null;
  /** The printer the file prints on and is drawn for. */
  printer: string | null;
  copies: number;
  keepSettings: boolean;
  /** Save `keepSettings` as the printer's choice with the next print. */
  remember: boolean;
  /** A file made for another dpi: sent as it is (printed larger or smaller) rather than re-rasterised. */
  asIs: boolean;
  opening: boolean;
  printing: boolean;
  error: UserError | null;
  message: string | null;

  open(file: PickedFile): Promise<void>;
  close(): void;
  select(number: number): Promise<void>;
  setPrinter(id: string | null): Promise<void>;
  setCopies(copies: number): void;
  setKeepSettings(keep: boolean): void;
  setRemember(remember: boolean): void;
  setAsIs(asIs: boolean): void;
  print(): Promise<void>;
  export(format: 'pdf' | 'png'): Promise<void>;
}

/** Bytes → base64, in slices (a spread of megabytes would overflow the call stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

const clientError = (message: string): UserError => ({ code: 'client', message, field: null, action: null });

export function createZplStore(
  api: LabelDeskApi,
  ports: {
    trackJob: (job: JobView) => void;
    saveFile: (file: ExportedFile) => void;
    /** A printer's profile changed (a choice remembered): the printer list is read again. */
    printersChanged?: () => Promise<void>;
  },
) {
  return createStore<ZplState>()((set, get) => {
    const loadRaster = async () => {
      const { file, selected, printer } = get();
      if (!file) return;
      try {
        const raster = await api.invoke('zpl.label', {
          token: file.token,
          number: selected,
          ...(printer ? { printer } : {}),
        });
        // Only the label still selected, of the file still open.
        if (get().file === file && get().selected === selected) set({ raster });
      } catch (e) {
        set({ error: toUserError(e) });
      }
    };

    return {
      file: null,
      selected: 1,
      raster: null,
      printer: null,
      copies: 1,
      keepSettings: false,
      remember: false,
      asIs: false,
      opening: false,
      printing: false,
      error: null,
      message: null,

      async open(picked) {
        const lower = picked.name.toLowerCase();
        if (!ZPL_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) {
          set({ error: clientError(`${picked.name} is not a ZPL file (.zpl, .prn or .txt): not opened.`) });
          return;
        }
        // The budget before the work: a file too large is not read, let alone sent.
        if (picked.size > ZPL_FILE_MAX_BYTES) {
          set({
            error: clientError(
              `${picked.name} is ${(picked.size / 1048576).toFixed(1)} MB; a ZPL file is at most ${ZPL_FILE_MAX_BYTES / 1048576} MB: not opened.`,
            ),
          });
          return;
        }
        set({ opening: true, error: null, message: null });
        try {
          const base64 = toBase64(new Uint8Array(await picked.arrayBuffer()));
          const { printer } = get();
          const file = await api.invoke('zpl.open', {
            fileName: picked.name,
            base64,
            ...(printer ? { printer } : {}),
          });
          set({ file, selected: 1, raster: null, opening: false, keepSettings: false, asIs: false });
          await loadRaster();
        } catch (e) {
          set({ opening: false, error: toUserError(e) });
        }
      },

      close() {
        set({ file: null, raster: null, selected: 1, error: null, message: null });
      },

      async select(number) {
        set({ selected: number, raster: null });
        await loadRaster();
      },

      async setPrinter(id) {
        set({ printer: id, raster: null });
        await loadRaster();
      },

      setCopies(copies) {
        set({ copies });
      },

      setKeepSettings(keep) {
        set({ keepSettings: keep, remember: false });
      },

      setRemember(remember) {
        set({ remember });
      },

      setAsIs(asIs) {
        set({ asIs });
      },

      async print() {
        const { file, printer, copies, keepSettings, asIs, remember, printing } = get();
        // A second click while the print is being made is that print, not another.
        if (!file || printing) return;
        if (!printer) {
          set({ error: clientError('Choose a printer to print the file on.') });
          return;
        }
        set({ printing: true, error: null, message: null });
        try {
          const { job, message } = await api.invoke('zpl.print', {
            token: file.token,
            printer,
            copies,
            keepSettings,
            asIs,
            ...(remember ? { remember } : {}),
          });
          ports.trackJob(job);
          set({ printing: false, message, remember: false });
          if (remember) await ports.printersChanged?.();
        } catch (e) {
          set({ printing: false, error: toUserError(e) });
        }
      },

      async export(format) {
        const { file, selected, printer } = get();
        if (!file) return;
        try {
          ports.saveFile(
            await api.invoke('zpl.export', {
              token: file.token,
              format,
              number: selected,
              ...(printer ? { printer } : {}),
            }),
          );
        } catch (e) {
          set({ error: toUserError(e) });
        }
      },
    };
  });
}
