/**
 * Identical copies cost one label (issue #16, "What is left" item 5): a request for N copies of a label whose
 * copies cannot differ resolves, lays out, renders and serialises one label and repeats its bytes. These tests
 * pin that the answer is byte for byte what the per-copy path gave (every copy its own object, a JSON key per
 * copy, JSON.stringify of the whole answer), and that copies which do differ (counter numbers) still do.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundledTemplatesDir } from '../../../src/node/assets';
import { nodeRenderPorts } from '../../../src/node/render-ports';
import { createOperations, type EnginePorts } from '../../../src/engine/operations';
import { renderPdfLabels, renderSvgLabels, renderZplLabels } from '../../../src/outputs/render';
import { jsonBytes } from '../../../src/node/serve/json-body';
import { counterValuesAt } from '../../../src/resolve/counters';
import { resolve, resolveOne } from '../../../src/resolve/resolve';
import { parseTemplate } from '../../../src/model/parse';
import type { Markup } from '../../../src/model/schema';
import { bundledTemplate, SAMPLE_DATA } from '../../support/templates';
import { harnessStore, startHarness, writeTemplate, type Harness } from './harness';

const ports = nodeRenderPorts({ baseDir: bundledTemplatesDir() });
const shipping = bundledTemplate('shipping-4x6');
const data = SAMPLE_DATA['shipping-4x6'] ?? {};

/** A 2 × 1 in label printing a counter field: copies differ only when the counter has numbers per copy. */
const serialsRaw = {
  schemaVersion: 1,
  name: 'serials',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [
    { name: 'sku', label: 'SKU', placeholder: 'SKU' },
    {
      name: 'serial',
      label: 'Serial',
      placeholder: 'SN-??????',
      type: 'counter',
      counter: { start: 7, step: 5, width: 6, prefix: 'SN-', suffix: '' },
    },
  ],
  elements: [
    { type: 'text', x: 10, y: 10, width: 180, height: 30, text: '{sku} {serial}' },
    { type: 'barcode', x: 10, y: 45, width: 180, height: 45, format: 'code128', text: '{serial}' },
  ],
};
const serials = parseTemplate(serialsRaw, 'serials');

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  writeTemplate(h.templatesDir, 'serials', serialsRaw);
});

afterAll(async () => {
  await h?.close();
});

describe('a request for identical copies', () => {
  test('render-zpl × 1,000 answers the per-copy path’s bytes: every copy the single render’s job', async () => {
    // The per-copy path: 1,000 separate markup objects, a JSON key each, JSON.stringify of the whole answer.
    const perCopy = await renderZplLabels(resolve(shipping, data, 1000), { dpi: 203 }, ports);
    const single = await h.post('render-zpl', { label_name: 'shipping-4x6', apiData: data, amount: 1 });
    const answer = await h.post('render-zpl', { label_name: 'shipping-4x6', apiData: data, amount: 1000 });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(JSON.stringify(perCopy));
    const label = single.json.labels[0] as string;
    expect(perCopy.labels.every((l) => l === label)).toBe(true);
    expect(answer.json.count).toBe(1000);
  });

  test('fetch-markups × 1,000 answers the per-copy path’s bytes', async () => {
    const answer = await h.post('fetch-markups', { label_name: 'shipping-4x6', apiData: data, amount: 1000 });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(JSON.stringify(resolve(shipping, data, 1000)));
  });

  test('render-pdf × 3 answers the per-copy path’s bytes', async () => {
    const answer = await h.post('render-pdf', { label_name: 'shipping-4x6', apiData: data, amount: 3 });
    expect(answer.status).toBe(200);
    const single = await h.post('render-pdf', { label_name: 'shipping-4x6', apiData: data, amount: 1 });
    // Two requests may straddle a second: the PDF's dates (and the ID made from them) may differ; nothing else.
    const undated = (text: string): string =>
      text.replace(/"labels":\[[^\]]*\]/, (labels) =>
        labels.replace(/"([A-Za-z0-9+/=]{200,})"/g, (_m, b64: string) =>
          JSON.stringify(
            Buffer.from(b64, 'base64')
              .toString('latin1')
              .replace(/\/(CreationDate|ModDate) ?\(D:[^)]*\)/g, '/$1()')
              .replace(/\/ID ?\[\s*<[0-9A-Fa-f]*>\s*<[0-9A-Fa-f]*>\s*\]/g, '/ID[]'),
          ),
        ),
      );
    expect(undated(answer.text)).toBe(
      undated(JSON.stringify({ ...single.json, count: 3, labels: Array(3).fill(single.json.labels[0]) })),
    );
  });

  // A site server numbers counters for real (test/node/site/site-server.test.ts); a workstation's serve cannot.
  test.skipIf(harnessStore === 'postgres')(
    'a counter template through the API: every copy prints the placeholder, as before',
    async () => {
      const perCopy = await renderZplLabels(resolve(serials, { sku: 'A-1' }, 50), { dpi: 203 }, ports);
      const answer = await h.post('render-zpl', {
        label_name: 'serials',
        apiData: { sku: 'A-1' },
        amount: 50,
      });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(perCopy));
      const markups = await h.post('fetch-markups', {
        label_name: 'serials',
        apiData: { sku: 'A-1' },
        amount: 5,
      });
      expect(markups.text).toBe(JSON.stringify(resolve(serials, { sku: 'A-1' }, 5)));
      expect(markups.text).toContain('SN-??????');
    },
  );

  test('the output budget is still checked on every copy before any work', async () => {
    const answer = await h.post('render-zpl', {
      label_name: 'shipping-4x6',
      apiData: data,
      amount: 1000,
      dpi: 300,
    });
    expect(answer.status).toBe(422);
    expect(answer.json.message).toMatch(
      /^amount: 1000 copies at 300 dpi come to .* dots, more than the limit/,
    );
  });

  test('the engine’s operations hand callers that keep the markups their own object per copy', async () => {
    const ops = createOperations({
      templates: { get: async () => ({ template: shipping }) },
      render: ports,
      svgFiles: { save: async () => [] },
      svgTtlHours: 24,
      now: () => new Date(),
    } as unknown as EnginePorts);
    const { body } = await ops.run(
      'fetch-markups',
      { label_name: 'shipping-4x6', apiData: data, amount: 3 },
      { publicBaseUrl: 'http://x' },
    );
    const [a, b] = body as Markup[];
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(a?.elements[0]).not.toBe(b?.elements[0]);
  });
});

describe('copies that differ', () => {
  test('counter numbers per copy still give different labels, each its own single render', async () => {
    const markups = Array.from({ length: 6 }, (_, i) =>
      resolveOne(serials, { sku: 'A-1' }, counterValuesAt(serials, { serial: 7 }, i, 0)),
    );
    const texts = markups.map((m) => (m.elements[0] as { text: string }).text);
    expect(texts).toEqual([
      'A-1 SN-000007',
      'A-1 SN-000012',
      'A-1 SN-000017',
      'A-1 SN-000022',
      'A-1 SN-000027',
      'A-1 SN-000032',
    ]);
    const zpl = await renderZplLabels(markups, { dpi: 203 }, ports);
    expect(new Set(zpl.labels).size).toBe(6);
    for (const [i, markup] of markups.entries()) {
      expect(zpl.labels[i]).toBe((await renderZplLabels([markup], { dpi: 203 }, ports)).labels[0]);
    }
    const svgs = await renderSvgLabels(markups, ports);
    expect(new Set(svgs).size).toBe(6);
  });

  test('copies mixing repeated and different markups keep their order', async () => {
    const [a, b] = [0, 1].map((i) =>
      resolveOne(serials, { sku: 'B' }, counterValuesAt(serials, { serial: 1 }, i, 0)),
    ) as [Markup, Markup];
    const zpl = await renderZplLabels([a, a, b, structuredClone(a), b], { dpi: 203 }, ports);
    const [ja, jb] = [zpl.labels[0], zpl.labels[2]];
    expect(ja).not.toBe(jb);
    expect(zpl.labels).toEqual([ja, ja, jb, ja, jb]);
    const pdfs = await renderPdfLabels([a, b, a], ports, { creationDate: new Date(0) });
    expect(pdfs[0]).toBe(pdfs[2]);
    expect(pdfs[0]).not.toEqual(pdfs[1]);
  });
});

describe('jsonBytes', () => {
  const label = 'ZPL ^XA\n"quoted" \u00e9\u2028 ^XZ\n';
  const markup = resolveOne(shipping, data);
  test.each([
    ['an array of one object repeated', Array(5).fill(markup)],
    [
      'an object with a repeated string array',
      { dpi: 203, max_width_dots: 832, count: 4, labels: Array(4).fill(label) },
    ],
    ['mixed items', [1, 'a', markup, markup, null, { x: undefined, y: [undefined, 2] }, 'a']],
    ['undefined members and array holes', { a: undefined, b: [undefined, () => 1], c: 'x' }],
    ['an empty array', []],
    ['nested files', { status: 'svg_exported', files: [{ url: 'u', path: 'p' }], expires_at: 'e' }],
    ['a string', 'just "text"'],
    ['a date', { when: new Date(0), list: [new Date(1), new Date(1)] }],
  ])('%s: the bytes of JSON.stringify', (_name, body) => {
    expect(jsonBytes(body).toString('utf8')).toBe(JSON.stringify(body));
  });
});
