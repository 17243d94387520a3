/** assets/openapi.json is generated from the zod schemas (`labeldesk openapi > assets/openapi.json`) and stays so. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { openApiDocument } from '../../../src/label-api/openapi';

test('assets/openapi.json matches the zod schemas (regenerate: labeldesk openapi > assets/openapi.json)', () => {
  const committed = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../assets/openapi.json'), 'utf8'),
  ) as unknown;
  expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
});

test('the document states the limits and the 404-vs-422 split per route', () => {
  const doc = openApiDocument() as {
    paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    components: { schemas: Record<string, any> };
  };
  expect(doc.components.schemas.LabelRequest.properties.amount).toMatchObject({ minimum: 1, maximum: 1000 });
  expect(doc.components.schemas.RenderZplRequest.properties.dpi).toMatchObject({
    minimum: 100,
    maximum: 1200,
    default: 203,
  });
  expect(doc.components.schemas.RenderZplRequest.properties.max_width_dots).toMatchObject({
    minimum: 100,
    maximum: 10000,
    default: 832,
  });
  for (const route of ['fetch-markups', 'print', 'print-relay', 'print-relay-pdf', 'export-svg']) {
    expect(Object.keys(doc.paths[`/custom-labels/${route}`]!.post!.responses)).toEqual([
      '200',
      '401',
      '404',
      '422',
      '429',
      '500',
    ]);
  }
  for (const route of ['render-zpl', 'render-pdf']) {
    expect(Object.keys(doc.paths[`/custom-labels/${route}`]!.post!.responses)).toEqual([
      '200',
      '401',
      '422',
      '429',
      '500',
    ]);
  }
});

test("the Labelary-shaped route is in the document with Labelary's statuses and plain-text errors", () => {
  const doc = openApiDocument() as {
    paths: Record<string, Record<string, { responses: Record<string, any>; tags: string[] }>>;
  };
  const one = doc.paths['/v1/printers/{dpmm}/labels/{size}/{index}/']!.post!;
  expect(one.tags).toEqual(['labelary']);
  expect(Object.keys(one.responses)).toEqual(['200', '400', '401', '406', '413', '429', '500']);
  expect(Object.keys(one.responses['200'].content)).toEqual(['image/png', 'application/pdf']);
  expect(one.responses['200'].headers).toHaveProperty('X-Total-Count');
  expect(one.responses['413'].content).toHaveProperty('text/plain');
  expect(
    Object.keys(doc.paths['/v1/printers/{dpmm}/labels/{size}/']!.post!.responses['200'].content),
  ).toEqual(['application/pdf']);
  expect(doc.paths['/v1/printers/{dpmm}/labels/{size}/{index}/{zpl}']).toHaveProperty('get');
});
