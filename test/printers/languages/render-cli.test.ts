/**
 * `labeldesk render --format tspl|epl2|dpl|sbpl|dymo-lw|brother-ql`, run in-process as from a shell: one job
 * file per copy, each decoding (test/emulator/languages) to the same dots as the `--format zpl` job of the same
 * label; a label wider than the language's printers and an RFID label are refused with a sentence, no file.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRINTER_LANGUAGES } from '../../../src/printers/languages';
import { cropMonoBitmap } from '../../../src/render/bitmap';
import { decodeLanguageJob } from '../../emulator/languages/decode';
import { cli } from '../../support/cli';
import { SAMPLE_DATA } from '../../support/templates';
import { decodeZpl } from '../../support/zpl-decode';

const dir = mkdtempSync(join(tmpdir(), 'ld-render-langs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PRODUCT = JSON.stringify(SAMPLE_DATA['product-2x1']);

describe.each(PRINTER_LANGUAGES)('--format %s', (language) => {
  it('writes one job per copy, the zpl job’s dots', async () => {
    const dpi = language === 'dymo-lw' || language === 'brother-ql' ? '300' : '203';
    const base = ['render', '--template', 'product-2x1', '--data', PRODUCT, '--dpi', dpi];
    const out = join(dir, language);
    const run = await cli([...base, '--format', language, '--amount', '2', '--out', out]);
    expect(run.stderr).toContain('wrote 2 files');
    expect(run.code).toBe(0);
    expect(readdirSync(out)).toEqual([`product-2x1-001.${language}`, `product-2x1-002.${language}`]);
    const zpl = await cli([...base, '--format', 'zpl']);
    const expected = decodeZpl(zpl.stdout).bitmap;
    for (const file of readdirSync(out)) {
      const decoded = decodeLanguageJob(language, readFileSync(join(out, file)), Number(dpi));
      expect(decoded.copies).toBe(1);
      expect(cropMonoBitmap(decoded.bitmap, expected.width, expected.height).data).toEqual(expected.data);
    }
  });
});

describe('refusals', () => {
  it('a 4 in label on a 300 dpi Brother QL (1164 dots at most): a sentence, no file', async () => {
    const out = join(dir, 'too-wide');
    const run = await cli([
      'render',
      '--template',
      'shipping-4x6',
      '--data',
      JSON.stringify(SAMPLE_DATA['shipping-4x6']),
      '--format',
      'brother-ql',
      '--max-width-dots',
      '1200',
      '--out',
      out,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Brother QL printers print at most 1164 dots/);
    expect(existsSync(out)).toBe(false);
  });

  it('an RFID label: only ZPL can write the tag', async () => {
    const run = await cli([
      'render',
      '--template',
      'rfid-asset-4x2',
      '--data',
      JSON.stringify(SAMPLE_DATA['rfid-asset-4x2']),
      '--format',
      'tspl',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('RFID labels must be rendered as ZPL because tspl cannot encode RFID tags');
  });
});
