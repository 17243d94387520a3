/** Test support: a job in any printer language back to what its printer would print. */
import { assertNever } from '../../../src/base/assert-never';
import type { PrinterLanguage } from '../../../src/printers/languages';
import { decodeBrotherQl } from './brother-ql-decode';
import type { DecodedLabel } from './decoded-label';
import { decodeDpl } from './dpl-decode';
import { decodeDymoLw } from './dymo-lw-decode';
import { decodeEpl2 } from './epl2-decode';
import { decodeSbpl } from './sbpl-decode';
import { decodeTspl } from './tspl-decode';

export function decodeLanguageJob(language: PrinterLanguage, job: Uint8Array, dpi: number): DecodedLabel {
  switch (language) {
    case 'tspl':
      return decodeTspl(job, dpi);
    case 'epl2':
      return decodeEpl2(job);
    case 'dpl':
      return decodeDpl(job, dpi);
    case 'sbpl':
      return decodeSbpl(job);
    case 'brother-ql':
      return decodeBrotherQl(job);
    case 'dymo-lw':
      return decodeDymoLw(job);
    default:
      return assertNever(language);
  }
}
