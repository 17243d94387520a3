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

export interface WireTextLine {
  text: string;
  /** Glyph outlines of the whole line, scene units, y down; fill nonzero with the node's colour. */
  d: string;
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

/** A form field the template's rules refuse, as the form shows it. */
export interface FieldProblem {
  field: string;
  message: string;
}

function wireText(node: TextNode, fonts: FontSet): WireText {
  return {
    ...node,
    lines: node.lines.map((line) => ({ text: line.text, d: linePathData(node, line, fonts) })),
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

/** The Scene for the wire. `fonts` must be the set layout used. */
export function toWireScene(scene: Scene, fonts: FontSet): WireScene {
  return { ...scene, nodes: scene.nodes.map((n) => wireNode(n, fonts)) };
}
