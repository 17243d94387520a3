import { describe, expect, it } from 'vitest';
import { checkValues, unknownKeys } from '../../src/resolve/values';
import { bundledTemplate } from '../support/templates';

describe('field rules for the form, CSV batches and CLI warnings', () => {
  const shipping = bundledTemplate('shipping-4x6');
  const product = bundledTemplate('product-2x1');
  const badge = bundledTemplate('visitor-badge-4x3');

  it('names missing required fields by their label', () => {
    expect(checkValues(shipping, { tracking: 'T1', ship_to_address: 'a' })).toEqual([
      { path: 'apiData.ship_to_name', message: 'Recipient is required' },
    ]);
  });

  it('checks choice, number, date, pattern, maxLength and single-line text', () => {
    expect(
      checkValues(shipping, {
        ship_to_name: 'A\nB',
        ship_to_address: 'x',
        tracking: 'T',
        service: 'SLOW',
        weight: 'heavy',
      }).map((p) => p.path + ': ' + p.message),
    ).toEqual([
      'apiData.ship_to_name: Recipient is a single line; it contains a line break',
      'apiData.weight: Weight (kg) must be a number, got "heavy"',
      'apiData.service: Service must be one of "STANDARD", "EXPRESS", "NEXT DAY", got "SLOW"',
    ]);
    expect(checkValues(product, { product_name: 'x', ean13: '12AB' })[0]?.message).toBe(
      'EAN-13 must be 12 or 13 digits, got "12AB"',
    );
    expect(checkValues(badge, { name: 'x', badge_id: 'b', date: '2026-02-30' })[0]?.message).toMatch(
      /must be a date like/,
    );
    expect(checkValues(badge, { name: 'x', badge_id: 'b', date: '2026-02-28' })).toEqual([]);
    expect(
      checkValues(product, { product_name: 'x'.repeat(61), ean13: '5901234123457' })[0]?.message,
    ).toMatch(/maximum is 60/);
  });

  it("checks a barcode's value with the encoder's rules where it is typed: a wrong EAN-13 check digit is the field's problem", () => {
    // 400638133393 + check digit 1; the user typed 3 (issue #17: it passed the form and the batch report).
    expect(checkValues(product, { product_name: 'Pen', ean13: '4006381333933' })).toEqual([
      {
        path: 'apiData.ean13',
        message: 'EAN-13 check digit should be 1, not 3 (leave it off and it is computed).',
      },
    ]);
    expect(checkValues(product, { product_name: 'Pen', ean13: '4006381333931' })).toEqual([]);
    expect(checkValues(product, { product_name: 'Pen', ean13: '400638133393' })).toEqual([]);
    // A field whose own rule failed is reported once, by that rule.
    expect(checkValues(product, { product_name: 'Pen', ean13: '12AB' })).toHaveLength(1);
  });

  it('suggests the right case for a mistyped key', () => {
    expect(unknownKeys(shipping, { Tracking: 'x', nope: 'y', tracking: 'z' })).toEqual([
      { key: 'Tracking', didYouMean: 'tracking' },
      { key: 'nope' },
    ]);
  });
});
