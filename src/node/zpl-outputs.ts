/**
 * Node-only: the labels of a ZPL stream drawn by the outputs templates use (issue #33 items 4 and 5). The ZPL
 * reader (src/zpl/read) turns the stream into one Scene per label; this draws those Scenes as PNG (the 1-bit
 * dots a printer burns, as the printer view shows them), PDF or SVG, or hands each label's own bytes back
 * unchanged (`zpl`). `labeldesk render --zpl` and the Labelary-shaped route
 * of `labeldesk serve` both draw through here.
 */
import type { FontSet } from '../layout/fonts';
import type { Scene } from '../layout/scene';
import { renderPdf } from '../render/pdf';
import { renderSvg } from '../render/svg';
import { readZpl, warningText, type ZplBudgets, type ZplLabel } from '../zpl/read';
import { monoToPng } from './mono-png';
import { nodeOutputPorts } from './render-ports';

export type ZplOutputFormat = 'zpl' | 'pdf' | 'svg' | 'png';

export interface DrawZplOptions {
  /** The printer's resolution the labels are drawn at (203, 300, 600…). */
  dpi: number;
  format: ZplOutputFormat;
  /** The label size in dots: used where the ZPL gives no `^PW`/`^LL` (`sizeFrom: 'zpl'`, the default). */
  labelSize?: { width: number; height: number } | undefined;
  /**
   * `label`: every label is `labelSize` exactly, as the label loaded in a printer is; what `^PW`/`^LL` leave out
   * of it stays white and what lies beyond it is cut (Labelary's URL size). Default `zpl`.
   */
  sizeFrom?: 'zpl' | 'label';
  /** Only the label at this index (from 0); default every label. */
  index?: number | undefined;
  /** PDF: one document with a page per label drawn (default: one document per label). */
  onePdf?: boolean;
  fonts?: FontSet;
  budgets?: Partial<ZplBudgets>;
}

export interface DrawnZpl {
  /** One per label drawn (one PDF for all with `onePdf`). */
  outputs: (string | Uint8Array)[];
  /** Labels in the stream (`^XA…^XZ` that make a label), whatever `index` drew. */
  labelCount: number;
  /** The reader's warnings in words, those of one label prefixed `label N:` (from 1). */
  warnings: string[];
}

/** The stream has no label at `index` (or none at all): nothing was drawn. */
export class ZplLabelIndexError extends Error {
  override name = 'ZplLabelIndexError';
  constructor(
    readonly index: number,
    readonly labelCount: number,
  ) {
    super(
      labelCount === 0
        ? 'the ZPL holds no label (^XA…^XZ)'
        : `label index ${index} is out of range: the ZPL holds ${labelCount} label${labelCount === 1 ? '' : 's'} (indexes 0 to ${labelCount - 1})`,
    );
  }
}

/**
 * Reads `zpl` and draws its labels. Throws ZplBudgetError (the stream is over a stream-wide budget: nothing
 * drawn) and ZplLabelIndexError (no label at `index`).
 */
export async function drawZplLabels(zpl: string | Uint8Array, options: DrawZplOptions): Promise<DrawnZpl> {
  const bytes = typeof zpl === 'string' ? new TextEncoder().encode(zpl) : zpl;
  const fonts = options.fonts ?? nodeOutputPorts().fonts;
  const { labels, warnings } = readZpl(bytes, {
    fonts,
    dpi: options.dpi,
    ...(options.labelSize ? { labelSize: options.labelSize } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
  });
  const words = warnings.map(warningText);
  labels.forEach((label, i) => {
    for (const w of label.warnings) words.push(`label ${i + 1}: ${warningText(w)}`);
  });
  const picked: { label: ZplLabel; from: number }[] = [];
  labels.forEach((label, i) => {
    if (options.index === undefined || options.index === i)
      picked.push({ label, from: i === 0 ? 0 : labels[i - 1]!.source.end });
  });
  if (picked.length === 0) throw new ZplLabelIndexError(options.index ?? 0, labels.length);
  const ports = nodeOutputPorts(fonts);
  const sized = (scene: Scene) =>
    options.sizeFrom === 'label' && options.labelSize ? onLabel(scene, options.labelSize) : scene;
  const pdfOptions = ports.deflate ? { deflate: ports.deflate } : {};
  let outputs: (string | Uint8Array)[];
  if (options.format === 'pdf' && options.onePdf) {
    outputs = [
      await renderPdf(
        picked.map((p) => sized(p.label.scene)),
        fonts,
        pdfOptions,
      ),
    ];
  } else {
    outputs = [];
    for (const { label, from } of picked) {
      const scene = sized(label.scene);
      switch (options.format) {
        case 'zpl':
          // What a ZPL printer is sent: the label as written, and the downloads (~DG, ~DY…) read before it.
          outputs.push(bytes.slice(from, label.source.end));
          break;
        case 'png':
          // The dots the printer burns (the printer view's rasteriser), as a 1-bit PNG at the label's dpi.
          outputs.push(monoToPng(ports.toMonoBitmap(scene, fonts), options.dpi));
          break;
        case 'pdf':
          outputs.push(await renderPdf([scene], fonts, pdfOptions));
          break;
        case 'svg':
          outputs.push(renderSvg(scene, fonts, { unit: 'in' }));
          break;
      }
    }
  }
  return { outputs, labelCount: labels.length, warnings: words };
}

/**
 * The label drawn on media of `size` dots: the printer prints within `^PW` × `^LL` (the scene's size) and within
 * the media, so what is past either is left white.
 */
function onLabel(scene: Scene, size: { width: number; height: number }): Scene {
  const white = (x: number, y: number, width: number, height: number) => ({
    kind: 'rect' as const,
    x,
    y,
    width,
    height,
    fill: '#ffffff',
  });
  const covers = [
    ...(scene.width < size.width ? [white(scene.width, 0, size.width - scene.width, size.height)] : []),
    ...(scene.height < size.height ? [white(0, scene.height, size.width, size.height - scene.height)] : []),
  ];
  return { ...scene, width: size.width, height: size.height, nodes: [...scene.nodes, ...covers] };
}
