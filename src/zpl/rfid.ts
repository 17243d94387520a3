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
import type { RfidWrite } from '../layout/scene';

/** A bad RFID value; `field` names what was wrong (`epc`, `user`, `accessPassword`, ...), `problem` says how. */
export class RfidValueError extends Error {
  override name = 'RfidValueError';
  constructor(
    readonly field: string,
    readonly problem: string,
    /** Markup element the write came from, when known. */
    readonly element?: number,
  ) {
    super(`${field}: ${problem}`);
  }
}

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

/**
 * Checks an EPC given as hex and returns it uppercase: only 0-9/A-F (lowercase accepted), exactly `bits / 4`
 * digits (24 for a 96-bit EPC). Throws `RfidValueError` naming the problem, e.g.
 * `epc: expected 24 hex digits for a 96-bit EPC, got 23`.
 */
export function validateEpcHex(hex: string, bits = 96): string {
  if (!Number.isInteger(bits) || bits < 16 || bits > 496 || bits % 16 !== 0) {
    throw new RangeError(`EPC size must be a multiple of 16 bits from 16 to 496, got ${bits}`);
  }
  const upper = checkHexDigits('epc', hex);
  const digits = bits / 4;
  if (upper.length !== digits) {
    throw new RfidValueError(
      'epc',
      `expected ${digits} hex digits for a ${bits}-bit EPC, got ${upper.length}`,
    );
  }
  return upper;
}

/** Hex for a bank written in whole 16-bit words (4 hex digits each), returned uppercase. */
export function validateWordsHex(field: string, hex: string): string {
  const upper = checkHexDigits(field, hex);
  if (upper.length === 0 || upper.length % 4 !== 0) {
    throw new RfidValueError(
      field,
      `expected whole 16-bit words (a non-zero multiple of 4 hex digits), got ${upper.length}`,
    );
  }
  return upper;
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

/** Uppercases `hex` after checking every character is a hex digit; names the first offending character. */
function checkHexDigits(field: string, hex: string): string {
  const bad = /[^0-9A-Fa-f]/.exec(hex);
  if (bad) {
    throw new RfidValueError(
      field,
      `${JSON.stringify(bad[0])} at position ${bad.index} is not a hex digit (0-9, A-F)`,
    );
  }
  return hex.toUpperCase();
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
