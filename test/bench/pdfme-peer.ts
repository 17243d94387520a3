/**
 * The pdfme peer: shipping-4x6 rebuilt as a pdfme template (same boxes, converted from 96 dpi px to mm; same
 * static texts, logo, code128 and QR), with the bundled DejaVu Sans/Bold as its fonts. Vector PDF, like ours.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Font, Template as PdfmeTemplate } from '@pdfme/common';
import { generate } from '@pdfme/generator';
import { barcodes, image, line, rectangle, text } from '@pdfme/schemas';
import type { Template } from '../../src/model/schema';

const FONTS_DIR = join(import.meta.dirname, '../../assets/fonts');
const mm = (px: number): number => (px * 25.4) / 96;

export interface PdfmePeer {
  /** One PDF with one page per input. */
  render(inputs: Record<string, string>[]): Promise<Uint8Array>;
  /** Our field values → pdfme inputs (its composite texts are filled here, like our references). */
  inputsFor(data: Record<string, string>): Record<string, string>;
}

export function createPdfmePeer(template: Template): PdfmePeer {
  const font: Font = {
    DejaVu: { data: readFileSync(join(FONTS_DIR, 'DejaVuSans.ttf')), fallback: true },
    DejaVuBold: { data: readFileSync(join(FONTS_DIR, 'DejaVuSans-Bold.ttf')) },
  };
  const schemas: Record<string, unknown>[] = [];
  let n = 0;
  for (const el of template.elements) {
    const e = el as Record<string, any>;
    const name = e.id ?? `el${n++}`;
    const box = { position: { x: mm(e.x), y: mm(e.y) }, width: mm(e.width ?? 0), height: mm(e.height ?? 0) };
    switch (e.type) {
      case 'rect':
        schemas.push({
          name,
          type: 'rectangle',
          ...box,
          borderWidth: e.strokeWidth ? mm(e.strokeWidth) : 0,
          borderColor: e.stroke ?? '',
          color: e.fill ?? '',
          readOnly: true,
        });
        break;
      case 'line':
        schemas.push({
          name,
          type: 'line',
          position: { x: mm(e.x), y: mm(e.y) },
          width: mm(e.points[2]),
          height: mm(e.strokeWidth ?? 2),
          color: e.stroke,
          readOnly: true,
        });
        break;
      case 'image':
        schemas.push({ name, type: 'image', ...box, content: e.url, readOnly: true });
        break;
      case 'text': {
        const dynamic = /\{\w+\}/.test(e.text);
        schemas.push({
          name,
          type: 'text',
          ...box,
          content: dynamic ? '' : e.text,
          readOnly: !dynamic,
          fontName: e.font?.style === 'bold' ? 'DejaVuBold' : 'DejaVu',
          fontSize: e.font?.size ?? 12,
          fontColor: e.font?.color ?? '#000000',
          alignment: e.align ?? 'left',
          verticalAlignment: e.verticalAlign ?? 'top',
          lineHeight: 1,
          characterSpacing: 0,
        });
        break;
      }
      case 'barcode':
        schemas.push({
          name,
          type: e.format === 'qrcode' ? 'qrcode' : 'code128',
          ...box,
          content: '',
          backgroundColor: '#ffffff',
          barColor: '#000000',
          includetext: e.humanReadable === true,
        });
        break;
    }
  }
  const texts = template.elements.filter((e) => e.type === 'text' && /\{\w+\}/.test(e.text));
  const pdfmeTemplate = {
    basePdf: { width: mm(384), height: mm(576), padding: [0, 0, 0, 0] },
    schemas: [schemas],
  } as unknown as PdfmeTemplate;
  const plugins = {
    text,
    image,
    line,
    rectangle,
    qrcode: barcodes.qrcode,
    code128: barcodes.code128,
  };
  return {
    render: (inputs) => generate({ template: pdfmeTemplate, inputs, options: { font }, plugins }),
    inputsFor(data) {
      const out: Record<string, string> = {};
      for (const el of texts) {
        const e = el as Record<string, any>;
        out[e.id] = String(e.text).replace(/\{(\w+)\}/g, (_, k: string) => data[k] ?? '');
      }
      out.tracking = data.tracking ?? '';
      out.order_id = data.order_id ?? '';
      return out;
    },
  };
}
