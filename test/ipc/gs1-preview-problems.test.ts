/**
 * The form's side (issue #23): a GS1 mistake typed in a field comes back with the preview as a problem of that
 * field, naming the AI, one per problem — what the form shows under the input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewLabel } from '../../src/ipc/preview-label';
import { BUNDLED_FONT_FILES, createFontSet } from '../../src/layout/fonts';
import { fontsDir } from '../../src/node/assets';
import { palletGs1Template } from '../support/gs1-label';

const fonts = createFontSet(
  Object.fromEntries(
    Object.entries(BUNDLED_FONT_FILES).map(([key, file]) => [
      key,
      new Uint8Array(readFileSync(join(fontsDir(), file))),
    ]),
  ),
);
const ports = { fonts, loadImages: () => Promise.resolve(new Map()) };

describe('GS1 problems in the form', () => {
  it('a wrong SSCC check digit is a problem of the SSCC field; the symbol is marked, not drawn', async () => {
    const template = palletGs1Template();
    const { problems, scene } = await previewLabel(
      template,
      { sscc: '350123451234567895', contents: '(02)05012345678900(37)12' },
      ports,
    );
    expect(problems).toEqual([
      { field: 'sscc', message: 'SSCC: AI (00) SSCC: the check digit should be 4, not 5.' },
    ]);
    expect(JSON.stringify(scene)).not.toContain('350123451234567895');
  });

  it('two mistakes in the contents field: two problems of that field', async () => {
    const { problems } = await previewLabel(
      palletGs1Template(),
      {
        sscc: '35012345123456789',
        contents: '(17)251332(10)ABCDEFGHIJKLMNOPQRSTUVW',
      },
      ports,
    );
    expect(problems).toEqual([
      {
        field: 'contents',
        message: 'Contents: AI (17) expiry date: 251332 is not a date: there is no month 13 (YYMMDD).',
      },
      { field: 'contents', message: 'Contents: AI (10) batch/lot: at most 20 characters, got 23.' },
    ]);
  });

  it('a value typed right: no problem', async () => {
    const { problems } = await previewLabel(
      palletGs1Template(),
      { sscc: '35012345123456789', contents: '(02)05012345678900(37)12' },
      ports,
    );
    expect(problems).toEqual([]);
  });
});
