/**
 * Module geometry → a BarcodeNode in scene units. On raster targets every module is a whole number of dots
 * and every bar starts on a whole dot: the hosted SDK stretches a bitmap into the box instead, and the
 * uneven bars that gives at 203 dpi are why its barcodes fail to scan (reference/markup.md).
 */
import type { BarcodeNode, Color, TextNode } from '../scene';
import { formatLabel, humanReadableByDefault } from '../../model/barcode/formats';
import { geometrySize, type BarcodeGeometry, type MatrixGeometry } from './geometry';
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
}

export interface PlacedBarcode {
  node: BarcodeNode;
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

  // Text first: linear bars take the height that is left; matrix symbols fit above it.
  const showText =
    (opts.humanReadable ?? humanReadableByDefault(geometry.format)) && opts.layoutText !== undefined;
  const fitW = availW / size.width;
  let textSize = 0;
  let textH = 0;
  if (showText) {
    const moduleGuess = raster ? Math.max(1, Math.floor(fitW)) : fitW;
    textSize = opts.textSize ?? defaultTextSize(moduleGuess, target.dpi, availH);
    textH = raster ? Math.round(textSize * LINE_HEIGHT) : textSize * LINE_HEIGHT;
    textH = Math.min(textH, raster ? Math.floor(availH / 2) : availH / 2);
    textSize = Math.min(textSize, textH / LINE_HEIGHT);
  }
  const symbolAreaH = availH - textH;

  const fit = linear ? fitW : Math.min(fitW, symbolAreaH / size.height);
  const module = raster ? Math.max(1, Math.floor(fit + EPS)) : fit;
  const symbolW = module * size.width;
  const symbolH = linear ? symbolAreaH : module * size.height;
  const center = (free: number): number => (raster ? Math.floor(free / 2) : free / 2);
  const x = origin.x + center(availW - symbolW);
  const y = origin.y + (linear ? 0 : center(symbolAreaH - symbolH));

  const rects = linear
    ? linearRects(geometry.bars, x, y, module, symbolH)
    : matrixRects(geometry, x, y, module);
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
  if (showText && opts.layoutText && textH > 0) {
    const textBox = { x, y: y + symbolH, width: symbolW, height: textH };
    node.text = opts.layoutText(geometry.humanReadable, textBox, textSize);
  }
  const warnings = sizeWarnings(geometry, target, module, { availW, symbolAreaH, symbolW, symbolH, raster });
  return { node, warnings };
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
  const size = geometrySize(g);
  const minModule = fit.raster ? Math.ceil((minMil / 1000) * target.dpi - EPS) : (minMil / 1000) * target.dpi;
  const needIn = (minModule * size.width) / target.dpi;
  const what = g.kind === 'linear' ? 'narrow bars' : 'modules';
  const dotsNote = fit.raster ? ` (${module} dot${module === 1 ? '' : 's'} at ${target.dpi} dpi)` : '';
  return [
    `${label} "${g.value}": ${what} are ${mil.toFixed(1)} mil${dotsNote}, below the ${minMil} mil most scanners ` +
      `need. Widen the box to about ${needIn.toFixed(2)} in or shorten the value.`,
  ];
}

const fmt = (n: number): string => String(Math.round(n * 100) / 100);
