/**
 * WireScene → Konva node descriptions (STYLE.md §10: Konva is a view). Pure, so it is tested without a DOM;
 * `konva-scene.tsx` only turns each description into its react-konva component. Nothing here measures text
 * or encodes barcodes: text lines arrive as glyph outlines and barcodes as bars, drawn as they are.
 */
import { assertNever } from '../../../src/base/assert-never';
import type { Matrix, Stroke } from '../../../src/layout/scene';
import { pxPerSceneUnit } from '../../../src/units/units';
import type { WireBarcode, WireNode, WireScene, WireText } from '../../../src/ipc/wire-scene';

/** Props every drawn node has: its key, and the markup element it came from (click → focus its field). */
interface Common {
  key: string;
  /** `el-<index>` when the node came from a markup element, so the preview can find it again. */
  name?: string;
  element?: number;
  listening: boolean;
}

interface Paint {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  lineCap?: Stroke['lineCap'];
  lineJoin?: Stroke['lineJoin'];
  dash?: number[];
}

export type KonvaSpec =
  | (Common &
      Paint & { type: 'rect'; x: number; y: number; width: number; height: number; cornerRadius?: number })
  | (Common & Paint & { type: 'ellipse'; x: number; y: number; radiusX: number; radiusY: number })
  | (Common & Paint & { type: 'path'; data: string; fillRule?: CanvasFillRule })
  | (Common & { type: 'image'; src: string; x: number; y: number; width: number; height: number })
  | (Common & GroupTransform & { type: 'group'; opacity: number; children: KonvaSpec[] });

/** Konva's node transform: translate, rotate (degrees), skew, scale, in that order. */
export interface GroupTransform {
  x: number;
  y: number;
  rotation: number;
  scaleX: number;
  scaleY: number;
  skewX: number;
  skewY: number;
}

export interface KonvaLabel {
  /** Label size in CSS px at 100 % zoom (96 per inch). */
  width: number;
  height: number;
  /** Scene units → CSS px (1 for a `px` scene; 96 / dpi for one in printer dots). */
  unitScale: number;
  background: string;
  nodes: KonvaSpec[];
}

/** Clicks land anywhere in a text or barcode box, not only on ink. */
const HIT_FILL = 'rgba(0,0,0,0)';

/** An SVG-style matrix as Konva's transform attributes (the inverse of Konva's `getTransform`). */
export function decomposeMatrix(m: Matrix): GroupTransform {
  const [a, b, c, d, e, f] = m;
  const delta = a * d - b * c;
  const out: GroupTransform = { x: e, y: f, rotation: 0, scaleX: 0, scaleY: 0, skewX: 0, skewY: 0 };
  if (a !== 0 || b !== 0) {
    const r = Math.hypot(a, b);
    out.rotation = b > 0 ? Math.acos(a / r) : -Math.acos(a / r);
    out.scaleX = r;
    out.scaleY = delta / r;
    out.skewX = delta !== 0 ? (a * c + b * d) / delta : 0;
  } else if (c !== 0 || d !== 0) {
    const s = Math.hypot(c, d);
    out.rotation = Math.PI / 2 - (d > 0 ? Math.acos(-c / s) : -Math.acos(c / s));
    out.scaleX = delta / s;
    out.scaleY = s;
    out.skewY = delta !== 0 ? (a * c + b * d) / delta : 0;
  }
  out.rotation = (out.rotation * 180) / Math.PI;
  return out;
}

function paint(fill: string | undefined, stroke: Stroke | undefined): Paint {
  const out: Paint = {};
  if (fill) out.fill = fill;
  if (stroke) {
    out.stroke = stroke.color;
    out.strokeWidth = stroke.width;
    if (stroke.lineCap) out.lineCap = stroke.lineCap;
    if (stroke.lineJoin) out.lineJoin = stroke.lineJoin;
    if (stroke.dash?.length) out.dash = [...stroke.dash];
  }
  return out;
}

/** Barcode bars, given as flat [x, y, w, h] quadruples, as one path (one shape instead of hundreds). */
export function barsToPathData(rects: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i + 3 < rects.length; i += 4) {
    const [x, y, w, h] = [rects[i]!, rects[i + 1]!, rects[i + 2]!, rects[i + 3]!];
    parts.push(`M${x} ${y}h${w}v${h}h${-w}z`);
  }
  return parts.join('');
}

function common(key: string, element: number | undefined): Common {
  return element === undefined
    ? { key, listening: false }
    : { key, name: `el-${element}`, element, listening: true };
}

/**
 * The ink of a text or barcode: named for its element (the selection outline finds it) but not listening —
 * the box's hit rectangle takes the clicks, so Konva's hit canvas gets one rectangle instead of every glyph
 * outline and bar, redrawn at each keystroke.
 */
function ink(key: string, element: number | undefined): Common {
  return { ...common(key, element), listening: false };
}

function textSpecs(node: WireText, key: string, element: number | undefined): KonvaSpec[] {
  const specs: KonvaSpec[] = [];
  if (element !== undefined) {
    specs.push({ ...common(`${key}h`, element), type: 'rect', ...node.box, fill: HIT_FILL });
  }
  node.lines.forEach((line, i) => {
    if (line.d) specs.push({ ...ink(`${key}l${i}`, element), type: 'path', data: line.d, fill: node.color });
  });
  return specs;
}

function barcodeSpecs(node: WireBarcode, key: string, element: number | undefined): KonvaSpec[] {
  const specs: KonvaSpec[] = [];
  if (element !== undefined) {
    specs.push({ ...common(`${key}h`, element), type: 'rect', ...node.box, fill: HIT_FILL });
  }
  specs.push({
    ...ink(`${key}b`, element),
    type: 'path',
    data: barsToPathData(node.rects),
    fill: node.color,
  });
  if (node.text) specs.push(...textSpecs(node.text, `${key}t`, element));
  return specs;
}

/** One wire node → its Konva descriptions; `element` is inherited from the nearest ancestor that has one. */
export function nodeToKonva(node: WireNode, key: string, inherited?: number): KonvaSpec[] {
  const element = node.element ?? inherited;
  switch (node.kind) {
    case 'rect': {
      const { x, y, width, height, cornerRadius } = node;
      return [
        {
          ...common(key, element),
          type: 'rect',
          x,
          y,
          width,
          height,
          ...(cornerRadius ? { cornerRadius } : {}),
          ...paint(node.fill, node.stroke),
        },
      ];
    }
    case 'ellipse':
      return [
        {
          ...common(key, element),
          type: 'ellipse',
          x: node.cx,
          y: node.cy,
          radiusX: node.rx,
          radiusY: node.ry,
          ...paint(node.fill, node.stroke),
        },
      ];
    case 'path':
      return [
        {
          ...common(key, element),
          type: 'path',
          data: node.d,
          ...(node.fillRule ? { fillRule: node.fillRule } : {}),
          ...paint(node.fill, node.stroke),
        },
      ];
    case 'text':
      return textSpecs(node, key, element);
    case 'image':
      return [
        {
          ...common(key, element),
          type: 'image',
          src: node.src,
          x: node.x,
          y: node.y,
          width: node.width,
          height: node.height,
        },
      ];
    case 'barcode':
      return barcodeSpecs(node, key, element);
    case 'group':
      return [
        {
          ...common(key, element),
          type: 'group',
          ...decomposeMatrix(node.transform),
          opacity: node.opacity,
          children: node.children.flatMap((child, i) => nodeToKonva(child, `${key}.${i}`, element)),
        },
      ];
    default:
      return assertNever(node, 'scene node');
  }
}

/**
 * Each wire node's descriptions, kept with the node: the live preview reuses the node objects that did not
 * change (src/ipc/wire-preview.ts), so their descriptions are the same objects too and konva-scene.tsx leaves
 * their Konva nodes alone — typing redraws one element, not every glyph of the label.
 */
const specsOf = new WeakMap<WireNode, { key: string; specs: KonvaSpec[] }>();

function cachedSpecs(node: WireNode, key: string): KonvaSpec[] {
  const hit = specsOf.get(node);
  if (hit && hit.key === key) return hit.specs;
  const specs = nodeToKonva(node, key);
  specsOf.set(node, { key, specs });
  return specs;
}

/** The whole scene, with its size in CSS px so zoom 1 is the label's true size on screen. */
export function sceneToKonva(scene: WireScene): KonvaLabel {
  const unitScale = scene.unit === 'px' ? 1 : pxPerSceneUnit(scene.dpi);
  return {
    width: scene.width * unitScale,
    height: scene.height * unitScale,
    unitScale,
    background: scene.background,
    nodes: scene.nodes.flatMap((node, i) => cachedSpecs(node, String(i))),
  };
}

/** The fields a click on a node with this element index should focus. */
export function fieldsForElement(
  elementFields: Record<number, string[]> | undefined,
  element: number | undefined,
): string[] {
  if (element === undefined || !elementFields) return [];
  return elementFields[element] ?? [];
}
