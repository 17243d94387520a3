/**
 * One 4 in wide label through the four outputs, read back as images at a dpi the way a user would see them
 * (ZPL's ^GFA decoded to dots, PNG read back, SVG through resvg, PDF through poppler's pdftoppm), and the module
 * width each output prints per barcode: the pieces the symbol tests of test/outputs share.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { layout } from '../../src/layout/layout';
import type { BarcodeNode, SceneNode } from '../../src/layout/scene';
import type { Markup } from '../../src/model/schema';
import type { RenderPorts } from '../../src/outputs/render';
import { renderPdfLabels, renderPngLabels, renderSvgLabels, renderZplLabels } from '../../src/outputs/render';
import { MM_PER_INCH, PX_PER_INCH } from '../../src/units/units';
import { decodePngToGrey, monoToGreyImage, readPgm, rgbaToGreyImage, type GreyImage } from './grey-image';
import { decodeZpl } from './zpl-decode';

const run = promisify(execFile);

export type Output = 'zpl' | 'png' | 'svg' | 'pdf';
export const OUTPUTS: readonly Output[] = ['zpl', 'png', 'svg', 'pdf'];

/** The label's SVG and PDF (dpi-free), made once; `images` rasterises them with the dpi-bound outputs. */
export async function vectorOutputs(
  markups: readonly Markup[],
  ports: RenderPorts,
  dir: string,
  name: string,
): Promise<{ svg: string; pdfPath: string }> {
  const svg = (await renderSvgLabels(markups, ports))[0]!;
  const pdfPath = join(dir, `${name}.pdf`);
  writeFileSync(pdfPath, (await renderPdfLabels(markups, ports))[0]!);
  return { svg, pdfPath };
}

/** The first label of `markups` (4 in wide) as each output prints it at `dpi`, as grey images. */
export async function outputImages(
  markups: readonly Markup[],
  ports: RenderPorts,
  vector: { svg: string; pdfPath: string },
  dpi: number,
  page: string,
): Promise<Map<Output, GreyImage>> {
  const labelW = Math.round(4 * dpi);
  const images = new Map<Output, GreyImage>();
  await run('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', vector.pdfPath, page]);
  images.set('pdf', await readPgm(`${page}.pgm`));
  const { labels } = await renderZplLabels(markups, { dpi, maxWidthDots: labelW }, ports);
  images.set('zpl', monoToGreyImage(decodeZpl(labels[0]!).bitmap));
  images.set('png', decodePngToGrey((await renderPngLabels(markups, dpi, ports))[0]!));
  const r = new Resvg(vector.svg, {
    font: { loadSystemFonts: false },
    fitTo: { mode: 'width', value: labelW },
    background: 'white',
  }).render();
  images.set('svg', rgbaToGreyImage(r.width, r.height, r.pixels));
  return images;
}

export function barcodeNodes(nodes: readonly SceneNode[]): BarcodeNode[] {
  return nodes.flatMap((n) =>
    n.kind === 'barcode' ? [n] : n.kind === 'group' ? barcodeNodes(n.children) : [],
  );
}

/**
 * Each barcode's module width as `output` prints it at `dpi`, in document order: raster outputs lay out in
 * dots (whole dots a module), vector outputs in px. `px` is in image pixels at `dpi`; the scene's warnings too.
 */
export function printedModules(
  markup: Markup,
  ports: RenderPorts,
  output: Output,
  dpi: number,
): { modules: { px: number; mm: number }[]; warnings: readonly string[] } {
  const raster = output === 'zpl' || output === 'png';
  const scene = layout(markup, {
    fonts: ports.fonts,
    images: new Map(),
    target: raster ? { unit: 'dots', dpi } : { unit: 'px' },
  });
  const perInch = raster ? dpi : PX_PER_INCH;
  return {
    modules: barcodeNodes(scene.nodes).map((n) => ({
      px: (n.moduleWidth / perInch) * dpi,
      mm: (n.moduleWidth / perInch) * MM_PER_INCH,
    })),
    warnings: scene.warnings,
  };
}
