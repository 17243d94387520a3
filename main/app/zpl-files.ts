/**
 * ZPL files made elsewhere (a carrier's label; issue #33 items 3 and 4) in the app: opened from the Print
 * screen (the renderer reads the file, main reads its ZPL), each label shown as the printer burns it, printed
 * through the job queue as `labeldesk print --zpl` does (src/zpl/print-plan.ts: each label its own bytes,
 * settings and printer commands taken out unless kept), exported as PDF or PNG.
 *
 * An opened file is kept here under a token (the last few), so its bytes cross IPC once.
 */
import { zplFieldTexts } from '../../src/zpl/field-texts';
import type { ZplFileOptions } from '../../src/printers/zpl-file-options';
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import type { ExportedFile, JobView, PrinterView, RasterPreview, ZplFileView } from '../../src/ipc/contract';
import { ZPL_FILE_MAX_BYTES } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { FALLBACK_DPI } from '../../src/node/printers/setup';
import { monoToPng } from '../../src/node/mono-png';
import type { RenderPorts } from '../../src/outputs/render';
import { bytesToBase64 } from '../../src/render/base64';
import { renderPdf } from '../../src/render/pdf';
import { describeFindings, planZplPrint } from '../../src/zpl/print-plan';
import { readZpl, warningText, ZplBudgetError, type ZplLabel } from '../../src/zpl/read';
import { sameDpi, zplFileDpi } from '../../src/zpl/file-dpi';
import { rerasterZplLabels } from '../../src/zpl/reraster';

/** Opened files kept for their printer view, print and exports (one per window that uses it, and a spare). */
const FILES_KEPT = 4;

interface OpenFile {
  fileName: string;
  bytes: Uint8Array;
  /** Read at a dpi: the labels' scenes, in dots at it. */
  read: Map<number, ZplLabel[]>;
}

export interface AppZplFiles {
  open(fileName: string, base64: string, printer: PrinterView | undefined): Promise<ZplFileView>;
  label(token: string, number: number, printer: PrinterView | undefined): Promise<RasterPreview>;
  print(
    token: string,
    printer: PrinterView,
    copies: number,
    keepSettings: boolean,
    /** A file made for another dpi: its bytes unchanged (it prints larger or smaller), not re-rasterised. */
    asIs: boolean,
    /** Save `keepSettings` as the printer's choice for ZPL files. */
    remember?: boolean,
  ): Promise<{ job: JobView; message: string }>;
  export(
    token: string,
    format: 'pdf' | 'png',
    number: number | undefined,
    printer: PrinterView | undefined,
  ): Promise<ExportedFile>;
}

/** The text of a label's first `^FD` (its first field), for the list. */
const firstFieldText = (bytes: Uint8Array): string =>
  zplFieldTexts(new TextDecoder('latin1').decode(bytes), 1)[0] ?? '';

const inches = (dots: number, dpi: number) => `${Math.round((dots / dpi) * 100) / 100}`;

export function createAppZplFiles(deps: {
  ports: () => RenderPorts;
  /** The printer's dpi from its profile (never asks the printer), null when unknown. */
  dpiOf: (printer: PrinterView) => Promise<number | null>;
  /** The printer's print width in dots at `dpi` (its profile's). */
  printWidth: (printer: PrinterView, dpi: number) => Promise<number>;
  /** How a ZPL file prints on `printer`: the print's choice of settings, else its profile's, else strip. */
  fileOptions: (printer: PrinterView, keepSettings: boolean) => Promise<ZplFileOptions>;
  /** Saves the settings choice in the printer's profile. */
  rememberSettings: (printer: PrinterView, keep: boolean) => Promise<void>;
  /** Stores the labels as a job on `printer` and starts it (src/node/jobs addZplJob). */
  addZplJob: (
    name: string,
    printer: PrinterView,
    labels: readonly { bytes: Uint8Array; copies: number }[],
  ) => Promise<JobView>;
}): AppZplFiles {
  const files = new Map<string, OpenFile>();

  const fileOf = (token: string): OpenFile => {
    const file = files.get(token);
    if (!file) throw new IpcError('not-found', 'This ZPL file is no longer open: open it again.');
    return file;
  };

  const dpiFor = async (printer: PrinterView | undefined) => {
    const known = printer ? ((await deps.dpiOf(printer)) ?? printer.dpi) : null;
    return { dpi: known ?? FALLBACK_DPI, assumed: known === null };
  };

  const labelsAt = (file: OpenFile, dpi: number): ZplLabel[] => {
    let labels = file.read.get(dpi);
    if (!labels) {
      labels = readZpl(file.bytes, { fonts: deps.ports().fonts, dpi }).labels;
      file.read.set(dpi, labels);
    }
    return labels;
  };

  const labelOf = (file: OpenFile, number: number, dpi: number): ZplLabel => {
    const label = labelsAt(file, dpi)[number - 1];
    if (!label) throw new IpcError('not-found', `${file.fileName} has no label ${number}.`);
    return label;
  };

  const baseName = (fileName: string) =>
    (fileName.slice(0, fileName.length - extname(fileName).length) || 'label').replace(/[^\w.-]+/g, '_');

  /** Prints being made, by token: a second click (a second window) while one is made is that print, not two. */
  const printing = new Map<string, Promise<{ job: JobView; message: string }>>();

  /** The file's dpi against the printer's (known dpi only: a guess is never a reason to redraw a label). */
  const mismatchOf = async (
    bytes: Uint8Array,
    printer: PrinterView | undefined,
  ): Promise<ZplFileView['dpiMismatch']> => {
    const known = printer ? ((await deps.dpiOf(printer)) ?? printer.dpi) : null;
    if (!printer || known === null || printer.language !== 'zpl') return null;
    const made = zplFileDpi(bytes, { dpi: known, printWidthDots: await deps.printWidth(printer, known) }).dpi;
    if (made.kind !== 'known' || sameDpi(made.dpi, known)) return null;
    return { fileDpi: made.dpi, printerDpi: known, how: made.how };
  };

  const printOnce: AppZplFiles['print'] = async (token, printer, copies, keepSettings, asIs, remember) => {
    const file = fileOf(token);
    if (printer.language !== 'zpl')
      throw new IpcError(
        'printer',
        `${printer.name} takes documents, not ZPL: save the labels as PDF to print them there.`,
        'printer',
      );
    // The settings as the Print screen says; commands beyond the label as the printer's profile says (strip).
    const options = await deps.fileOptions(printer, keepSettings);
    const plan = planZplPrint(file.bytes, {
      keepSettings: options.keepSettings,
      allowPrinterCommands: options.allowPrinterCommands,
    });
    if (!plan.labels.length)
      throw new IpcError('invalid', `${file.fileName} has no label in it (no ^XA…^XZ): nothing was printed.`);
    if (remember) await deps.rememberSettings(printer, keepSettings);
    const mismatch = asIs ? null : await mismatchOf(file.bytes, printer);
    let once: { bytes: Uint8Array; copies: number }[] = plan.labels;
    if (mismatch) {
      // Drawn again at the printer's dpi so each label keeps its size (as `labeldesk print --zpl` does).
      const ports = deps.ports();
      const redrawn = rerasterZplLabels(file.bytes, plan, {
        fromDpi: mismatch.fileDpi,
        toDpi: mismatch.printerDpi,
        fonts: ports.fonts,
        toMonoBitmap: ports.toMonoBitmap,
        maxWidthDots: await deps.printWidth(printer, mismatch.printerDpi),
        ...(ports.deflate ? { deflate: ports.deflate } : {}),
      });
      once = plan.labels.map((l, i) => ({ bytes: redrawn.labels[i] ?? l.bytes, copies: l.copies }));
    }
    const labels = Array.from({ length: copies }, () => once).flat();
    const job = await deps.addZplJob(file.fileName, printer, labels);
    const n = labels.length;
    return { job, message: `${n} label${n === 1 ? '' : 's'} of ${file.fileName} sent to ${printer.name}.` };
  };

  return {
    async open(fileName, base64, printer) {
      const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
      if (bytes.length > ZPL_FILE_MAX_BYTES)
        throw new IpcError('invalid', `${fileName} is over ${ZPL_FILE_MAX_BYTES / 1048576} MB: not opened.`);
      const { dpi } = await dpiFor(printer);
      let read: ReturnType<typeof readZpl>;
      let plan: ReturnType<typeof planZplPrint>;
      try {
        read = readZpl(bytes, { fonts: deps.ports().fonts, dpi });
        plan = planZplPrint(bytes, { keepSettings: false, allowPrinterCommands: false });
      } catch (e) {
        if (e instanceof ZplBudgetError) throw new IpcError('invalid', `${fileName}: ${e.message}`);
        throw e;
      }
      if (!read.labels.length)
        throw new IpcError(
          'invalid',
          `${fileName} has no label in it (no ^XA…^XZ): there is nothing to print.`,
        );
      const token = randomBytes(16).toString('hex');
      files.set(token, { fileName, bytes, read: new Map([[dpi, read.labels]]) });
      while (files.size > FILES_KEPT) files.delete(files.keys().next().value!);

      const warnings = plan.warnings.map(warningText);
      read.labels.forEach((label, i) => {
        for (const w of label.warnings) warnings.push(`Label ${i + 1}: ${warningText(w)}`);
      });
      const settings = plan.settings.length ? describeFindings(plan.settings) : null;
      const printerCommands = plan.printerCommands.length ? describeFindings(plan.printerCommands) : null;
      if (settings)
        warnings.push(
          `The file sets the printer: ${settings}. These are taken out unless you keep the file's printer settings.`,
        );
      if (printerCommands)
        warnings.push(`Commands that reach beyond the label are taken out: ${printerCommands}.`);
      const dpiMismatch = await mismatchOf(bytes, printer);
      if (dpiMismatch)
        warnings.push(
          `${fileName} was made for ${dpiMismatch.fileDpi} dpi (${dpiMismatch.how}) and the printer prints at ${dpiMismatch.printerDpi} dpi.`,
        );
      return {
        token,
        fileName,
        dpiMismatch,
        labels: read.labels.map((label, i) => ({
          number: i + 1,
          widthDots: label.scene.width,
          heightDots: label.scene.height,
          size: `${inches(label.scene.width, dpi)} × ${inches(label.scene.height, dpi)} in`,
          summary: firstFieldText(bytes.subarray(label.source.start, label.source.end)),
          copies: label.copies,
        })),
        warnings,
        settings,
        printerCommands,
      };
    },

    async label(token, number, printer) {
      const file = fileOf(token);
      const { dpi, assumed } = await dpiFor(printer);
      const ports = deps.ports();
      const bitmap = ports.toMonoBitmap(labelOf(file, number, dpi).scene, ports.fonts);
      return {
        dataUrl: `data:image/png;base64,${bytesToBase64(monoToPng(bitmap, dpi))}`,
        dpi,
        dpiAssumed: assumed,
        widthDots: bitmap.width,
        heightDots: bitmap.height,
        labelWidthDots: bitmap.width,
        labelHeightDots: bitmap.height,
        cut: null,
      };
    },

    print(token, printer, copies, keepSettings, asIs, remember) {
      const running = printing.get(token);
      if (running) return running;
      const made = printOnce(token, printer, copies, keepSettings, asIs, remember).finally(() =>
        printing.delete(token),
      );
      printing.set(token, made);
      return made;
    },

    async export(token, format, number, printer) {
      const file = fileOf(token);
      const { dpi } = await dpiFor(printer);
      const ports = deps.ports();
      const base = baseName(file.fileName);
      if (format === 'pdf') {
        const pdf = await renderPdf(
          labelsAt(file, dpi).map((l) => l.scene),
          ports.fonts,
          ports.deflate ? { deflate: ports.deflate } : {},
        );
        return { fileName: `${base}.pdf`, mime: 'application/pdf', base64: bytesToBase64(pdf) };
      }
      const n = number ?? 1;
      const png = monoToPng(ports.toMonoBitmap(labelOf(file, n, dpi).scene, ports.fonts), dpi);
      return { fileName: `${base}-${n}.png`, mime: 'image/png', base64: bytesToBase64(png) };
    },
  };
}
