/**
 * Markup[] → one job per copy in a printer language: the same bitmap stage as ZPL (renderMonoLabels), the same
 * cut to the print width (spec §4.6 rule 3), then the language's writer. Copies that share a label share its
 * bytes (one write per distinct label).
 */
import type { Markup } from '../../model/schema';
import { cropMonoBitmap } from '../../render/bitmap';
import {
  MAX_WIDTH_DOTS_RANGE,
  renderMonoLabels,
  type RenderPorts,
  type ZplRenderOptions,
} from '../../outputs/render';
import type { LabelJobOptions } from './job-options';
import { languageMaxWidthDots, writeLabelJob, type PrinterLanguage } from './index';

export interface LanguageRenderOptions
  extends
    Pick<ZplRenderOptions, 'dpi' | 'maxWidthDots' | 'oversize' | 'labelLengthDots'>,
    Omit<LabelJobOptions, 'dpi' | 'printWidthDots' | 'labelLengthDots' | 'copies'> {}

export async function renderLanguageLabels(
  markups: readonly Markup[],
  language: PrinterLanguage,
  opts: LanguageRenderOptions,
  ports: RenderPorts,
): Promise<Uint8Array[]> {
  // Without a print width: ZPL's default head, or the language's widest printer when that is narrower.
  const maxWidthDots =
    opts.maxWidthDots ??
    Math.min(MAX_WIDTH_DOTS_RANGE.default, languageMaxWidthDots(language, opts.dpi ?? 203));
  const { dpi, labels } = await renderMonoLabels(markups, { ...opts, maxWidthDots }, ports);
  const { dpi: _dpi, maxWidthDots: _max, oversize: _oversize, labelLengthDots: _length, ...job } = opts;
  // The print width is the head, as ZPL's ^PW cap: a wider label is cut to it like ZPL's; the writer refuses a
  // print width its language's printers do not have.
  const printWidthDots = maxWidthDots;
  const jobOf = new Map<object, Uint8Array>();
  return labels.map((label) => {
    let bytes = jobOf.get(label);
    if (!bytes) {
      const bitmap = cropMonoBitmap(label.bitmap, printWidthDots, label.bitmap.height);
      bytes = writeLabelJob(language, bitmap, { ...job, dpi, printWidthDots });
      jobOf.set(label, bytes);
    }
    return bytes;
  });
}
