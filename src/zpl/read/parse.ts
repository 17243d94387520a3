/**
 * ZPL stream → formats (each `^XA…^XZ`) of commands, with the stream-level state a printer carries from one
 * format to the next as it reads: the command prefix (`^CC`/`~CC`), the control prefix (`^CT`/`~CT`), the
 * delimiter (`^CD`/`~CD`) and the formats stored with `^DF` (recalled by `^XF`, expanded here so the layout sees
 * one flat list). Pure and linear in the input: every budget of budgets.ts is checked before the work it asks for.
 *
 * The stream is read as bytes (a string is UTF-8 encoded first): field data stays a "byte string" (one char per
 * byte, 0–255) until the layout decodes it with the format's `^CI`.
 */
import { DEFAULT_ZPL_BUDGETS, type ZplBudgets } from './budgets';
import { ZplBudgetError, type ZplWarning } from './errors';

export interface ZplCommand {
  /** `^` or `~` as the stream meant it (after `^CC`/`^CT` the characters differ; this is the role). */
  prefix: '^' | '~';
  /** Upper-case name: `FO`, `GF`, `A` (the font letter is the first character of `params`), `A@`, `B3`... */
  name: string;
  /** Everything after the name up to the next prefix, CR/LF removed (binary data kept as read). */
  params: string;
  /** Byte offset of the prefix in the stream. */
  offset: number;
  /** The recalled format it came from (`^XF`), if any. */
  recalled?: string;
}

export interface ZplFormat {
  /** The commands of the format, in order: stream-level commands read since the previous `^XZ` first. */
  commands: ZplCommand[];
  /** Byte range of the format in the stream (`^XA` to the end of `^XZ`), for sending it unchanged. */
  start: number;
  end: number;
  /** The name a `^DF` in it stores the format as: it defines a format rather than printing a label. */
  defines?: string;
}

export interface ParsedZpl {
  formats: ZplFormat[];
  warnings: ZplWarning[];
}

export interface ParseOptions {
  budgets?: Partial<ZplBudgets>;
  /**
   * Told every command as the stream is read, in byte order (before `^XF` recalls are expanded; `^XA`, `^XZ` and
   * the prefix changes `^CC`/`^CT`/`^CD` too): for a caller that rewrites the stream (src/zpl/print-plan.ts).
   */
  onCommand?: (command: ZplCommand) => void;
}

/** Commands whose parameter is data that runs to the next command prefix (a `~` in it is literal). */
const DATA_TO_CARET = new Set(['FD', 'FV', 'FX']);

/** The stream as one char per byte (UTF-8 for a string), its length checked first. */
export function toByteString(input: string | Uint8Array, maxBytes: number): string {
  if (typeof input === 'string') {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a string that short cannot be over the budget.
    if (input.length > maxBytes) throw overInput(input.length, maxBytes);
    // eslint-disable-next-line no-control-regex
    if (!/[^\x00-\x7f]/.test(input)) return input;
    input = new TextEncoder().encode(input);
  }
  if (input.length > maxBytes) throw overInput(input.length, maxBytes);
  let out = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < input.length; i += CHUNK) {
    out += String.fromCharCode(...input.subarray(i, i + CHUNK));
  }
  return out;
}

const overInput = (size: number, max: number): ZplBudgetError =>
  new ZplBudgetError('input-bytes', max, `The ZPL is ${size} bytes; at most ${max} are read in one stream.`);

/** Parses a ZPL stream. Throws ZplBudgetError only for a stream over a stream-wide budget. */
export function parseZpl(input: string | Uint8Array, options: ParseOptions = {}): ParsedZpl {
  const budgets = { ...DEFAULT_ZPL_BUDGETS, ...options.budgets };
  const s = toByteString(input, budgets.maxInputBytes);
  const warnings: ZplWarning[] = [];
  const formats: ZplFormat[] = [];
  const stored = new Map<string, ZplCommand[]>();
  let caret = '^';
  let tilde = '~';
  let delimiter = ',';
  let pending: ZplCommand[] = [];
  let current: { commands: ZplCommand[]; start: number } | undefined;
  let pos = 0;
  const warn = (command: string, offset: number, message: string) =>
    warnings.push({ command, offset, message });

  const nextPrefix = (from: number, caretOnly: boolean): number => {
    for (let i = from; i < s.length; i++) {
      const c = s[i];
      if (c === caret || (!caretOnly && c === tilde)) return i;
    }
    return s.length;
  };

  const push = (cmd: ZplCommand) => {
    options.onCommand?.(cmd);
    const list = current ? current.commands : pending;
    if (list.length >= budgets.maxCommandsPerLabel) {
      throw new ZplBudgetError(
        'commands-per-label',
        budgets.maxCommandsPerLabel,
        `A label at byte ${current?.start ?? cmd.offset} has over ${budgets.maxCommandsPerLabel} commands.`,
      );
    }
    list.push(cmd);
  };

  const close = (end: number) => {
    if (!current) return;
    if (formats.length >= budgets.maxLabels) {
      throw new ZplBudgetError('labels', budgets.maxLabels, `The ZPL has over ${budgets.maxLabels} labels.`);
    }
    const format: ZplFormat = { commands: [], start: current.start, end };
    const defined = expandFormat(current.commands, format, stored, budgets, warn);
    if (defined) format.defines = defined;
    formats.push(format);
    current = undefined;
  };

  while (pos < s.length) {
    const at = nextPrefix(pos, false);
    if (at >= s.length) {
      if (s.slice(pos).trim()) warn('', pos, 'text outside any command ignored.');
      break;
    }
    if (at > pos && s.slice(pos, at).trim()) warn('', pos, 'text outside any command ignored.');
    const prefix: '^' | '~' = s[at] === caret ? '^' : '~';
    const shown = (name: string) => `${prefix}${name}`;
    let name = readName(s, at + 1);
    if (name === undefined) {
      warn(prefix, at, 'a command prefix without a command name: ignored.');
      pos = at + 1;
      continue;
    }
    let paramStart = at + 1 + name.length;
    if (name[0] === 'A' && name !== 'A@') {
      // ^Afo,h,w: the font letter is the first parameter.
      name = 'A';
      paramStart = at + 2;
    }
    if (name === 'CC' || name === 'CT' || name === 'CD') {
      const ch = s[paramStart];
      options.onCommand?.({ prefix, name, params: ch ?? '', offset: at });
      const valid = ch !== undefined && ch > ' ' && ch !== '\x7f';
      if (!valid) {
        warn(shown(name), at, 'needs one printable character: ignored.');
      } else if (name === 'CC') {
        caret = ch;
      } else if (name === 'CT') {
        tilde = ch;
      } else {
        delimiter = ch;
      }
      pos = valid ? paramStart + 1 : paramStart;
      continue;
    }
    if (prefix === '~' && name === 'DY') {
      pos = readDownload(s, at, paramStart, delimiter, budgets, warn, (cmd) => push(cmd), nextPrefix);
      continue;
    }
    if (prefix === '^' && name === 'GF') {
      const binary = readBinaryGf(s, at, paramStart, delimiter, budgets, warn);
      if (binary) {
        push(binary.command);
        pos = binary.end;
        continue;
      }
    }
    const end = nextPrefix(paramStart, DATA_TO_CARET.has(name));
    let params = s.slice(paramStart, end).replace(/[\r\n]/g, '');
    if (delimiter !== ',') params = params.split(delimiter).join(',');
    pos = end;
    const cmd: ZplCommand = { prefix, name, params, offset: at };
    if (prefix === '^' && (name === 'XA' || name === 'XZ')) options.onCommand?.(cmd);
    if (prefix === '^' && name === 'XA') {
      if (current) {
        warn('^XA', at, 'a new label began before ^XZ ended the last one: the last one ends here.');
        close(at);
      }
      current = { commands: pending, start: at };
      pending = [];
      continue;
    }
    if (prefix === '^' && name === 'XZ') {
      if (!current) {
        warn('^XZ', at, 'without ^XA: ignored.');
        continue;
      }
      close(at + 3);
      continue;
    }
    push(cmd);
  }
  if (current) {
    warn('^XA', current.start, 'no ^XZ ends this label (a printer would not print it): shown as if it did.');
    close(s.length);
  } else if (pending.some((c) => c.prefix === '^' && !STREAM_LEVEL.has(c.name))) {
    const first = pending.find((c) => c.prefix === '^' && !STREAM_LEVEL.has(c.name));
    if (first) warn(`^${first.name}`, first.offset, 'after the last ^XZ, outside any label: ignored.');
  }
  return { formats, warnings };
}

/** Commands a printer takes outside a format as well (they need no ^XA). */
const STREAM_LEVEL = new Set(['XA', 'XZ', 'CC', 'CT', 'CD', 'FX']);

/** Two characters of name after a prefix (letters, digits, `@`), or undefined. */
function readName(s: string, i: number): string | undefined {
  const a = s[i];
  if (a === undefined || !/[A-Za-z0-9@]/.test(a)) return undefined;
  if (a === 'A' || a === 'a') return s[i + 1] === '@' ? 'A@' : 'A';
  const b = s[i + 1];
  if (b === undefined || !/[A-Za-z0-9@]/.test(b)) return undefined;
  return (a + b).toUpperCase();
}

/**
 * `^GFB` / `^GFC` carry exactly `b` bytes of binary data that may contain the prefixes. Returns the command with
 * its data, or undefined for the ASCII formats (read up to the next prefix like any command).
 */
function readBinaryGf(
  s: string,
  at: number,
  paramStart: number,
  delimiter: string,
  budgets: ZplBudgets,
  warn: (command: string, offset: number, message: string) => void,
): { command: ZplCommand; end: number } | undefined {
  const head = headerFields(s, paramStart, 4, delimiter);
  if (!head) return undefined;
  const format = (head.fields[0] ?? '').trim().toUpperCase();
  if (format !== 'B' && format !== 'C') return undefined;
  const bytes = Number(head.fields[1]);
  if (!Number.isInteger(bytes) || bytes < 0) return undefined;
  if (bytes > budgets.maxGraphicBytes) {
    warn('^GF', at, `declares ${bytes} bytes of binary data; at most ${budgets.maxGraphicBytes} are read.`);
    return undefined;
  }
  const end = Math.min(s.length, head.dataStart + bytes);
  const params = `${head.fields.join(',')},${s.slice(head.dataStart, end)}`;
  return { command: { prefix: '^', name: 'GF', params, offset: at }, end };
}

/** `~DYd:f,b,x,t,w,data`: binary and AR-compressed data carry `t` bytes that may contain the prefixes. */
function readDownload(
  s: string,
  at: number,
  paramStart: number,
  delimiter: string,
  budgets: ZplBudgets,
  warn: (command: string, offset: number, message: string) => void,
  push: (cmd: ZplCommand) => void,
  nextPrefix: (from: number, caretOnly: boolean) => number,
): number {
  const head = headerFields(s, paramStart, 5, delimiter);
  const format = (head?.fields[1] ?? '').trim().toUpperCase();
  const total = Number(head?.fields[3]);
  if (head && (format === 'B' || format === 'C' || format === 'P') && Number.isInteger(total) && total >= 0) {
    if (total > budgets.maxGraphicBytes) {
      warn('~DY', at, `declares ${total} bytes; at most ${budgets.maxGraphicBytes} are read.`);
      return nextPrefix(head.dataStart, true);
    }
    const end = Math.min(s.length, head.dataStart + total);
    push({
      prefix: '~',
      name: 'DY',
      params: `${head.fields.join(',')},${s.slice(head.dataStart, end)}`,
      offset: at,
    });
    return end;
  }
  const end = nextPrefix(paramStart, false);
  push({ prefix: '~', name: 'DY', params: s.slice(paramStart, end).replace(/[\r\n]/g, ''), offset: at });
  return end;
}

/** The first `count` delimited fields after `from` (CR/LF skipped), and where the data after them starts. */
function headerFields(
  s: string,
  from: number,
  count: number,
  delimiter: string,
): { fields: string[]; dataStart: number } | undefined {
  const fields: string[] = [];
  let field = '';
  // A header is short: 64 characters a field is far more than any real one.
  for (let i = from; i < s.length && i < from + 64 * count; i++) {
    const c = s[i] as string;
    if (c === delimiter) {
      fields.push(field);
      field = '';
      if (fields.length === count) return { fields, dataStart: i + 1 };
    } else if (c !== '\r' && c !== '\n') {
      if (c === '^' || c === '~') return undefined;
      field += c;
    }
  }
  return undefined;
}

/**
 * A format's commands with every `^XF` replaced by the stored format it recalls (depth and size budgets
 * checked as it grows); a `^DF` in it stores what follows under its name. Answers the name it defines.
 */
function expandFormat(
  commands: readonly ZplCommand[],
  into: ZplFormat,
  stored: Map<string, ZplCommand[]>,
  budgets: ZplBudgets,
  warn: (command: string, offset: number, message: string) => void,
): string | undefined {
  let defining: { name: string; commands: ZplCommand[] } | undefined;
  const out = into.commands;
  const add = (cmd: ZplCommand) => {
    if (out.length >= budgets.maxCommandsPerLabel) {
      throw new ZplBudgetError(
        'commands-per-label',
        budgets.maxCommandsPerLabel,
        `A label at byte ${into.start} has over ${budgets.maxCommandsPerLabel} commands once its ^XF recalls are expanded.`,
      );
    }
    out.push(cmd);
  };
  const recall = (cmd: ZplCommand, depth: number, chain: readonly string[]) => {
    const name = formatName(cmd.params);
    const body = stored.get(name);
    if (!body) {
      warn('^XF', cmd.offset, `no stored format ${name}: nothing recalled.`);
      return;
    }
    if (chain.includes(name)) {
      warn(
        '^XF',
        cmd.offset,
        `${name} recalls itself (${[...chain, name].join(' → ')}): not expanded again.`,
      );
      return;
    }
    if (depth >= budgets.maxRecallDepth) {
      warn('^XF', cmd.offset, `recalls nested deeper than ${budgets.maxRecallDepth}: ${name} not expanded.`);
      return;
    }
    for (const inner of body) {
      if (inner.prefix === '^' && inner.name === 'XF') recall(inner, depth + 1, [...chain, name]);
      else add({ ...inner, recalled: name });
    }
  };
  for (const cmd of commands) {
    if (cmd.prefix === '^' && cmd.name === 'DF') {
      if (defining) warn('^DF', cmd.offset, `a second ^DF in one format: ${defining.name} ends here.`);
      defining = { name: formatName(cmd.params), commands: [] };
      continue;
    }
    if (defining) {
      // The stored format keeps its ^XF as written: it is expanded when recalled, against what is stored then.
      if (defining.commands.length >= budgets.maxCommandsPerLabel) continue;
      defining.commands.push(cmd);
      continue;
    }
    if (cmd.prefix === '^' && cmd.name === 'XF') recall(cmd, 0, []);
    else add(cmd);
  }
  if (!defining) return undefined;
  stored.set(defining.name, defining.commands);
  return defining.name;
}

/** `R:NAME.ZPL` as stored: device defaults to R:, extension to .ZPL, upper case. */
export function formatName(params: string): string {
  return objectName(params.split(',')[0] ?? '', 'ZPL');
}

/** A printer memory object's name normalised: `d:o.x` with the device R: and the extension given by default. */
export function objectName(raw: string, extension: string): string {
  let name = raw.trim().toUpperCase();
  if (!/^[A-Z]:/.test(name)) name = `R:${name}`;
  if (!/\.[A-Z0-9]{1,3}$/.test(name)) name = `${name}.${extension}`;
  // E: and B: are other devices of the same memory for us; R: and E: are searched alike by the printer.
  return name.replace(/^[A-Z]:/, 'R:');
}
