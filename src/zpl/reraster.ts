/**
 * A ZPL file made for another dpi than the printer's, re-rasterised at the printer's (issue #33 item 4): each
 * label read at the file's dpi (src/zpl/read), its Scene scaled to the printer's dpi so the label keeps its size,
 * drawn to 1-bit dots and sent as one `^GFA` graphic (src/zpl/job.ts), like LabelDesk's own labels. Pure.
 *
 * Bar codes are not simply scaled: a module of 3 dots at 203 dpi is 4.43 dots at 300, and bars of 4 and 5 dots
 * would spoil the symbol's ratios. Each symbol's modules are snapped to whole dots at the printer's dpi (3 → 4),
 * as a printer given ^BY at its own dpi would draw them: every bar and space a whole number of modules, the
 * symbol's origin where the scaled label puts it, its width the new module's (so a little narrower or wider).
 */
import type { FontSet } from '../layout/fonts';
import type { BarcodeNode, Matrix, Scene, SceneNode } from '../layout/scene';
import type { MonoBitmap } from '../render/bitmap';
import { multiply } from '../render/dots/matrix';
import type { Deflate } from './gfa';
import { buildZplJob } from './job';
import type { ZplPrintPlan } from './print-plan';
import { readZpl, type ZplWarning } from './read';

/** The inverse of an invertible affine matrix. */
function invert(m: Matrix): Matrix {
  const det = m[0] * m[3] - m[1] * m[2];
  return [
    m[3] / det,
    -m[1] / det,
    -m[2] / det,
    m[0] / det,
    (m[2] * m[5] - m[3] * m[4]) / det,
    (m[1] * m[4] - m[0] * m[5]) / det,
  ];
}

const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

/**
 * A bar code whose device matrix is `m` with its modules on whole device dots: distances from the symbol's
 * origin scaled so one module is a whole number of dots, each edge rounded to a dot, mapped back to the node's
 * own units. Only for quarter-turn matrices (the only ones ZPL's orientations give); others stay as they are.
 */
function snapBarcode(node: BarcodeNode, m: Matrix): BarcodeNode {
  const quarterTurn = (m[1] === 0 && m[2] === 0) || (m[0] === 0 && m[3] === 0);
  const r = node.rects;
  if (!quarterTurn || r.length < 4 || !(node.moduleWidth > 0)) return node;
  const ux = Math.hypot(m[0], m[1]);
  const uy = Math.hypot(m[2], m[3]);
  let moduleHeight = Number.POSITIVE_INFINITY;
  for (let i = 3; i < r.length; i += 4) if ((r[i] ?? 0) > 0) moduleHeight = Math.min(moduleHeight, r[i] ?? 0);
  if (!Number.isFinite(moduleHeight)) return node;
  const kx = Math.max(1, Math.round(node.moduleWidth * ux)) / (node.moduleWidth * ux);
  const ky = Math.max(1, Math.round(moduleHeight * uy)) / (moduleHeight * uy);
  const inverse = invert(m);
  const { x: x0, y: y0 } = node.box;
  const snap = (x: number, y: number): [number, number] => {
    const [dx, dy] = apply(m, x0 + (x - x0) * kx, y0 + (y - y0) * ky);
    return apply(inverse, Math.round(dx), Math.round(dy));
  };
  const rects: number[] = [];
  for (let i = 0; i + 3 < r.length; i += 4) {
    const x = r[i] ?? 0;
    const y = r[i + 1] ?? 0;
    const [ax, ay] = snap(x, y);
    const [bx, by] = snap(x + (r[i + 2] ?? 0), y + (r[i + 3] ?? 0));
    rects.push(Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay));
  }
  // The interpretation line follows the bars: its centre and baseline where the snapped symbol puts them.
  const text = node.text && {
    ...node.text,
    lines: node.text.lines.map((line) => ({
      ...line,
      x: line.x + (line.x + line.width / 2 - x0) * (kx - 1),
      baseline: line.baseline + (line.baseline - y0) * (ky - 1),
    })),
  };
  return {
    ...node,
    rects,
    box: { ...node.box, width: node.box.width * kx, height: node.box.height * ky },
    moduleWidth: node.moduleWidth * kx,
    ...(text ? { text } : {}),
  };
}

function snapNodes(nodes: readonly SceneNode[], m: Matrix): SceneNode[] {
  return nodes.map((node) => {
    if (node.kind === 'group')
      return { ...node, children: snapNodes(node.children, multiply(m, node.transform)) };
    if (node.kind === 'barcode') return snapBarcode(node, m);
    return node;
  });
}

/** `scene` (dots at its dpi) drawn at `dpi`: the same physical size, bar code modules on whole dots. */
export function rescaleScene(scene: Scene, dpi: number): Scene {
  if (scene.unit !== 'dots') throw new RangeError(`rescaleScene takes a scene in dots, not ${scene.unit}`);
  const s = dpi / scene.dpi;
  const scale: Matrix = [s, 0, 0, s, 0, 0];
  return {
    ...scene,
    dpi,
    width: Math.max(1, Math.round(scene.width * s)),
    height: Math.max(1, Math.round(scene.height * s)),
    nodes: [{ kind: 'group', transform: scale, opacity: 1, children: snapNodes(scene.nodes, scale) }],
  };
}

export interface RerasterOptions {
  /** The dpi the file was written for, and the printer's. */
  fromDpi: number;
  toDpi: number;
  fonts: FontSet;
  toMonoBitmap(scene: Scene, fonts: FontSet): MonoBitmap;
  /** The printer's print width in dots (wider dots are cut, as for LabelDesk's labels). */
  maxWidthDots: number;
  deflate?: Deflate;
}

export interface RerasteredZpl {
  /** One label's bytes per label of the plan, in order. */
  labels: Uint8Array[];
  /** What the reader could not draw, by label (1-based): missing from the re-rasterised label. */
  warnings: { label: number; warning: ZplWarning }[];
}

const toBytes = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};

/**
 * The plan's labels drawn at `toDpi`: each one `^XA…^XZ` of one graphic at the printer's dpi, its `^PQ` copies
 * kept, and the settings and printer commands the plan keeps sent with it as written (those written inside the
 * label after its `^XA`, the others before it).
 */
export function rerasterZplLabels(
  input: Uint8Array,
  plan: ZplPrintPlan,
  options: RerasterOptions,
): RerasteredZpl {
  const read = readZpl(input, { fonts: options.fonts, dpi: options.fromDpi });
  const byStart = new Map(read.labels.map((l) => [l.source.start, l]));
  const kept = [...plan.settings, ...plan.printerCommands]
    .filter((f) => f.kept && f.label !== null)
    .sort((a, b) => a.offset - b.offset);
  const text = (from: number, to: number): string => {
    let out = '';
    for (let i = from; i < to; i++) out += String.fromCharCode(input[i] ?? 0);
    return out.replace(/[\r\n]+$/, '');
  };
  const warnings: RerasteredZpl['warnings'] = [];
  const labels = plan.labels.map((planned, i) => {
    const label = byStart.get(planned.start);
    if (!label) throw new RangeError(`label ${i + 1} of the plan is not a label the reader read`);
    for (const warning of label.warnings) warnings.push({ label: i + 1, warning });
    const mine = kept.filter((f) => f.label === i + 1);
    const before = mine.filter((f) => f.offset < planned.start).map((f) => text(f.offset, f.end));
    const inside = mine.filter((f) => f.offset >= planned.start).map((f) => text(f.offset, f.end));
    const head = [...before, '^XA', ...inside].join('\n');
    const format = (scene: Scene, copies: number): string => {
      const bitmap = options.toMonoBitmap(rescaleScene(scene, options.toDpi), options.fonts);
      const job = buildZplJob({
        bitmap,
        maxWidthDots: options.maxWidthDots,
        compression: 'z64',
        ...(options.deflate ? { deflate: options.deflate } : {}),
      });
      let body = job.slice('^XA\n'.length, job.length - '^XZ\n'.length);
      if (copies > 1) body += `^PQ${copies}\n`;
      return `${head}\n${body}^XZ\n`;
    };
    // A serialised label (^SN/^SF) is a different picture on every copy: one format per copy, each with its own
    // number, as the printer would count them — a ^PQ of one picture would print the first number n times.
    if (label.copyScenes?.length)
      return toBytes([label.scene, ...label.copyScenes].map((scene) => format(scene, 1)).join(''));
    return toBytes(format(label.scene, planned.copies));
  });
  return { labels, warnings };
}
