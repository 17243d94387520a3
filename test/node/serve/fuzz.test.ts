/**
 * Hostile and random bodies never make `labeldesk serve` answer 500 or fall over: wrong types, huge strings,
 * deep nesting, invalid UTF-8. Every answer is JSON with a status the route may give (spec §7).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROUTE_NAMES } from '../../../src/label-api/contract';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const route = fc.constantFrom(...ROUTE_NAMES);
const anything = fc.jsonValue({ maxDepth: 4 });
const smallString = fc.string({ maxLength: 40, unit: 'binary' });

/** Bodies near the contract: the right keys with values of the right or wrong kind. */
const nearBody = fc.record(
  {
    label_name: fc.oneof(
      fc.constantFrom('shipping-4x6', 'product-2x1', 'rfid-asset-4x2', 'SHIPPING-4X6', ''),
      smallString,
      anything,
    ),
    amount: fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom(1001, 1e300, -0, 0.5), anything),
    apiData: fc.oneof(fc.dictionary(smallString, fc.oneof(smallString, anything), { maxKeys: 6 }), anything),
    dpi: fc.oneof(fc.integer({ min: 50, max: 1300 }), anything),
    max_width_dots: fc.oneof(fc.integer({ min: 50, max: 11_000 }), anything),
    printer_id: fc.oneof(fc.integer(), anything),
  },
  { requiredKeys: [] },
);

async function expectSane(routeName: string, body: string | Uint8Array): Promise<void> {
  const a = await h.post(routeName, body);
  expect([200, 404, 422], `${routeName} → ${a.status} ${a.text.slice(0, 200)}`).toContain(a.status);
  expect(a.contentType).toMatch(/^application\/json/);
  expect(typeof a.json).toBe('object');
}

describe('fuzzed bodies', () => {
  test('near-contract bodies with wrong types', async () => {
    await fc.assert(
      fc.asyncProperty(route, nearBody, async (r, body) => expectSane(r, JSON.stringify(body))),
      { numRuns: 150 },
    );
  });

  test('any JSON value as the body', async () => {
    await fc.assert(
      fc.asyncProperty(route, fc.jsonValue({ maxDepth: 6 }), async (r, body) =>
        expectSane(r, JSON.stringify(body)),
      ),
      { numRuns: 100 },
    );
  });

  test('random bytes, mostly invalid UTF-8', async () => {
    await fc.assert(
      fc.asyncProperty(route, fc.uint8Array({ maxLength: 300 }), async (r, bytes) => expectSane(r, bytes)),
      { numRuns: 100 },
    );
  });

  test('invalid UTF-8 inside an otherwise valid body', async () => {
    const head = Buffer.from('{"label_name":"shipping-4x6","amount":1,"apiData":{"tracking":"');
    const tail = Buffer.from('"}}');
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]]) {
      for (const r of ROUTE_NAMES) await expectSane(r, Buffer.concat([head, Buffer.from(bad), tail]));
    }
  });

  test('deep nesting and huge strings', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const bodies = [
      deep(100_000),
      `{"label_name":"shipping-4x6","amount":1,"apiData":{"tracking":${deep(50_000)}}}`,
      `{"label_name":"shipping-4x6","amount":1,"apiData":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
      JSON.stringify({ label_name: 'x'.repeat(900_000), amount: 1, apiData: {} }),
      JSON.stringify({
        label_name: 'shipping-4x6',
        amount: 1,
        apiData: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'])),
      }),
      JSON.stringify({ label_name: 'shipping-4x6', amount: 1, apiData: { tracking: 'x'.repeat(10_000) } }),
      JSON.stringify({
        label_name: 'shipping-4x6',
        amount: 1,
        apiData: { __proto__: { polluted: 'yes' }, constructor: { prototype: { polluted: 'yes' } } },
      }),
      '{"label_name":"shipping-4x6","amount":1,"apiData":{"__proto__":{"polluted":"yes"}}}',
    ];
    for (const body of bodies) {
      for (const r of ROUTE_NAMES) await expectSane(r, body);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('the server still answers normally afterwards', async () => {
    const a = await h.post('fetch-markups', { label_name: 'shipping-4x6', amount: 1, apiData: {} });
    expect(a.status).toBe(200);
  });
});
