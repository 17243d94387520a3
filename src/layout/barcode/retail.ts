/**
 * The EAN/UPC arrangement (ISO/IEC 15420, GS1 General Specifications 5.2) in modules: which bars are guards,
 * which belong to an EAN-2/EAN-5 add-on, and where each group of human-readable digits goes. Placement
 * (placement.ts) turns it into bar heights and text boxes on the target's grid.
 */
import type { BarcodeFormat } from '../../model/barcode/formats';
import type { BarRole, RetailDigits, RetailLayout } from './geometry';

interface Family {
  /** Width of the main symbol in modules, guards included. */
  width: number;
  /** Module ranges [from, to) of the bars that extend below the data bars, relative to the symbol's start. */
  long: ReadonlyArray<readonly [number, number]>;
  /** Digit groups as [first digit, last digit + 1, from module, to module, small], relative to the symbol. */
  groups: ReadonlyArray<readonly [number, number, number, number, boolean]>;
}

// The leading digit of EAN-13 (and the number system digit of UPC) sits in the left quiet zone, ending 1X
// before the left guard; UPC's check digit likewise starts 1X after the right guard.
const EAN13: Family = {
  width: 95,
  long: [
    [0, 3],
    [45, 50],
    [92, 95],
  ],
  groups: [
    [0, 1, -8, -1, false],
    [1, 7, 3, 45, false],
    [7, 13, 50, 92, false],
  ],
};
const EAN8: Family = {
  width: 67,
  long: [
    [0, 3],
    [31, 36],
    [64, 67],
  ],
  groups: [
    [0, 4, 3, 31, false],
    [4, 8, 36, 64, false],
  ],
};
// UPC-A: the first and last characters' bars are as long as the guards; their digits print small outside.
const UPCA: Family = {
  width: 95,
  long: [
    [0, 10],
    [45, 50],
    [85, 95],
  ],
  groups: [
    [0, 1, -8, -1, true],
    [1, 6, 10, 45, false],
    [6, 11, 50, 85, false],
    [11, 12, 96, 103, true],
  ],
};
const UPCE: Family = {
  width: 51,
  long: [
    [0, 3],
    [45, 51],
  ],
  groups: [
    [0, 1, -8, -1, true],
    [1, 7, 3, 45, false],
    [7, 8, 52, 58, true],
  ],
};

function familyOf(format: BarcodeFormat): Family | undefined {
  switch (format) {
    case 'ean13':
    case 'isbn':
    case 'ismn':
    case 'issn':
      return EAN13;
    case 'ean8':
      return EAN8;
    case 'upca':
      return UPCA;
    case 'upce':
      return UPCE;
    default:
      return undefined;
  }
}

/**
 * The retail arrangement of `bars` (starts include the left quiet zone `quietLeft`) for `value` — the digits,
 * then a space and the add-on's digits if it has one — or undefined for a format that is not EAN/UPC.
 */
export function retailLayout(
  format: BarcodeFormat,
  value: string,
  bars: ReadonlyArray<readonly [number, number]>,
  quietLeft: number,
): RetailLayout | undefined {
  const family = familyOf(format);
  if (!family) return undefined;
  const [main = '', addon] = value.split(' ');
  const roles: BarRole[] = bars.map(([start]) => {
    const at = start - quietLeft;
    if (at >= family.width) return 'addon';
    return family.long.some(([from, to]) => at >= from && at < to) ? 'guard' : 'data';
  });
  const digits: RetailDigits[] = family.groups.map(([first, end, from, to, small]) => ({
    text: main.slice(first, end),
    from: quietLeft + from,
    to: quietLeft + to,
    small,
    above: false,
  }));
  const addonBars = bars.filter((_, i) => roles[i] === 'addon');
  const firstAddon = addonBars[0];
  const lastAddon = addonBars[addonBars.length - 1];
  if (addon && firstAddon && lastAddon) {
    digits.push({
      text: addon,
      from: firstAddon[0],
      to: lastAddon[0] + lastAddon[1],
      small: false,
      above: true,
    });
  }
  return { roles, digits };
}

/** Modules of quiet zone right of an EAN-2/EAN-5 add-on (ISO/IEC 15420). */
export const ADDON_QUIET_RIGHT = 5;
