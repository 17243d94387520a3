/**
 * `labeldesk site-printers add|list|remove --database URL`: the site's relay printers and their profiles in the
 * site database (src/node/site/site-printers.ts), used by every `labeldesk serve --database` instance from its
 * next request on. (`labeldesk printers` is discovery of this machine's printers.)
 */
import { formatProblems, type Problem } from '../model/errors';
import { PrintersFileError } from '../printers/printers-file';
import { defaultPrintWidthDots, PrinterProfileError, type PrinterProfile } from '../printers/profiles';
import { formatsOf } from '../node/serve/file-printer-gateway';
import {
  checkSitePrinter,
  sitePrinters,
  UnknownSitePrinter,
  type SitePrinter,
  type SitePrinterSettingsInput,
} from '../node/site/site-printers';
import { CliError, UsageError, type CliIo } from './io';
import { cliActor, databaseOption, databaseUrlOf, openSiteDatabase } from './site-database';
import { parseOptions } from './template-commands';

export const SITE_PRINTERS_HELP = `Usage: labeldesk site-printers <add|list|remove> [options] --database URL

The site's relay printers (printer_id of print-relay and print-relay-pdf) and their profiles, kept in the
site database: every labeldesk serve --database instance prints through them from its next request on.

  site-printers add --id N --uri URI --name NAME [profile options] [--json]
                                      add printer N, or replace it (its URI, name and whole profile)
  site-printers list [--json]         the site's printers with their profiles
  site-printers remove ID             the site stops printing to it (requests for it get 422)

  --database URL      the site database (default: $LABELDESK_DATABASE_URL)
  --id N              the printer_id clients send (0 to 2147483647)
  --uri URI           tcp://host[:port], usb://VID:PID, serial:///dev/ttyUSB0 (ZPL, print-relay);
                      cups://Queue, file:///path (PDF, print-relay-pdf)
  --name NAME         what people call it ("Dock 7")

Profile (leave all out: the printer is asked its dpi and keeps its own settings):
  --dpi N             the printer's resolution, set by you: it is never asked (100 to 1200)
  --darkness N        ~SD darkness, 0 to 30
  --width-dots N      widest printable line in dots (default: 4.1 in at the dpi)
  --offset-x N        label offsets in dots (^LH), default 0
  --offset-y N
  --media TYPE        gap (default), mark or continuous
  --thermal MODE      direct (default) or transfer

Every change is in the site's audit log (GET /site/audit) under cli:<user>@<host>.
`;

const PROFILE_OPTIONS = {
  dpi: { type: 'string' },
  darkness: { type: 'string' },
  'width-dots': { type: 'string' },
  'offset-x': { type: 'string' },
  'offset-y': { type: 'string' },
  media: { type: 'string' },
  thermal: { type: 'string' },
} as const;

/** Where a problem of the printers file's or the profile's rules is set on the command line. */
const OPTION_OF: Record<string, string> = {
  id: '--id',
  uri: '--uri',
  name: '--name',
  dpi: '--dpi',
  darkness: '--darkness',
  printWidthDots: '--width-dots',
  'offset.x': '--offset-x',
  'offset.y': '--offset-y',
  mediaType: '--media',
  thermalMode: '--thermal',
};

const withOptions = (problems: readonly Problem[]): string =>
  formatProblems(problems.map((p) => ({ ...p, path: OPTION_OF[p.path] ?? p.path })));

/** A refusal by the rules as the CLI says it (exit 1), naming the option; anything else as it is. */
function refused(sub: string, e: unknown): unknown {
  if (e instanceof PrintersFileError || e instanceof PrinterProfileError)
    return new CliError(`site-printers ${sub}: ${withOptions(e.problems).replace(/\n/g, '; ')}`);
  if (e instanceof UnknownSitePrinter) return new CliError(e.message);
  return e;
}

/** A whole number option: syntax is usage (exit 2); its range is the rules' (exit 1, from the checks). */
function whole(option: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(raw)) throw new UsageError(`${option}: expected a whole number, got "${raw}"`);
  return Number(raw);
}

type ProfileValues = { [K in keyof typeof PROFILE_OPTIONS]?: string | undefined };

/** The profile the options describe, or undefined when none is given. */
function settingsOf(values: ProfileValues): SitePrinterSettingsInput | undefined {
  if (Object.keys(PROFILE_OPTIONS).every((k) => values[k as keyof ProfileValues] === undefined))
    return undefined;
  const dpi = whole('--dpi', values.dpi);
  const darkness = whole('--darkness', values.darkness);
  const width = whole('--width-dots', values['width-dots']);
  const x = whole('--offset-x', values['offset-x']);
  const y = whole('--offset-y', values['offset-y']);
  const media = values.media;
  if (media !== undefined && !['gap', 'mark', 'continuous'].includes(media))
    throw new UsageError(`--media: expected gap, mark or continuous, got "${media}"`);
  const thermal = values.thermal;
  if (thermal !== undefined && !['direct', 'transfer'].includes(thermal))
    throw new UsageError(`--thermal: expected direct or transfer, got "${thermal}"`);
  // Without --dpi the dpi is a placeholder until the printer says (dpiSource "assumed": it is asked).
  const placeholder = 203;
  const atDpi = dpi ?? placeholder;
  return {
    dpi: atDpi,
    dpiSource: dpi === undefined ? 'assumed' : 'set',
    printWidthDots:
      width ?? (Number.isInteger(atDpi) && atDpi > 0 ? defaultPrintWidthDots(atDpi) : placeholder),
    ...(darkness !== undefined ? { darkness } : {}),
    offset: { x: x ?? 0, y: y ?? 0 },
    ...(media !== undefined ? { mediaType: media as 'gap' | 'mark' | 'continuous' } : {}),
    ...(thermal !== undefined ? { thermalMode: thermal as 'direct' | 'transfer' } : {}),
  };
}

/** A profile in words: `dpi 300 (set), darkness 20, width 1248 dots, offsets 10,0`. */
function describeProfile(p: PrinterProfile | undefined): string {
  if (!p) return 'no profile';
  const parts = [p.dpiSource === 'set' ? `dpi ${p.dpi} (set)` : 'dpi asked'];
  if (p.darkness !== undefined) parts.push(`darkness ${p.darkness}`);
  parts.push(`width ${p.printWidthDots} dots`);
  if (p.offset.x || p.offset.y) parts.push(`offsets ${p.offset.x},${p.offset.y}`);
  if (p.mediaType !== undefined && p.mediaType !== 'gap') parts.push(`media ${p.mediaType}`);
  if (p.thermalMode !== 'direct') parts.push('thermal transfer');
  return parts.join(', ');
}

const asJson = (p: SitePrinter) => ({
  id: p.id,
  name: p.name,
  uri: p.uri,
  format: formatsOf(p.uri)[0] ?? null,
  profile: p.profile ? (({ uri: _u, name: _n, ...settings }: PrinterProfile) => settings)(p.profile) : null,
  updated_at: p.updatedAt,
});

export async function sitePrintersCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    io.stdout(SITE_PRINTERS_HELP);
    return sub === undefined ? 2 : 0;
  }
  const { values, positionals } = parseOptions(
    rest,
    {
      ...databaseOption,
      ...PROFILE_OPTIONS,
      id: { type: 'string' },
      uri: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (values.help) {
    io.stdout(SITE_PRINTERS_HELP);
    return 0;
  }
  if (!['add', 'list', 'remove'].includes(sub))
    throw new UsageError(`unknown site-printers command "${sub}" (add, list, remove)`);
  if (sub !== 'add') {
    const misplaced = ['id', 'uri', 'name', ...Object.keys(PROFILE_OPTIONS)].find(
      (k) => values[k as keyof typeof values] !== undefined,
    );
    if (misplaced) throw new UsageError(`--${misplaced} is for site-printers add`);
  }
  const url = databaseUrlOf(values, io);
  if (url === undefined)
    throw new UsageError(
      'site-printers needs the site database (--database URL or $LABELDESK_DATABASE_URL); ' +
        "a workstation's or a single server's printers are in a printers file (--printers FILE)",
    );

  // Everything about the arguments is checked before the database is opened.
  let add: { printer: { id: number; uri: string; name: string }; settings?: SitePrinterSettingsInput };
  let removeId = -1;
  if (sub === 'add') {
    if (positionals.length)
      throw new UsageError('site-printers add takes no arguments (use --id, --uri, --name)');
    for (const option of ['id', 'uri', 'name'] as const)
      if (values[option] === undefined) throw new UsageError(`site-printers add needs --${option}`);
    const settings = settingsOf(values);
    add = {
      printer: { id: whole('--id', values.id) ?? -1, uri: values.uri ?? '', name: values.name ?? '' },
      ...(settings ? { settings } : {}),
    };
    try {
      checkSitePrinter(add.printer, add.settings);
    } catch (e) {
      throw refused(sub, e);
    }
  } else if (sub === 'remove') {
    const [id, ...extra] = positionals;
    if (id === undefined)
      throw new UsageError('site-printers remove needs an ID (see: labeldesk site-printers list)');
    if (extra.length) throw new UsageError(`site-printers remove takes one ID, got ${positionals.length}`);
    if (!/^\d{1,10}$/.test(id))
      throw new UsageError(`site-printers remove: expected a printer id, got "${id}"`);
    removeId = Number(id);
  } else if (positionals.length) throw new UsageError('site-printers list takes no arguments');

  const db = await openSiteDatabase(url);
  try {
    const printers = sitePrinters(db, {
      actor: cliActor(io),
      onInvalid: (id, e) =>
        io.stderr(`warning: site printer ${id} is left out: ${e.message.replace(/\n/g, '; ')}\n`),
    });
    switch (sub) {
      case 'add': {
        const { printer, replaced } = await printers.save(add!.printer, add!.settings);
        if (values.json) io.stdout(JSON.stringify(asJson(printer), null, 2) + '\n');
        io.stderr(
          `${replaced ? 'replaced' : 'added'} printer ${printer.id} "${printer.name}" (${printer.uri}, ` +
            `${formatsOf(printer.uri)[0] === 'pdf' ? 'PDF: print-relay-pdf' : 'ZPL: print-relay'}; ` +
            `${describeProfile(printer.profile)})\n`,
        );
        return 0;
      }
      case 'list': {
        const list = await printers.list();
        if (values.json) io.stdout(JSON.stringify(list.map(asJson), null, 2) + '\n');
        else if (!list.length)
          io.stderr(
            'the site has no printers (add one: labeldesk site-printers add --id N --uri URI --name NAME)\n',
          );
        else
          for (const p of list)
            io.stdout(
              `${p.id}  ${p.name}  ${p.uri}  ${formatsOf(p.uri)[0] ?? '?'}  ${describeProfile(p.profile)}\n`,
            );
        return 0;
      }
      default: {
        await printers.remove(removeId);
        io.stderr(`removed printer ${removeId}\n`);
        return 0;
      }
    }
  } catch (e) {
    throw refused(sub, e);
  } finally {
    await db.close();
  }
}
