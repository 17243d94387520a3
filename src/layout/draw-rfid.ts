/** An RFID element → an RFID write for the label (checked here, before any output exists). */
import type { MarkupElementOf } from '../model/elements';
import { validateEpcHex, validateWordsHex } from '../model/epc';
import { ElementError, type Ctx } from './element-context';

export function addRfid(el: MarkupElementOf<'rfid'>, index: number, ctx: Ctx): void {
  try {
    // Validated here, before any output exists: a bad EPC never becomes half a job.
    const hex = el.bank === 'epc' ? validateEpcHex(el.epc, el.bits) : validateWordsHex('user', el.epc);
    ctx.rfid.push({ element: index, bank: el.bank, hex, lock: el.lock });
  } catch (e) {
    const error = new ElementError(index, 'rfid', (e as Error).message, e);
    // The live preview ('mark') must survive a half-typed EPC: warn and write nothing. Outputs use 'throw'.
    if (ctx.opts.onInvalid === 'mark') {
      ctx.warnings.push(error.message);
      return;
    }
    throw error;
  }
}
