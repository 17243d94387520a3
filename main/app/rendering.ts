/**
 * The label as the form describes it, in every form the app shows or saves: the live preview's Scene (local,
 * on every keystroke, never costing a hosted print), the printer view (the 1-bit raster at the printer's dpi),
 * and files (PDF, ZPL, SVG, PNG). Files and prints get their markup from the selected backend (hosted API or
 * bundled engine); the preview always resolves locally from the template it shows.
 */
import { checkValues } from '../../src/resolve/values';
import { resolveOne } from '../../src/resolve/resolve';
import { layout } from '../../src/layout/layout';
import { collectImageUrls } from '../../src/layout/images';
import {
  renderPdfLabels,
  renderPngLabels,
  renderSvgLabels,
  renderZplLabels,
  type RenderPorts,
} from '../../src/engine/render';
import { defaultPrintWidthDots } from '../../src/printers/profiles';
import { FALLBACK_DPI } from '../jobs/printer-setup';
import type { Markup, Template } from '../../src/template/schema';
import { toWireScene } from '../../src/ipc/wire-scene';
import type {
  ExportedFile,
  FieldValues,
  OutputFormat,
  PreviewResult,
  PrinterView,
  RasterPreview,
  TemplateRef,
} from '../../src/ipc/contract';
import { assertNever } from '../../src/layout/scene';
import { bytesToBase64 } from '../../src/render/base64';
import type { Connection } from './connection';
import type { AppPrinters } from './printers';
import type { AppTemplates } from './templates';
import { monoToPng } from './mono-png';

export interface Rendering {
  preview(ref: TemplateRef, values: FieldValues): Promise<PreviewResult>;
  raster(ref: TemplateRef, values: FieldValues, printer: PrinterView | undefined): Promise<RasterPreview>;
  /** Markup for `copies` labels from the backend that prints this template (hosted calls count as prints). */
  markups(ref: TemplateRef, values: FieldValues, copies: number): Promise<Markup[]>;
  /** ZPL for a printer: its dpi, width, offsets and darkness. */
  zpl(markups: readonly Markup[], printer: PrinterView | undefined): Promise<string[]>;
  export(
    ref: TemplateRef,
    values: FieldValues,
    copies: number,
    format: OutputFormat,
    printer: PrinterView | undefined,
  ): Promise<ExportedFile>;
}

/** Values the form holds, minus empties (an empty field prints its placeholder, as the API does). */
export function filled(values: FieldValues): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

const fileBase = (template: Template) => template.name.replace(/[^\w.-]+/g, '_');

export function createRendering(deps: {
  templates: AppTemplates;
  printers: AppPrinters;
  connection: Connection;
  ports: () => RenderPorts;
}): Rendering {
  const { templates, printers, connection } = deps;

  /** Without a printer: 203 dpi, a 4 in head (the most common thermal printer). */
  const setupFor = async (printer: PrinterView | undefined) =>
    printer
      ? printers.setup(printer)
      : { dpi: FALLBACK_DPI, zpl: { maxWidthDots: defaultPrintWidthDots(FALLBACK_DPI) } };

  const localMarkup = async (ref: TemplateRef, values: FieldValues) => {
    const { template } = await templates.get(ref);
    return { template, markup: resolveOne(template, filled(values)) };
  };

  const markups = async (ref: TemplateRef, values: FieldValues, copies: number): Promise<Markup[]> => {
    const backend = await connection.backendFor(ref.source);
    if (backend.kind === 'local') {
      const { markup } = await localMarkup(ref, values);
      return Array.from({ length: copies }, () => structuredClone(markup));
    }
    return connection.track(() =>
      backend.fetchMarkups({ label_name: ref.name, amount: copies, apiData: filled(values) }),
    );
  };

  const zpl = async (list: readonly Markup[], printer: PrinterView | undefined): Promise<string[]> => {
    const { dpi, zpl: settings } = await setupFor(printer);
    return (await renderZplLabels(list, { dpi, ...settings }, deps.ports())).labels;
  };

  return {
    async preview(ref, values) {
      const { template, markup } = await localMarkup(ref, values);
      const ports = deps.ports();
      const images = await ports.loadImages(collectImageUrls([markup]));
      // `mark`: an element that cannot render (a barcode value its symbology refuses) is drawn as a marked box
      // with a warning, so the preview keeps following the typing.
      const scene = layout(markup, { fonts: ports.fonts, images, target: { unit: 'px' }, onInvalid: 'mark' });
      const problems = checkValues(template, filled(values)).map((p) => ({
        field: p.path.replace(/^apiData\./, ''),
        message: p.message,
      }));
      return { scene: toWireScene(scene, ports.fonts), problems };
    },

    async raster(ref, values, printer) {
      const { markup } = await localMarkup(ref, values);
      const { dpi } = await setupFor(printer);
      const ports = deps.ports();
      const images = await ports.loadImages(collectImageUrls([markup]));
      const scene = layout(markup, {
        fonts: ports.fonts,
        images,
        target: { unit: 'dots', dpi },
        onInvalid: 'mark',
      });
      const bitmap = ports.toMonoBitmap(scene, ports.fonts);
      return {
        dataUrl: `data:image/png;base64,${bytesToBase64(monoToPng(bitmap, dpi))}`,
        dpi,
        widthDots: bitmap.width,
        heightDots: bitmap.height,
      };
    },

    markups,
    zpl,

    async export(ref, values, copies, format, printer) {
      const list = await markups(ref, values, copies);
      const { template } = await templates.get(ref);
      const base = fileBase(template);
      const ports = deps.ports();
      switch (format) {
        case 'pdf': {
          const [pdf] = await renderPdfLabels(list, ports, { merge: true, title: template.name });
          return { fileName: `${base}.pdf`, mime: 'application/pdf', base64: bytesToBase64(pdf!) };
        }
        case 'zpl': {
          const labels = await zpl(list, printer);
          const text = labels.join('\n');
          return {
            fileName: `${base}.zpl`,
            mime: 'text/plain',
            base64: bytesToBase64(new TextEncoder().encode(text)),
          };
        }
        case 'svg': {
          const [svg] = await renderSvgLabels(list.slice(0, 1), ports);
          return {
            fileName: `${base}.svg`,
            mime: 'image/svg+xml',
            base64: bytesToBase64(new TextEncoder().encode(svg!)),
          };
        }
        case 'png': {
          const [png] = await renderPngLabels(list.slice(0, 1), 300, ports);
          return { fileName: `${base}.png`, mime: 'image/png', base64: bytesToBase64(png!) };
        }
        default:
          return assertNever(format, 'output format');
      }
    },
  };
}
