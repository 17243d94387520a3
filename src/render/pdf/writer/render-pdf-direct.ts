/**
 * Scenes → one PDF 1.7 file, written directly (no pdfkit): the same pages src/render/pdf draws, at a fraction
 * of the cost per label, because nothing is shaped again and nothing font- or image-related is rebuilt per
 * document: subsets (font-subset.ts) and image XObjects (images.ts) are cached per process and only copied
 * into each file. Pure: no node:*, returns the bytes.
 */
import type { FontSet } from '../../../layout/fonts';
import type { ImageNode, Scene } from '../../../layout/scene';
import { fflateDeflate, type Deflate } from './deflate';
import { subsetFor, type FontSubset } from './font-subset';
import { imageXObject, type ImageXObject } from './images';
import { glyphsByFont, pageContent, pageSize, type PageResources } from './page-content';
import { asciiBytes, PdfFile, num, pdfDate, textString } from './pdf-file';
import type { RenderPdfOptions as PdfkitOptions, SvgImageRasterizer } from '../pdfkit';

export type { SvgImageRasterizer };

/**
 * pdfkit's options (title, author, subject, creation date, the SVG image port and its dpi), plus the zlib port.
 * The file /ID is derived from the content, so a fixed creation date gives identical bytes.
 */
export interface DirectPdfOptions extends PdfkitOptions {
  /** zlib compressor for content streams and images; default fflate (fonts are compressed once, when cached). */
  deflate?: Deflate;
}

/**
 * Renders scenes as PDF pages, in order, each the scene's size in points (`px` × 0.75, `dots` × 72 / dpi).
 * Throws DirectPdfUnsupported for input only pdfkit handles (see images.ts).
 */
export function renderPdfDirect(
  scenes: readonly Scene[],
  fonts: FontSet,
  opts: DirectPdfOptions = {},
): Uint8Array {
  if (scenes.length === 0) throw new Error('renderPdf: no scenes (a PDF needs at least one page)');
  const deflate = opts.deflate ?? fflateDeflate;
  const file = new PdfFile();
  const catalog = file.reserve();
  const pages = file.reserve();
  const info = file.reserve();
  const resources = file.reserve();

  const subsets = new Map<string, FontSubset>();
  for (const [key, ids] of glyphsByFont(scenes)) subsets.set(key, subsetFor(fonts.get(key), ids));

  const fontNames = new Map<string, { name: string; subset: FontSubset }>();
  const alphas = new Map<string, string>();
  const images = new Map<ImageXObject, string>();
  const res: PageResources = {
    font(key) {
      let f = fontNames.get(key);
      if (!f) {
        const subset = subsets.get(key) ?? subsetFor(fonts.get(key), new Set());
        f = { name: `/F${fontNames.size + 1}`, subset };
        fontNames.set(key, f);
      }
      return f;
    },
    alpha(fill, stroke) {
      const key = `/ca ${num(fill)} /CA ${num(stroke)}`;
      let name = alphas.get(key);
      if (!name) {
        name = `/Gs${alphas.size + 1}`;
        alphas.set(key, name);
      }
      return name;
    },
    image(node, sceneDpi) {
      const image = imageFor(node, sceneDpi, opts, deflate);
      let name = images.get(image);
      if (!name) {
        name = `/Im${images.size + 1}`;
        images.set(image, name);
      }
      return { name, image };
    },
  };

  const kids: number[] = [];
  for (const scene of scenes) {
    const { width, height } = pageSize(scene);
    const content = file.add({
      body: '<< /Filter /FlateDecode >>',
      stream: deflate(asciiBytes(pageContent(scene, res))),
    });
    kids.push(
      file.add({
        body: `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 ${num(width)} ${num(height)}] /Resources ${resources} 0 R /Contents ${content} 0 R >>`,
      }),
    );
  }

  let fontDict = '';
  for (const { name, subset } of fontNames.values()) fontDict += `${name} ${writeFont(file, subset)} 0 R `;
  let xobjects = '';
  for (const [image, name] of images) xobjects += `${name} ${writeImage(file, image)} 0 R `;
  let gs = '';
  for (const [entries, name] of alphas) gs += `${name} << /Type /ExtGState ${entries} >> `;
  file.set(resources, {
    body:
      '<< /ProcSet [/PDF /Text /ImageB /ImageC /ImageI]' +
      (fontDict ? ` /Font << ${fontDict}>>` : '') +
      (xobjects ? ` /XObject << ${xobjects}>>` : '') +
      (gs ? ` /ExtGState << ${gs}>>` : '') +
      ' >>',
  });
  file.set(pages, {
    body: `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  });
  file.set(catalog, { body: `<< /Type /Catalog /Pages ${pages} 0 R >>` });
  file.set(info, {
    body:
      `<< /Title ${textString(opts.title ?? 'Label')} /Producer (LabelDesk) /Creator (LabelDesk) ` +
      `/CreationDate ${pdfDate(opts.creationDate ?? new Date())}` +
      (opts.author !== undefined ? ` /Author ${textString(opts.author)}` : '') +
      (opts.subject !== undefined ? ` /Subject ${textString(opts.subject)}` : '') +
      ' >>',
  });
  return file.toBytes(catalog, info);
}

/** Type0 font → CIDFontType2 → FontDescriptor → FontFile2, plus ToUnicode. Returns the Type0 object number. */
function writeFont(file: PdfFile, s: FontSubset): number {
  const fontFile = file.add({
    body: `<< /Filter /FlateDecode /Length1 ${s.fontFileLength1} >>`,
    stream: s.fontFile,
  });
  const descriptor = file.add({ body: `<< ${s.descriptor} /FontFile2 ${fontFile} 0 R >>` });
  const cidFont = file.add({
    body:
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${s.baseFont} ` +
      `/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> ` +
      `/FontDescriptor ${descriptor} 0 R /W ${s.w} /CIDToGIDMap /Identity >>`,
  });
  const toUnicode = file.add({ body: '<< /Filter /FlateDecode >>', stream: s.toUnicode });
  return file.add({
    body:
      `<< /Type /Font /Subtype /Type0 /BaseFont /${s.baseFont} /Encoding /Identity-H ` +
      `/DescendantFonts [${cidFont} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
  });
}

function writeImage(file: PdfFile, image: ImageXObject): number {
  let dict = image.dict;
  if (image.smask) {
    const mask = file.add({ body: image.smask.dict, stream: image.smask.data });
    dict = dict.replace(/>>\s*$/, `/SMask ${mask} 0 R >>`);
  }
  return file.add({ body: dict, stream: image.data });
}

/** Rasterised SVG images per source and pixel size (re-rasterising per label would cost more than the PDF). */
const svgRasters = new WeakMap<Uint8Array, Map<string, Uint8Array>>();

function imageFor(node: ImageNode, sceneDpi: number, opts: DirectPdfOptions, deflate: Deflate): ImageXObject {
  if (node.mime !== 'image/svg+xml') return imageXObject(node.mime, node.data, deflate);
  if (!opts.rasterizeSvg) {
    throw new Error(
      'renderPdf: an SVG image cannot be embedded in PDF; pass opts.rasterizeSvg (svgImageToPng from src/node/resvg)',
    );
  }
  const dpi = opts.svgImageDpi ?? 300;
  const toPx = (v: number): number => Math.max(1, Math.round((v / sceneDpi) * dpi));
  const w = toPx(node.width);
  const h = toPx(node.height);
  let bySize = svgRasters.get(node.data);
  if (!bySize) {
    bySize = new Map();
    svgRasters.set(node.data, bySize);
  }
  let png = bySize.get(`${w}x${h}`);
  if (!png) {
    png = opts.rasterizeSvg(node.data, w, h);
    bySize.set(`${w}x${h}`, png);
  }
  return imageXObject('image/png', png, deflate);
}
