/**
 * Logs of `labeldesk serve` say which route answered what, for which key, how fast, and nothing else: no
 * secret, no field value, no SVG file token (whoever holds one can read the file), even when a request fails.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RenderPorts } from '../../../src/outputs/render';
import { nodeRenderPorts } from '../../../src/node/render-ports';
import { startHarness, type Harness } from './harness';

const VALUE = 'Ada-Lovelace-7731';
let h: Harness;
let failing: Harness;

beforeAll(async () => {
  h = await startHarness();
  const ports: RenderPorts = {
    ...nodeRenderPorts(),
    toMonoBitmap: () => {
      throw new Error(`cannot draw ${VALUE}`);
    },
  };
  failing = await startHarness({ renderPorts: ports });
});

afterAll(async () => {
  await h?.close();
  await failing?.close();
});

test('logs carry route, status, key id and duration; never the secret, a value or an SVG token', async () => {
  const body = { label_name: 'shipping-4x6', amount: 1, apiData: { ship_to_name: VALUE, tracking: VALUE } };
  const exported = await h.post('export-svg', body);
  const url: string = exported.json.files[0].url;
  const token = url
    .split('/')
    .pop()!
    .replace(/\.svg$/, '');
  expect((await fetch(url)).status).toBe(200);
  await h.post('render-zpl', { ...body, amount: VALUE });
  await h.post('render-zpl', { ...body, apiData: { [VALUE]: 1 } });
  await h.post('fetch-markups', body, { ...h.headers, 'x-api-secret': `${h.secret}x` });
  await h.post('render-pdf', { ...body, label_name: VALUE });
  await failing.post('render-zpl', body, failing.headers);

  const logs = h.logs.join('') + failing.logs.join('');
  for (const secret of [h.secret, failing.secret, VALUE, token, token.split('-')[1]!])
    expect(logs).not.toContain(secret);

  const lines = h.logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'request');
  expect(lines.map((l) => [l.route, l.status])).toEqual([
    ['/custom-labels/export-svg', 200],
    ['/files/svg/:token', 200],
    ['/custom-labels/render-zpl', 422],
    ['/custom-labels/render-zpl', 422],
    ['/custom-labels/fetch-markups', 401],
    ['/custom-labels/render-pdf', 422], // unknown label_name on 07
  ]);
  expect(lines[0]).toMatchObject({ key: h.key, method: 'POST' });
  expect(typeof lines[0]!.ms).toBe('number');
  expect(lines[4]!.key).toBeUndefined();
  // The 500 is logged with the error class and stack frames, so an operator can find it.
  const failure = failing.logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.msg === 'request failed');
  expect(failure).toMatchObject({ route: '/custom-labels/render-zpl', error: 'Error' });
  expect(failure!.stack).toMatch(/at .*render\.ts/);
});
