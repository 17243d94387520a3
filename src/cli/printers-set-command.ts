/**
 * `labeldesk printers set URI --zpl-settings keep|strip [--zpl-printer-commands allow|strip]`: what a printer's
 * profile says about ZPL files made elsewhere (issue #33 item 3), used by `print --zpl` unless its flags say
 * otherwise. A printer without a profile gets one whose dpi is only assumed (the next print asks the printer).
 */
import { createProfileStore } from '../node/printers/profile-store';
import { defaultProfile, PrinterProfileError, type PrinterProfile } from '../printers/profiles';
import { canonicalPrinterUri, PrinterUriError } from '../printers/uri';
import { FALLBACK_DPI } from '../node/printers/setup';
import { CliError, UsageError, type CliIo } from './io';
import { privateDataDir } from './keys-commands';
import { parseOptions } from './template-commands';

export const PRINTERS_SET_HELP = `Usage: labeldesk printers set URI [--zpl-settings keep|strip] [--zpl-printer-commands allow|strip]

Saves in the printer's profile how ZPL files made elsewhere (labeldesk print --zpl) are printed to it:
  --zpl-settings keep|strip
                 the file's printer settings (~SD ^MD ^PR ^MN ^MT ^MM ~TA ^LT) sent, or taken out so the
                 printer's own setup applies (the default)
  --zpl-printer-commands allow|strip
                 commands that reach beyond the label (^JUS, ~JR, ~JA, ^ID, flash downloads…) sent, or
                 taken out (the default)
  --data-dir DIR where printer profiles live (default: $LABELDESK_DATA_DIR or the user data folder)
print --zpl's --keep-settings, --strip-settings, --allow-printer-commands and --strip-printer-commands
override the profile for one print.
`;

function oneOf<T extends string>(
  flag: string,
  raw: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`--${flag}: expected ${allowed.join(' or ')}, got "${raw}"`);
  return raw as T;
}

export async function printersSetCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      'zpl-settings': { type: 'string' },
      'zpl-printer-commands': { type: 'string' },
      'data-dir': { type: 'string' },
    },
    true,
  );
  if (values.help) {
    io.stdout(PRINTERS_SET_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('printers set takes one printer URI');
  const settings = oneOf('zpl-settings', values['zpl-settings'], ['keep', 'strip'] as const);
  const commands = oneOf('zpl-printer-commands', values['zpl-printer-commands'], ['allow', 'strip'] as const);
  if (!settings && !commands)
    throw new UsageError(
      'nothing to set: give --zpl-settings keep|strip or --zpl-printer-commands allow|strip',
    );
  let uri: string;
  try {
    uri = canonicalPrinterUri(positionals[0] as string);
  } catch (e) {
    if (e instanceof PrinterUriError) throw new CliError(e.message);
    throw e;
  }
  const profiles = createProfileStore(privateDataDir(values, io));
  const current: PrinterProfile =
    (await profiles.get(uri)) ?? defaultProfile(uri, uri.split('/').at(-1) || uri, FALLBACK_DPI, 'assumed');
  const zplFiles = {
    ...current.zplFiles,
    ...(settings ? { settings } : {}),
    ...(commands ? { printerCommands: commands } : {}),
  };
  try {
    await profiles.put({ ...current, zplFiles });
  } catch (e) {
    if (e instanceof PrinterProfileError) throw new CliError(e.message);
    throw e;
  }
  io.stdout(
    `${uri}: ZPL files' printer settings ${zplFiles.settings === 'keep' ? 'kept' : 'taken out'}, ` +
      `commands beyond the label ${zplFiles.printerCommands === 'allow' ? 'sent' : 'taken out'} ` +
      `(saved in ${profiles.path})\n`,
  );
  return 0;
}
