/** A printer's choice for ZPL files (src/printers/zpl-file-options.ts): the print's flag, else the profile, else strip. */
import { describe, expect, it } from 'vitest';
import { defaultProfile, parsePrinterProfile } from '../../src/printers/profiles';
import { zplPrintOptionsFor } from '../../src/printers/zpl-file-options';

const base = defaultProfile('tcp://10.0.0.5:9100', 'Dock 7', 203, 'detected');

describe('zplPrintOptionsFor', () => {
  it('strips both without a profile or a choice in it', () => {
    const strip = {
      keepSettings: false,
      allowPrinterCommands: false,
      from: { settings: 'default', printerCommands: 'default' },
    };
    expect(zplPrintOptionsFor(undefined)).toEqual(strip);
    expect(zplPrintOptionsFor(base, {})).toEqual(strip);
  });

  it("takes the profile's choice, and a print's flag over it", () => {
    const profile = parsePrinterProfile({
      ...base,
      zplFiles: { settings: 'keep', printerCommands: 'allow' },
    });
    expect(zplPrintOptionsFor(profile)).toEqual({
      keepSettings: true,
      allowPrinterCommands: true,
      from: { settings: 'profile', printerCommands: 'profile' },
    });
    expect(zplPrintOptionsFor(profile, { keepSettings: false, allowPrinterCommands: undefined })).toEqual({
      keepSettings: false,
      allowPrinterCommands: true,
      from: { settings: 'print', printerCommands: 'profile' },
    });
  });

  it('refuses a profile with a choice it does not know', () => {
    expect(() => parsePrinterProfile({ ...base, zplFiles: { settings: 'maybe' } })).toThrow(
      /zplFiles\.settings/,
    );
  });
});
