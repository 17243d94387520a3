/**
 * RFID encoding commands for Zebra RFID printers (UHF EPC Class 1 Gen 2 tags), from the Scene's `RfidWrite[]`.
 *
 * What we emit, in this order (Zebra RFID Programming Guide, ^RS/^RF/^RL):
 *  - `^RS8`: tag type 8 = Gen 2. Every other ^RS parameter (read/write position, void length, retries, error
 *    handling) is left to the printer's own calibrated settings: they belong to the media, not to the template.
 *  - EPC bank, 96-bit: `^RFW,H^FD<24 hex>^FS`. Memory bank parameter left at its default `E` ("EPC 96-bit"),
 *    which writes after the CRC and PC words and never touches them.
 *    Other EPC sizes: `^RFW,H,2,<bytes>,A` (`A` = EPC and auto-adjust the PC length bits; from word 2).
 *  - User bank: `^RFW,H,0,<bytes>,3^FD<hex>^FS`: from 16-bit word 0 of bank 3. Gen 2 numbers its banks
 *    0 reserved, 1 EPC, 2 TID, 3 user; bank 1 would be the EPC bank (and word 0 there its CRC).
 *  - TID is factory-programmed and read-only: a write to it is refused.
 *  - Locks: `lock` (reversible, password protected) needs a non-zero access password, which is written first
 *    with `^RFW,H,P^FD<8 hex>^FS` (a Gen 2 lock under the default 00000000 password protects nothing, and Zebra
 *    refuses it). `permalock` needs no password. One `^RLM,k,a,e,u^FS` carries every bank's lock, with the
 *    positions we do not change left empty.
 *
 * Every hex value is checked strictly before it reaches a `^FD`: `^` or `~` in field data would start a new ZPL
 * command (injection). Lowercase hex is accepted and written uppercase.
 */
import { assertNever } from '../base/assert-never';
import { checkHexDigits, RfidValueError, validateEpcHex, validateWordsHex } from '../model/epc';
import type { RfidWrite } from '../layout/scene';

export interface RfidOptions {
  /**
   * Gen 2 access password (8 hex digits, not 00000000) written to the tag before a reversible `lock`. Needed only
   * when some write asks for `lock`.
   */
  accessPassword?: string;
  /** EPC size in bits, a multiple of 16 from 16 to 496. Default 96 (SGTIN-96, SSCC-96, ...). */
  epcBits?: number;
}

/**
 * The ZPL that encodes `writes` into the tag of one label: `^RS8`, the `^RFW` writes, then the lock commands;
 * no commands at all when there is nothing to write. Throws `RfidValueError` on any invalid value.
 */
export function rfidCommands(writes: readonly RfidWrite[], options: RfidOptions = {}): string[] {
  if (writes.length === 0) return [];
  const epcBits = options.epcBits ?? 96;
  const commands = ['^RS8'];
  const locks: Partial<Record<'epc' | 'user', 'L' | 'P'>> = {};
  const seen = new Set<RfidWrite['bank']>();
  for (const write of writes) {
    const { bank, element } = write;
    if (seen.has(bank))
      throw new RfidValueError(bank, `more than one write to the ${bank.toUpperCase()} bank`, element);
    seen.add(bank);
    switch (bank) {
      case 'epc': {
        const hex = withElement(element, () => validateEpcHex(write.hex, epcBits));
        commands.push(epcBits === 96 ? `^RFW,H^FD${hex}^FS` : `^RFW,H,2,${hex.length / 2},A^FD${hex}^FS`);
        break;
      }
      case 'user': {
        const hex = withElement(element, () => validateWordsHex('user', write.hex));
        commands.push(`^RFW,H,0,${hex.length / 2},3^FD${hex}^FS`);
        break;
      }
      case 'tid':
        throw new RfidValueError('tid', 'the TID bank is factory-programmed and read-only', element);
      default:
        return assertNever(bank, 'RFID bank');
    }
    const lock = lockLetter(write);
    if (lock) locks[bank] = lock;
  }
  if (locks.epc || locks.user) {
    if (locks.epc === 'L' || locks.user === 'L') {
      const password = validateAccessPassword(options.accessPassword);
      commands.push(`^RFW,H,P^FD${password}^FS`);
    }
    // ^RLM,kill,access,epc,user: we change only the banks written here; trailing empty positions are dropped.
    const params = `,,${locks.epc ?? ''},${locks.user ?? ''}`.replace(/,+$/, '');
    commands.push(`^RLM,${params}^FS`);
  }
  return commands;
}

function validateAccessPassword(password: string | undefined): string {
  const field = 'accessPassword';
  if (password === undefined) {
    throw new RfidValueError(
      field,
      'a reversible lock needs an access password (8 hex digits, not 00000000)',
    );
  }
  const upper = checkHexDigits(field, password);
  if (upper.length !== 8) throw new RfidValueError(field, `expected 8 hex digits, got ${upper.length}`);
  if (upper === '00000000')
    throw new RfidValueError(field, '00000000 is the default password and protects nothing');
  return upper;
}

function lockLetter(write: RfidWrite): 'L' | 'P' | undefined {
  switch (write.lock) {
    case 'none':
      return undefined;
    case 'lock':
      return 'L';
    case 'permalock':
      return 'P';
    default:
      return assertNever(write.lock, 'RFID lock');
  }
}

function withElement<T>(element: number, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof RfidValueError && e.element === undefined)
      throw new RfidValueError(e.field, e.problem, element);
    throw e;
  }
}
