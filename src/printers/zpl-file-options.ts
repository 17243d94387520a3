/**
 * How a ZPL file made elsewhere is printed to one printer (issue #33 item 3): its printer settings kept or
 * stripped, commands that reach beyond the label allowed or stripped. The printer's profile holds the choice
 * (`zplFiles`); a print may override it (the CLI's flags, the app's dialog). Pure: the CLI and the app use it.
 */
import type { PrinterProfile } from './profiles';

/** A print's own choice; undefined leaves the profile's (or the default: strip both). */
export interface ZplPrintOverrides {
  keepSettings?: boolean | undefined;
  allowPrinterCommands?: boolean | undefined;
}

/** Where a choice came from, so a message can say why settings were kept or taken out. */
export type ZplChoiceSource = 'print' | 'profile' | 'default';

export interface ZplFileOptions {
  keepSettings: boolean;
  allowPrinterCommands: boolean;
  from: { settings: ZplChoiceSource; printerCommands: ZplChoiceSource };
}

/** The options `planZplPrint` takes for this printer: the print's choice, else the profile's, else strip. */
export function zplPrintOptionsFor(
  profile: Pick<PrinterProfile, 'zplFiles'> | undefined,
  overrides: ZplPrintOverrides = {},
): ZplFileOptions {
  const saved = profile?.zplFiles;
  const settings: [boolean, ZplChoiceSource] =
    overrides.keepSettings !== undefined
      ? [overrides.keepSettings, 'print']
      : saved?.settings
        ? [saved.settings === 'keep', 'profile']
        : [false, 'default'];
  const commands: [boolean, ZplChoiceSource] =
    overrides.allowPrinterCommands !== undefined
      ? [overrides.allowPrinterCommands, 'print']
      : saved?.printerCommands
        ? [saved.printerCommands === 'allow', 'profile']
        : [false, 'default'];
  return {
    keepSettings: settings[0],
    allowPrinterCommands: commands[0],
    from: { settings: settings[1], printerCommands: commands[1] },
  };
}
