/**
 * Issue #17 item 7, on the printed output: the bundled shipping label with its optional Order and Weight left
 * blank prints neither their sample text ("ORDER-00000", "0.0") nor their captions ("ORDER:", "WEIGHT: kg"),
 * and no empty QR code; with the values typed it prints them. Read back from the PDF with pdftotext.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPdfLabels } from '../../src/outputs/render';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { resolve } from '../../src/resolve/resolve';
import { bundledTemplate } from '../support/templates';
import { zbarDecode } from '../support/zbar';

const dir = mkdtempSync(join(tmpdir(), 'ld-blank-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function printedText(
  data: Record<string, string>,
  name: string,
): Promise<{ text: string; codes: string[] }> {
  const [pdf] = await renderPdfLabels(resolve(bundledTemplate('shipping-4x6'), data, 1), nodeRenderPorts());
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf!);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', file, join(dir, name)]);
  return { text, codes: zbarDecode(join(dir, `${name}.png`)).map((d) => d.value) };
}

const required = {
  ship_to_name: 'Ada Lovelace',
  ship_to_address: '12 Analytical Row\nLondon',
  tracking: '1Z999AA10123456784',
};

describe('shipping-4x6 with blank optional fields', () => {
  it('prints no sample text, no caption and no QR code for them', async () => {
    const { text, codes } = await printedText(required, 'blank');
    expect(text).toContain('Ada Lovelace');
    expect(text).not.toMatch(/ORDER|WEIGHT|0\.0|Scan the code/i);
    expect(codes).toEqual(['1Z999AA10123456784']);
  });

  it('prints them, captions and QR code included, once typed', async () => {
    const { text, codes } = await printedText({ ...required, order_id: 'A-1042', weight: '2.4' }, 'typed');
    expect(text).toMatch(/ORDER: A-1042/);
    expect(text).toMatch(/WEIGHT: 2\.4 kg/);
    expect(codes.sort()).toEqual(['1Z999AA10123456784', 'A-1042'].sort());
  });
});
