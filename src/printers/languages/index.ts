/**
 * Every printer language LabelDesk writes besides ZPL (src/zpl), each a thin writer over the same 1-bit dots
 * ZPL's ^GFA carries (src/outputs/render.ts renderMonoLabels), so what the preview shows is what prints.
 * docs/printer-languages.md says which manual each follows.
 */
import { assertNever } from '../../base/assert-never';
import type { MonoBitmap } from '../../render/bitmap';
import { BROTHER_QL_LIMITS, writeBrotherQlJob } from './brother-ql';
import { DPL_LIMITS, writeDplJob } from './dpl';
import { DYMO_LW_LIMITS, writeDymoLwJob } from './dymo-lw';
import { EPL2_LIMITS, writeEpl2Job } from './epl2';
import type { JobLimits, LabelJobOptions } from './job-options';
import { SBPL_LIMITS, writeSbplJob } from './sbpl';
import { TSPL_LIMITS, writeTsplJob } from './tspl';

export { LanguageJobError, type LabelJobOptions, type LanguageMedia } from './job-options';

export const PRINTER_LANGUAGES = ['tspl', 'epl2', 'dpl', 'sbpl', 'dymo-lw', 'brother-ql'] as const;
export type PrinterLanguage = (typeof PRINTER_LANGUAGES)[number];

export const isPrinterLanguage = (value: string): value is PrinterLanguage =>
  (PRINTER_LANGUAGES as readonly string[]).includes(value);

const LIMITS: Record<PrinterLanguage, JobLimits> = {
  tspl: TSPL_LIMITS,
  epl2: EPL2_LIMITS,
  dpl: DPL_LIMITS,
  sbpl: SBPL_LIMITS,
  'brother-ql': BROTHER_QL_LIMITS,
  'dymo-lw': DYMO_LW_LIMITS,
};

/** The widest line `language` (its widest printer) prints at `dpi`, in dots. */
export const languageMaxWidthDots = (language: PrinterLanguage, dpi: number): number =>
  LIMITS[language].maxWidthDots(dpi);

/** One complete job in `language` for one label (its copies included), as the bytes to send. */
export function writeLabelJob(
  language: PrinterLanguage,
  bitmap: MonoBitmap,
  options: LabelJobOptions,
): Uint8Array {
  switch (language) {
    case 'tspl':
      return writeTsplJob(bitmap, options);
    case 'epl2':
      return writeEpl2Job(bitmap, options);
    case 'dpl':
      return writeDplJob(bitmap, options);
    case 'sbpl':
      return writeSbplJob(bitmap, options);
    case 'brother-ql':
      return writeBrotherQlJob(bitmap, options);
    case 'dymo-lw':
      return writeDymoLwJob(bitmap, options);
    default:
      return assertNever(language);
  }
}
