/**
 * Printing a ZPL file made elsewhere (a carrier's label; issue #33 item 3): what the file does to the printer
 * beyond its labels, and the bytes each label is sent as. Pure (no `node:*`): the CLI and the app use it alike.
 *
 * - Each `^XA…^XZ` is one label, sent as its own bytes. What comes between formats (a `~DG` download, a `~SD`)
 *   travels with the label after it. A label that uses a graphic (`^XG`, `^IM`, `^IL`) or a stored format (`^XF`)
 *   downloaded with an EARLIER label carries a copy of that download before it, so it prints alone as well (a
 *   resend after a fault, a reprint of that label only). A use of something the file never downloads is a
 *   warning: it prints only if the printer has it stored already.
 * - Printer settings (`~SD`, `^MD`, `^PR`, `^MN`, `^MT`, `^MM`, `~TA`, `^LT`) are reported; they are taken out
 *   unless `keepSettings` (the printer's own setup wins, as for LabelDesk's own labels).
 * - Commands that reach beyond the label (saving to flash, resets, cancels, deletions, network and serial
 *   settings, queries that answer on the connection…) are taken out unless `allowPrinterCommands`, and named.
 * A command is taken out by removing exactly its bytes (up to the next command); every other byte is unchanged.
 */
import { DEFAULT_ZPL_BUDGETS, type ZplBudgets } from './read/budgets';
import type { ZplWarning } from './read/errors';
import { objectName, parseZpl, toByteString, type ZplCommand } from './read/parse';

export type ZplCommandClass =
  { kind: 'setting'; what: string } | { kind: 'printer'; what: string } | undefined;

/** Settings the printer keeps after the label (they change how later labels print, too). */
const SETTINGS: Record<string, string> = {
  '~SD': 'darkness',
  '^MD': 'darkness adjustment',
  '^PR': 'print speed',
  '^MN': 'media tracking',
  '^MT': 'media type',
  '^MM': 'print mode',
  '~TA': 'tear-off position',
  '^LT': 'label top',
};

/** Commands that reach beyond the label, whatever their parameters. */
const PRINTER: Record<string, string> = {
  '^JU': 'saves or restores the printer configuration',
  '~JR': 'resets the printer',
  '~JA': 'cancels every format in the printer',
  '~JX': 'cancels the format being received',
  '^ID': 'deletes objects from printer memory',
  '~JB': 'initialises (erases) flash memory',
  '^JB': 'initialises (erases) flash memory',
  '~JC': 'calibrates the media sensor',
  '~JL': 'sets the label length by feeding',
  '~JG': 'prints a sensor profile',
  '~JD': 'turns on communications diagnostics',
  '~JE': 'turns off communications diagnostics',
  '^JJ': 'sets the applicator port',
  '^JZ': 'sets reprint after error',
  '^JT': 'sets the head test interval',
  '~WC': 'prints a configuration label',
  '^WD': 'prints a directory label',
  '~WR': 'resets the wireless card',
  '^KN': 'renames the printer',
  '^KP': 'sets the front panel password',
  '^KL': 'sets the display language',
  '^SC': 'changes the serial port settings',
  '^SZ': 'switches the ZPL mode',
  '^SS': 'sets the media sensors',
  '^ST': 'sets the clock',
  '^SX': 'sets alerts',
  '^SQ': 'sets alerts',
  '~RO': 'resets counters',
  '^MA': 'sets maintenance alerts',
  '^MF': 'sets media feed at power up',
  '^MP': 'sets the front panel mode protection',
  '^ZZ': 'puts the printer to sleep',
  '^HZ': 'asks the printer for information (an answer on the connection)',
  '~HS': 'asks the printer for its status (an answer on the connection)',
  '~HI': 'asks the printer for its identity (an answer on the connection)',
  '~HM': 'asks the printer for its memory status (an answer on the connection)',
  '~HD': 'asks the printer for diagnostics (an answer on the connection)',
  '^HH': 'asks the printer for its configuration (an answer on the connection)',
  '^HW': 'asks the printer for a directory (an answer on the connection)',
  '~HQ': 'asks the printer a query (an answer on the connection)',
  '~HB': 'asks the printer for its battery status (an answer on the connection)',
};

/** Downloads and saves: printer commands when they store to a device other than R: (RAM, gone at power off). */
const STORES: Record<string, string> = {
  '~DG': 'graphic',
  '~DY': 'object',
  '^DF': 'format',
  '^IS': 'image',
  '~DB': 'font',
  '~DT': 'font',
  '~DU': 'font',
  '~DS': 'font',
};

/** The device a download or save names (`E:LOGO.GRF` → `E`), R: when none. */
function deviceOf(params: string): string {
  const m = /^\s*([A-Za-z]):/.exec(params);
  return (m?.[1] ?? 'R').toUpperCase();
}

/** What `command` does to the printer beyond the label it is in: undefined for ordinary label content. */
export function classifyZplCommand(command: Pick<ZplCommand, 'prefix' | 'name' | 'params'>): ZplCommandClass {
  const key = `${command.prefix}${command.name}`;
  const setting = SETTINGS[key];
  if (setting) return { kind: 'setting', what: setting };
  const printer = PRINTER[key];
  if (printer) return { kind: 'printer', what: printer };
  if (
    command.prefix === '^' &&
    command.name[0] === 'N' &&
    command.name.length === 2 &&
    command.name !== 'NB'
  ) {
    return { kind: 'printer', what: 'changes network settings' };
  }
  if (command.prefix === '~' && command.name === 'NC')
    return { kind: 'printer', what: 'changes network settings' };
  if (command.prefix === '^' && command.name[0] === 'W' && command.name !== 'WD') {
    return { kind: 'printer', what: 'changes wireless settings' };
  }
  const stored = STORES[key];
  if (stored) {
    const device = deviceOf(command.params);
    if (device !== 'R') return { kind: 'printer', what: `stores a ${stored} in ${device}: (flash) memory` };
  }
  return undefined;
}

export interface ZplPrintOptions {
  /** Keep the printer settings in the file (default: take them out). */
  keepSettings?: boolean;
  /** Pass commands that reach beyond the label (default: take them out). */
  allowPrinterCommands?: boolean;
  budgets?: Partial<ZplBudgets>;
}

/** A setting or printer command found in the file. */
export interface ZplFinding {
  /** As written: `~SD`, `^JU`... */
  command: string;
  /** The parameters as written (`S` of `^JUS`, `25` of `~SD25`). */
  params: string;
  offset: number;
  /** Where its bytes end (the next command), so it can be sent as written elsewhere. */
  end: number;
  what: string;
  /** The label (1-based) it travels with; null after the last label (never sent). */
  label: number | null;
  /** Sent to the printer (true), or taken out. */
  kept: boolean;
}

export interface ZplPrintLabel {
  /** What the printer is sent for this label: downloads it needs, then its `^XA…^XZ`, as written. */
  bytes: Uint8Array;
  /** `^PQ` copies the printer makes of it (1 when absent). */
  copies: number;
  /** Byte range of its `^XA…^XZ` in the file. */
  start: number;
  end: number;
  /** Downloads copied in from earlier in the file (`R:LOGO.GRF`). */
  carried: string[];
}

export interface ZplPrintPlan {
  labels: ZplPrintLabel[];
  settings: ZplFinding[];
  printerCommands: ZplFinding[];
  /** The reader's warnings and this plan's (a missing download, bytes after the last label). */
  warnings: ZplWarning[];
}

/** What a label uses from printer memory: `^XG`/`^IM`/`^IL` graphics, `^XF` formats. */
function usedName(cmd: ZplCommand): string | undefined {
  if (cmd.prefix !== '^') return undefined;
  const first = cmd.params.split(',')[0] ?? '';
  if (cmd.name === 'XG' || cmd.name === 'IM' || cmd.name === 'IL') return objectName(first, 'GRF');
  if (cmd.name === 'XF') return objectName(first, 'ZPL');
  return undefined;
}

const DY_EXTENSIONS: Record<string, string> = { G: 'GRF', P: 'PNG', B: 'BMP', X: 'PCX', E: 'TTE', T: 'TTF' };

/** The name a download stores (`~DGR:LOGO.GRF,…` → `R:LOGO.GRF`), or undefined. */
function downloadName(cmd: ZplCommand): string | undefined {
  const fields = cmd.params.split(',');
  const first = fields[0] ?? '';
  if (cmd.prefix === '~' && cmd.name === 'DG') return objectName(first, 'GRF');
  if (cmd.prefix === '~' && cmd.name === 'DY') {
    const ext = DY_EXTENSIONS[(fields[2] ?? '').trim().toUpperCase()] ?? 'GRF';
    return objectName(first, ext);
  }
  return undefined;
}

const toBytes = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
};

/**
 * Plans printing a ZPL stream: its labels' bytes (settings and printer commands taken out unless kept), what
 * was found, and warnings. Throws ZplBudgetError for a stream over a stream-wide budget.
 */
export function planZplPrint(input: Uint8Array | string, options: ZplPrintOptions = {}): ZplPrintPlan {
  const budgets = { ...DEFAULT_ZPL_BUDGETS, ...options.budgets };
  const s = toByteString(input, budgets.maxInputBytes);
  const read: ZplCommand[] = [];
  const parsed = parseZpl(s, { budgets, onCommand: (c) => read.push(c) });
  const warnings: ZplWarning[] = [...parsed.warnings];

  // A command's bytes run to the next command (or the end of the stream).
  const boundaries = [...new Set([...read.map((c) => c.offset), s.length])].sort((a, b) => a - b);
  const endOf = (offset: number): number => {
    let lo = 0;
    let hi = boundaries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((boundaries[mid] as number) > offset) hi = mid;
      else lo = mid + 1;
    }
    return boundaries[lo] as number;
  };

  // Labels: the formats that print (a ^DF format stores one instead). Each owns the bytes since the last label.
  const printing = parsed.formats.filter((f) => !f.defines);
  const chunkStart = printing.map((_, i) => (i === 0 ? 0 : (printing[i - 1]?.end ?? 0)));
  const labelOf = (offset: number): number | null => {
    for (let i = 0; i < printing.length; i++) if (offset < (printing[i]?.end ?? 0)) return i;
    return null;
  };

  const removed: [number, number][] = [];
  const settings: ZplFinding[] = [];
  const printerCommands: ZplFinding[] = [];
  /** Where each name is downloaded: its byte range and the label it travels with. */
  const downloads = new Map<string, { start: number; end: number; label: number | null; kept: boolean }>();
  for (const cmd of read) {
    const found = classifyZplCommand(cmd);
    const label = labelOf(cmd.offset);
    const end = endOf(cmd.offset);
    let kept = true;
    if (found) {
      kept = found.kind === 'setting' ? !!options.keepSettings : !!options.allowPrinterCommands;
      const finding: ZplFinding = {
        command: `${cmd.prefix}${cmd.name}`,
        params: cmd.params.slice(0, 40),
        offset: cmd.offset,
        end,
        what: found.what,
        label: label === null ? null : label + 1,
        kept,
      };
      (found.kind === 'setting' ? settings : printerCommands).push(finding);
      if (!kept) removed.push([cmd.offset, end]);
    }
    const name = downloadName(cmd);
    if (name) downloads.set(name, { start: cmd.offset, end, label, kept });
  }
  for (const f of parsed.formats) {
    if (f.defines) {
      const label = labelOf(f.start);
      const kept = !removed.some(([a, b]) => a <= f.start && f.start < b);
      downloads.set(f.defines, { start: f.start, end: f.end, label, kept });
    }
  }

  /** Bytes [from, to) of the stream with the removed commands cut out. */
  const slice = (from: number, to: number): string => {
    let out = '';
    let at = from;
    for (const [a, b] of removed) {
      if (b <= at || a >= to) continue;
      if (a > at) out += s.slice(at, a);
      at = Math.max(at, b);
    }
    if (at < to) out += s.slice(at, to);
    return out;
  };

  const labels: ZplPrintLabel[] = printing.map((format, i) => {
    const from = chunkStart[i] ?? 0;
    const carried: string[] = [];
    let prefix = '';
    // Uses inside this label's own bytes (recalled commands are listed where the ^XF is read).
    const uses = read.filter((c) => c.offset >= format.start && c.offset < format.end);
    for (const name of new Set(uses.map(usedName).filter((n): n is string => !!n))) {
      const d = downloads.get(name);
      const where = uses.find((c) => usedName(c) === name);
      const at = where?.offset ?? format.start;
      const command = where ? `^${where.name}` : '^XG';
      if (!d || d.start >= format.end) {
        warnings.push({
          command,
          offset: at,
          message: `label ${i + 1} uses ${name}, which this file does not download before it: it prints only if the printer has it stored.`,
        });
      } else if (!d.kept) {
        warnings.push({
          command,
          offset: at,
          message: `label ${i + 1} uses ${name}, whose download to flash was taken out: it prints only if the printer has it stored.`,
        });
      } else if (d.start < from) {
        prefix += slice(d.start, d.end);
        carried.push(name);
      }
    }
    const copies = copiesOf(format.commands, budgets.maxCopies);
    return {
      bytes: toBytes(prefix + slice(from, format.end)),
      copies,
      start: format.start,
      end: format.end,
      carried,
    };
  });

  const lastEnd = printing.at(-1)?.end ?? 0;
  const rest = s.slice(lastEnd);
  if (printing.length && rest.trim()) {
    warnings.push({
      command: '',
      offset: lastEnd,
      message: `${rest.length} bytes after the last label are not sent (nothing follows them to print).`,
    });
  }
  return { labels, settings, printerCommands, warnings };
}

function copiesOf(commands: readonly ZplCommand[], max: number): number {
  const pq = commands.findLast((c) => c.prefix === '^' && c.name === 'PQ');
  if (!pq) return 1;
  const n = Number((pq.params.split(',')[0] ?? '').trim());
  if (!Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, max);
}

/** `~SD (darkness), ^PR (print speed)`: findings named once each, for one line. */
export function describeFindings(findings: readonly ZplFinding[]): string {
  const seen = new Map<string, ZplFinding>();
  for (const f of findings) if (!seen.has(f.command)) seen.set(f.command, f);
  return [...seen.values()]
    .map((f) => `${f.command}${(f.params.split(',')[0] ?? '').trim().slice(0, 20)} (${f.what})`)
    .join(', ');
}
