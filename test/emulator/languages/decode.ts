/** Test support: a job in any printer language back to what its printer would print. */
import type { PrinterLanguage } from '../../../src/printers/languages';
import type { DecodedLabel } from './decoded-label';
import { decodeEpl2 } from './epl2-decode';
import { decodeTspl } from './tspl-decode';

export function decodeLanguageJob(language: PrinterLanguage, job: Uint8Array, dpi: number): DecodedLabel {
  switch (language) {
    case 'tspl':
      return decodeTspl(job, dpi);
    case 'epl2':
      return decodeEpl2(job);
  }
}
