/** The API's side (issue #23): a GS1 mistake in apiData is a 422 naming the field and the AI, on every render route. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PALLET_GS1_RAW } from '../../support/gs1-label';
import { startHarness, writeTemplate, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  writeTemplate(h.templatesDir, 'pallet-gs1', structuredClone(PALLET_GS1_RAW));
});

afterAll(async () => {
  await h?.close();
});

describe('GS1 values over HTTP', () => {
  test.each(['export-svg', 'render-zpl', 'render-pdf'] as const)(
    '%s: a wrong SSCC check digit → 422 on apiData.sscc naming AI (00) and the right digit',
    async (route) => {
      const a = await h.post(route, {
        label_name: 'pallet-gs1',
        amount: 1,
        apiData: { sscc: '350123451234567895', contents: '(02)05012345678900(37)12' },
      });
      expect(a.status).toBe(422);
      expect(a.json.field).toBe('apiData.sscc');
      expect(a.json.message).toMatch(
        /^elements\[0\] \(barcode gs1-128\): AI \(00\) SSCC: the check digit should be 4, not 5\. \(value from apiData\.sscc\)$/,
      );
    },
  );

  test('the same values typed right render (200)', async () => {
    const a = await h.post('render-zpl', {
      label_name: 'pallet-gs1',
      amount: 1,
      apiData: { sscc: '35012345123456789', contents: '(02)05012345678900(37)12' },
    });
    expect(a.status).toBe(200);
  });
});
