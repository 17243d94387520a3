/**
 * The label as the form describes it, in every form the app shows or saves: the live preview's Scene (local,
 * on every keystroke, never costing a hosted print), the printer view (the 1-bit raster at the printer's dpi),
 * and files (PDF, ZPL, SVG, PNG). Files and prints get their markup from the selected backend (hosted API or
 * bundled engine); the preview always resolves locally from the template it shows.
 */
import { checkValues } from '../../src/resolve/values';
import { printedBarcodeProblems } from '../../src/model/barcode-fields';
import { resolve, resolveOne } from '../../src/resolve/resolve';
import { IpcError } from '../../src/ipc/errors';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { prepareImages } from '../../src/engine/incomplete-markup';
import {
  renderPdfLabels,
  renderPngLabels,
  renderSvgLabels,
  renderZplLabels,
  type RenderPorts,
} from '../../src/outputs/render';
import { defaultPrintWidthDots } from '../../src/printers/profiles';
import {
  burnedBitmap,
  checkFit,
  checkMarkupsFit,
  cutSummary,
  fitProblem,
  type PrintArea,
} from '../../src/outputs/fit';
import { FALLBACK_DPI, type PrinterSetup } from '../../src/node/printers/setup';
import type { Markup, Template } from '../../src/model/schema';
import { parseTemplate } from '../../src/model/parse';
import { PreviewSender } from '../../src/ipc/wire-scene';
import { filled, previewLabel, previewLayout } from '../../src/ipc/preview-label';
import type {
  ExportedFile,
  FieldValues,
  OutputFormat,
  PreviewResult,
  PrinterView,
  PrintFit,
  RasterPreview,
  TemplateRef,
} from '../../src/ipc/contract';
import { assertNever } from '../../src/base/assert-never';
import { bytesToBase64 } from '../../src/render/base64';
import type { Connection } from './connection';
import type { AppPrinters } from './printers';
import type { AppTemplates } from './templates';
import { monoToPng } from './mono-png';

/** Preview scenes kept for the next request to build on. */
const SENT_SCENES_KEPT = 16;

export interface LabelEntry {
  template: Template;
  /** The template file's folder (user templates), where relative image paths are read. */
  baseDir?: string;
  ports: RenderPorts;
}

export interface Rendering {
  /** `since`: the id of a preview scene sent before, so only the nodes that changed since are sent. */
  preview(ref: TemplateRef, values: FieldValues, since?: string): Promise<PreviewResult>;
  /** The printer view: what the head burns, the label cut to the printer's width (never asks the printer). */
  raster(ref: TemplateRef, values: FieldValues, printer: PrinterView | undefined): Promise<RasterPreview>;
  /** Whether the label fits the printer (asked before a print; the printer is asked its dpi when unknown). */
  fit(ref: TemplateRef, printer: PrinterView): Promise<PrintFit>;
  /** The designer's printer view: a template not saved yet (checked first), 1-bit at `dpi`. */
  templateRaster(template: unknown, values: FieldValues, dpi: number): Promise<RasterPreview>;
  /** The designer's document drawn by main (whole scene), for what the page's engine cannot draw. */
  templateScene(template: unknown, values: FieldValues): Promise<PreviewResult>;
  /** The template, looked up once per print or export, and the ports that read its relative image paths. */
  entry(ref: TemplateRef): Promise<LabelEntry>;
  /**
   * Markup for `copies` labels from the backend that prints this template (hosted calls count as prints), after
   * the form's rules are checked.
   */
  markups(entry: LabelEntry, ref: TemplateRef, values: FieldValues, copies: number): Promise<Markup[]>;
  /** One PDF of the labels (for an OS queue's driver). */
  pdf(entry: LabelEntry, list: readonly Markup[]): Promise<Uint8Array>;
  export(
    ref: TemplateRef,
    values: FieldValues,
    copies: number,
    format: OutputFormat,
    printer: PrinterView | undefined,
  ): Promise<ExportedFile>;
}

/** Refuses values the template's field rules refuse (required, pattern, type, length), naming the field. */
export function checkLabel(template: Template, values: FieldValues): void {
  const given = filled(values);
  const [problem] = checkValues(template, given);
  if (problem)
    throw new IpcError('invalid', problem.message, problem.path.replace(/^apiData\./, ''), 'field');
  // A field left empty whose barcode would then have nothing to encode (#42 item 3): the field's sentence.
  const [empty] = printedBarcodeProblems(template, given).filter((p) => p.field !== null);
  if (empty) throw new IpcError('invalid', empty.message, empty.field, 'field');
}

const fileBase = (template: Template) => template.name.replace(/[^\w.-]+/g, '_');

export function createRendering(deps: {
  templates: AppTemplates;
  printers: AppPrinters;
  connection: Connection;
  /** Render ports reading relative image paths from `baseDir` (a template's folder). */
  ports: (baseDir?: string) => RenderPorts;
}): Rendering {
  const { templates, printers, connection } = deps;

  /** Without a printer: 203 dpi, a 4 in head (the most common thermal printer). */
  const setupFor = async (
    printer: PrinterView | undefined,
  ): Promise<Pick<PrinterSetup, 'dpi' | 'zpl' | 'lengthDots'>> =>
    printer
      ? printers.setup(printer)
      : { dpi: FALLBACK_DPI, zpl: { maxWidthDots: defaultPrintWidthDots(FALLBACK_DPI) } };

  /**
   * The template, and the ports that read its relative image paths from its own folder. `cached`: a site
   * template as fetched last (previews on every keystroke); prints and files ask the site for it as it is now.
   */
  const entryOf = async (ref: TemplateRef, cached = false): Promise<LabelEntry> => {
    const entry = await templates.get(ref, cached);
    const baseDir = entry.file ? dirname(entry.file) : undefined;
    return { template: entry.template, ports: deps.ports(baseDir), ...(baseDir ? { baseDir } : {}) };
  };

  const localMarkup = async (ref: TemplateRef, values: FieldValues) => {
    const { template, ports } = await entryOf(ref, true);
    return { template, ports, markup: resolveOne(template, filled(values)) };
  };

  const markups = async (
    { template }: LabelEntry,
    ref: TemplateRef,
    values: FieldValues,
    copies: number,
  ): Promise<Markup[]> => {
    // The form's rules hold whoever renders: a label with a required field missing is not printed or saved.
    checkLabel(template, values);
    const backend = await connection.backendFor(ref.source);
    if (backend.kind === 'local') {
      await connection.refuseLocalCounters(template, 'print');
      return resolve(template, filled(values), copies);
    }
    return connection.track(() =>
      backend.fetchMarkups({ label_name: ref.name, amount: copies, apiData: filled(values) }),
    );
  };

  const zpl = async (
    list: readonly Markup[],
    printer: PrinterView | undefined,
    ports: RenderPorts,
  ): Promise<string[]> => {
    const { dpi, zpl: settings } = await setupFor(printer);
    return (await renderZplLabels(list, { dpi, ...settings }, ports)).labels;
  };

  /**
   * The preview scenes sent lately, for the next request to build on (a few: one per window that types, and the
   * answers still in flight). Ids carry this process's own prefix, so a renderer that outlived a restart of
   * main never builds on another process's scene.
   */
  const previews = new PreviewSender(randomUUID().slice(0, 8), SENT_SCENES_KEPT);

  /**
   * One label's markup as the print head burns it at `dpi`: a 1-bit PNG of the dots the printed ZPL holds —
   * cut to the printer's `area` when there is one (the designer's view has none: the whole label).
   */
  const rasterOf = async (
    markup: Markup,
    ports: RenderPorts,
    dpi: number,
    dpiAssumed: boolean,
    area?: PrintArea,
  ): Promise<RasterPreview> => {
    const scene = await previewLayout(markup, ports, { unit: 'dots', dpi });
    const label = ports.toMonoBitmap(scene, ports.fonts);
    const check = area ? checkFit({ widthDots: label.width, heightDots: label.height }, area) : undefined;
    const bitmap = area ? burnedBitmap(label, area) : label;
    return {
      dataUrl: `data:image/png;base64,${bytesToBase64(monoToPng(bitmap, dpi))}`,
      dpi,
      dpiAssumed,
      widthDots: bitmap.width,
      heightDots: bitmap.height,
      labelWidthDots: label.width,
      labelHeightDots: label.height,
      cut: check && !check.fits ? cutSummary(check) : null,
    };
  };

  /** Its profile's print width and, when a calibration measured it, the loaded labels' length. */
  const printAreaOf = async (printer: PrinterView, dpi: number): Promise<PrintArea> => {
    const lengthDots = await printers.labelLength(printer, dpi);
    return {
      dpi,
      widthDots: await printers.printWidth(printer, dpi),
      ...(lengthDots !== undefined ? { lengthDots } : {}),
    };
  };

  /**
   * The printer's print area for the printer view: its profile's dpi and width, never asking it. Without a
   * printer (or for an OS queue, whose driver lays the page out) there is no head to cut the label.
   */
  const viewArea = async (printer: PrinterView | undefined, dpi: number): Promise<PrintArea | undefined> =>
    printer && printer.language === 'zpl' ? await printAreaOf(printer, dpi) : undefined;

  /** Files: the same policy, the images loaded once. */
  const ready = (list: readonly Markup[], ports: RenderPorts) => prepareImages(list, ports, 'omit');

  return {
    async preview(ref, values, since) {
      const { template, ports } = await entryOf(ref, true);
      const { scene, problems, cuts } = await previewLabel(template, values, ports);
      return { scene: previews.send(scene, ports.fonts, since), problems, cuts };
    },

    async raster(ref, values, printer) {
      const { markup, ports } = await localMarkup(ref, values);
      // Never asks the printer (this runs on every keystroke, maybe while the printer prints): the profile's
      // dpi, else the list's, else 203 said to be a guess.
      const known = printer ? ((await printers.profileDpi(printer)) ?? printer.dpi) : null;
      const dpi = known ?? FALLBACK_DPI;
      return rasterOf(markup, ports, dpi, known === null, await viewArea(printer, dpi));
    },

    async fit(ref, printer) {
      const { template } = await entryOf(ref, true);
      // An OS queue's driver lays the PDF out on its paper: nothing of ours to cut.
      if (printer.language === 'pdf')
        return { fits: true, problem: '', cut: '', rotates: false, fitPercent: 100 };
      const { dpi, zpl: settings, lengthDots } = await setupFor(printer);
      const check = checkMarkupsFit([template], {
        dpi,
        widthDots: settings.maxWidthDots ?? defaultPrintWidthDots(dpi),
        ...(lengthDots !== undefined ? { lengthDots } : {}),
      });
      return {
        fits: check.fits,
        problem: fitProblem(template.name, check),
        cut: cutSummary(check),
        rotates: check.rotates,
        fitPercent: Math.round((check.fitDpi / dpi) * 100),
      };
    },

    async templateRaster(value, values, dpi) {
      // Throws TemplateValidationError naming every path and problem, as a save would.
      const template = parseTemplate(value);
      return rasterOf(resolveOne(template, filled(values)), deps.ports(), dpi, false);
    },

    async templateScene(value, values) {
      const template = parseTemplate(value);
      const ports = deps.ports();
      const { scene, problems, cuts } = await previewLabel(template, values, ports);
      return { scene: previews.send(scene, ports.fonts, undefined), problems, cuts };
    },

    entry: (ref) => entryOf(ref),
    markups,
    async pdf({ template, ports: given }, received) {
      const { markups: list, ports } = await ready(received, given);
      const [pdf] = await renderPdfLabels(list, ports, { merge: true, title: template.name });
      return pdf!;
    },

    async export(ref, values, copies, format, printer) {
      const entry = await entryOf(ref);
      const { template } = entry;
      // One SVG or PNG is one label: ask for one (a hosted call counts every copy as a print).
      const received = await markups(entry, ref, values, format === 'svg' || format === 'png' ? 1 : copies);
      const { markups: list, ports } = await ready(received, entry.ports);
      const base = fileBase(template);
      switch (format) {
        case 'pdf': {
          const [pdf] = await renderPdfLabels(list, ports, { merge: true, title: template.name });
          return { fileName: `${base}.pdf`, mime: 'application/pdf', base64: bytesToBase64(pdf!) };
        }
        case 'zpl': {
          const labels = await zpl(list, printer, ports);
          const text = labels.join('\n');
          return {
            fileName: `${base}.zpl`,
            mime: 'text/plain',
            base64: bytesToBase64(new TextEncoder().encode(text)),
          };
        }
        case 'svg': {
          const [svg] = await renderSvgLabels(list, ports);
          return {
            fileName: `${base}.svg`,
            mime: 'image/svg+xml',
            base64: bytesToBase64(new TextEncoder().encode(svg!)),
          };
        }
        case 'png': {
          const [png] = await renderPngLabels(list, 300, ports);
          return { fileName: `${base}.png`, mime: 'image/png', base64: bytesToBase64(png!) };
        }
        default:
          return assertNever(format, 'output format');
      }
    },
  };
}
