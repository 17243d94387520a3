/**
 * Contract tests of `labeldesk serve` against spec/label-rendering-api.md, over real HTTP: every route of §4
 * with each status of §7 it can return, the limits of §8, and the choices the spec leaves open (each pinned
 * here by name).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_ROUTES, ROUTE_NAMES, type RouteName } from '../../../src/label-api/contract';
import type { RenderPorts } from '../../../src/outputs/render';
import { nodeRenderPorts } from '../../../src/node/render-ports';
import { LIMITS } from '../../../src/resolve/resolve';
import { answerOf, bundled, startHarness, writeTemplate, type Harness } from './harness';

const SHIPPING = {
  label_name: 'shipping-4x6',
  amount: 1,
  apiData: { ship_to_name: 'Ada Lovelace', tracking: '1Z999AA10123456784' },
};

/** A valid body for each route (03/04 name a printer; this server has no relay, which is fine for 401/404/422). */
function bodyFor(route: RouteName, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const extra = route === 'print-relay' || route === 'print-relay-pdf' ? { printer_id: 7 } : {};
  return { ...SHIPPING, ...extra, ...overrides };
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // A small label whose image URL and barcode value come from apiData.
  writeTemplate(h.templatesDir, 'logo-2x1', {
    ...bundled('product-2x1'),
    fields: [
      {
        name: 'logo',
        label: 'Logo',
        placeholder: (bundled('shipping-4x6').elements as { url?: string }[])[1]?.url ?? '',
      },
      { name: 'ean13', label: 'EAN', placeholder: '590123412345' },
    ],
    elements: [
      { type: 'image', x: 4, y: 4, width: 40, height: 40, url: '{logo}' },
      { type: 'barcode', format: 'ean13', x: 50, y: 4, width: 130, height: 60, text: '{ean13}' },
    ],
  });
});

afterAll(async () => {
  await h?.close();
});

describe('200: every route answers its result shape (spec §2.4–2.7, §4)', () => {
  test.each(['fetch-markups', 'print', 'export-svg', 'render-zpl', 'render-pdf'] as const)(
    '%s',
    async (route) => {
      const a = await h.post(route, bodyFor(route, { amount: 2 }));
      expect(a.status).toBe(200);
      expect(a.contentType).toBe('application/json; charset=utf-8');
      const parsed = API_ROUTES[route].response.safeParse(a.json);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    },
  );

  test('01 and 02 answer the same markup, one per copy', async () => {
    const [a, b] = await Promise.all([
      h.post('fetch-markups', bodyFor('fetch-markups', { amount: 3 })),
      h.post('print', bodyFor('print', { amount: 3 })),
    ]);
    expect(a.json).toHaveLength(3);
    expect(b.json).toEqual(a.json);
  });

  test('06: defaults dpi 203 and max_width_dots 832; count = amount; each label ^XA…^XZ with ^PW ^LL ^FO ^GFA', async () => {
    const a = await h.post('render-zpl', bodyFor('render-zpl', { amount: 2 }));
    expect(a.json).toMatchObject({ dpi: 203, max_width_dots: 832, count: 2 });
    for (const zpl of a.json.labels as string[]) {
      expect(zpl.startsWith('^XA')).toBe(true);
      expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
      for (const command of ['^PW', '^LL', '^FO', '^GFA']) expect(zpl).toContain(command);
    }
  });

  test('07: mime application/pdf, base64, one vector PDF per copy', async () => {
    const a = await h.post('render-pdf', bodyFor('render-pdf', { amount: 2 }));
    expect(a.json).toMatchObject({ mime: 'application/pdf', encoding: 'base64', count: 2 });
    expect(Buffer.from(a.json.labels[0], 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('an apiData key that matches no field is ignored: 200 and the placeholder prints (spec §7 rule 2)', async () => {
    const a = await h.post('fetch-markups', {
      label_name: 'shipping-4x6',
      amount: 1,
      apiData: { Tracking: 'X' },
    });
    expect(a.status).toBe(200);
    expect(JSON.stringify(a.json)).toContain('NO TRACKING');
  });

  test('unknown top-level properties are ignored (the SDK may send mode)', async () => {
    const a = await h.post('print', { ...SHIPPING, mode: 'print_markups' });
    expect(a.status).toBe(200);
  });

  test('RFID templates render on 06 (ZPL encodes RFID)', async () => {
    const a = await h.post('render-zpl', {
      label_name: 'rfid-asset-4x2',
      amount: 1,
      apiData: { epc: '3034257BF7194E4000001A85' },
    });
    expect(a.status).toBe(200);
    expect(a.json.labels[0]).toContain('^RFW,H');
  });
});

describe('401: key or secret missing, wrong (spec §5 rule 5), on every route, before the body is read', () => {
  const cases: [string, (k: string, s: string) => Record<string, string>][] = [
    ['no headers', () => ({ 'content-type': 'application/json' })],
    ['no secret', (k) => ({ 'content-type': 'application/json', 'x-api-key': k })],
    ['no key', (_k, s) => ({ 'content-type': 'application/json', 'x-api-secret': s })],
    [
      'wrong secret',
      (k) => ({ 'content-type': 'application/json', 'x-api-key': k, 'x-api-secret': 'lds_wrong' }),
    ],
    [
      'unknown key',
      (_k, s) => ({
        'content-type': 'application/json',
        'x-api-key': 'ldk_000000000000000000000000',
        'x-api-secret': s,
      }),
    ],
  ];
  test.each(ROUTE_NAMES)('%s', async (route) => {
    for (const [, headers] of cases) {
      const a = await h.post(route, '{not json', headers(h.key, h.secret));
      expect(a.status).toBe(401);
      expect(a.contentType).toMatch(/^application\/json/);
      expect(a.json.message).toMatch(/X-API-KEY|key or secret/);
    }
  });
});

describe('404 vs 422 for an unknown label_name (spec §7 rule 1)', () => {
  test.each(ROUTE_NAMES)('%s', async (route) => {
    const a = await h.post(route, bodyFor(route, { label_name: 'Shipping-4x6' }));
    const expected = route === 'render-zpl' || route === 'render-pdf' ? 422 : 404;
    expect(API_ROUTES[route].unknownTemplateStatus).toBe(expected);
    expect(a.status).toBe(expected);
    expect(a.json).toEqual({
      message: 'template not found: "Shipping-4x6" (names are case-sensitive); did you mean "shipping-4x6"?',
      field: 'label_name',
    });
  });
});

describe('422: a missing or invalid parameter, named in message and field (spec §7, §8)', () => {
  const invalid: [string, Record<string, unknown>, string, RegExp][] = [
    ['label_name missing', { label_name: undefined }, 'label_name', /label_name: is required/],
    ['label_name not a string', { label_name: 7 }, 'label_name', /expected a template name, got 7/],
    ['amount missing', { amount: undefined }, 'amount', /amount: is required/],
    ['amount 0', { amount: 0 }, 'amount', /amount: must be at least 1, got 0/],
    ['amount -1', { amount: -1 }, 'amount', /must be at least 1/],
    ['amount 1.5', { amount: 1.5 }, 'amount', /whole number of copies, got 1.5/],
    ['amount "2"', { amount: '2' }, 'amount', /whole number of copies, got a string/],
    [`amount ${LIMITS.maxAmount + 1}`, { amount: LIMITS.maxAmount + 1 }, 'amount', /maximum of 1000/],
    ['apiData missing', { apiData: undefined }, 'apiData', /apiData: is required/],
    ['apiData an array', { apiData: ['a'] }, 'apiData', /apiData: expected an object/],
    [
      'apiData value a number',
      { apiData: { tracking: 42 } },
      'apiData.tracking',
      /apiData.tracking: expected a string, got 42/,
    ],
    ['apiData value null', { apiData: { tracking: null } }, 'apiData.tracking', /got null/],
    [
      'apiData value too long',
      { apiData: { tracking: 'x'.repeat(LIMITS.maxValueLength + 1) } },
      'apiData.tracking',
      /longer than 10000/,
    ],
  ];
  test.each(ROUTE_NAMES)('%s', async (route) => {
    for (const [, overrides, field, message] of invalid) {
      const a = await h.post(route, bodyFor(route, overrides));
      expect(a.status, `${route} ${JSON.stringify(overrides).slice(0, 60)}`).toBe(422);
      expect(a.json.field).toBe(field);
      expect(a.json.message).toMatch(message);
    }
  });

  test.each(ROUTE_NAMES)(
    '%s: malformed JSON, an empty body, a non-object body, invalid UTF-8',
    async (route) => {
      const bodies: [string | Uint8Array, RegExp][] = [
        ['{"label_name": "shipping-4x6",', /not valid JSON/],
        ['', /empty/],
        ['[]', /must be a JSON object, got an array/],
        ['"text"', /must be a JSON object, got a string/],
        [new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), /not valid UTF-8/],
      ];
      for (const [body, message] of bodies) {
        const a = await h.post(route, body);
        expect(a.status).toBe(422); // never Fastify's 400
        expect(a.json.message).toMatch(message);
      }
    },
  );

  test.each([
    ['dpi', 99],
    ['dpi', 1201],
    ['dpi', 203.5],
    ['max_width_dots', 99],
    ['max_width_dots', 10_001],
  ])('06: %s %s is out of range', async (field, value) => {
    const a = await h.post('render-zpl', bodyFor('render-zpl', { [field]: value }));
    expect(a.status).toBe(422);
    expect(a.json.field).toBe(field);
    expect(a.json.message).toContain(`${field}: expected`);
  });

  test('06: dpi and max_width_dots at their bounds are fine (wrong but in range is not an error, §7 rule 3)', async () => {
    for (const [dpi, max_width_dots] of [
      [100, 100],
      [1200, 10_000],
    ]) {
      const a = await h.post('render-zpl', bodyFor('render-zpl', { dpi, max_width_dots }));
      expect(a.status).toBe(200);
      expect(a.json).toMatchObject({ dpi, max_width_dots });
    }
  });

  test.each(['print-relay', 'print-relay-pdf'] as const)(
    '%s: printer_id missing, not an integer, or unknown',
    async (route) => {
      for (const [printer_id, message] of [
        [undefined, /printer_id: is required/],
        ['7', /printer_id: expected a whole-number printer id, got a string/],
        [7.5, /got 7.5/],
        [7, /no printer 7 is registered/],
      ] as const) {
        const a = await h.post(route, bodyFor(route, { printer_id }));
        expect(a.status).toBe(422);
        expect(a.json.field).toBe('printer_id');
        expect(a.json.message).toMatch(message);
      }
    },
  );

  // 04 refuses RFID too, after finding the printer: see print-relay.test.ts.
  test.each(['export-svg', 'render-pdf'] as const)(
    '%s: an RFID template → 422 (05 decided like 04 and 07: SVG cannot carry RFID)',
    async (route) => {
      const a = await h.post(route, bodyFor(route, { label_name: 'rfid-asset-4x2', apiData: {} }));
      expect(a.status).toBe(422);
      const format = route === 'export-svg' ? 'SVG' : 'PDF';
      expect(a.json).toEqual({
        message: `RFID labels must be rendered as ZPL because ${format} cannot encode RFID tags`,
        field: 'label_name',
      });
    },
  );

  test.each(['export-svg', 'render-zpl', 'render-pdf'] as const)(
    '%s: a bad barcode value → 422 naming the element and the apiData key',
    async (route) => {
      const a = await h.post(route, { label_name: 'logo-2x1', amount: 1, apiData: { ean13: 'ABC' } });
      expect(a.status).toBe(422);
      expect(a.json.field).toBe('apiData.ean13');
      expect(a.json.message).toMatch(/^elements\[1\] \(barcode ean13\): .*\(value from apiData\.ean13\)$/);
    },
  );

  test.each(['export-svg', 'render-zpl', 'render-pdf'] as const)(
    '%s: an image that cannot be loaded, with "strict": true → 422 naming the element',
    async (route) => {
      // Port 1 on the loopback refuses at once: an unreachable image host is the request's problem, not a retry.
      // Without strict the image is left out with a warning (test/node/serve/hosted-client.test.ts).
      const a = await h.post(route, {
        label_name: 'logo-2x1',
        amount: 1,
        apiData: { logo: 'http://127.0.0.1:1/logo.png' },
        strict: true,
      });
      expect(a.status).toBe(422);
      expect(a.json.field).toBe('apiData.logo');
      expect(a.json.message).toMatch(
        /^elements\[0\] \(image\): image http:\/\/127\.0\.0\.1:1\/logo\.png: cannot be fetched/,
      );
    },
  );

  test('a local file outside the template folders is never read for a request', async () => {
    for (const logo of ['/etc/hostname', 'file:///etc/hostname', '../../../../../../etc/hostname']) {
      const strict = await h.post('render-pdf', {
        label_name: 'logo-2x1',
        amount: 1,
        apiData: { logo },
        strict: true,
      });
      expect(strict.status).toBe(422);
      expect(strict.json.message).toContain('outside the template folders');
      // Without strict the image is left out, and the warning says why.
      const lenient = await h.post('render-pdf', { label_name: 'logo-2x1', amount: 1, apiData: { logo } });
      expect(lenient.status).toBe(200);
      expect(lenient.headers.get('x-labeldesk-warnings')).toContain('outside the template folders');
    }
  });

  test('a body over the 1 MiB limit → 422 "too large" (the spec lists no 413)', async () => {
    const big = JSON.stringify({ ...SHIPPING, apiData: { a: 'x'.repeat(1024 * 1024) } });
    const a = await h.post('fetch-markups', big);
    expect(a.status).toBe(422);
    expect(a.json.message).toMatch(/too large: the limit is 1048576 bytes/);
  });

  test('a Content-Type other than application/json → 422 naming the header', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const a = await h.post('fetch-markups', JSON.stringify(SHIPPING), {
        ...h.headers,
        'content-type': type,
      });
      expect(a.status).toBe(422);
      expect(a.json.message).toBe('Content-Type must be application/json');
    }
    const withCharset = await h.post('fetch-markups', JSON.stringify(SHIPPING), {
      ...h.headers,
      'content-type': 'application/json; charset=utf-8',
    });
    expect(withCharset.status).toBe(200);
  });
});

describe('500: the render failed on the server (spec §7)', () => {
  test('an internal failure → 500 with a retry hint and no internal detail', async () => {
    const failing: RenderPorts = {
      ...nodeRenderPorts(),
      toMonoBitmap: () => {
        throw new Error('resvg exploded at /secret/path');
      },
    };
    const broken = await startHarness({ renderPorts: failing });
    try {
      const a = await broken.post('render-zpl', bodyFor('render-zpl'));
      expect(a.status).toBe(500);
      expect(a.json.message).toMatch(/retry once/);
      expect(a.text).not.toContain('exploded');
      // Logged for the operator: the class and stack, not the message.
      expect(broken.logs.join('')).toContain('"error":"Error"');
    } finally {
      await broken.close();
    }
  });

  test('05: SVG storage that cannot be written → 500', async () => {
    const broken = await startHarness();
    try {
      await broken.breakSvgStorage();
      const a = await broken.post('export-svg', bodyFor('export-svg'));
      expect(a.status).toBe(500);
    } finally {
      await broken.close();
    }
  });
});

describe('templates resolve by name on every request (spec §1 rule 2)', () => {
  test('a template saved, changed and deleted applies to the very next request', async () => {
    const name = 'changing-label';
    const template = (text: string) => ({
      ...bundled('product-2x1'),
      fields: [],
      elements: [{ type: 'text', x: 4, y: 4, width: 180, height: 30, text }],
    });
    const textOf = async () => {
      const a = await h.post('fetch-markups', { label_name: name, amount: 1, apiData: {} });
      return a.status === 200 ? a.json[0].elements[0].text : a.status;
    };
    expect(await textOf()).toBe(404);
    writeTemplate(h.templatesDir, name, template('first'));
    expect(await textOf()).toBe('first');
    writeTemplate(h.templatesDir, name, template('second version'));
    expect(await textOf()).toBe('second version');
    rmSync(join(h.templatesDir, `${name}.json`));
    expect(await textOf()).toBe(404);
  });
});

describe('every answer is JSON (spec §1 rule 6)', () => {
  test('unknown route → 404, wrong method → 405 with Allow, both JSON', async () => {
    const unknown = await answerOf(
      await fetch(`${h.url}/custom-labels/no-such-route`, { method: 'POST', headers: h.headers, body: '{}' }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.contentType).toBe('application/json; charset=utf-8');
    expect(unknown.json.message).toMatch(/no route POST/);
    const root = await answerOf(await fetch(h.url));
    expect(root.status).toBe(404);
    expect(root.contentType).toMatch(/^application\/json/);
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const a = await answerOf(await fetch(`${h.url}/custom-labels/fetch-markups`, { method }));
      expect(a.status).toBe(405);
      expect(a.headers.get('allow')).toBe('POST, OPTIONS');
      expect(a.contentType).toMatch(/^application\/json/);
    }
  });
});

describe('429: past the per-key rate (spec §8), with Retry-After', () => {
  test('the 4th request in a minute at --rate-limit 3 → 429; allowed again once the window slides', async () => {
    const limited = await startHarness({ rateLimitPerMinute: 3 });
    try {
      for (let i = 0; i < 3; i++) expect((await limited.post('fetch-markups', SHIPPING)).status).toBe(200);
      // Invalid requests count too: the rate is of requests, not of renders.
      const refused = await limited.post('render-zpl', '{bad json');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.contentType).toMatch(/^application\/json/);
      expect(refused.json.message).toMatch(/more than 3 requests per minute/);
      limited.clock.now = new Date(limited.clock.now.getTime() + 30_000);
      expect((await limited.post('print', SHIPPING)).headers.get('retry-after')).toBe('30');
      limited.clock.now = new Date(limited.clock.now.getTime() + 30_001);
      expect((await limited.post('print', SHIPPING)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  test('wrong secrets are limited per client address, so guessing cannot keep scrypt busy', async () => {
    // Their own limit (--auth-failures), not the request rate limit: set low here to reach it in three guesses.
    const limited = await startHarness({ limits: { authFailuresPerMinute: 2 } });
    try {
      const wrong = { ...limited.headers, 'x-api-secret': 'lds_guess' };
      expect((await limited.post('print', SHIPPING, wrong)).status).toBe(401);
      expect((await limited.post('print', SHIPPING, wrong)).status).toBe(401);
      const third = await limited.post('print', SHIPPING, wrong);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('60');
    } finally {
      await limited.close();
    }
  });
});

describe('OpenAPI and the bind address', () => {
  test('GET /openapi.json (no auth) lists the seven routes, the two hosted aliases and download-svg', async () => {
    const a = await answerOf(await fetch(`${h.url}/openapi.json`));
    expect(a.status).toBe(200);
    expect(a.json.openapi).toBe('3.1.0');
    const paths = Object.entries(a.json.paths as Record<string, { post?: Record<string, unknown> }>).filter(
      ([p]) => p.startsWith('/custom-labels/'),
    );
    expect(paths.filter(([, op]) => op.post && !op.post['x-alias-of'])).toHaveLength(7);
    expect(
      Object.fromEntries(
        paths.filter(([, op]) => op.post?.['x-alias-of']).map(([p, op]) => [p, op.post?.['x-alias-of']]),
      ),
    ).toEqual({
      '/custom-labels/print-node': '/custom-labels/print-relay',
      '/custom-labels/print-node-pdf': '/custom-labels/print-relay-pdf',
    });
    expect(a.json.paths['/custom-labels/download-svg'].get.parameters[0]).toMatchObject({
      name: 'path',
      in: 'query',
    });
  });

  test('binds 127.0.0.1 by default', async () => {
    expect(h.server.host).toBe('127.0.0.1');
    expect(h.server.app.server.address()).toMatchObject({ address: '127.0.0.1' });
  });
});
