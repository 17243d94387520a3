/**
 * Module geometry → a BarcodeNode in scene units. On raster targets every module is a whole number of dots
 * and every bar starts on a whole dot: the hosted SDK stretches a bitmap into the box instead, and the
 * uneven bars that gives at 203 dpi are why its barcodes fail to scan (reference/markup.md).
 */
import type { BarcodeNode, Color, TextNode } from '../scene';
import { formatLabel, humanReadableByDefault, type ItfBearer } from '../../model/barcode/formats';
import {
  geometrySize,
  type BarcodeGeometry,
  type MatrixGeometry,
  type RetailDigits,
  type RetailLayout,
} from './geometry';
import { ptToSceneUnits } from '../../units/units';

/** A rectangle in scene units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the barcode goes: vector (`px` at 96 dpi) or a printer's dot grid (`dots` at its dpi). */
export interface PlacementTarget {
  unit: 'px' | 'dots';
  dpi: number;
}

/** Lays out one line of text in `box` at em `size` (scene units); injected so fonts stay outside this module. */
export type LayoutText = (text: string, box: Box, size: number) => TextNode;

export interface PlaceOptions {
  /** Print the value under the bars; default on for EAN/UPC/ITF-14/ISBN/ISMN/ISSN, off for the rest. */
  humanReadable?: boolean;
  /** Without it no text is placed, whatever `humanReadable` says. */
  layoutText?: LayoutText;
  /** Text em size in scene units; default 8 modules, at least 6 pt, at most a quarter of the box height. */
  textSize?: number;
  /** Bar colour, default black. */
  color?: Color;
  /** Markup element index, copied to the node. */
  element?: number;
  /** ITF-14's bearer bars; default a frame (GS1 asks for it when ITF-14 is printed on corrugated). */
  bearer?: ItfBearer;
  /**
   * The module asked for, in scene units (rounded to whole dots on raster targets, at least 1); default the
   * largest that fits. When the symbol does not fit the box at it, the largest that fits is used, with a warning.
   */
  module?: number;
}

/**
 * Bearer bar width in modules. GS1 asks at least 2X for ITF-14 printed by other means than plates (labels),
 * and a frame of 4.8 mm on plate-printed corrugated; 3X gives printed labels some margin over the minimum.
 */
export const BEARER_MODULES = 3;
/** ISO/IEC 15420 / GS1 General Specifications 5.2: EAN/UPC guard bars extend 5X below the data bars. */
export const GUARD_EXTENSION_MODULES = 5;
/** Largest EAN/UPC digit size, in modules: six digits must fit over the 42 modules between two guards. */
const RETAIL_TEXT_MODULES = 10;
/** UPC's outer digits, relative to the others. */
const SMALL_DIGITS = 0.8;

export interface PlacedBarcode {
  node: BarcodeNode;
  /** Digits in a smaller size than `node.text`'s (UPC-A/UPC-E's number system and check digits), to draw with it. */
  smallText?: TextNode;
  /** For the user: modules below a readable size, or a box too small even for 1 dot per module. */
  warnings: string[];
}

/** Smallest X most scanners read: 7.5 mil for linear symbols, 10 mil for 2D modules (1 mil = 0.001 in). */
export const MIN_LINEAR_MODULE_MIL = 7.5;
export const MIN_MATRIX_MODULE_MIL = 10;

const LINE_HEIGHT = 1.2;
// Float noise from unit conversion (240 px at 203 dpi = 507.49999…) must not cost a whole dot.
const EPS = 1e-6;

/**
 * Place `geometry` in `box` (scene units) for `target`. Raster: the largest whole number of dots per module
 * that fits (never below 1), origin snapped to whole dots, symbol centred. Vector: linear symbols fill the box
 * width exactly, matrix symbols the largest square module that fits, centred. Quiet zones are always kept.
 * EAN/UPC get their guard bars, add-on and digits where ISO/IEC 15420 puts them; ITF-14 its bearer bars.
 */
export function placeBarcode(
  geometry: BarcodeGeometry,
  box: Box,
  target: PlacementTarget,
  opts: PlaceOptions = {},
): PlacedBarcode {
  const raster = target.unit === 'dots';
  const origin = raster ? { x: Math.round(box.x), y: Math.round(box.y) } : { x: box.x, y: box.y };
  const availW = raster ? Math.floor(Math.max(0, box.width) + EPS) : Math.max(0, box.width);
  const availH = raster ? Math.floor(Math.max(0, box.height) + EPS) : Math.max(0, box.height);
  const size = geometrySize(geometry);
  const linear = geometry.kind === 'linear';
  const retail = geometry.kind === 'linear' ? geometry.retail : undefined;
  const bearer = bearerOf(geometry, opts.bearer);
  const widthModules = placedWidthModules(geometry, opts.bearer);

  // Text first: linear bars take the height that is left; matrix symbols fit above it.
  const showText =
    (opts.humanReadable ?? humanReadableByDefault(geometry.format)) && opts.layoutText !== undefined;
  const fitW = availW / widthModules;
  const asked =
    opts.module === undefined ? undefined : raster ? Math.max(1, Math.round(opts.module)) : opts.module;
  let textSize = 0;
  let textH = 0;
  if (showText) {
    const moduleGuess = asked ?? (raster ? Math.max(1, Math.floor(fitW + EPS)) : fitW);
    textSize = opts.textSize ?? defaultTextSize(moduleGuess, target.dpi, availH);
    // EAN/UPC digits must fit between the guards: six digits over 42 modules.
    if (retail && opts.textSize === undefined)
      textSize = Math.min(textSize, RETAIL_TEXT_MODULES * moduleGuess);
    textH = raster ? Math.round(textSize * LINE_HEIGHT) : textSize * LINE_HEIGHT;
    textH = Math.min(textH, raster ? Math.floor(availH / 2) : availH / 2);
    textSize = Math.min(textSize, textH / LINE_HEIGHT);
  }
  const symbolAreaH = availH - textH;

  const fit = linear ? fitW : Math.min(fitW, symbolAreaH / size.height);
  const largest = raster ? Math.max(1, Math.floor(fit + EPS)) : fit;
  // The module asked for when the symbol fits at it; else the largest that fits (and a warning below).
  const askedFits = asked !== undefined && asked <= fit + EPS;
  const module = askedFits ? asked : largest;
  const symbolW = module * widthModules;
  const symbolH = linear ? symbolAreaH : module * size.height;
  const center = (free: number): number => (raster ? Math.floor(free / 2) : free / 2);
  const x = origin.x + center(availW - symbolW);
  const y = origin.y + (linear ? 0 : center(symbolAreaH - symbolH));

  let rects: number[];
  let barsH = symbolH;
  let text: TextNode | undefined;
  let smallText: TextNode | undefined;
  if (geometry.kind === 'matrix') {
    rects = matrixRects(geometry, x, y, module);
  } else if (retail) {
    const placed = retailPlacement(geometry.bars, retail, { x, y, m: module, availH, textH, raster });
    rects = placed.rects;
    barsH = placed.dataH;
    if (showText && opts.layoutText && textH > 0) {
      const texts = retailTexts(retail, placed, textSize, opts.layoutText, { x, symbolW, raster });
      text = texts.text;
      smallText = texts.small;
    }
  } else {
    // Whole modules thick; a box too low for both bearers and bars gets thinner ones (it will not scan anyway).
    const most = raster ? Math.floor(symbolH / 2 / module) * module : symbolH / 2;
    const b = bearer === 'none' ? 0 : Math.max(0, Math.min(BEARER_MODULES * module, most));
    const barsX = bearer === 'frame' ? x + b : x;
    barsH = symbolH - 2 * b;
    rects = linearRects(geometry.bars, barsX, y + b, module, barsH);
    if (b > 0) rects.push(...bearerRects(bearer, x, y, symbolW, symbolH, b));
  }
  const node: BarcodeNode = {
    kind: 'barcode',
    format: geometry.format,
    value: geometry.value,
    color: opts.color ?? '#000000',
    rects,
    box: { x, y, width: symbolW, height: linear ? availH : symbolH },
    moduleWidth: module,
  };
  if (opts.element !== undefined) node.element = opts.element;
  if (!retail && showText && opts.layoutText && textH > 0) {
    const textBox = { x, y: y + symbolH, width: symbolW, height: textH };
    text = opts.layoutText(geometry.humanReadable, textBox, textSize);
  }
  if (text) node.text = text;
  const narrower =
    asked !== undefined && !askedFits && module < asked
      ? [
          `${formatLabel(geometry.format)} "${geometry.value}" does not fit its box at the module width asked ` +
            `(${fmt(asked)} ${target.unit}): drawn at ${fmt(module)} ${target.unit}. Widen the box or shorten the value.`,
        ]
      : [];
  const warnings = [
    ...narrower,
    ...sizeWarnings(geometry, target, module, {
      availW,
      symbolAreaH,
      symbolW,
      symbolH: linear ? barsH : symbolH,
      raster,
      widthModules,
    }),
  ];
  return { node, ...(smallText ? { smallText } : {}), warnings };
}

interface RetailPlaced {
  rects: number[];
  /** Height of the data bars; the digits start under them. */
  dataH: number;
  /** Room above an add-on for its digits (0 without digits or add-on). */
  addonTop: number;
  y: number;
  m: number;
  textH: number;
}

/**
 * EAN/UPC bars: data bars from the top, guard bars 5X longer (GS1 General Specifications 5.2: the guard bars
 * extend 5X below the data bars; the digits sit beside them under the data bars), add-on bars from below the
 * add-on's digits down to the guards' bottom. Without digits the guards still extend, into 5X kept for them.
 */
function retailPlacement(
  bars: ReadonlyArray<readonly [number, number]>,
  retail: RetailLayout,
  p: { x: number; y: number; m: number; availH: number; textH: number; raster: boolean },
): RetailPlaced {
  const guardExtension = Math.min(GUARD_EXTENSION_MODULES * p.m, p.availH);
  const dataH = Math.max(0, p.availH - Math.max(p.textH, guardExtension));
  const hasAddonDigits = retail.digits.some((d) => d.above);
  const addonTop = hasAddonDigits ? p.textH : 0;
  const rects: number[] = [];
  bars.forEach(([start, width], i) => {
    const role = retail.roles[i] ?? 'data';
    const top = role === 'addon' ? addonTop : 0;
    const bottom = role === 'data' ? dataH : dataH + guardExtension;
    if (bottom > top) rects.push(p.x + start * p.m, p.y + top, width * p.m, bottom - top);
  });
  return { rects, dataH, addonTop, y: p.y, m: p.m, textH: p.textH };
}

/**
 * The digits of an EAN/UPC symbol, each group in its own box centred over its modules: the groups of the
 * usual size as one text node (one line per group), UPC's smaller outer digits as another, their baselines
 * level with the others'.
 */
function retailTexts(
  retail: RetailLayout,
  placed: RetailPlaced,
  size: number,
  layoutText: LayoutText,
  at: { x: number; symbolW: number; raster: boolean },
): { text?: TextNode; small?: TextNode } {
  const { m, y, textH, dataH } = placed;
  const below = y + dataH;
  const smallSize = size * SMALL_DIGITS;
  const drop = at.raster ? Math.round(size - smallSize) : size - smallSize;
  const boxOf = (d: RetailDigits, top: number, height: number): Box => ({
    x: at.x + d.from * m,
    y: top,
    width: (d.to - d.from) * m,
    height,
  });
  const usual = retail.digits
    .filter((d) => !d.small && d.text !== '')
    .map((d) =>
      d.above
        ? layoutText(d.text, boxOf(d, y, placed.addonTop), size)
        : layoutText(d.text, boxOf(d, below, textH), size),
    );
  const small = retail.digits
    .filter((d) => d.small && d.text !== '')
    .map((d) => layoutText(d.text, boxOf(d, below + drop, textH - drop), smallSize));
  const band = { x: at.x, y: below, width: at.symbolW, height: textH };
  return { text: joinText(usual, band), small: joinText(small, band) };
}

/** Several laid-out pieces of one size as one text node: each keeps its lines, positioned as laid out. */
function joinText(parts: TextNode[], box: Box): TextNode | undefined {
  const [first] = parts;
  if (!first) return undefined;
  return { ...first, box, lines: parts.flatMap((p) => p.lines) };
}

/** ITF-14 bearer bars: top and bottom across the symbol and its quiet zones, and for a frame both sides. */
function bearerRects(bearer: ItfBearer, x: number, y: number, w: number, h: number, b: number): number[] {
  const rects = [x, y, w, b, x, y + h - b, w, b];
  if (bearer === 'frame') rects.push(x, y + b, b, h - 2 * b, x + w - b, y + b, b, h - 2 * b);
  return rects;
}

/** The bearer bars a symbol gets: ITF-14's as asked (a frame by default), none for any other format. */
function bearerOf(g: BarcodeGeometry, asked: ItfBearer | undefined): ItfBearer {
  return g.format === 'itf14' ? (asked ?? 'frame') : 'none';
}

/** Width of the placed symbol in modules: quiet zones included, and an ITF-14 frame's vertical bearers. */
export function placedWidthModules(g: BarcodeGeometry, bearer?: ItfBearer): number {
  // A frame's vertical bearers stand outside the quiet zones.
  return geometrySize(g).width + (bearerOf(g, bearer) === 'frame' ? 2 * BEARER_MODULES : 0);
}

/** 8 modules (GS1 prints digits ≈ 8X tall), at least 6 pt, at most a quarter of the box height. */
function defaultTextSize(module: number, dpi: number, boxH: number): number {
  const sixPoints = ptToSceneUnits(6, dpi);
  return Math.min(Math.max(8 * module, sixPoints), boxH / 4);
}

/** One rect per bar, full bar height. */
function linearRects(
  bars: ReadonlyArray<readonly [number, number]>,
  x: number,
  y: number,
  m: number,
  h: number,
): number[] {
  const rects: number[] = [];
  for (const [start, width] of bars) rects.push(x + start * m, y, width * m, h);
  return rects;
}

/** One rect per horizontal run of dark modules in each row. */
function matrixRects(g: MatrixGeometry, x: number, y: number, m: number): number[] {
  const rects: number[] = [];
  const q = g.quietZone;
  for (let r = 0; r < g.rows; r++) {
    const row = r * g.cols;
    let c = 0;
    while (c < g.cols) {
      if (g.modules[row + c] !== 1) {
        c++;
        continue;
      }
      const start = c;
      while (c < g.cols && g.modules[row + c] === 1) c++;
      rects.push(x + (q + start) * m, y + (q + r) * m, (c - start) * m, m);
    }
  }
  return rects;
}

interface Fit {
  availW: number;
  symbolAreaH: number;
  symbolW: number;
  symbolH: number;
  raster: boolean;
  /** Width in modules, quiet zones and any bearer frame included. */
  widthModules: number;
}

function sizeWarnings(g: BarcodeGeometry, target: PlacementTarget, module: number, fit: Fit): string[] {
  const label = formatLabel(g.format);
  const unit = target.unit;
  const tooWide = fit.symbolW > fit.availW + EPS;
  const tooTall = g.kind === 'matrix' && fit.symbolH > fit.symbolAreaH + EPS;
  if (fit.raster && (tooWide || tooTall)) {
    const need = g.kind === 'linear' ? `${fmt(fit.symbolW)}` : `${fmt(fit.symbolW)} × ${fmt(fit.symbolH)}`;
    const have = g.kind === 'linear' ? `${fmt(fit.availW)}` : `${fmt(fit.availW)} × ${fmt(fit.symbolAreaH)}`;
    return [
      `${label} "${g.value}" needs ${need} ${unit} at 1 dot per module but its box is ${have} ${unit}: ` +
        `it overflows the box and will not scan reliably. Enlarge the box or shorten the value.`,
    ];
  }
  if (fit.symbolW <= 0 || fit.symbolH <= 0)
    return [`${label} "${g.value}" has an empty box: nothing is drawn.`];
  const mil = (module / target.dpi) * 1000;
  const minMil = g.kind === 'linear' ? MIN_LINEAR_MODULE_MIL : MIN_MATRIX_MODULE_MIL;
  if (mil + EPS >= minMil) return [];
  const minModule = fit.raster ? Math.ceil((minMil / 1000) * target.dpi - EPS) : (minMil / 1000) * target.dpi;
  const needIn = (minModule * fit.widthModules) / target.dpi;
  const what = g.kind === 'linear' ? 'narrow bars' : 'modules';
  const dotsNote = fit.raster ? ` (${module} dot${module === 1 ? '' : 's'} at ${target.dpi} dpi)` : '';
  return [
    `${label} "${g.value}": ${what} are ${mil.toFixed(1)} mil${dotsNote}, below the ${minMil} mil most scanners ` +
      `need. Widen the box to about ${needIn.toFixed(2)} in or shorten the value.`,
  ];
}

const fmt = (n: number): string => String(Math.round(n * 100) / 100);
