/** The SDK fetches only the fonts a label uses (src/sdk/font-keys.ts), chosen exactly as FontSet does. */
import { expect, test } from 'vitest';
import { fontKeyFor, fontKeysFor } from '../../../src/sdk/font-keys';
import { loadBundledFonts } from '../../../src/node/fonts';
import { bundledTemplate } from '../../support/templates';
import { resolve } from '../../../src/resolve/resolve';
import { normaliseStyle } from '../../../src/layout/fonts';

/** Style spellings seen in markup (`font.style`). */
const STYLES = [
  undefined,
  'normal',
  'bold',
  'Bold',
  'italic',
  'bold italic',
  'italic bold',
  '700',
  'oblique',
];

test('fontKeyFor agrees with FontSet.resolve for every family and style spelling', () => {
  const fonts = loadBundledFonts();
  for (const family of [
    'Arial',
    'Helvetica',
    undefined,
    'Courier New',
    'DejaVu Sans Mono',
    'Consolas',
    'Times New Roman',
    'Georgia',
    'serif',
    'Comic Sans',
  ]) {
    for (const style of STYLES) {
      expect(fontKeyFor(family, style), `${family} / ${style}`).toBe(
        fonts.resolve(family, normaliseStyle(style)).key,
      );
    }
  }
});

test('fontKeysFor: the sans regular plus the fonts of the visible text', () => {
  const markups = resolve(bundledTemplate('shipping-4x6'), {}, 1);
  const keys = fontKeysFor(markups);
  expect(keys[0]).toBe('DejaVuSans');
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.length).toBeLessThan(12);
});
