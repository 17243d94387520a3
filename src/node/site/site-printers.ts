/**
 * Node-only: the site's relay printers and their profiles in the site database (issue #24; table
 * `site_printers`, assets/sql/005-site-printers.sql), shared by every instance instead of a printers file kept
 * identical on each. `labeldesk site-printers` changes them (each change and its audit entry one transaction);
 * `labeldesk serve --database` prints through them: its relay looks each `printer_id` up in the database at every
 * request (a primary-key read, as cheap as a version check would be), so a printer added, changed or removed
 * applies to the next request on every instance, and the print queue's drivers drive every site printer.
 *
 * Rows are checked with the printers file's rules (src/printers/printers-file.ts: id, canonical URI, name) and
 * the printer profiles' (src/printers/profiles.ts); a row is read back through the same parse, so one written by
 * hand that breaks them is refused (logged once) rather than printed to.
 *
 * With `--printers FILE` too, an id in both is refused (422 on printer_id naming both, and not driven): the file
 * is this instance's, the database the site's, and the print queue delivers a job by printer_id on whichever
 * instance drives it — with two meanings of one id a label rendered for one printer could be printed on another.
 */
import type { z } from 'zod';
import { KindedError } from '../../base/error-kind';
import type { RelayPrinter } from '../../engine/printer-gateway';
import { problemsOf } from '../../model/errors';
import { ConfiguredPrinterSchema, PrintersFileError } from '../../printers/printers-file';
import {
  PrinterProfileError,
  PrinterProfileSchema,
  parsePrinterProfile,
  type PrinterProfile,
} from '../../printers/profiles';
import { appendAudit } from './site-stores';
import type { SiteDb } from './db';
import { formatsOf, type LookedUpPrinter, type PrinterLookup } from '../serve/file-printer-gateway';

/** The largest printer id: the print queue's printer_id columns are PostgreSQL integers. */
export const SITE_PRINTER_ID_MAX = 2 ** 31 - 1;

/** A profile's settings as a site printer row keeps them: the profile without its uri and name (the row's). */
export const SitePrinterSettingsSchema = PrinterProfileSchema.omit({ uri: true, name: true });
export type SitePrinterSettings = z.infer<typeof SitePrinterSettingsSchema>;
export type SitePrinterSettingsInput = z.input<typeof SitePrinterSettingsSchema>;

/** One of the site's printers: the printers file's entry, and its profile when someone set one. */
export interface SitePrinter extends RelayPrinter {
  profile?: PrinterProfile;
  updatedAt: string;
}

/** A printer id that is not one. */
export class SitePrinterError extends Error {
  override name = 'SitePrinterError';
}

/** `site-printers remove` of an id the site does not have. */
export class UnknownSitePrinter extends Error {
  override name = 'UnknownSitePrinter';
  constructor(readonly id: number) {
    super(`the site has no printer ${id} (see: labeldesk site-printers list)`);
  }
}

/**
 * A printer_id that is both a site printer and one of this instance's printers file: refused (the file comment
 * says why). The relay's 422 on printer_id.
 */
export class AmbiguousPrinter extends KindedError {
  get kind() {
    return 'unknown-printer' as const;
  }

  constructor(
    readonly id: number,
    site: RelayPrinter,
    file: RelayPrinter,
  ) {
    super(
      `printer ${id} is both the site's "${site.name}" and "${file.name}" of this server's printers file; ` +
        'it is not used until one of them is removed',
    );
    this.name = 'AmbiguousPrinter';
  }
}

/**
 * Checks a printer (and its profile settings) as `site-printers add` would save it: the printers file's rules
 * for id, uri and name, the profiles' for the settings. Throws PrintersFileError or PrinterProfileError naming
 * the problem; returns the canonical printer and its profile.
 */
export function checkSitePrinter(
  input: { id: number; uri: string; name: string },
  settings?: SitePrinterSettingsInput,
): { printer: RelayPrinter; profile?: PrinterProfile } {
  const parsed = ConfiguredPrinterSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new PrintersFileError(problemsOf(parsed.error));
  const printer = parsed.data;
  if (printer.id > SITE_PRINTER_ID_MAX)
    throw new PrintersFileError([
      { path: 'id', message: `expected a printer id from 0 to ${SITE_PRINTER_ID_MAX}, got ${printer.id}` },
    ]);
  // A cups:// queue name may be anything, so `cups://user:secret@host/queue` would be taken as a queue's name:
  // refused, without echoing it (the database, the audit log and error messages would otherwise keep it).
  if (/^cups:\/\/[^/]*(:|%3A)[^/]*(@|%40)/i.test(printer.uri))
    throw new PrintersFileError([
      {
        path: 'uri',
        message: 'a printer URI with a user and password is refused (cups:// names a queue of this machine)',
      },
    ]);
  if (!settings) return { printer };
  const profile = parsePrinterProfile({ ...settings, uri: printer.uri, name: printer.name });
  return { printer, profile };
}

interface Row {
  id: number;
  name: string;
  uri: string;
  profile: Record<string, unknown> | null;
  updated_at: Date;
}

/** A row read back with the same rules it was written with; throws PrintersFileError/PrinterProfileError. */
function fromRow(row: Row): SitePrinter {
  const { printer, profile } = checkSitePrinter(
    { id: row.id, uri: row.uri, name: row.name },
    row.profile === null ? undefined : (row.profile as SitePrinterSettingsInput),
  );
  return { ...printer, ...(profile ? { profile } : {}), updatedAt: row.updated_at.toISOString() };
}

/** The settings part of a profile, as the row keeps it. */
function settingsOf(profile: PrinterProfile): SitePrinterSettings {
  const { uri: _uri, name: _name, ...settings } = profile;
  return settings;
}

export interface SitePrinters {
  /** Every site printer, by id. Rows that break the rules are left out (and heard by `onInvalid`). */
  list(): Promise<SitePrinter[]>;
  /** The site printer `id`, or undefined (also for a row that breaks the rules). */
  find(id: number): Promise<SitePrinter | undefined>;
  /** Adds or replaces printer `id` (checked: checkSitePrinter); audit `printer-saved`. */
  save(
    input: { id: number; uri: string; name: string },
    settings?: SitePrinterSettingsInput,
  ): Promise<{ printer: SitePrinter; replaced: boolean }>;
  /** Removes printer `id` (UnknownSitePrinter when there is none); audit `printer-removed`. */
  remove(id: number): Promise<void>;
}

/**
 * The site's printers. `actor` is who changes them, for the audit log (`cli:<OS user>@<host>` for
 * `labeldesk site-printers`). `onInvalid` hears a row that breaks the rules (written by hand): it is not used.
 */
export function sitePrinters(
  db: SiteDb,
  opts: { actor?: string; onInvalid?: (id: number, e: Error) => void } = {},
): SitePrinters {
  const actor = opts.actor ?? 'unknown';
  const valid = (row: Row): SitePrinter | undefined => {
    try {
      return fromRow(row);
    } catch (e) {
      if (!(e instanceof PrintersFileError || e instanceof PrinterProfileError)) throw e;
      opts.onInvalid?.(row.id, e);
      return undefined;
    }
  };
  return {
    async list() {
      const { rows } = await db.query<Row>(
        'SELECT id, name, uri, profile, updated_at FROM site_printers ORDER BY id',
      );
      return rows.map(valid).filter((p): p is SitePrinter => p !== undefined);
    },
    async find(id) {
      if (!Number.isInteger(id) || id < 0 || id > SITE_PRINTER_ID_MAX) return undefined;
      const { rows } = await db.query<Row>(
        'SELECT id, name, uri, profile, updated_at FROM site_printers WHERE id = $1',
        [id],
      );
      return rows[0] ? valid(rows[0]) : undefined;
    },
    async save(input, settings) {
      const { printer, profile } = checkSitePrinter(input, settings);
      const stored = profile ? settingsOf(profile) : null;
      return db.tx(async (client) => {
        const before = await client.query<{ uri: string }>(
          'SELECT uri FROM site_printers WHERE id = $1 FOR UPDATE',
          [printer.id],
        );
        const { rows } = await client.query<Row & { replaced: boolean }>(
          `INSERT INTO site_printers AS p (id, name, uri, profile, updated_at) VALUES ($1, $2, $3, $4, now())
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, uri = EXCLUDED.uri, profile = EXCLUDED.profile,
             updated_at = now()
           RETURNING id, name, uri, profile, updated_at, (xmax <> 0) AS replaced`,
          [printer.id, printer.name, printer.uri, stored === null ? null : JSON.stringify(stored)],
        );
        const row = rows[0];
        if (!row) throw new Error('the printer was not stored');
        await appendAudit(client, {
          actor,
          action: 'printer-saved',
          subject: String(printer.id),
          // Not the address itself: any key holder reads the audit log, and a client needs no printer's address.
          detail: {
            name: printer.name,
            format: formatsOf(printer.uri)[0] ?? null,
            profile: stored,
            replaced: row.replaced,
            ...(before.rows[0] ? { address_changed: before.rows[0].uri !== printer.uri } : {}),
          },
        });
        return { printer: fromRow(row), replaced: row.replaced };
      });
    },
    async remove(id) {
      await db.tx(async (client) => {
        const { rows } = await client.query<{ name: string }>(
          'DELETE FROM site_printers WHERE id = $1 RETURNING name',
          [id],
        );
        const row = rows[0];
        if (!row) throw new UnknownSitePrinter(id);
        await appendAudit(client, {
          actor,
          action: 'printer-removed',
          subject: String(id),
          detail: { name: row.name },
        });
      });
    },
  };
}

/**
 * The relay's lookup on a site server: the site's printers (read at each lookup), and `file` (this instance's
 * printers file) when given. An id in both is refused with AmbiguousPrinter (the file comment says why).
 */
export function sitePrinterLookup(printers: SitePrinters, file?: PrinterLookup): PrinterLookup {
  return {
    async find(id) {
      const [site, local] = await Promise.all([printers.find(id), file?.find(id)]);
      if (site && local) throw new AmbiguousPrinter(id, site, local.printer);
      if (local) return local;
      if (!site) return undefined;
      const { profile, updatedAt: _at, ...printer } = site;
      const found: LookedUpPrinter = { printer, profile: async () => profile };
      return found;
    },
  };
}
