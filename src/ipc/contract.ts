/**
 * The one contract between the renderer and main (ARCHITECTURE.md, STYLE.md §8): every channel's request
 * schema (zod, parsed by main before a handler sees it) and response type, declared once. The preload's
 * `window.api`, the web-mode HTTP bridge and main's handlers are all typed from this map, so a channel added
 * here is a compile error everywhere it is not yet served.
 *
 * Direction of secrets: the renderer may SEND the hosted API secret (Settings → save); main never sends it
 * back (`SettingsView.hasSecret` says whether one is stored).
 */
import { z } from 'zod';
import type { Template, TemplateInput } from '../model/schema';
import { TEMPLATE_ORIGINS, type TemplateOrigin } from '../model/store';
import { JOB_STATES, type LabelState } from '../jobs/model';
import { formatMegabytes, WORKBOOK_LIMITS } from '../jobs/workbook-limits';
import type { FieldProblem, WirePreviewScene } from './wire-scene';
import type { PrinterState } from '../printers/status';
import { OVERSIZE_CHOICES } from '../outputs/fit';
import { MEDIA_TRACKING, PRINT_MODES, PRINT_SPEED_RANGE } from '../zpl/job';

// ---------------------------------------------------------------- shared request pieces

/**
 * Where a template comes from: the app's bundled set, the user's folder, captured from the hosted API, or the
 * site server's (issue #24: Settings → Site server; fetched from it, never kept as a file).
 */
export const TEMPLATE_SOURCES = [...TEMPLATE_ORIGINS, 'site'] as const;
export type TemplateSource = TemplateOrigin | 'site';

export const TemplateRefSchema = z.strictObject({
  source: z.enum(TEMPLATE_SOURCES),
  name: z.string().min(1).max(200),
});
export type TemplateRef = z.infer<typeof TemplateRefSchema>;

/** What the form holds: field name → typed text (every value a string, as the API's apiData). */
export const FieldValuesSchema = z
  .record(z.string().max(200), z.string().max(10_000))
  .refine((v) => Object.keys(v).length <= 500, { message: 'at most 500 fields' });
export type FieldValues = z.infer<typeof FieldValuesSchema>;

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const copies = z.number().int().min(1).max(1000);
/** A configured printer, by its id in the app's printer list. */
const printerId = z.string().min(1).max(100);

/** An opened ZPL file, as main named it (`zpl.open`). */
const zplToken = z.string().regex(/^[0-9a-f]{32}$/, 'not an opened ZPL file');

export const LabelSchema = z.strictObject({ ref: TemplateRefSchema, values: FieldValuesSchema });

export const OUTPUT_FORMATS = ['pdf', 'zpl', 'svg', 'png'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const BACKEND_MODES = ['hosted', 'local', 'site'] as const;
/**
 * `hosted`: the hosted API renders (bundled engine when it is unreachable); `local`: always the bundled engine;
 * `site`: the site server (`labeldesk serve --database`) is the backend — its templates, its counters, its
 * history; when it is unreachable only bundled templates without counters print locally.
 */
export type BackendMode = (typeof BACKEND_MODES)[number];

function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** https, or http to this computer only (the secret travels in a header: never in clear over a network). */
const secretSafeUrl = z
  .url({ protocol: /^https?$/, error: 'expected an https:// URL' })
  .max(500)
  .refine((url) => url.startsWith('https:') || isLoopbackUrl(url), {
    message:
      'use https:// (http:// only for 127.0.0.1 or localhost): the API secret must not cross a network in clear',
  });

/** The hosted API's URL, key and secret as typed (not saved): what "Test connection" tests. */
export const HostedTypedSchema = z.strictObject({
  apiBaseUrl: secretSafeUrl.nullable(),
  apiKey: z.string().trim().max(200).nullable(),
  /** Absent or null: the secret main keeps, if any. */
  apiSecret: z.string().max(500).nullable().optional(),
});
export type HostedTyped = z.infer<typeof HostedTypedSchema>;

/** The site server's settings as typed in its card, tested without being saved. */
export const SiteTypedSchema = z.strictObject({
  siteUrl: secretSafeUrl.nullable(),
  siteKey: z.string().trim().max(200).nullable(),
  /** Absent or null: the secret main keeps, if any. */
  siteSecret: z.string().max(500).nullable().optional(),
});
export type SiteTyped = z.infer<typeof SiteTypedSchema>;

export const SettingsPatchSchema = z.strictObject({
  apiBaseUrl: secretSafeUrl.nullable().optional(),
  apiKey: z.string().trim().max(200).nullable().optional(),
  /** Write-only: stored encrypted in main, never returned. `null` forgets it. */
  apiSecret: z.string().max(500).nullable().optional(),
  /**
   * With `apiSecret`: keep it in memory for this session only (the choice offered where the desktop cannot
   * protect a stored secret: `SettingsView.secretStorageProblem`).
   */
  secretForSessionOnly: z.boolean().optional(),
  /** The site server's base URL (`labeldesk serve --database`; https, or http to this computer only). */
  siteUrl: secretSafeUrl.nullable().optional(),
  /** The site key's id (`labeldesk keys create --database …`). */
  siteKey: z.string().trim().max(200).nullable().optional(),
  /** Write-only, like `apiSecret`: kept by main, never returned. `null` forgets it. */
  siteSecret: z.string().max(500).nullable().optional(),
  /** With `siteSecret`: keep it in memory for this session only. */
  siteSecretForSessionOnly: z.boolean().optional(),
  mode: z.enum(BACKEND_MODES).optional(),
  defaultPrinter: printerId.nullable().optional(),
  /** The printer last chosen on the Print screen (chosen again after a reload). */
  lastPrinter: printerId.nullable().optional(),
  /** Prints of more copies than this ask first (0: never ask). */
  confirmCopiesAbove: z.number().int().min(0).max(1000).optional(),
  /** Keep the copies typed after a print (off: back to 1, as after choosing another template). */
  keepCopiesAfterPrint: z.boolean().optional(),
  /** Templates pinned to the top of the Print screen's list, in the order shown. */
  pinnedTemplates: z.array(TemplateRefSchema).max(20).optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const PrinterInputSchema = z.strictObject({
  /** Omitted: a new printer. */
  id: printerId.optional(),
  name: z.string().trim().min(1).max(120),
  uri: z.string().trim().min(1).max(500),
  /** Dots per inch a person set; omitted: asked from the printer (or 203). */
  dpi: z.number().int().min(100).max(1200).optional(),
  /** `~SD` darkness; null: the printer's own; omitted: unchanged. */
  darkness: z.number().int().min(0).max(30).nullable().optional(),
  /** Media tracking sent with every job (`^MN`); null: the printer's own; omitted: unchanged. */
  mediaType: z.enum(MEDIA_TRACKING).nullable().optional(),
  /** Print speed in inches per second (`^PR`); null: the printer's own; omitted: unchanged. */
  printSpeed: z.number().int().min(PRINT_SPEED_RANGE.min).max(PRINT_SPEED_RANGE.max).nullable().optional(),
  /** What happens after each label (`^MM`); null: the printer's own; omitted: unchanged. */
  printMode: z.enum(PRINT_MODES).nullable().optional(),
});
export type PrinterInput = z.infer<typeof PrinterInputSchema>;

/** A workbook's bytes in base64: its size budget, checked before anything decodes it. */
const WORKBOOK_BASE64_MAX = Math.ceil(WORKBOOK_LIMITS.maxBytes / 3) * 4;

const BatchFields = z.strictObject({
  ref: TemplateRefSchema,
  /** The CSV file's text (the renderer reads the file the user picked). */
  csv: z.string().max(50_000_000).optional(),
  /** Or a workbook (.xlsx, .ods): its name, its bytes in base64, and the sheet (default: the first). */
  workbook: z
    .strictObject({
      name: z.string().min(1).max(500),
      base64: z
        .string()
        .max(WORKBOOK_BASE64_MAX, {
          message: `a workbook for a batch is at most ${formatMegabytes(WORKBOOK_LIMITS.maxBytes)}`,
        })
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'expected base64' }),
      sheet: z.string().max(200).optional(),
    })
    .optional(),
  /** Column → template field, for columns whose names differ ("" = the column feeds nothing). */
  mapping: z.record(z.string().max(200), z.string().max(200)).optional(),
  /** A column holding copies per row. */
  copiesColumn: z.string().max(200).optional(),
});
const oneSource = (b: { csv?: string | undefined; workbook?: unknown }) =>
  (b.csv === undefined) !== (b.workbook === undefined);
const ONE_SOURCE = { message: 'send either csv or workbook', path: ['csv'] };
export const BatchInputSchema = BatchFields.refine(oneSource, ONE_SOURCE);
export type BatchInput = z.infer<typeof BatchInputSchema>;

export const JOB_STATE_NAMES = JOB_STATES;

export const JobFilterSchema = z.strictObject({
  state: z.enum(JOB_STATE_NAMES).optional(),
  printer: printerId.optional(),
  template: z.string().max(200).optional(),
  text: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});
export type JobFilter = z.infer<typeof JobFilterSchema>;

// ---------------------------------------------------------------- response shapes

/** The font families a template may name besides the generic ones (issue #23, docs/fonts.md). */
export interface FontFamiliesView {
  /** User fonts (`<data dir>/fonts`) and the machine's installed fonts, sorted; generic families left out. */
  families: string[];
  /** Files of `<data dir>/fonts` that are not one TrueType font, and why. */
  skipped: { file: string; why: string }[];
}

export interface AppInfo {
  version: string;
  /** `electron`: the desktop app; `web`: `npm run web` in a browser. */
  shell: 'electron' | 'web';
  platform: string;
}

export interface SettingsView {
  apiBaseUrl: string | null;
  apiKey: string | null;
  /** Whether a secret is stored (the secret itself never leaves main). */
  hasSecret: boolean;
  /**
   * `stored`: at rest, protected by the OS keychain (web mode: a file only you can read); `session`: in
   * memory until LabelDesk quits.
   */
  secretKept: 'stored' | 'session' | null;
  /** A sentence when this desktop cannot protect a stored secret (then it can only be kept for the session). */
  secretStorageProblem: string | null;
  /**
   * The only folder "print to file" printers (`file://`) may write into; null: none allowed. Chosen by the user
   * in main's own folder dialog (`settings.chooseFilePrinterFolder`), never set from a payload.
   */
  filePrinterFolder: string | null;
  siteUrl: string | null;
  siteKey: string | null;
  /** Whether a site secret is kept (it never leaves main). */
  hasSiteSecret: boolean;
  siteSecretKept: 'stored' | 'session' | null;
  mode: BackendMode;
  defaultPrinter: string | null;
  lastPrinter: string | null;
  confirmCopiesAbove: number;
  keepCopiesAfterPrint: boolean;
  /** Most recently printed templates, newest first. */
  recentTemplates: TemplateRef[];
  /** Templates pinned to the top of the Print screen's list (#42 item 14). */
  pinnedTemplates: TemplateRef[];
}

export interface ConnectionStatus {
  /** The backend the next print uses. */
  backend: 'hosted' | 'local' | 'site';
  /**
   * `online`: the hosted API (the site server, with `backend` site) answered last time; `offline`: it did not
   * (the bundled engine stands in); `refused`: it answered 401 (key or secret wrong: Settings).
   */
  hosted: 'online' | 'offline' | 'refused' | 'unconfigured' | 'unknown';
  /** A sentence for people when something is wrong (wrong secret, unreachable host). */
  message: string | null;
  /** Prints used against the hosted allowance with the current key, as this app counted them (spec §1 rule 3). */
  printsUsed: { labels: number; requests: number } | null;
}

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  status: ConnectionStatus;
}

export interface TemplateSummary {
  ref: TemplateRef;
  /** What people call it (the template's title, else its name). */
  title: string;
  description: string;
  /** `test`: for checking printers and outputs, listed last; `labels`: to print from. */
  purpose: 'labels' | 'test';
  /** Stage size as the template states it, e.g. `4 × 6 in`. */
  size: string;
  fieldCount: number;
  recent: boolean;
}

export interface BrokenTemplateView {
  file: string;
  source: TemplateSource;
  problems: string[];
}

export interface TemplateDetail {
  ref: TemplateRef;
  template: Template;
  /** Markup element index → the fields its values reference (click an element → focus its field). */
  elementFields: Record<number, string[]>;
}

/** A problem of a template being saved, where the designer shows it: at an element, a field, or the template. */
export interface TemplateProblemView {
  /** JSON path, e.g. `elements[3].format` ("" for the template itself). */
  path: string;
  /** The element at fault, by index in `elements`; null when the problem is not an element's. */
  element: number | null;
  /** The field at fault, by index in `fields`; null when the problem is not a field's. */
  field: number | null;
  message: string;
}

/** `saved` null: nothing was written, `problems` say why (each where it is). */
export interface TemplateSaveResult {
  saved: TemplateSummary | null;
  problems: TemplateProblemView[];
}

/** An earlier version of a user template, kept when a save replaced it. */
export interface TemplateRevisionView {
  /** Names the revision for `templates.restoreRevision`. */
  id: string;
  /** When that version had been saved (ISO 8601). */
  savedAt: string;
  bytes: number;
}

/** `20261124T235630123Z`, optionally `-2`… for versions saved within the same millisecond. */
export const REVISION_ID = /^\d{8}T\d{9}Z(-\d{1,4})?$/;

const templateName = z.string().min(1).max(200);

export interface PreviewResult {
  /** The nodes that changed since the scene the request named in `since` (all of them without one). */
  scene: WirePreviewScene;
  /** Values the template's field rules refuse (required, pattern, type, length), by field. */
  problems: FieldProblem[];
  /** Values that do not fit on the label (text cut at its box), by field: printing asks first. */
  cuts: FieldProblem[];
}

export interface RasterPreview {
  /** A 1-bit PNG (`data:image/png;base64,…`) at the printer's dpi: what the head will burn. */
  dataUrl: string;
  dpi: number;
  /** The printer's dpi is not known yet (no profile): drawn at `dpi` as a guess, not asked on every keystroke. */
  dpiAssumed: boolean;
  /** What the head burns (what the printed ZPL's `^PW` and `^LL` say): the label cut to the printer. */
  widthDots: number;
  heightDots: number;
  /** The whole label in dots at `dpi`: larger than widthDots × heightDots when the printer cuts it. */
  labelWidthDots: number;
  labelHeightDots: number;
  /** What the printer does not print, in words ("the right 106 mm (846 dots)"), or null when it all prints. */
  cut: string | null;
}

/** Whether a label fits the printer it is about to print on (src/outputs/fit.ts decides). */
export interface PrintFit {
  fits: boolean;
  /** The problem in one sentence, without its full stop; '' when the label fits. */
  problem: string;
  /** What printing it cut leaves off ("the right 106 mm (846 dots)"); '' when it fits. */
  cut: string;
  /** Turned 90° it fits (the choice `rotate`). */
  rotates: boolean;
  /** Scaled to fit: its size in percent (aspect kept). */
  fitPercent: number;
}

export interface ExportedFile {
  fileName: string;
  mime: string;
  base64: string;
}

/**
 * A ZPL file the user opened (a carrier's label, issue #33): read by the ZPL reader in main and kept there
 * under `token` for the printer view, the print and the exports (its bytes cross IPC once).
 */
export interface ZplFileView {
  token: string;
  fileName: string;
  labels: ZplLabelView[];
  /** In people's words: the reader's warnings, the settings in the file, the commands taken out. */
  warnings: string[];
  /** The printer settings the file holds (`~SD25 (darkness), ^PR4 (print speed)`), or null. */
  settings: string | null;
  /** Commands that reach beyond the label, always taken out (`^JUS (saves …)`), or null. */
  printerCommands: string | null;
  /**
   * The file was made for another dpi than the printer's (its ^MU, or its size against the printer's labels):
   * printed re-rasterised at the printer's dpi (keeps its size) unless `zpl.print`'s `asIs`. Null: same dpi, or
   * nothing tells.
   */
  dpiMismatch: { fileDpi: number; printerDpi: number; how: string } | null;
}

export interface ZplLabelView {
  /** 1-based, in the file's order. */
  number: number;
  widthDots: number;
  heightDots: number;
  /** `4 × 6 in` at the reading dpi. */
  size: string;
  /** The first field's text (`^FD`), for the list. */
  summary: string;
  /** `^PQ` copies: made by the printer. */
  copies: number;
}

/** The most bytes of one ZPL file the app opens (a carrier label is 2–200 KB; 200 labels a few MB). */
export const ZPL_FILE_MAX_BYTES = 8 * 1024 * 1024;

export interface PrinterView {
  id: string;
  name: string;
  uri: string;
  /** What the URI says in words ("Network 127.0.0.1:9100", "USB 0a5f:0181", "OS queue Office"). */
  kind: string;
  /** The resolution, once the printer reported it or a person set it; null while nobody has. */
  dpi: number | null;
  /** Who said the dpi: the printer (`detected`) or a person (`set`); null while unknown. */
  dpiSource: 'detected' | 'set' | null;
  /** `~SD` darkness the profile sends (0–30), or null to keep the printer's own. */
  darkness: number | null;
  /**
   * A ZPL file's printer settings (~SD ^MD ^PR ^MN…) on this printer: kept (true) or taken out (false), as saved
   * for it (`labeldesk printers set --zpl-settings`, or remembered from the Print screen); absent: taken out.
   */
  zplKeepSettings?: boolean;
  /** Media tracking the profile sends (`^MN`), or null to keep the printer's own. */
  mediaType?: (typeof MEDIA_TRACKING)[number] | null;
  /** Print speed in inches per second the profile sends (`^PR`), or null. */
  printSpeed?: number | null;
  /** Print mode the profile sends (`^MM`), or null. */
  printMode?: (typeof PRINT_MODES)[number] | null;
  /** `raw`: receives ZPL; `pdf`: an OS queue that needs PDF. */
  language: 'zpl' | 'pdf';
  /**
   * A printer of the site server (site mode, `site.printers`): printed through the site's print queue (route
   * 03/04 with its printer_id). Its `uri` is empty: the site does not give its printers' addresses.
   */
  site?: true;
}

export type PrinterStatusState = PrinterState | 'no-status';

export interface PrinterStatusView {
  printer: string;
  state: PrinterStatusState;
  /** One sentence for people ("Paper out: load labels and close the head"). */
  message: string;
  checkedAt: string;
}

/** What a calibration (`~JC`) came to: the printer's status once it measured its labels. */
export interface CalibrationView {
  printer: string;
  /** The printer measured its labels and is ready. */
  ok: boolean;
  /** One sentence for people. */
  message: string;
  status: PrinterStatusView;
}

export interface DiscoveredPrinterView {
  uri: string;
  name: string;
  source: string;
}

/** How far a network scan is. */
export interface NetworkScanProgress {
  probed: number;
  total: number;
  found: number;
}

/** A network scan's end: the printers that answered, and why it stopped early (a cancel, its time budget). */
export interface NetworkScanView extends NetworkScanProgress {
  printers: DiscoveredPrinterView[];
  stopped: 'cancelled' | 'budget' | null;
}

export interface BatchProblemView {
  /** Which data record (1 = the first after the header). */
  record: number;
  /** Line in the file where the record starts (differs once values hold line breaks). */
  line: number;
  /** The field's label (or the column's name, or "(whole record)"). */
  field: string;
  /** The value as read from the file; null for a problem of the whole record. */
  value: string | null;
  problem: string;
}

export interface BatchPlanView {
  columns: string[];
  /** CSV column → field actually used (explicit mapping, else matched by name). */
  mapping: Record<string, string>;
  /** The column read as copies per row, if any. */
  copiesColumn: string | null;
  /** The template's fields a column can feed (counters excluded), for the mapping step. */
  fields: { name: string; label: string }[];
  /** Optional template fields no column feeds: what each prints instead (its placeholder, or nothing). */
  unmappedFields: { name: string; label: string; placeholder: string }[];
  /** Required fields no column feeds: nothing prints until a column is chosen for each. */
  missingRequired: { name: string; label: string }[];
  /** A workbook's sheets and the one read; null for CSV. */
  sheets: string[] | null;
  sheet: string | null;
  /** What a problem's `line` counts: the CSV file's lines, or the sheet's rows. */
  lineWord: 'line' | 'row';
  rows: number;
  validRows: number;
  labels: number;
  problems: BatchProblemView[];
}

/** `paused`: the printer needs attention (resumes by itself); `held`: a person paused it. */
export type JobStateView = (typeof JOB_STATE_NAMES)[number];
export type LabelStateView = LabelState;

export interface JobView {
  id: number;
  state: JobStateView;
  reason: string | null;
  template: string;
  /** The printer's URI (jobs are stored by URI). */
  printer: string;
  /** Its id in the app's printer list, or null when it is no longer configured. */
  printerId: string | null;
  printerName: string;
  labelCount: number;
  counts: Record<LabelStateView, number>;
  possibleDuplicates: number[];
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  /** Reprint of which job, if it is one. */
  reprintOf: number | null;
  /**
   * What is on it, in short (#42 item 12): the first one or two non-empty values of its first label (a name,
   * a tracking number), labelled, in the template's field order.
   */
  onIt: { label: string; value: string }[];
}

export interface LabelView {
  number: number;
  /** The CSV record it came from, for a batch; null otherwise. */
  record: number | null;
  /** What is on it, as typed: the template's fields by label, non-empty values only, in the form's order. */
  values: { label: string; value: string }[];
  state: LabelStateView;
  possibleDuplicate: boolean;
  attempts: number;
  updatedAt: string;
}

/** A request the site server recorded (GET /site/jobs, issue #24): who, where, when, the first counter numbers. */
export interface SiteJobView {
  id: number;
  /** The label route asked (`fetch-markups` for a workstation's own printer, `print-relay` for the site's). */
  route: string;
  template: string;
  labels: number;
  /** Who: the API key id (never a secret). */
  key: string;
  /** Where: the site server instance that answered, and the site printer of a print-relay job. */
  instance: string;
  printer: string | null;
  /** Counter field → the number of its first label. */
  counters: Record<string, number>;
  reprintOf: number | null;
  /** Why the request failed after it was recorded, or null. */
  error: string | null;
  createdAt: string;
  /** Whether this computer can print it again (the labels of a fetch-markups or print request). */
  reprintable: boolean;
}

/** Pushed from main: the renderer refreshes what it shows. */
export type AppEvent =
  | { kind: 'job'; job: JobView; etaSeconds: number | null; message: string | null }
  | { kind: 'printer-status'; status: PrinterStatusView }
  | { kind: 'network-scan'; progress: NetworkScanProgress }
  | { kind: 'connection'; status: ConnectionStatus };

// ---------------------------------------------------------------- the channel map

/** A channel: its request schema, and its response type carried as a phantom. */
interface Channel<Req extends z.ZodType, Res> {
  request: Req;
  /** Never read: carries the response type. */
  response?: Res;
}
const channel =
  <Res>() =>
  <Req extends z.ZodType>(request: Req): Channel<Req, Res> => ({ request });

const none = z.strictObject({});
const byId = z.strictObject({ id });

/** A template as the designer holds it (not saved yet): an object, checked with the template schema by main. */
const designedTemplate = z.custom<TemplateInput>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'expected a template object',
);

export const CHANNELS = {
  'app.info': channel<AppInfo>()(none),
  /** For the designer's font list: main's fonts (the page has only the bundled ones). */
  'fonts.families': channel<FontFamiliesView>()(none),
  'settings.get': channel<SettingsView>()(none),
  'settings.update': channel<SettingsView>()(SettingsPatchSchema),
  /** Main shows its folder dialog; the folder picked becomes `filePrinterFolder` (cancelled: unchanged). */
  'settings.chooseFilePrinterFolder': channel<SettingsView>()(none),
  'connection.status': channel<ConnectionStatus>()(none),
  /** Tests the hosted API (default) or the site server as Settings has them, whichever mode is chosen. */
  'connection.test': channel<ConnectionTestResult>()(
    z.strictObject({
      target: z.enum(['hosted', 'site']).optional(),
      /**
       * The hosted API's settings as typed in the Settings form, tested without being saved (#42 item 8); an
       * absent secret means the one main keeps. Never logged.
       */
      typed: HostedTypedSchema.optional(),
      /** The site server's settings as typed in its card (with `target: 'site'`), not saved. Never logged. */
      siteTyped: SiteTypedSchema.optional(),
    }),
  ),

  'templates.list': channel<{ templates: TemplateSummary[]; broken: BrokenTemplateView[] }>()(none),
  'templates.get': channel<TemplateDetail>()(z.strictObject({ ref: TemplateRefSchema })),
  /** A template file the user picked: checked, then copied into the user's folder. */
  'templates.import': channel<TemplateSummary>()(
    z.strictObject({ fileName: z.string().min(1).max(300), text: z.string().max(5_000_000) }),
  ),
  /** Learn a hosted template by name (one fetch-markups call, counted as a print) and keep a local copy. */
  'templates.capture': channel<{ summary: TemplateSummary; notes: string[] }>()(
    z.strictObject({
      name: z.string().min(1).max(200),
      fields: z
        .array(
          z.strictObject({
            name: z.string().min(1).max(200),
            label: z.string().max(200).optional(),
            digits: z.boolean().optional(),
          }),
        )
        .min(1)
        .max(500),
    }),
  ),

  /**
   * The designer's save: the template checked with the template schema (problems come back at their element
   * or field, nothing written) and written atomically into the user's folder as `<name>.json`; the version it
   * replaces is kept in `.revisions/<name>/` (the last ten). `overwrite` false refuses a name the user's
   * folder already has (`conflict`, field `name`: the designer asks first). A new user template under the
   * name of a bundled or captured one is refused (a problem at `name`): those stay read-only, and a user
   * template of the same name would take their place for the local engine (`labeldesk serve`, the offline
   * fallback) without the user seeing it — duplicate one to edit it. (One already in the user's folder under
   * such a name, imported, is saved as any other.)
   */
  'templates.save': channel<TemplateSaveResult>()(
    z.strictObject({
      template: z.custom<TemplateInput>(
        (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
        'expected a template object',
      ),
      overwrite: z.boolean(),
    }),
  ),
  /** The kept versions of a user template, newest first. */
  'templates.revisions': channel<TemplateRevisionView[]>()(z.strictObject({ name: templateName })),
  /** Makes a kept version the current one (the current one is kept in turn: a restore can be undone). */
  'templates.restoreRevision': channel<TemplateSummary>()(
    z.strictObject({ name: templateName, revision: z.string().regex(REVISION_ID, 'not a revision id') }),
  ),
  /** Copies any template into the user's folder under a new name (to edit it); a name already used is refused. */
  'templates.duplicate': channel<TemplateSummary>()(
    z.strictObject({ ref: TemplateRefSchema, name: templateName }),
  ),
  /** A template's file, to save elsewhere (the designer's Export). */
  'templates.export': channel<ExportedFile>()(z.strictObject({ ref: TemplateRefSchema })),

  /** `since`: the id of the preview scene the renderer holds, so only what changed is sent. */
  'preview.scene': channel<PreviewResult>()(LabelSchema.extend({ since: z.string().max(80).optional() })),
  'preview.raster': channel<RasterPreview>()(LabelSchema.extend({ printer: printerId.optional() })),
  /**
   * The designer's printer view: a template as it is being designed (not saved yet: checked with the template
   * schema, problems named as for a save) drawn 1-bit at the dpi the designer targets, the way a print of it
   * at that dpi burns it.
   */
  'preview.templateRaster': channel<RasterPreview>()(
    z.strictObject({
      template: designedTemplate,
      values: FieldValuesSchema,
      dpi: z.union([z.literal(203), z.literal(300), z.literal(600)]),
    }),
  ),
  /**
   * The designer's canvas when the page cannot draw the document itself (its fonts still loading, text only a
   * fallback or user font can draw, an image by address): main's scene of it, whole (no `since`).
   */
  'preview.templateScene': channel<PreviewResult>()(
    z.strictObject({ template: designedTemplate, values: FieldValuesSchema }),
  ),

  'output.export': channel<ExportedFile>()(
    LabelSchema.extend({ copies, format: z.enum(OUTPUT_FORMATS), printer: printerId.optional() }),
  ),
  /**
   * Prints: a tracked job for label printers (ZPL); for an OS queue that wants documents, one PDF handed to the
   * system spooler (`job` null: the OS tracks it), with a sentence saying what was sent.
   */
  'print.submit': channel<{ job: JobView | null; message: string }>()(
    LabelSchema.extend({ copies, printer: printerId, oversize: z.enum(OVERSIZE_CHOICES).optional() }),
  ),
  /**
   * Whether the label fits the printer (its head's width, its dpi): asked before Print, which, when it does not,
   * asks the user to scale it to fit, turn it, print it cut or cancel (`print.submit`'s `oversize`).
   */
  'print.fit': channel<PrintFit>()(LabelSchema.extend({ printer: printerId })),

  /**
   * Opens a ZPL file read in the renderer (`base64`, at most ZPL_FILE_MAX_BYTES): its labels, their sizes and
   * what it does to a printer beyond them, read at `printer`'s dpi (203 without one).
   */
  'zpl.open': channel<ZplFileView>()(
    z.strictObject({
      fileName: z.string().min(1).max(300),
      base64: z
        .string()
        .max(
          Math.ceil(ZPL_FILE_MAX_BYTES / 3) * 4,
          `a ZPL file of at most ${ZPL_FILE_MAX_BYTES / 1048576} MB`,
        ),
      printer: printerId.optional(),
    }),
  ),
  /** One label of an opened file as the printer burns it: 1-bit at `printer`'s dpi. */
  'zpl.label': channel<RasterPreview>()(
    z.strictObject({ token: zplToken, number: id, printer: printerId.optional() }),
  ),
  /**
   * The file's labels through the job queue, each its own bytes, `copies` times the file; the printer's settings
   * in it sent only with `keepSettings`.
   */
  'zpl.print': channel<{ job: JobView; message: string }>()(
    z.strictObject({
      token: zplToken,
      printer: printerId,
      copies,
      keepSettings: z.boolean(),
      asIs: z.boolean().optional(),
      /** Save `keepSettings` as this printer's choice for ZPL files (its profile), for the next file too. */
      remember: z.boolean().optional(),
    }),
  ),
  /** The file's labels as a PDF (every label), or one label as a 1-bit PNG at `printer`'s dpi. */
  'zpl.export': channel<ExportedFile>()(
    z.strictObject({
      token: zplToken,
      format: z.enum(['pdf', 'png']),
      number: id.optional(),
      printer: printerId.optional(),
    }),
  ),

  'printers.list': channel<PrinterView[]>()(none),
  'printers.status': channel<PrinterStatusView>()(z.strictObject({ printer: printerId })),
  'printers.save': channel<PrinterView>()(PrinterInputSchema),
  'printers.remove': channel<{ removed: boolean }>()(z.strictObject({ id: printerId })),
  'printers.discover': channel<{ found: DiscoveredPrinterView[]; problems: string[] }>()(none),
  /**
   * Probes port `port` (9100) of the addresses in `range` (`192.168.1.0/24`, `10.0.0.5`; several with commas),
   * else the /24 around each private address of this computer, and asks each answering printer its model and
   * dpi. Progress arrives as `network-scan` events; one scan at a time.
   */
  'printers.scanNetwork': channel<NetworkScanView>()(
    z.strictObject({
      range: z.string().trim().max(500).optional(),
      port: z.number().int().min(1).max(65535).optional(),
    }),
  ),
  /** Stops the scan under way (its answer lists what it found so far). */
  'printers.cancelScan': channel<{ cancelled: boolean }>()(none),
  /** Makes the printer measure its labels (ZPL `~JC`), then reports its status. */
  'printers.calibrate': channel<CalibrationView>()(z.strictObject({ id: printerId })),

  'batch.plan': channel<BatchPlanView>()(BatchInputSchema),
  'batch.start': channel<{ job: JobView; skipped: number[] }>()(
    BatchFields.extend({
      printer: printerId,
      skipInvalid: z.boolean(),
      oversize: z.enum(OVERSIZE_CHOICES).optional(),
    }).refine(oneSource, ONE_SOURCE),
  ),

  'jobs.list': channel<JobView[]>()(JobFilterSchema),
  'jobs.get': channel<{ job: JobView; labels: LabelView[] }>()(byId),
  'jobs.pause': channel<JobView>()(byId),
  'jobs.resume': channel<JobView>()(byId),
  'jobs.cancel': channel<JobView>()(byId),
  /** Gives up on labels not yet sent (one that cannot be rendered holds its job until skipped). */
  'jobs.skip': channel<JobView>()(
    z.strictObject({ id, labels: z.array(z.number().int().min(1)).min(1).max(100_000) }),
  ),
  /**
   * The site server's printers (site mode only; empty otherwise or while the site cannot be reached), with ids
   * of their own (`site:<printer_id>`): `print.submit` to one sends the labels through the site.
   */
  'site.printers': channel<PrinterView[]>()(none),
  /** The site server's history (site mode only), newest first; `before`: the previous page's `nextBefore`. */
  'site.jobs': channel<{ jobs: SiteJobView[]; nextBefore: number | null }>()(
    z.strictObject({ before: id.optional(), limit: z.number().int().min(1).max(500).optional() }),
  ),
  /**
   * A site job's labels again, with the same counter values (the site records the reprint and reserves no
   * number), printed on this computer's `printer`.
   */
  'site.reprint': channel<{ job: JobView | null; message: string }>()(
    z.strictObject({ id, printer: printerId }),
  ),
  /** The same bytes on the job's printer; on `printer` (another one), the same labels drawn for it. */
  'jobs.reprint': channel<{ job: JobView }>()(
    z.strictObject({
      id,
      labels: z.array(z.number().int().min(1)).max(100_000).optional(),
      printer: printerId.optional(),
    }),
  ),
} as const;

export type ChannelName = keyof typeof CHANNELS;
export const CHANNEL_NAMES = Object.keys(CHANNELS) as ChannelName[];

/** What the renderer passes (before defaults). */
export type RequestOf<C extends ChannelName> = z.input<(typeof CHANNELS)[C]['request']>;
/** What a handler receives (parsed). */
export type ParsedRequestOf<C extends ChannelName> = z.output<(typeof CHANNELS)[C]['request']>;
export type ResponseOf<C extends ChannelName> = NonNullable<(typeof CHANNELS)[C]['response']>;

/** Main's side: one handler per channel. */
export type Handlers = { [C in ChannelName]: (request: ParsedRequestOf<C>) => Promise<ResponseOf<C>> };

/** The renderer's side (`window.api` in Electron, the HTTP bridge in web mode). */
export interface LabelDeskApi {
  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  /** Subscribes to pushed events; returns the unsubscribe. */
  onEvent(listener: (event: AppEvent) => void): () => void;
}

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(CHANNELS, name);
}
