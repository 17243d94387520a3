/**
 * ZPL formats → one Scene per label, in printer dots at the stream's dpi, drawn by every output exactly as a
 * template's Scene is (issue #33 item 1). The printer's state carries from one format to the next (print width,
 * label length, home, shifts, orientation, fonts, ^BY, code page, graphics and formats in memory); field state
 * (position, font, data, block, bar code) ends at each ^FS.
 *
 * An unknown or malformed command is a warning naming it and its byte offset; a label with nothing drawable
 * still gives a (blank) Scene. Every size is checked against the budgets before anything is drawn.
 */
import type { FontSet, LoadedFont } from '../../layout/fonts';
import {
  IDENTITY,
  type BarcodeNode,
  type Matrix,
  type PositionedGlyph,
  type Scene,
  type SceneNode,
  type TextLine,
} from '../../layout/scene';
import { layoutText } from '../../layout/text';
import { DEFAULT_ZPL_BUDGETS, type ZplBudgets } from './budgets';
import type { ZplWarning } from './errors';
import { objectName, parseZpl, type ZplCommand, type ZplFormat } from './parse';
import {
  binaryGraphic,
  bitmapPath,
  decodeAsciiGraphic,
  type GraphicResult,
  type ZplBitmap,
} from './graphics';
import {
  BITMAP_FACE,
  CELL_BASELINE,
  fontOf,
  MONO_ADVANCE_EM,
  SCALABLE_FACE,
  ZERO_WIDTH_FACTOR,
  type ZplFontKind,
} from './fonts';
import { multiply, orientationOf, placeAnchor, placeTopLeft, translate, type Orientation } from './matrix';
import { BARCODE_COMMANDS, zplSymbol, type BarcodeDefaults, type ZplSymbol } from './barcodes';
import { serialValue, sfRule, snRule, type SerialRule } from './serial';

export interface ReadZplOptions {
  fonts: FontSet;
  /** The printer's resolution the ZPL is read for (203, 300, 600…). */
  dpi: number;
  /** The label size in dots when the ZPL does not give it (^PW, ^LL); default 4 × 6 in. */
  labelSize?: { width: number; height: number };
  budgets?: Partial<ZplBudgets>;
}

export interface ZplLabel {
  scene: Scene;
  /** Copies asked for (^PQ), within the budget. */
  copies: number;
  /** The label's bytes in the stream (its format), to send unchanged to a ZPL printer. */
  source: { start: number; end: number };
  /** Setup commands a renderer records but does not draw (^MM, ~SD, ^JUS…), as written. */
  settings: string[];
  warnings: ZplWarning[];
  /**
   * A label with serialised fields (^SN, ^SF) printed more than once: the Scene of each copy after the first,
   * each with its own values (copy 2 first), at most `maxSerialCopies` − 1 of them. Absent otherwise: every
   * copy is `scene`.
   */
  copyScenes?: Scene[];
}

export interface ReadZplResult {
  labels: ZplLabel[];
  /** Problems of the stream itself (text outside commands, a missing ^XZ…). */
  warnings: ZplWarning[];
}

/** Reads a ZPL stream into labels. Throws ZplBudgetError for a stream over a stream-wide budget only. */
export function readZpl(input: string | Uint8Array, options: ReadZplOptions): ReadZplResult {
  const budgets = { ...DEFAULT_ZPL_BUDGETS, ...options.budgets };
  const parsed = parseZpl(input, { budgets });
  const printer = new PrinterState(options, budgets);
  const labels: ZplLabel[] = [];
  for (const format of parsed.formats) {
    const label = printer.run(format);
    if (label) labels.push(label);
  }
  return { labels, warnings: parsed.warnings };
}

/** Setup commands recorded on the label and not drawn (the printer's, not the label's). */
const SETTINGS = new Set([
  'MM',
  'MN',
  'MT',
  'MD',
  'SD',
  'PR',
  'JU',
  'JZ',
  'JS',
  'MF',
  'ML',
  'MP',
  'MU',
  'PM',
  'PF',
  'PH',
  'PP',
  'JM',
  'JT',
  'KN',
  'KP',
  'SZ',
  'TA',
  'JA',
  'JX',
  'JR',
  'HS',
  'HI',
  'HH',
  'WC',
  'JB',
  'JC',
  'JD',
  'JE',
  'JL',
  'JN',
  'JO',
  'JP',
  'JQ',
  'JW',
  'PL',
  'PS',
  'RO',
  'SE',
  'XB',
  'MW',
  'NC',
  'NI',
  'NS',
  'NT',
  'KD',
  'KL',
  'JJ',
  'PA',
  'CV',
  'FL',
  'HF',
  'HG',
  'HT',
  'HV',
  'HW',
  'HY',
  'HZ',
  'JH',
  'JI',
  'LF',
  'MA',
  'MI',
  'PN',
  'RF',
  'RS',
  'SC',
  'SI',
  'SL',
  'SO',
  'SP',
  'SQ',
  'SR',
  'SS',
  'ST',
  'SX',
  'TO',
  'WD',
  'XS',
  'ZZ',
  'CM',
  'CN',
  'CP',
  'ID',
  'EG',
  'FM',
  'WF',
  'WP',
  'CO',
]);

interface FieldState {
  x: number;
  y: number;
  anchor: 'top-left' | 'baseline';
  /** ^FO's third parameter 1: x is the right edge. */
  rightJustified: boolean;
  offset: number;
  /** The field's ^A font, and the byte offset of that ^A. */
  font?: { name: string; orientation: Orientation; height?: number; width?: number; offset?: number };
  data?: string;
  dataOffset?: number;
  hexIndicator?: string;
  reverse: boolean;
  block?: { width: number; lines: number; spacing: number; align: string; indent: number };
  textBlock?: { orientation: Orientation; width: number; height: number };
  barcode?: { name: string; params: string[]; orientation: Orientation; offset: number };
  graphic?: ZplCommand;
  fieldNumber?: number;
  recalled: boolean;
  serial?: SerialRule;
}

/** The printer state a field's drawing reads (kept with a serialised field to draw its later copies). */
interface DrawState {
  defaultFont: { name: string; height: number; width: number };
  by: BarcodeDefaults;
  codePage: number;
  fieldOrientation: Orientation;
  reverseAll: boolean;
}

interface LabelState {
  nodes: SceneNode[];
  warnings: ZplWarning[];
  settings: string[];
  copies: number;
  /** Black filled rectangles drawn so far, for ^FR's reverse print over them. */
  blackBoxes: Array<{ x: number; y: number; width: number; height: number }>;
  /** ^FN n values given by the recalling format, and the recalled fields waiting for them. */
  fieldValues: Map<number, string>;
  deferred: FieldState[];
  hasRecall: boolean;
  /** Serialised fields: where their nodes are in `nodes`, to draw each copy's values in their place. */
  serials: Array<{ at: number; count: number; field: FieldState; state: DrawState }>;
}

/** How far below ^FO a Zebra printer draws a QR code's top edge, in dots. */
const QR_FO_DROP = 10;

class PrinterState {
  private printWidth?: number;
  private labelLength?: number;
  private home = { x: 0, y: 0 };
  private shift = 0;
  private top = 0;
  private invert = false;
  private codePage = 0;
  private fieldOrientation: Orientation = 'N';
  private defaultFont = { name: '0', height: 15, width: 12 };
  private by: BarcodeDefaults = { module: 2, ratio: 3, height: 10 };
  private reverseAll = false;
  private readonly aliases = new Map<string, string>();
  private readonly graphics = new Map<string, ZplBitmap>();
  private memoryBytes = 0;
  private readonly images = new Map<string, SceneNode[]>();
  private readonly maxDots: number;

  constructor(
    private readonly options: ReadZplOptions,
    private readonly budgets: ZplBudgets,
  ) {
    this.maxDots = Math.round(budgets.maxLabelInches * options.dpi);
  }

  run(format: ZplFormat): ZplLabel | undefined {
    const label: LabelState = {
      nodes: [],
      warnings: [],
      settings: [],
      copies: 1,
      blackBoxes: [],
      fieldValues: new Map(),
      deferred: [],
      hasRecall: format.commands.some((c) => c.recalled !== undefined),
      serials: [],
    };
    let field = this.newField();
    const warn = (cmd: ZplCommand | undefined, message: string) =>
      label.warnings.push({
        command: cmd ? `${cmd.prefix}${cmd.name}` : '',
        offset: cmd?.offset ?? format.start,
        message,
      });
    for (const cmd of format.commands) {
      if (cmd.name === 'FS' && cmd.prefix === '^') {
        this.endField(field, label, warn);
        field = this.newField();
        continue;
      }
      this.command(cmd, field, label, warn);
    }
    if (this.hasContent(field)) this.endField(field, label, warn);
    for (const deferred of label.deferred) {
      const value =
        deferred.fieldNumber !== undefined ? label.fieldValues.get(deferred.fieldNumber) : undefined;
      if (value !== undefined) deferred.data = value;
      this.draw(deferred, label, warn);
    }
    if (format.defines) return undefined;
    const width = this.printWidth ?? this.options.labelSize?.width ?? Math.round(4 * this.options.dpi);
    const height = this.labelLength ?? this.options.labelSize?.height ?? Math.round(6 * this.options.dpi);
    if (label.nodes.length === 0) warn(undefined, 'nothing on this label is drawn: it is blank.');
    const copyNodes = this.serialCopies(label, format, warn);
    const sceneOf = (drawn: SceneNode[]): Scene => ({
      unit: 'dots',
      dpi: this.options.dpi,
      width,
      height,
      background: '#ffffff',
      nodes: this.invert
        ? [{ kind: 'group', transform: [-1, 0, 0, -1, width, height], opacity: 1, children: drawn }]
        : drawn,
      rfid: [],
      warnings: label.warnings.map((w) =>
        w.command ? `${w.command} at byte ${w.offset}: ${w.message}` : w.message,
      ),
    });
    return {
      scene: sceneOf(label.nodes),
      copies: label.copies,
      source: { start: format.start, end: format.end },
      settings: label.settings,
      warnings: label.warnings,
      ...(copyNodes.length ? { copyScenes: copyNodes.map(sceneOf) } : {}),
    };
  }

  /** The nodes of copies 2… of a label with serialised fields: each such field drawn with its copy's value. */
  private serialCopies(
    label: LabelState,
    format: ZplFormat,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ): SceneNode[][] {
    if (!label.serials.length || label.copies < 2) return [];
    const count = Math.min(label.copies, this.budgets.maxSerialCopies);
    if (count < label.copies) {
      warn(
        undefined,
        `${label.copies} serialised copies asked; the first ${count} are drawn one by one (byte ${format.start}).`,
      );
    }
    const saved = this.drawState();
    const copies: SceneNode[][] = [];
    for (let copy = 1; copy < count; copy++) {
      const nodes = [...label.nodes];
      // From the last slot back, so the earlier slots' positions stay right.
      for (let i = label.serials.length - 1; i >= 0; i--) {
        const slot = label.serials[i] as LabelState['serials'][number];
        this.restore(slot.state);
        const scratch: LabelState = { ...label, nodes: [], warnings: [], serials: [] };
        const rule = slot.field.serial as SerialRule;
        const drawn = { ...slot.field, data: serialValue(slot.field.data ?? '', rule, copy) };
        this.drawOnce(drawn, scratch, (cmd, message) =>
          scratch.warnings.push({
            command: cmd ? `${cmd.prefix}${cmd.name}` : '',
            offset: cmd?.offset ?? 0,
            message,
          }),
        );
        if (scratch.warnings.length && copy === 1) {
          for (const w of scratch.warnings) label.warnings.push({ ...w, message: `copy 2: ${w.message}` });
        }
        nodes.splice(slot.at, slot.count, ...scratch.nodes);
      }
      copies.push(nodes);
    }
    this.restore(saved);
    return copies;
  }

  private drawState(): DrawState {
    return {
      defaultFont: this.defaultFont,
      by: this.by,
      codePage: this.codePage,
      fieldOrientation: this.fieldOrientation,
      reverseAll: this.reverseAll,
    };
  }

  private restore(state: DrawState): void {
    this.defaultFont = state.defaultFont;
    this.by = state.by;
    this.codePage = state.codePage;
    this.fieldOrientation = state.fieldOrientation;
    this.reverseAll = state.reverseAll;
  }

  private newField(): FieldState {
    return {
      x: 0,
      y: 0,
      anchor: 'top-left',
      rightJustified: false,
      offset: 0,
      reverse: false,
      recalled: false,
    };
  }

  private hasContent(f: FieldState): boolean {
    return f.data !== undefined || f.graphic !== undefined;
  }

  private num(v: string | undefined, fallback: number, min: number, max: number): number {
    const n = Number.parseFloat(v ?? '');
    return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
  }

  private command(
    cmd: ZplCommand,
    field: FieldState,
    label: LabelState,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ): void {
    const p = cmd.params.split(',');
    const n = (i: number, fallback: number, min = -this.maxDots, max = this.maxDots) =>
      this.num(p[i], fallback, min, max);
    if (cmd.recalled !== undefined) field.recalled = true;
    switch (cmd.name) {
      case 'FO':
      case 'FT': {
        field.x = n(0, 0, 0, this.maxDots) + this.home.x - this.shift;
        field.y = n(1, 0, 0, this.maxDots) + this.home.y + this.top;
        field.anchor = cmd.name === 'FO' ? 'top-left' : 'baseline';
        field.rightJustified = p[2]?.trim() === '1';
        field.offset = cmd.offset;
        return;
      }
      case 'FD':
      case 'FV': {
        let data = cmd.params;
        if (data.length > this.budgets.maxFieldChars) {
          warn(cmd, `${data.length} characters of data; the first ${this.budgets.maxFieldChars} are used.`);
          data = data.slice(0, this.budgets.maxFieldChars);
        }
        field.data = data;
        field.dataOffset = cmd.offset;
        return;
      }
      case 'FH':
        field.hexIndicator = cmd.params.trim()[0] ?? '_';
        return;
      case 'FR':
        field.reverse = true;
        return;
      case 'FN':
        field.fieldNumber = Math.trunc(n(0, 0, 0, 9999));
        return;
      case 'FB': {
        const lines = Math.trunc(n(1, 1, 1, Number.MAX_SAFE_INTEGER));
        if (lines > this.budgets.maxBlockLines) {
          warn(cmd, `asks for ${lines} lines; at most ${this.budgets.maxBlockLines} are laid out.`);
        }
        field.block = {
          width: n(0, 0, 0, this.maxDots),
          lines: Math.min(lines, this.budgets.maxBlockLines),
          spacing: n(2, 0, -9999, 9999),
          align: (p[3] ?? 'L').trim().toUpperCase() || 'L',
          indent: n(4, 0, 0, 9999),
        };
        return;
      }
      case 'TB':
        field.textBlock = {
          orientation: orientationOf(p[0], this.fieldOrientation),
          width: n(1, 0, 0, this.maxDots),
          height: n(2, 0, 0, this.maxDots),
        };
        return;
      case 'A': {
        const letter = (cmd.params[0] ?? '0').toUpperCase();
        const rest = cmd.params.slice(1).split(',');
        const height = Number.parseFloat(rest[1] ?? '');
        const width = Number.parseFloat(rest[2] ?? '');
        field.font = {
          offset: cmd.offset,
          name: this.aliases.get(letter) ?? letter,
          orientation: orientationOf(rest[0], this.fieldOrientation),
          ...(Number.isFinite(height) && height > 0 ? { height: Math.min(height, this.maxDots) } : {}),
          ...(Number.isFinite(width) && width > 0 ? { width: Math.min(width, this.maxDots) } : {}),
        };
        return;
      }
      case 'A@': {
        // ^A@o,h,w,d:o.x: a font by file name; drawn with the scalable face.
        const height = Number.parseFloat(p[1] ?? '');
        const width = Number.parseFloat(p[2] ?? '');
        field.font = {
          name: '0',
          orientation: orientationOf(p[0], this.fieldOrientation),
          ...(Number.isFinite(height) && height > 0 ? { height: Math.min(height, this.maxDots) } : {}),
          ...(Number.isFinite(width) && width > 0 ? { width: Math.min(width, this.maxDots) } : {}),
        };
        warn(cmd, `font ${p[3] ?? ''} is drawn with the scalable font (^A0's).`);
        return;
      }
      case 'CF': {
        const letter = (p[0] ?? '').trim().toUpperCase() || this.defaultFont.name;
        const known = fontOf(letter, this.options.dpi);
        const height = n(1, 0, 0, this.maxDots);
        const width = n(2, 0, 0, this.maxDots);
        this.defaultFont = {
          name: letter,
          height: height || (known?.kind === 'scalable' ? known.height : this.defaultFont.height),
          width: width || height || (known?.kind === 'scalable' ? known.width : this.defaultFont.width),
        };
        return;
      }
      case 'CW': {
        const letter = (p[0] ?? '').trim().toUpperCase();
        if (letter) this.aliases.set(letter, '0');
        warn(cmd, `font ${p[1] ?? ''} is drawn with the scalable font (^A0's).`);
        return;
      }
      case 'CI':
        this.codePage = Math.trunc(n(0, 0, 0, 36));
        if (![0, 13, 27, 28].includes(this.codePage)) {
          warn(cmd, `code page ${this.codePage} is read as ^CI0 (only 0, 13, 27 and 28 are decoded).`);
        }
        return;
      case 'FW':
        this.fieldOrientation = orientationOf(p[0], 'N');
        return;
      case 'BY':
        this.by = {
          module: Math.round(n(0, this.by.module, 1, 10)),
          ratio: n(1, this.by.ratio, 2, 3),
          height: Math.round(n(2, this.by.height, 1, this.maxDots)),
        };
        return;
      case 'LH':
        this.home = { x: n(0, 0, 0, this.maxDots), y: n(1, 0, 0, this.maxDots) };
        return;
      case 'LS':
        this.shift = n(0, 0, -9999, 9999);
        return;
      case 'LT':
        this.top = n(0, 0, -120, 120);
        return;
      case 'LR':
        this.reverseAll = (p[0] ?? '').trim().toUpperCase() === 'Y';
        return;
      case 'PO':
        this.invert = (p[0] ?? '').trim().toUpperCase() === 'I';
        return;
      case 'PW':
      case 'LL': {
        const v = Number.parseFloat(p[0] ?? '');
        if (!Number.isFinite(v) || v < 1) {
          warn(cmd, `needs a length in dots: ignored.`);
          return;
        }
        let dots = Math.round(v);
        if (dots > this.maxDots) {
          warn(
            cmd,
            `${dots} dots is over ${this.budgets.maxLabelInches} in at ${this.options.dpi} dpi: ${this.maxDots} used.`,
          );
          dots = this.maxDots;
        }
        if (cmd.name === 'PW') this.printWidth = dots;
        else this.labelLength = dots;
        return;
      }
      case 'PQ': {
        const q = Number.parseInt(p[0] ?? '1', 10);
        if (Number.isFinite(q) && q > this.budgets.maxCopies) {
          warn(cmd, `${q} copies asked; at most ${this.budgets.maxCopies} are made.`);
        }
        label.copies = Number.isFinite(q) && q >= 1 ? Math.min(q, this.budgets.maxCopies) : 1;
        return;
      }
      case 'SN':
        field.data = p[0] || '1';
        field.dataOffset = cmd.offset;
        field.serial = snRule(p[1], p[2]);
        return;
      case 'SF': {
        const rule = sfRule(p[0], p[1]);
        if (rule) field.serial = rule;
        else warn(cmd, 'needs a mask string: ignored.');
        return;
      }
      case 'GB':
      case 'GC':
      case 'GD':
      case 'GE':
      case 'GS':
      case 'GF':
      case 'XG':
      case 'IM':
        field.graphic = cmd;
        return;
      case 'DG':
        this.download(cmd, 'GRF', warn);
        return;
      case 'DY':
        this.downloadDy(cmd, warn);
        return;
      case 'IS': {
        const name = objectName(p[0] ?? '', 'GRF');
        this.images.set(name, [...label.nodes]);
        return;
      }
      case 'IL': {
        const stored = this.images.get(objectName(p[0] ?? '', 'GRF'));
        if (stored) label.nodes.push(...stored);
        else warn(cmd, `no image ${objectName(p[0] ?? '', 'GRF')} stored: nothing loaded.`);
        return;
      }
      case 'FX':
      case 'XA':
      case 'XZ':
      case 'DF':
      case 'XF':
        return;
      default:
        break;
    }
    if (BARCODE_COMMANDS.has(cmd.name) && cmd.prefix === '^') {
      // ^BDm,n,t (MaxiCode) has no orientation: its first parameter is the mode.
      const oriented = cmd.name !== 'BD';
      field.barcode = {
        name: cmd.name,
        params: oriented ? p.slice(1) : p,
        orientation: oriented ? orientationOf(p[0], this.fieldOrientation) : 'N',
        offset: cmd.offset,
      };
      return;
    }
    if (SETTINGS.has(cmd.name)) {
      label.settings.push(`${cmd.prefix}${cmd.name}${cmd.params}`);
      return;
    }
    warn(cmd, 'unknown or unsupported command: ignored.');
  }

  private download(
    cmd: ZplCommand,
    ext: string,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    // ~DGd:o.x,t,w,data
    const p = cmd.params.split(',');
    const name = objectName(p[0] ?? '', ext);
    const total = Number.parseInt(p[1] ?? '', 10);
    const rowBytes = Number.parseInt(p[2] ?? '', 10);
    const data = p.slice(3).join(',');
    this.store(cmd, name, total, rowBytes, () => decodeAsciiGraphic(data, total, rowBytes), warn);
  }

  private downloadDy(cmd: ZplCommand, warn: (cmd: ZplCommand | undefined, message: string) => void) {
    // ~DYd:f,b,x,t,w,data: b = A (hex) or B (binary), x = G (GRF) among others.
    const p = cmd.params.split(',');
    const format = (p[1] ?? '').trim().toUpperCase();
    const ext = (p[2] ?? '').trim().toUpperCase();
    if (ext !== 'G' && ext !== 'GRF') {
      warn(cmd, `object type ${ext || '(none)'} is not a graphic (only GRF is read): ignored.`);
      return;
    }
    const name = objectName(p[0] ?? '', 'GRF');
    const total = Number.parseInt(p[3] ?? '', 10);
    const rowBytes = Number.parseInt(p[4] ?? '', 10);
    const data = p.slice(5).join(',');
    this.store(
      cmd,
      name,
      total,
      rowBytes,
      () =>
        format === 'B' ? binaryGraphic(data, total, rowBytes) : decodeAsciiGraphic(data, total, rowBytes),
      warn,
    );
  }

  private store(
    cmd: ZplCommand,
    name: string,
    total: number,
    rowBytes: number,
    decode: () => GraphicResult,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    if (!this.graphicSizeOk(cmd, total, rowBytes, warn)) return;
    const before = this.graphics.get(name);
    const used = this.memoryBytes - (before?.data.length ?? 0);
    if (used + total > this.budgets.maxMemoryBytes) {
      warn(
        cmd,
        `storing ${name} would hold over ${this.budgets.maxMemoryBytes} bytes of graphics: not stored.`,
      );
      return;
    }
    const result = decode();
    if (result.problem) warn(cmd, result.problem);
    if (!('bitmap' in result)) return;
    this.graphics.set(name, result.bitmap);
    this.memoryBytes = used + result.bitmap.data.length;
  }

  private graphicSizeOk(
    cmd: ZplCommand,
    total: number,
    rowBytes: number,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ): boolean {
    if (!Number.isInteger(total) || !Number.isInteger(rowBytes) || total <= 0 || rowBytes <= 0) {
      warn(cmd, 'needs its total and per-row byte counts: nothing drawn.');
      return false;
    }
    if (total > this.budgets.maxGraphicBytes) {
      warn(cmd, `declares ${total} bytes; at most ${this.budgets.maxGraphicBytes} are drawn: nothing drawn.`);
      return false;
    }
    if (rowBytes * 8 > this.maxDots) {
      warn(cmd, `rows of ${rowBytes * 8} dots are wider than ${this.maxDots}: nothing drawn.`);
      return false;
    }
    return true;
  }

  private endField(
    field: FieldState,
    label: LabelState,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    if (field.fieldNumber !== undefined) {
      if (!field.recalled && label.hasRecall) {
        // The recalling format's ^FNn^FD…^FS gives a recalled field its data.
        if (field.data !== undefined) label.fieldValues.set(field.fieldNumber, field.data);
        return;
      }
      if (field.recalled) {
        label.deferred.push(field);
        return;
      }
    }
    this.draw(field, label, warn);
  }

  private draw(
    field: FieldState,
    label: LabelState,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    if (field.serial && field.data !== undefined && !field.graphic) {
      const at = label.nodes.length;
      this.drawOnce(field, label, warn);
      label.serials.push({ at, count: label.nodes.length - at, field, state: this.drawState() });
      return;
    }
    this.drawOnce(field, label, warn);
  }

  private drawOnce(
    field: FieldState,
    label: LabelState,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    const reverse = field.reverse || this.reverseAll;
    try {
      if (field.graphic) {
        this.drawGraphic(field, field.graphic, label, reverse, warn);
        return;
      }
      if (field.data === undefined) return;
      const data = this.fieldData(field, warn, field.barcode !== undefined);
      if (field.barcode) {
        this.drawBarcode(field, field.barcode, data, label, reverse, warn);
        return;
      }
      this.drawText(field, data, label, reverse, warn);
    } catch (e) {
      const cmd: ZplCommand = {
        prefix: '^',
        name: field.barcode?.name ?? field.graphic?.name ?? 'FD',
        params: '',
        offset: field.barcode?.offset ?? field.graphic?.offset ?? field.dataOffset ?? field.offset,
      };
      warn(cmd, `not drawn: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The field's data as characters: ^FH escapes, then the code page; control bytes only in bar codes. */
  private fieldData(
    field: FieldState,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
    barcode: boolean,
  ): string {
    let bytes = field.data ?? '';
    if (field.hexIndicator !== undefined) {
      const ind = field.hexIndicator;
      let out = '';
      for (let i = 0; i < bytes.length; i++) {
        const c = bytes[i] as string;
        const hex = c === ind ? bytes.slice(i + 1, i + 3) : '';
        if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 2;
        } else {
          out += c;
        }
      }
      bytes = out;
    }
    let text = this.decode(bytes);
    // eslint-disable-next-line no-control-regex
    if (!barcode && /[\x00-\x1f\x7f]/.test(text)) {
      const cmd: ZplCommand = {
        prefix: '^',
        name: 'FH',
        params: '',
        offset: field.dataOffset ?? field.offset,
      };
      warn(cmd, 'the data decodes to control characters: they are left out of the text.');
      // eslint-disable-next-line no-control-regex
      text = text.replace(/[\x00-\x1f\x7f]/g, '');
    }
    return text;
  }

  private decode(bytes: string): string {
    if (!/[\x80-\xff]/.test(bytes)) return bytes;
    const raw = Uint8Array.from(bytes, (c) => c.charCodeAt(0) & 0xff);
    const label = this.codePage === 28 ? 'utf-8' : this.codePage === 27 ? 'windows-1252' : 'ibm850';
    try {
      return new TextDecoder(label).decode(raw);
    } catch {
      return bytes;
    }
  }

  private colorFor(
    reverse: boolean,
    box: { x: number; y: number; width: number; height: number },
    label: LabelState,
  ): string {
    if (!reverse) return '#000000';
    // ^FR prints white over black and black over white; a Scene has no XOR, so a field whose centre lies on a
    // black box drawn before it is white, any other black (docs/zpl.md).
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const onBlack = label.blackBoxes.some(
      (b) => cx >= b.x && cx <= b.x + b.width && cy >= b.y && cy <= b.y + b.height,
    );
    return onBlack ? '#ffffff' : '#000000';
  }

  private drawGraphic(
    field: FieldState,
    cmd: ZplCommand,
    label: LabelState,
    reverse: boolean,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ): void {
    const p = cmd.params.split(',');
    const n = (i: number, fallback: number, min: number, max: number) => this.num(p[i], fallback, min, max);
    const place = (width: number, height: number, local: SceneNode, black: boolean) => {
      const x = field.rightJustified ? field.x - width : field.x;
      const y = field.anchor === 'baseline' ? field.y - height : field.y;
      const box = { x, y, width, height };
      const color = this.colorFor(reverse, box, label);
      paint(local, color);
      label.nodes.push(
        x === 0 && y === 0
          ? local
          : { kind: 'group', transform: translate(x, y), opacity: 1, children: [local] },
      );
      if (black && color === '#000000') label.blackBoxes.push(box);
    };
    switch (cmd.name) {
      case 'GB': {
        const t = Math.round(n(2, 1, 1, this.maxDots));
        const w = Math.max(t, Math.round(n(0, t, 1, this.maxDots)));
        const h = Math.max(t, Math.round(n(1, t, 1, this.maxDots)));
        const white = (p[3] ?? '').trim().toUpperCase() === 'W';
        const r = Math.round(n(4, 0, 0, 8));
        const filled = t * 2 >= Math.min(w, h);
        const radius = (r * Math.min(w, h)) / 16;
        let node: SceneNode;
        if (r > 0) {
          node = filled
            ? { kind: 'rect', x: 0, y: 0, width: w, height: h, cornerRadius: radius, fill: '#000000' }
            : {
                kind: 'rect',
                x: t / 2,
                y: t / 2,
                width: w - t,
                height: h - t,
                cornerRadius: Math.max(0, radius - t / 2),
                stroke: { color: '#000000', width: t },
              };
        } else if (filled) {
          node = { kind: 'rect', x: 0, y: 0, width: w, height: h, fill: '#000000' };
        } else {
          node = {
            kind: 'path',
            d: `M0 0H${w}V${h}H0ZM${t} ${t}V${h - t}H${w - t}V${t}Z`,
            fill: '#000000',
            fillRule: 'evenodd',
          };
        }
        if (white) {
          paint(node, '#ffffff');
          const x = field.rightJustified ? field.x - w : field.x;
          const y = field.anchor === 'baseline' ? field.y - h : field.y;
          label.nodes.push({ kind: 'group', transform: translate(x, y), opacity: 1, children: [node] });
          return;
        }
        place(w, h, node, filled);
        return;
      }
      case 'GC':
      case 'GE': {
        const circle = cmd.name === 'GC';
        const w = Math.round(n(0, 3, 3, this.maxDots));
        const h = circle ? w : Math.round(n(1, 3, 3, this.maxDots));
        const t = Math.round(n(circle ? 1 : 2, 1, 1, this.maxDots));
        const filled = t * 2 >= Math.min(w, h);
        const node: SceneNode = filled
          ? { kind: 'ellipse', cx: w / 2, cy: h / 2, rx: w / 2, ry: h / 2, fill: '#000000' }
          : {
              kind: 'ellipse',
              cx: w / 2,
              cy: h / 2,
              rx: (w - t) / 2,
              ry: (h - t) / 2,
              stroke: { color: '#000000', width: t },
            };
        place(w, h, node, false);
        return;
      }
      case 'GD': {
        const t = Math.round(n(2, 1, 1, this.maxDots));
        const w = Math.max(t, Math.round(n(0, t, 1, this.maxDots)));
        const h = Math.max(t, Math.round(n(1, t, 1, this.maxDots)));
        const left = (p[4] ?? 'R').trim().toUpperCase() === 'L' || p[4]?.trim() === '\\';
        const d = left ? `M0 0L${t} 0L${w} ${h}L${w - t} ${h}Z` : `M0 ${h}L${w - t} 0L${w} 0L${t} ${h}Z`;
        place(w, h, { kind: 'path', d, fill: '#000000' }, false);
        return;
      }
      case 'GS': {
        const o = orientationOf(p[0], this.fieldOrientation);
        const symbol =
          { A: '®', B: '©', C: '™', D: '(UL)', E: '(SP)' }[(field.data ?? 'A').trim()[0] ?? 'A'] ?? '®';
        const h = n(1, 24, 1, this.maxDots);
        const wdt = n(2, h, 1, this.maxDots);
        this.placeText(field, symbol, { kind: 'scalable', height: h, width: wdt }, h, wdt, o, label, reverse);
        return;
      }
      case 'GF': {
        // ^GFa,b,c,d,data
        const kind = (p[0] ?? 'A').trim().toUpperCase() || 'A';
        const total = Number.parseInt(p[2] ?? '', 10);
        const rowBytes = Number.parseInt(p[3] ?? '', 10);
        if (!this.graphicSizeOk(cmd, total, rowBytes, warn)) return;
        const data = p.slice(4).join(',');
        if (kind === 'C') {
          warn(cmd, 'AR-compressed (format C) graphics are not read: nothing drawn.');
          return;
        }
        const result =
          kind === 'B' ? binaryGraphic(data, total, rowBytes) : decodeAsciiGraphic(data, total, rowBytes);
        if (result.problem) warn(cmd, result.problem);
        if (!('bitmap' in result)) return;
        this.placeBitmap(field, result.bitmap, 1, 1, label, reverse);
        return;
      }
      case 'XG':
      case 'IM': {
        const name = objectName(p[0] ?? '', 'GRF');
        const bitmap = this.graphics.get(name);
        if (!bitmap) {
          warn(cmd, `no graphic ${name} in memory: nothing drawn.`);
          return;
        }
        const mx = cmd.name === 'XG' ? Math.round(n(1, 1, 1, 10)) : 1;
        const my = cmd.name === 'XG' ? Math.round(n(2, 1, 1, 10)) : 1;
        this.placeBitmap(field, bitmap, mx, my, label, reverse);
        return;
      }
      default:
        warn(cmd, 'not drawn.');
    }
  }

  private placeBitmap(
    field: FieldState,
    bitmap: ZplBitmap,
    mx: number,
    my: number,
    label: LabelState,
    reverse: boolean,
  ) {
    const width = bitmap.rowBytes * 8 * mx;
    const height = bitmap.rows * my;
    const x = field.rightJustified ? field.x - width : field.x;
    const y = field.anchor === 'baseline' ? field.y - height : field.y;
    const color = this.colorFor(reverse, { x, y, width, height }, label);
    const path = bitmapPath(bitmap, x, y, mx, my, color);
    if (path) label.nodes.push(path);
  }

  private drawBarcode(
    field: FieldState,
    barcode: NonNullable<FieldState['barcode']>,
    data: string,
    label: LabelState,
    reverse: boolean,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    const cmd: ZplCommand = { prefix: '^', name: barcode.name, params: '', offset: barcode.offset };
    const symbol = zplSymbol(barcode.name, barcode.params, data, this.by, this.options.dpi);
    for (const problem of symbol.problems) warn(cmd, problem);
    const { node, width, height, anchorY } = this.symbolNode(symbol, reverse, label);
    const o = barcode.orientation;
    // A QR code at ^FO sits 10 dots lower than the field origin on Zebra printers (zebrash and Labelary agree).
    const qrDrop = barcode.name === 'BQ' && field.anchor === 'top-left' ? QR_FO_DROP : 0;
    const transform =
      field.anchor === 'baseline'
        ? placeAnchor(o, field.x, field.y, anchorY)
        : placeTopLeft(o, field.rightJustified ? field.x - width : field.x, field.y + qrDrop, width, height);
    label.nodes.push(wrap(node, transform));
  }

  /** A symbol in local dots (origin top-left), its size, and the y of its bottom edge (^FT's anchor). */
  private symbolNode(
    symbol: ZplSymbol,
    reverse: boolean,
    label: LabelState,
  ): { node: SceneNode; width: number; height: number; anchorY: number } {
    const rects: number[] = [];
    const color = reverse ? this.colorFor(true, { x: 0, y: 0, width: 0, height: 0 }, label) : '#000000';
    if (symbol.kind === 'matrix') {
      for (let r = 0; r < symbol.rows; r++) {
        for (let c = 0; c < symbol.cols; c++) {
          if (symbol.modules[r * symbol.cols + c]) {
            rects.push(
              c * symbol.moduleWidth,
              r * symbol.moduleHeight,
              symbol.moduleWidth,
              symbol.moduleHeight,
            );
          }
        }
      }
      const width = symbol.cols * symbol.moduleWidth;
      const height = symbol.rows * symbol.moduleHeight;
      return {
        node: {
          kind: 'barcode',
          format: symbol.format,
          value: symbol.value,
          color,
          rects,
          box: { x: 0, y: 0, width, height },
          moduleWidth: symbol.moduleWidth,
        },
        width,
        height,
        anchorY: height,
      };
    }
    if (symbol.kind === 'maxicode') return maxiCodeNode(symbol, color);
    if (symbol.retail) return this.retailNode(symbol, symbol.retail, color);
    const textSize = symbol.text ? Math.max(10, Math.round(this.by.module * 10)) : 0;
    const textGap = symbol.text ? Math.round(textSize * 0.25) : 0;
    const barsY = symbol.text?.above ? textSize + textGap : 0;
    let x = 0;
    symbol.widths.forEach((w, i) => {
      if (i % 2 === 0) rects.push(x, barsY, w, symbol.height);
      x += w;
    });
    const width = x;
    const node: BarcodeNode = {
      kind: 'barcode',
      format: symbol.format,
      value: symbol.value,
      color,
      rects,
      box: { x: 0, y: barsY, width, height: symbol.height },
      moduleWidth: this.by.module,
    };
    if (symbol.text) {
      const y = symbol.text.above ? 0 : symbol.height + textGap;
      const text = this.hriText(symbol.text.value, { x: 0, y, width }, textSize, color);
      if (text) node.text = text;
    }
    return {
      node,
      width,
      height: symbol.height + (symbol.text ? textSize + textGap : 0),
      anchorY: barsY + symbol.height,
    };
  }

  /** An interpretation line: the monospaced face, centred in `box`. */
  private hriText(value: string, box: { x: number; y: number; width: number }, size: number, color: string) {
    const text = layoutText({
      text: value,
      box: { ...box, height: size * 1.3 },
      font: this.options.fonts.get(BITMAP_FACE),
      size,
      color,
      align: 'center',
      wrap: 'none',
      ellipsis: false,
      lineHeight: 1,
    }).node;
    return text.lines.length ? text : undefined;
  }

  /** EAN/UPC with the interpretation line: guard bars run down beside the digits, the leading digit outside. */
  private retailNode(
    symbol: Extract<ZplSymbol, { kind: 'linear' }>,
    retail: NonNullable<Extract<ZplSymbol, { kind: 'linear' }>['retail']>,
    color: string,
  ): { node: SceneNode; width: number; height: number; anchorY: number } {
    const m = this.by.module;
    const size = Math.max(10, 9 * m);
    const guardDrop = Math.round(size * 0.6);
    const rects: number[] = [];
    let x = 0;
    let bar = 0;
    symbol.widths.forEach((w, i) => {
      if (i % 2 === 0) rects.push(x, 0, w, symbol.height + (retail.guards[bar++] ? guardDrop : 0));
      x += w;
    });
    const node: BarcodeNode = {
      kind: 'barcode',
      format: symbol.format,
      value: symbol.value,
      color,
      rects,
      box: { x: 0, y: 0, width: x, height: symbol.height },
      moduleWidth: m,
    };
    const texts: SceneNode[] = [];
    for (const d of retail.digits) {
      const box = { x: d.from, y: symbol.height + 1, width: d.to - d.from };
      const t = this.hriText(d.text, box, d.small ? size * 0.8 : size, color);
      if (t) texts.push(t);
    }
    const group: SceneNode = { kind: 'group', transform: IDENTITY, opacity: 1, children: [node, ...texts] };
    return { node: group, width: x, height: symbol.height + size * 1.2, anchorY: symbol.height };
  }

  private drawText(
    field: FieldState,
    text: string,
    label: LabelState,
    reverse: boolean,
    warn: (cmd: ZplCommand | undefined, message: string) => void,
  ) {
    const asked = field.font ?? { name: this.defaultFont.name, orientation: this.fieldOrientation };
    const explicitSize = field.font !== undefined;
    const known = fontOf(asked.name, this.options.dpi);
    if (!known) {
      const cmd: ZplCommand = {
        prefix: '^',
        name: 'A',
        params: asked.name,
        offset: field.font?.offset ?? field.offset,
      };
      warn(cmd, `font ${asked.name} is not one of the printer's (0, A–H, P–V): drawn with ^A0's.`);
    }
    const kind = known ?? fontOf('0', this.options.dpi);
    if (!kind) return;
    let height: number;
    let width: number;
    if (kind.kind === 'scalable') {
      const defaultH = explicitSize ? kind.height : this.defaultFont.height;
      const defaultW = explicitSize ? kind.width : this.defaultFont.width;
      height =
        asked.height ??
        asked.width ??
        (explicitSize && asked.name === '0' ? this.defaultFont.height : defaultH);
      width =
        asked.width ??
        asked.height ??
        (explicitSize && asked.name === '0' ? this.defaultFont.width : defaultW);
    } else {
      const cell = kind.cell;
      const askH = asked.height ?? (explicitSize ? undefined : this.defaultFont.height);
      const askW = asked.width ?? (explicitSize ? undefined : this.defaultFont.width);
      const mh = askH ? Math.max(1, Math.min(10, Math.round(askH / cell.height))) : 1;
      const mw = askW ? Math.max(1, Math.min(10, Math.round(askW / cell.width))) : mh;
      height = cell.height * mh;
      width = (cell.width + cell.gap) * mw;
    }
    const orientation = field.textBlock?.orientation ?? asked.orientation;
    this.placeText(field, text, kind, height, width, orientation, label, reverse);
  }

  private placeText(
    field: FieldState,
    raw: string,
    kind: ZplFontKind,
    height: number,
    width: number,
    orientation: Orientation,
    label: LabelState,
    reverse: boolean,
  ) {
    const bitmap = kind.kind === 'bitmap';
    const font: LoadedFont = this.options.fonts.get(bitmap ? BITMAP_FACE : SCALABLE_FACE);
    // Em size and horizontal squeeze so the face fills the printer's cell.
    const size = height;
    const sx = bitmap ? width / (MONO_ADVANCE_EM * size) : (width / height) * ZERO_WIDTH_FACTOR;
    const block = field.block;
    const tb = field.textBlock;
    let text = raw;
    if (block) text = text.replace(/\\&/g, '\n').replace(/\\\\/g, '\\');
    const boxWidth = block ? block.width : tb ? tb.width : 0;
    const lineAdvance = height + (block ? block.spacing : 0);
    const maxLines = block ? block.lines : tb ? Math.max(1, Math.floor(tb.height / height)) : 0;
    // J: laid out from the left, then each line that wraps is spread to the block's width (justify below).
    const align = block
      ? (({ C: 'center', R: 'right', J: 'left' } as const)[block.align as 'C' | 'R' | 'J'] ?? 'left')
      : 'left';
    const layout = (t: string, width: number, lineCount: number) =>
      layoutText({
        text: t,
        box: {
          x: 0,
          y: 0,
          ...(width > 0 ? { width: width / sx } : {}),
          ...(lineCount > 0 ? { height: lineCount * lineAdvance } : {}),
        },
        font,
        fallbacks: this.options.fonts.fallbacks(font),
        size,
        color: '#000000',
        lineHeight: lineAdvance / size,
        align,
        wrap: width > 0 ? 'word' : 'none',
        ellipsis: false,
      });
    const laid = layout(text, boxWidth, maxLines);
    if (block && block.indent > 0 && boxWidth > block.indent && laid.node.lines.length > 1) {
      // ^FB's hanging indent: the lines after the first are laid out in the width less the indent, moved right.
      const first = laid.node.lines[0] as TextLine;
      const at = text.indexOf(first.text);
      const rest = text.slice(at < 0 ? first.text.length : at + first.text.length).replace(/^[ \t]*\n?/, '');
      const more = layout(rest, boxWidth - block.indent, maxLines - 1);
      for (const line of more.node.lines) {
        line.baseline += lineAdvance;
        line.x += block.indent / sx;
      }
      laid.node.lines = [first, ...more.node.lines];
      if (more.lost) laid.lost = more.lost;
      else delete laid.lost;
    }
    if (block?.align === 'J' && boxWidth > 0)
      justify(laid.node.lines, text, boxWidth / sx, block.indent / sx);
    const node = laid.node;
    if (!node.lines.length) return;
    const cut: ZplCommand = {
      prefix: '^',
      name: block ? 'FB' : tb ? 'TB' : 'FD',
      params: '',
      offset: field.offset,
    };
    if (laid.lost)
      label.warnings.push({
        command: `^${cut.name}`,
        offset: cut.offset,
        message: `text that does not fit is left out: ${laid.lost}`,
      });
    // Move the first baseline to where the printer puts it in the cell (fonts.ts, CELL_BASELINE).
    const firstBaseline = node.lines[0]?.baseline ?? 0;
    const cellBaseline = height * (bitmap ? CELL_BASELINE.bitmap : CELL_BASELINE.scalable);
    const shift: Matrix = translate(0, cellBaseline - firstBaseline);
    const lines = node.lines.length;
    const localWidth = (boxWidth > 0 ? boxWidth : Math.max(...node.lines.map((l) => l.width)) * sx) || 0;
    const localHeight = block || tb ? Math.max(lines, 1) * lineAdvance - (block ? block.spacing : 0) : height;
    const x = field.rightJustified ? field.x - localWidth : field.x;
    const place =
      field.anchor === 'baseline'
        ? placeAnchor(
            orientation,
            x,
            field.y,
            block || tb ? (lines - 1) * lineAdvance + cellBaseline : cellBaseline,
          )
        : placeTopLeft(orientation, x, field.y, localWidth, localHeight);
    const transform = multiply(multiply(place, [sx, 0, 0, 1, 0, 0]), shift);
    const box = boxOf(transform, localWidth / sx, localHeight);
    node.color = this.colorFor(reverse, box, label);
    label.nodes.push(wrap(node, transform));
  }
}

/**
 * ^FB justification J: every line that wraps (not the block's last, not one a line break ends) is spread to the
 * block's width by widening its spaces. `indent` is the hanging indent of the lines after the first.
 */
function justify(lines: TextLine[], text: string, width: number, indent: number): void {
  let cursor = 0;
  lines.forEach((line, i) => {
    const at = text.indexOf(line.text, cursor);
    if (at >= 0) cursor = at + line.text.length;
    if (i === lines.length - 1 || /^[ \t]*\n/.test(text.slice(cursor))) return;
    const chars = [...line.text.replace(/\s+$/, '')];
    const spaces = chars.filter((c) => c === ' ').length;
    const target = width - (i > 0 ? indent : 0);
    const extra = target - line.width;
    if (!spaces || extra <= 0 || line.glyphs.length < chars.length) return;
    let seen = 0;
    chars.forEach((c, k) => {
      const glyph = line.glyphs[k] as PositionedGlyph;
      glyph.x += (extra * seen) / spaces;
      if (c === ' ') seen++;
    });
    line.width = target;
  });
}

/**
 * A MaxiCode symbol as one even-odd path: a hexagon per dark module (rows `pitch`·√3/2 apart, odd rows half a
 * pitch right, a small gap between neighbours) and the bullseye's three dark rings around the centre module.
 */
function maxiCodeNode(
  symbol: Extract<ZplSymbol, { kind: 'maxicode' }>,
  color: string,
): { node: SceneNode; width: number; height: number; anchorY: number } {
  const w = symbol.pitch;
  const rowPitch = (w * Math.sqrt(3)) / 2;
  const side = w / Math.sqrt(3);
  const half = (w / 2) * 0.9;
  const r = side * 0.9;
  const f = (v: number) => Number(v.toFixed(2));
  const parts: string[] = [];
  for (const i of symbol.dark) {
    const row = Math.floor(i / 30);
    const col = i % 30;
    const cx = col * w + (row % 2 ? w : w / 2);
    const cy = row * rowPitch + side;
    parts.push(
      `M${f(cx)} ${f(cy - r)}L${f(cx + half)} ${f(cy - r / 2)}L${f(cx + half)} ${f(cy + r / 2)}` +
        `L${f(cx)} ${f(cy + r)}L${f(cx - half)} ${f(cy + r / 2)}L${f(cx - half)} ${f(cy - r / 2)}Z`,
    );
  }
  // The bullseye: circles at the centre module; even-odd fill leaves the centre and every other ring light.
  const cx = 14 * w + w / 2;
  const cy = 16 * rowPitch + side;
  for (const k of [0.5774, 1.3359, 2.1058, 2.8644, 3.6229, 4.3814]) {
    const rr = f(k * w);
    parts.push(
      `M${f(cx - rr)} ${f(cy)}A${rr} ${rr} 0 1 0 ${f(cx + rr)} ${f(cy)}A${rr} ${rr} 0 1 0 ${f(cx - rr)} ${f(cy)}Z`,
    );
  }
  const width = Math.ceil(30.5 * w);
  const height = Math.ceil(32 * rowPitch + 2 * side);
  return {
    node: { kind: 'path', d: parts.join(''), fill: color, fillRule: 'evenodd' },
    width,
    height,
    anchorY: height,
  };
}

function wrap(node: SceneNode, transform: Matrix): SceneNode {
  if (transform.every((v, i) => v === IDENTITY[i])) return node;
  return { kind: 'group', transform, opacity: 1, children: [node] };
}

/** The scene box of a local box under a matrix. */
function boxOf(m: Matrix, width: number, height: number) {
  const pts = [
    [0, 0],
    [width, 0],
    [0, height],
    [width, height],
  ].map(([u = 0, v = 0]) => [m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5]] as const);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** Recolours a drawn shape (fills and strokes) for ^FR / ^GB's white. */
function paint(node: SceneNode, color: string): void {
  switch (node.kind) {
    case 'group':
      node.children.forEach((c) => paint(c, color));
      return;
    case 'rect':
    case 'ellipse':
    case 'path':
      if (node.fill) node.fill = color;
      if (node.stroke) node.stroke = { ...node.stroke, color };
      return;
    case 'text':
    case 'barcode':
      node.color = color;
      return;
    case 'image':
      return;
  }
}
