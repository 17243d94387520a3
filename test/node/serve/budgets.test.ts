/**
 * Resource budgets of `labeldesk serve` (issue #16, item 1), over real HTTP: decompression bombs as a data: URL,
 * as a file and fetched over http are refused from their header, before a pixel is decoded, with the peak
 * resident memory of this process (which runs the server) barely moving; a request for more dots or bytes
 * than the server allows is a 422 on `amount` naming the limit; a full render queue is a 429 with Retry-After.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/node/serve/budgets';
import { bundled, startHarness, writeTemplate, type Harness } from './harness';
import { dataUrlOf, listen, peakResidentBytes, whitePng, type Listener } from './hostile';

/** Decoding the bomb takes 576 M pixels: 2.3 GB as RGBA, 4.5 GB seen in issue #16. */
const BOMB_SIDE = 24_000;
/** What refusing it may cost at most (the body, base64, JSON): far below any decode. */
const HEADROOM_BYTES = 100 * 1024 * 1024;

let h: Harness;
let bomb: Buffer;
/** 16000 × 16000 (256 M pixels, 1 GB as RGBA): a data: URL a template's 100,000-character value takes. */
let inlineBomb: Buffer;
let images: Listener;

function logoTemplate(dir: string, name: string, stage: Record<string, unknown>): void {
  writeTemplate(dir, name, {
    ...bundled('product-2x1'),
    stage,
    fields: [{ name: 'logo', label: 'Logo', placeholder: 'logo.png' }],
    elements: [{ type: 'image', x: 4, y: 4, width: 80, height: 80, url: '{logo}' }],
  });
}

beforeAll(async () => {
  bomb = await whitePng(BOMB_SIDE, BOMB_SIDE);
  inlineBomb = await whitePng(16_000, 16_000);
  images = await listen((req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' }).end(bomb);
  });
  // The listener stands in for an intranet logo host: allowed explicitly (loopback is refused by default).
  h = await startHarness({ imageHosts: ['127.0.0.1'] });
  logoTemplate(h.templatesDir, 'logo-2x1', { width: 2, height: 1, unit: 'in', background: '#ffffff' });
  writeFileSync(join(h.templatesDir, 'bomb.png'), bomb);
  // An apiData value is at most 10,000 characters, so a data: URL this size comes in a template.
  inlineTemplate(h.templatesDir, 'bomb-inline', dataUrlOf(inlineBomb));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80"><image width="80" height="80" href="${dataUrlOf(inlineBomb)}"/></svg>`;
  inlineTemplate(
    h.templatesDir,
    'bomb-in-svg',
    `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  );
});

function inlineTemplate(dir: string, name: string, url: string): void {
  writeTemplate(dir, name, {
    ...bundled('product-2x1'),
    fields: [],
    elements: [{ type: 'image', x: 4, y: 4, width: 80, height: 80, url }],
  });
}

afterAll(async () => {
  await h?.close();
  await images?.close();
});

describe('decompression bombs are refused from the header, before any decode', () => {
  test('the bomb is a real 1-bit PNG of 24000 × 24000 in about 100 KB', () => {
    expect(bomb.length).toBeLessThan(120_000);
    expect(bomb.readUInt32BE(16)).toBe(BOMB_SIDE);
    expect(bomb.readUInt32BE(20)).toBe(BOMB_SIDE);
  });

  const sources = {
    'a data: URL in the template': {
      label_name: 'bomb-inline',
      logo: undefined,
      field: 'label_name',
      declares: '16000 × 16000 pixels (256,000,000)',
    },
    'a file in the templates folder': {
      label_name: 'logo-2x1',
      logo: 'bomb.png',
      field: 'apiData.logo',
      declares: '24000 × 24000 pixels (576,000,000)',
    },
    'fetched over http': {
      label_name: 'logo-2x1',
      logo: '/bomb.png',
      field: 'apiData.logo',
      declares: '24000 × 24000 pixels (576,000,000)',
    },
  };

  test.each(Object.keys(sources) as (keyof typeof sources)[])(
    '%s: 422 naming the field and the pixel limit, memory flat',
    async (source) => {
      const { label_name, logo, field, declares } = sources[source];
      const url = logo === '/bomb.png' ? `${images.url}${logo}` : logo;
      for (const route of ['render-zpl', 'render-pdf', 'export-svg'] as const) {
        const before = peakResidentBytes();
        const a = await h.post(route, {
          label_name,
          amount: 1,
          apiData: url ? { logo: url } : {},
          strict: true,
        });
        expect(peakResidentBytes() - before).toBeLessThan(HEADROOM_BYTES);
        expect(a.status).toBe(422);
        expect(a.json.field).toBe(field);
        expect(a.json.message).toContain(`declares ${declares}`);
        expect(a.json.message).toContain(`the limit for any image is 16,000,000 pixels`);
      }
    },
  );

  test('without strict too: an image with too many pixels is a 422, not an image left out', async () => {
    // Left out, the label would print without its logo although the request can never succeed as sent.
    const before = peakResidentBytes();
    const a = await h.post('render-zpl', {
      label_name: 'logo-2x1',
      amount: 1,
      apiData: { logo: 'bomb.png' },
    });
    expect(peakResidentBytes() - before).toBeLessThan(HEADROOM_BYTES);
    expect(a.status).toBe(422);
    expect(a.json.field).toBe('apiData.logo');
    expect(a.json.message).toContain('the limit for any image is 16,000,000 pixels');
  });

  test('under the absolute cap, an image is still limited by its label: 4× its dots at the dpi, at least 4 Mpx', async () => {
    const big = await whitePng(3000, 3000); // 9 Mpx: too many for a 2 × 1 in label
    const refused = await h.post('render-zpl', {
      label_name: 'logo-2x1',
      amount: 1,
      dpi: 203,
      apiData: { logo: dataUrlOf(big) },
      strict: true,
    });
    expect(refused.status).toBe(422);
    expect(refused.json.field).toBe('apiData.logo');
    expect(refused.json.message).toContain(
      'declares 3000 × 3000 pixels (9,000,000); the limit for this label at 203 dpi is 4,000,000 pixels',
    );
    // The same image on an A4 label at 300 dpi (4 × 8.7 M dots, capped at 16 Mpx) is drawn.
    logoTemplate(h.templatesDir, 'logo-a4', { width: 210, height: 297, unit: 'mm', background: '#ffffff' });
    const drawn = await h.post('render-zpl', {
      label_name: 'logo-a4',
      amount: 1,
      dpi: 300,
      max_width_dots: 2480,
      apiData: { logo: dataUrlOf(big) },
      strict: true,
    });
    expect(drawn.status).toBe(200);
    // An ordinary logo on the small label is drawn.
    const logo = await h.post('render-zpl', {
      label_name: 'logo-2x1',
      amount: 1,
      apiData: { logo: dataUrlOf(await whitePng(600, 600)) },
      strict: true,
    });
    expect(logo.status).toBe(200);
  });

  test('an SVG embedding the bomb is refused the same way (resvg would decode it at its own size)', async () => {
    const a = await h.post('render-pdf', { label_name: 'bomb-in-svg', amount: 1, apiData: {}, strict: true });
    expect(a.status).toBe(422);
    expect(a.json.field).toBe('label_name');
    expect(a.json.message).toContain('embeds images of 256,000,000 pixels or more; the limit is 16,000,000');
  });
});

describe('output per request', () => {
  test('packing-slip-a4 at 1200 dpi × 1000 copies: 422 on amount naming the limit, nothing rendered', async () => {
    const before = peakResidentBytes();
    const a = await h.post('render-zpl', {
      label_name: 'packing-slip-a4',
      amount: 1000,
      dpi: 1200,
      max_width_dots: 10_000,
      apiData: {},
    });
    expect(peakResidentBytes() - before).toBeLessThan(HEADROOM_BYTES);
    expect(a.status).toBe(422);
    expect(a.json.field).toBe('amount');
    expect(a.json.message).toMatch(
      /^amount: 1000 copies at 1200 dpi come to [\d,]+ dots, more than the limit of 1,200,000,000 per request; send at most 8 copies per request$/,
    );
  });

  test('1,000 copies of the shipping label at 203 dpi fit the default budget', async () => {
    expect(DEFAULT_LIMITS.outputDots).toBeGreaterThan(1000 * 4.06 * 203 * 6.06 * 203);
    const a = await h.post('render-zpl', {
      label_name: 'shipping-4x6',
      amount: 1000,
      apiData: { tracking: '1Z999AA10123456784' },
    });
    expect(a.status).toBe(200);
    expect(a.json.count).toBe(1000);
  });

  test('an answer larger than --max-response-mb is a 422 on amount, before it is serialised', async () => {
    const small = await startHarness({ limits: { responseBytes: 200_000 } });
    try {
      const one = await small.post('render-zpl', { label_name: 'shipping-4x6', amount: 1, apiData: {} });
      expect(one.status).toBe(200);
      const perLabel = (one.json.labels[0] as string).length;
      const amount = Math.ceil(200_000 / perLabel) + 5;
      const a = await small.post('render-zpl', { label_name: 'shipping-4x6', amount, apiData: {} });
      expect(a.status).toBe(422);
      expect(a.json.field).toBe('amount');
      expect(a.json.message).toMatch(
        new RegExp(
          `^amount: the answer for ${amount} copies would be [\\d,]+ bytes, more than the limit of 200,000 bytes; send at most \\d+ copies per request$`,
        ),
      );
    } finally {
      await small.close();
    }
  });
});

describe('renders at once', () => {
  test('past the queue a render is answered 429 with Retry-After at once; the running one completes', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const png = await whitePng(40, 40);
    const slow = await listen((_req, res) => {
      void held.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    });
    const busy = await startHarness({ imageHosts: ['127.0.0.1'], limits: { renders: 1, rendersWaiting: 0 } });
    try {
      logoTemplate(busy.templatesDir, 'logo-2x1', { width: 2, height: 1, unit: 'in', background: '#ffffff' });
      const body = {
        label_name: 'logo-2x1',
        amount: 1,
        apiData: { logo: `${slow.url}/logo.png` },
        strict: true,
      };
      const first = busy.post('render-zpl', body);
      while (slow.hits.length === 0) await new Promise((r) => setTimeout(r, 10)); // the first holds the place
      const second = await busy.post('render-pdf', body);
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(second.json.message).toBe('the server is busy: 0 renders are already waiting; retry in 1 s');
      // Routes that only resolve markup do not wait for renders.
      expect((await busy.post('fetch-markups', body)).status).toBe(200);
      release();
      expect((await first).status).toBe(200);
      expect((await busy.post('render-pdf', body)).status).toBe(200);
    } finally {
      release();
      await busy.close();
      await slow.close();
    }
  });

  test('a render whose client hung up while it waited is never done', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const png = await whitePng(40, 40);
    const slow = await listen((_req, res) => {
      void held.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    });
    const busy = await startHarness({ imageHosts: ['127.0.0.1'], limits: { renders: 1, rendersWaiting: 4 } });
    try {
      logoTemplate(busy.templatesDir, 'logo-2x1', { width: 2, height: 1, unit: 'in', background: '#ffffff' });
      const body = (name: string) => ({
        label_name: 'logo-2x1',
        amount: 1,
        apiData: { logo: `${slow.url}/${name}.png` },
        strict: true,
      });
      const first = busy.post('render-zpl', body('first'));
      while (slow.hits.length === 0) await new Promise((r) => setTimeout(r, 10)); // the first holds the place
      // The second waits for the place; its client gives up (a timeout, a closed tab) and closes the connection.
      const gaveUp = new AbortController();
      const abandoned = fetch(`${busy.url}/custom-labels/render-zpl`, {
        method: 'POST',
        headers: busy.headers,
        body: JSON.stringify(body('abandoned')),
        signal: gaveUp.signal,
      }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 200));
      gaveUp.abort();
      expect(await abandoned).toBeInstanceOf(Error);
      await new Promise((r) => setTimeout(r, 100));
      // A third, still listening, comes after it.
      const third = busy.post('render-zpl', body('third'));
      release();
      expect((await first).status).toBe(200);
      expect((await third).status).toBe(200);
      // The abandoned request's image was never fetched: its render never started.
      expect(slow.hits).toEqual(['/first.png', '/third.png']);
    } finally {
      release();
      await busy.close();
      await slow.close();
    }
  });

  test('one key holds at most its share of the queue; another key still gets a place', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const png = await whitePng(40, 40);
    const slow = await listen((_req, res) => {
      void held.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    });
    const busy = await startHarness({
      imageHosts: ['127.0.0.1'],
      limits: { renders: 1, rendersWaiting: 4, rendersPerKey: 1 },
    });
    try {
      logoTemplate(busy.templatesDir, 'logo-2x1', { width: 2, height: 1, unit: 'in', background: '#ffffff' });
      const other = await busy.addKey();
      const otherHeaders = {
        'content-type': 'application/json',
        'x-api-key': other.key,
        'x-api-secret': other.secret,
      };
      const body = {
        label_name: 'logo-2x1',
        amount: 1,
        apiData: { logo: `${slow.url}/logo.png` },
        strict: true,
      };
      const first = busy.post('render-zpl', body);
      while (slow.hits.length === 0) await new Promise((r) => setTimeout(r, 10));
      const again = await busy.post('render-zpl', body);
      expect(again.status).toBe(429);
      expect(again.headers.get('retry-after')).toBe('1');
      expect(again.json.message).toBe('this API key already has 1 render running or waiting; retry in 1 s');
      const queued = busy.post('render-zpl', body, otherHeaders);
      release();
      expect((await first).status).toBe(200);
      expect((await queued).status).toBe(200);
    } finally {
      release();
      await busy.close();
      await slow.close();
    }
  });
});
