/**
 * The Scene as it crosses IPC for the live preview: plain JSON, nothing for the renderer to measure or
 * encode. Text lines carry their glyph outlines as SVG path data (so Konva draws the very shapes layout
 * measured, the same ones the SVG, PDF and printer get) and images carry a data URL.
 */
import { linePathData } from '../layout/glyph-paths';
import type { FontSet } from '../layout/fonts';
import { assertNever } from '../base/assert-never';
import type {
  BarcodeNode,
  EllipseNode,
  GroupNode,
  ImageNode,
  PathNode,
  RectNode,
  Scene,
  SceneNode,
  TextNode,
} from '../layout/scene';
import { bytesToBase64 } from '../render/base64';
import { LruCache } from '../layout/lru';

export interface WireTextLine {
  text: string;
  /** Glyph outlines of the whole line, scene units, y down; fill nonzero with the node's colour. */
  d: string;
  /** Set when the line draws glyph 0, `.notdef` (an empty box), of some font: what the outlines cannot tell. */
  notdef?: true;
}

export interface WireText extends Omit<TextNode, 'lines'> {
  lines: WireTextLine[];
}

export interface WireImage extends Omit<ImageNode, 'data'> {
  /** `data:<mime>;base64,…` */
  src: string;
}

export interface WireGroup extends Omit<GroupNode, 'children'> {
  children: WireNode[];
}

export interface WireBarcode extends Omit<BarcodeNode, 'text'> {
  text?: WireText;
}

export type WireNode = RectNode | EllipseNode | PathNode | WireText | WireImage | WireGroup | WireBarcode;

export interface WireScene extends Omit<Scene, 'nodes'> {
  nodes: WireNode[];
}

/**
 * The live preview sends only what changed: a node equal to the one at the same index of a scene the renderer
 * already has (named by `base`) crosses as this marker, and the renderer keeps its own — the same object, so
 * its Konva nodes are not touched. Typing in one field re-sends that field's element, not every glyph of the label.
 */
export interface WireSame {
  kind: 'same';
}

/** A Scene as the preview sends it: `id` names it for the next request; `base`, when set, the scene it builds on. */
export interface WirePreviewScene extends Omit<WireScene, 'nodes'> {
  id?: string;
  base?: string;
  nodes: (WireNode | WireSame)[];
}

/** A form field the template's rules refuse, as the form shows it. */
export interface FieldProblem {
  field: string;
  message: string;
}

function wireText(node: TextNode, fonts: FontSet): WireText {
  return {
    ...node,
    lines: node.lines.map((line) => ({
      text: line.text,
      d: linePathData(node, line, fonts),
      ...(line.glyphs.some((g) => g.id === 0) ? { notdef: true as const } : {}),
    })),
  };
}

function wireNode(node: SceneNode, fonts: FontSet): WireNode {
  switch (node.kind) {
    case 'rect':
    case 'ellipse':
    case 'path':
      return node;
    case 'text':
      return wireText(node, fonts);
    case 'image': {
      const { data, ...rest } = node;
      return { ...rest, src: `data:${node.mime};base64,${bytesToBase64(data)}` };
    }
    case 'group':
      return { ...node, children: node.children.map((c) => wireNode(c, fonts)) };
    case 'barcode': {
      const { text, ...rest } = node;
      return text ? { ...rest, text: wireText(text, fonts) } : rest;
    }
    default:
      return assertNever(node, 'scene node');
  }
}

/** Deep equality of plain Scene data (numbers, strings, arrays, objects, byte arrays). */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const ob = b as Record<string, unknown>;
  if (ka.length !== Object.keys(ob).length) return false;
  for (const k of ka) if (!(k in ob) || !sameData((a as Record<string, unknown>)[k], ob[k])) return false;
  return true;
}

/**
 * The Scene for the preview: every node, or — given the scene the renderer holds (`base`) — only the nodes that
 * differ from the base's node at the same index. `fonts` must be the set layout used.
 */
export function toWirePreview(
  scene: Scene,
  fonts: FontSet,
  id: string,
  base?: { id: string; scene: Scene },
): WirePreviewScene {
  const nodes = scene.nodes.map((node, i): WireNode | WireSame => {
    const before = base?.scene.nodes[i];
    return before && sameData(node, before) ? { kind: 'same' } : wireNode(node, fonts);
  });
  return { ...scene, id, ...(base ? { base: base.id } : {}), nodes };
}

/**
 * The side that makes preview scenes (main, the renderer's worker): names each scene it sends and keeps the last
 * few, so a request naming one in `since` gets only what changed since it.
 */
export class PreviewSender {
  private readonly sent: LruCache<string, Scene>;
  private count = 0;

  constructor(
    /** Unique to this sender (and process), so an id from another never matches. */
    private readonly prefix: string,
    kept: number,
  ) {
    this.sent = new LruCache(kept);
  }

  send(scene: Scene, fonts: FontSet, since: string | undefined): WirePreviewScene {
    const id = `${this.prefix}.${++this.count}`;
    const base = since === undefined ? undefined : this.sent.get(since);
    const wire = toWirePreview(scene, fonts, id, base && { id: since!, scene: base });
    this.sent.set(id, scene);
    return wire;
  }
}
