/**
 * Printer profiles: what LabelDesk must know about one printer to render for it, stored per canonical URI
 * (src/node/printers/profile-store.ts keeps them in a JSON file). Zod is the single source of truth; types come
 * from it.
 */
import { z } from 'zod';
import { problemsOf, type Problem, formatProblems } from '../model/errors';
import { MEDIA_TRACKING, PRINT_MODES, PRINT_SPEED_RANGE, type ZplJobOptions } from '../zpl/job';
import { PrinterUriSchema } from './uri';

/** Dots, 0..32000: the range `^LH` and `^PW` accept. */
const dotsSchema = z.number().int().min(0).max(32_000);

export const PrinterProfileSchema = z
  .object({
    /** Canonical printer URI (normalised on parse). */
    uri: PrinterUriSchema,
    /** What people call it ("Dock 7 Zebra"). */
    name: z.string().trim().min(1).max(120),
    /** Print resolution in dots per inch. */
    dpi: z.number().int().min(100).max(1200),
    /**
     * `detected`: the printer said so (SGD or ~HI); `set`: a person entered it (detection never overrides it);
     * `assumed`: nobody has said yet — `dpi` is a placeholder (a profile made for its darkness or offsets before
     * the printer was reachable), and the next print or status check asks the printer.
     */
    dpiSource: z.enum(['detected', 'set', 'assumed']),
    /** Widest printable line in dots (`^PW` cap): 832 on a 4 in printer at 203 dpi. */
    printWidthDots: dotsSchema.min(1),
    /** `~SD` darkness 0..30; omitted: keep the printer's own setting. */
    darkness: z.number().int().min(0).max(30).optional(),
    /** Label offsets in dots, sent as `^LH x,y` (moves every field; corrects a printer's calibration). */
    offset: z.object({ x: dotsSchema, y: dotsSchema }).strict().default({ x: 0, y: 0 }),
    /**
     * Media tracking: `gap` (die-cut labels, ^MNY), `mark` (black mark, ^MNM), `continuous` (^MNN), sent with
     * every job; omitted: keep the printer's own setting.
     */
    mediaType: z.enum(MEDIA_TRACKING).optional(),
    /**
     * The loaded labels' length in dots, as the printer measured it when LabelDesk calibrated it (`~JC`, then
     * `~HS`), for die-cut and black-mark media; omitted: unknown (continuous media, or not calibrated from
     * LabelDesk). A label longer than this is not printed across two labels without a word (#42 item 1).
     */
    labelLengthDots: dotsSchema.min(1).optional(),
    /** `^PR` print speed in inches per second, sent with every job; omitted: the printer's own. */
    printSpeed: z.number().int().min(PRINT_SPEED_RANGE.min).max(PRINT_SPEED_RANGE.max).optional(),
    /** `^MM` what happens after a label (tear-off, peel, cutter, rewind); omitted: the printer's own. */
    printMode: z.enum(PRINT_MODES).optional(),
    /** `direct` thermal (no ribbon, ^MTD) or thermal `transfer` (ribbon, ^MTT). */
    thermalMode: z.enum(['direct', 'transfer']).default('direct'),
    /**
     * ZPL files made elsewhere printed to this printer (`print --zpl`, src/printers/zpl-file-options.ts): their
     * printer settings (~SD ^MD ^PR ^MN ^MT ^MM…) kept or stripped (default strip), commands that reach beyond
     * the label allowed or stripped (default strip).
     */
    zplFiles: z
      .object({
        settings: z.enum(['keep', 'strip']).optional(),
        printerCommands: z.enum(['allow', 'strip']).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type PrinterProfile = z.infer<typeof PrinterProfileSchema>;
/** A profile as written by people or older versions: defaults not yet applied. */
export type PrinterProfileInput = z.input<typeof PrinterProfileSchema>;

/** The profiles file's version LabelDesk writes. */
export const PROFILES_FILE_VERSION = 2;

/**
 * A version 1 file was written when a profile's media type was a default (`gap`) that was never sent to the
 * printer: read as "the printer's own", so an update does not start sending `^MNY` to a printer on continuous
 * media nobody told it about. Other values pass unchanged to the schema.
 */
const fromVersion1 = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || (value as { version?: unknown }).version !== 1)
    return value;
  const file = value as { profiles?: unknown };
  const profiles = Array.isArray(file.profiles)
    ? file.profiles.map((p: unknown) => {
        if (typeof p !== 'object' || p === null) return p;
        const { mediaType: _unsent, ...rest } = p as Record<string, unknown>;
        return rest;
      })
    : file.profiles;
  return { ...file, version: PROFILES_FILE_VERSION, profiles };
};

/**
 * The profiles file: `{ "version": 2, "profiles": [...] }`, at most one profile per URI (version 1 read as
 * `fromVersion1` says).
 */
export const ProfilesFileSchema = z.preprocess(
  fromVersion1,
  z
    .object({
      version: z.literal(PROFILES_FILE_VERSION),
      profiles: z.array(PrinterProfileSchema),
    })
    .strict()
    .superRefine((file, ctx) => {
      const seen = new Map<string, number>();
      file.profiles.forEach((p, i) => {
        const first = seen.get(p.uri);
        if (first !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['profiles', i, 'uri'],
            message: `same printer as profiles[${first}] (${p.uri})`,
          });
        } else seen.set(p.uri, i);
      });
    }),
);

export type ProfilesFile = z.infer<typeof ProfilesFileSchema>;

/** A profile or profiles file that failed validation, with every problem and its path. */
export class PrinterProfileError extends Error {
  override name = 'PrinterProfileError';
  constructor(
    readonly problems: Problem[],
    readonly source?: string,
  ) {
    super(`${source ? `${source}: ` : ''}${formatProblems(problems)}`);
  }
}

/** Validates one profile (applying defaults). Throws PrinterProfileError. */
export function parsePrinterProfile(value: unknown, source?: string): PrinterProfile {
  const result = PrinterProfileSchema.safeParse(value, { reportInput: true });
  if (!result.success) throw new PrinterProfileError(problemsOf(result.error), source);
  return result.data;
}

/** Validates a whole profiles file. Throws PrinterProfileError. */
export function parseProfilesFile(value: unknown, source?: string): ProfilesFile {
  const result = ProfilesFileSchema.safeParse(value, { reportInput: true });
  if (!result.success) throw new PrinterProfileError(problemsOf(result.error), source);
  return result.data;
}

/** Print width of a 4 in desktop printer (4.1 in of head) at `dpi`, in whole bytes of dots: 203 → 832. */
export function defaultPrintWidthDots(dpi: number): number {
  return Math.round((dpi * 4.1) / 8) * 8;
}

/** A new printer's profile before anyone edits it. */
export function defaultProfile(
  uri: string,
  name: string,
  dpi: number,
  dpiSource: PrinterProfile['dpiSource'],
): PrinterProfile {
  return parsePrinterProfile({ uri, name, dpi, dpiSource, printWidthDots: defaultPrintWidthDots(dpi) });
}

/** The profile's dpi when someone (the printer or a person) said it; undefined while it is only assumed. */
export function knownDpi(profile: PrinterProfile | undefined): number | undefined {
  return profile && profile.dpiSource !== 'assumed' ? profile.dpi : undefined;
}

/**
 * A newly detected dpi (and the print width the printer reported, SGD `ezpl.print_width`) applied to a profile:
 * unless a person set the dpi (their setting wins); the print width follows when it was the default for the old
 * dpi — the printer's own when it said it. Every other setting (darkness, offsets, media) is kept.
 */
export function withDetectedDpi(
  profile: PrinterProfile,
  dpi: number,
  printWidthDots?: number,
): PrinterProfile {
  // The width nobody changed (the default for its dpi) follows the printer: its own when it said it.
  const untouched = profile.printWidthDots === defaultPrintWidthDots(profile.dpi);
  if (profile.dpiSource === 'set') {
    // A person's dpi wins; the printer's width is taken only at that dpi.
    return untouched && printWidthDots !== undefined && profile.dpi === dpi
      ? { ...profile, printWidthDots }
      : profile;
  }
  const width = untouched ? (printWidthDots ?? defaultPrintWidthDots(dpi)) : profile.printWidthDots;
  if (profile.dpiSource === 'detected' && profile.dpi === dpi && width === profile.printWidthDots)
    return profile;
  return { ...profile, dpi, dpiSource: 'detected', printWidthDots: width };
}

/**
 * The print width a label for this printer is rendered with at `dpi`: the profile's when the profile is for
 * that dpi, else the default head of a 4 in printer at that dpi.
 */
export function printWidthFor(profile: PrinterProfile | undefined, dpi: number): number {
  return profile && profile.dpi === dpi ? profile.printWidthDots : defaultPrintWidthDots(dpi);
}

/**
 * The loaded labels' length a label for this printer must fit at `dpi`: the measured one when the profile is for
 * that dpi and its media is not continuous (where any length prints); else unknown.
 */
export function labelLengthFor(profile: PrinterProfile | undefined, dpi: number): number | undefined {
  if (!profile || profile.dpi !== dpi || profile.mediaType === 'continuous') return undefined;
  return profile.labelLengthDots;
}

type ProfileJobSettings = Pick<
  ZplJobOptions,
  'maxWidthDots' | 'labelHome' | 'darkness' | 'mediaTracking' | 'printMode' | 'printSpeed'
>;

/**
 * The job settings a profile implies for buildZplJob (width cap, `^LH` offsets, `~SD` darkness, `^MN` media,
 * `^MM` print mode, `^PR` speed).
 */
export function zplJobSettings(profile: PrinterProfile): ProfileJobSettings {
  const settings: ProfileJobSettings = {
    maxWidthDots: profile.printWidthDots,
  };
  if (profile.offset.x !== 0 || profile.offset.y !== 0) settings.labelHome = { ...profile.offset };
  if (profile.darkness !== undefined) settings.darkness = { mode: 'absolute', level: profile.darkness };
  if (profile.mediaType !== undefined) settings.mediaTracking = profile.mediaType;
  if (profile.printMode !== undefined) settings.printMode = profile.printMode;
  if (profile.printSpeed !== undefined) settings.printSpeed = profile.printSpeed;
  return settings;
}
