/**
 * Heavy renders off the event loop (issue #16, item 1): real servers on loopback with real worker threads
 * (started from the sources through tsx). A request whose estimated work is above `heavyRenderDots` renders in
 * a worker while small ones go on being answered; its answer is the in-process answer byte for byte, and its
 * failures the same statuses and messages; a worker that dies fails its own request only and is replaced; the
 * pool shrinks to nothing when idle and ends with the server. We never assert speed: only order and outcome.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundled, startHarness, writeTemplate, type Answer, type Harness } from './harness';
import { whitePng } from './hostile';

const SHIPPING = { label_name: 'shipping-4x6', apiData: { ship_to_name: 'Ada Lovelace', tracking: '1Z999' } };
/** ~139 M dots, all encoded: far above the default threshold, a fraction of a second to a second of rendering. */
const A4_1200 = { label_name: 'packing-slip-a4', apiData: {}, amount: 1, dpi: 1200, max_width_dots: 10_000 };

/** Waits for `cond`, checking every 10 ms, for at most 30 s. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A PNG chunk (length, type, data, CRC). */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 100 × 100 PNG carrying `bytes` of text chunk: small to decode, large to encode into an SVG. */
async function paddedPng(bytes: number): Promise<Buffer> {
  const png = await whitePng(100, 100);
  const iend = png.length - 12;
  const text = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(bytes, 'x')]);
  return Buffer.concat([png.subarray(0, iend), pngChunk('tEXt', text), png.subarray(iend)]);
}

/** What both servers of a comparison know: a 2 × 1 in label with an image from apiData, and image files. */
async function addTemplates(h: Harness): Promise<void> {
  writeTemplate(h.templatesDir, 'logo-2x1', {
    ...bundled('product-2x1'),
    fields: [
      { name: 'logo', label: 'Logo', placeholder: 'logo.png' },
      { name: 'ean13', label: 'EAN', placeholder: '590123412345' },
    ],
    elements: [
      { type: 'image', x: 4, y: 4, width: 40, height: 40, url: '{logo}' },
      { type: 'barcode', format: 'ean13', x: 50, y: 4, width: 130, height: 60, text: '{ean13}' },
    ],
  });
  // 16,000,000 pixels: the loader's limit, but 4× a 2 × 1 in label's dots is less (checked at layout).
  writeFileSync(join(h.templatesDir, 'huge.png'), await whitePng(4000, 4000));
  writeFileSync(join(h.templatesDir, 'logo.png'), await whitePng(120, 90));
  writeFileSync(join(h.templatesDir, 'bomb.png'), await whitePng(24_000, 24_000));
}

/** A PDF answer with its dates and ID blanked (two renders may straddle a second; nothing else may differ). */
function undated(answer: Answer): unknown {
  return {
    ...answer.json,
    labels: (answer.json.labels as string[]).map((b64) =>
      Buffer.from(b64, 'base64')
        .toString('latin1')
        .replace(/\/(CreationDate|ModDate) ?\(D:[^)]*\)/g, '/$1()')
        .replace(/\/ID ?\[\s*<[0-9A-Fa-f]*>\s*<[0-9A-Fa-f]*>\s*\]/g, '/ID[]'),
    ),
  };
}

describe('a heavy render answers what the event loop would have', () => {
  let inProcess: Harness;
  let worker: Harness;

  beforeAll(async () => {
    // One server renders everything on its event loop; the other sends every render to a worker.
    [inProcess, worker] = await Promise.all([
      startHarness({ limits: { renderWorkers: 0 } }),
      startHarness({ limits: { heavyRenderDots: 0 } }),
    ]);
    await Promise.all([addTemplates(inProcess), addTemplates(worker)]);
  });

  afterAll(async () => {
    await Promise.all([inProcess?.close(), worker?.close()]);
  });

  /** The same request to both servers. */
  async function both(route: string, body: unknown): Promise<[Answer, Answer]> {
    const a = await inProcess.post(route, body);
    const b = await worker.post(route, body);
    return [a, b];
  }

  test.each([
    ['shipping-4x6, 3 copies, 203 dpi', { ...SHIPPING, amount: 3 }],
    ['shipping-4x6 at 600 dpi', { ...SHIPPING, amount: 1, dpi: 600 }],
    [
      'packing-slip-a4 at 300 dpi, 10,000 dots wide',
      { label_name: 'packing-slip-a4', apiData: {}, amount: 1, dpi: 300, max_width_dots: 10_000 },
    ],
    [
      'a PNG from the templates folder, dithered',
      { label_name: 'logo-2x1', apiData: { logo: 'logo.png' }, amount: 2 },
    ],
    [
      'element-gallery-4x6 at 300 dpi',
      { label_name: 'element-gallery-4x6', apiData: {}, amount: 1, dpi: 300 },
    ],
  ])('render-zpl: %s — the same bytes', async (_name, body) => {
    const [a, b] = await both('render-zpl', body);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(worker.server.renderWorkers.threads).toBe(1);
    expect(inProcess.server.renderWorkers.threads).toBe(0);
  });

  test('render-pdf: the same bytes but for the dates and ID, identical copies still one PDF repeated', async () => {
    for (const body of [
      { ...SHIPPING, amount: 2 },
      { label_name: 'logo-2x1', apiData: { logo: 'logo.png' }, amount: 1 },
      { label_name: 'packing-slip-a4', apiData: {}, amount: 1 },
    ]) {
      const [a, b] = await both('render-pdf', body);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(undated(b)).toEqual(undated(a));
    }
  });

  test('export-svg: the same files', async () => {
    const [a, b] = await both('export-svg', { ...SHIPPING, amount: 2 });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const files = async (answer: Answer) =>
      Promise.all((answer.json.files as { url: string }[]).map(async (f) => (await fetch(f.url)).text()));
    const [mine, theirs] = await Promise.all([files(a), files(b)]);
    expect(theirs).toHaveLength(2);
    expect(theirs).toEqual(mine);
  });

  test.each([
    [
      'a barcode value the symbology refuses',
      'render-zpl',
      { label_name: 'logo-2x1', apiData: { ean13: 'ABC' } },
    ],
    [
      'an image too large for its label (checked at layout, in the worker)',
      'render-zpl',
      { label_name: 'logo-2x1', apiData: { logo: 'huge.png' } },
    ],
    [
      'a decompression bomb (refused from its header)',
      'render-pdf',
      { label_name: 'logo-2x1', apiData: { logo: 'bomb.png' }, strict: true },
    ],
    ['more dots than the output budget', 'render-zpl', { ...SHIPPING, amount: 1000, dpi: 300 }],
    ['an RFID label as PDF', 'render-pdf', { label_name: 'rfid-asset-4x2', apiData: {} }],
    ['an RFID label as SVG', 'export-svg', { label_name: 'rfid-asset-4x2', apiData: {} }],
  ])('%s: the same status and message', async (_name, route, body) => {
    const [a, b] = await both(route, { amount: 1, ...body });
    expect(a.status).toBe(422);
    expect(b.status).toBe(a.status);
    expect(b.json).toEqual(a.json);
    expect(a.json.field).toBeTruthy();
  });

  test('the image left out under the default policy: the same warning and bytes', async () => {
    const body = { label_name: 'logo-2x1', apiData: { logo: 'bomb.png' }, amount: 1 };
    const [a, b] = await both('render-zpl', body);
    // A bomb is never "cannot be loaded": 422 whatever the policy.
    expect(b.status).toBe(a.status);
    expect(b.json).toEqual(a.json);
    const missing = { label_name: 'logo-2x1', apiData: { logo: 'no-such.png' }, amount: 1 };
    const [c, d] = await both('render-zpl', missing);
    expect(c.status).toBe(200);
    expect(d.text).toBe(c.text);
    const warning = (answer: Answer) => answer.headers.get('x-labeldesk-warnings');
    // The file as the request named it, not where the server keeps its templates.
    expect(warning(c)).toMatch(/no-such\.png: no such file; left out/);
    expect(warning(c)).not.toContain(inProcess.templatesDir);
    expect(warning(c)).not.toMatch(/\/tmp|ld-serve/);
    expect(warning(d)).toBe(warning(c));
  });
});

describe('the event loop stays free while a worker renders', () => {
  let h: Harness;

  beforeAll(async () => {
    // The default worker and threshold, and ONE render at a time: the heavy render in the worker gives its
    // place to the small one, which would otherwise wait for it.
    h = await startHarness({ limits: { renders: 1 } });
  });

  afterAll(async () => {
    await h?.close();
  });

  test('a small render-zpl sent after a heavy one is answered first', async () => {
    // The shipping label stays on the event loop; the A4 label at 1200 dpi goes to the worker. Both warm first
    // (the first render on each thread loads fonts and compiles).
    expect((await h.post('render-zpl', { ...SHIPPING, amount: 1 })).status).toBe(200);
    const warm = await h.post('render-zpl', A4_1200);
    expect(warm.status).toBe(200);
    expect(h.server.renderWorkers).toEqual({ threads: 1, jobs: 0 });

    const order: string[] = [];
    const heavy = h.post('render-zpl', A4_1200).then((a) => (order.push('heavy'), a));
    await until(() => h.server.renderWorkers.jobs === 1, 'the heavy render to reach the worker');
    const small = await h.post('render-zpl', { ...SHIPPING, amount: 1 });
    order.push('small');
    expect(small.status).toBe(200);
    expect(h.server.renderWorkers.jobs).toBe(1); // rendered here, while the worker still had the heavy one
    expect((await heavy).status).toBe(200);
    expect(order).toEqual(['small', 'heavy']);
    expect((await heavy).text).toBe(warm.text);
  });
});

describe('a render worker that dies', () => {
  let h: Harness;

  beforeAll(async () => {
    // A small heap, as a server short of memory would set it: encoding an 8 MB image into an SVG (base64 in
    // JavaScript, ~90 MB of strings on the way) cannot fit, while an ordinary label does.
    h = await startHarness({ limits: { heavyRenderDots: 0, renderWorkerHeapMb: 48 } });
    writeTemplate(h.templatesDir, 'padded', {
      ...bundled('product-2x1'),
      fields: [],
      elements: [{ type: 'image', x: 4, y: 4, width: 40, height: 40, url: 'padded.png' }],
    });
    writeFileSync(join(h.templatesDir, 'padded.png'), await paddedPng(8 * 1024 * 1024));
  });

  afterAll(async () => {
    await h?.close();
  });

  test('fails its own request with a 500 body, and the next heavy request gets a new worker', async () => {
    const warm = await h.post('render-zpl', { ...SHIPPING, amount: 1 });
    expect(warm.status).toBe(200);

    const lost = await h.post('export-svg', { label_name: 'padded', apiData: {}, amount: 1 });
    expect(lost.status).toBe(500);
    expect(lost.json).toEqual({
      message: 'the render failed on the server; retry once, then report it with the time of the request',
    });
    const lines = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const gone = lines.find((l) => l.msg === 'render worker lost');
    expect(String(gone?.error)).toMatch(/memory/);
    expect(lines.find((l) => l.msg === 'request failed')?.error).toBe('RenderWorkerLost');

    const next = await h.post('render-zpl', { ...SHIPPING, amount: 1 });
    expect(next.status).toBe(200);
    expect(next.text).toBe(warm.text);
    expect(h.server.renderWorkers.threads).toBe(1);
    expect(h.logs.filter((l) => l.includes('"render worker started"'))).toHaveLength(2);
  });
});

describe('the pool’s life', () => {
  test('an idle pool shrinks to no worker, and starts one again when needed', async () => {
    const h = await startHarness({ limits: { heavyRenderDots: 0, renderWorkerIdleMs: 200 } });
    try {
      expect(h.server.renderWorkers.threads).toBe(0); // none before the first heavy request
      expect((await h.post('render-zpl', { ...SHIPPING, amount: 1 })).status).toBe(200);
      expect(h.server.renderWorkers.threads).toBe(1);
      await until(() => h.server.renderWorkers.threads === 0, 'the idle worker to end');
      expect(h.logs.some((l) => l.includes('"render worker ended (idle)"'))).toBe(true);
      expect((await h.post('render-zpl', { ...SHIPPING, amount: 1 })).status).toBe(200);
      expect(h.server.renderWorkers.threads).toBe(1);
    } finally {
      await h.close();
    }
    expect(h.server.renderWorkers.threads).toBe(0);
  });

  test("an image over its label's budget is refused from its header before the estimate: no worker starts for it", async () => {
    // Every render is "heavy" here: only the budget check before the estimate keeps a 4000 × 4000 image on a
    // 2 × 1 in label (under the loader's absolute cap, over the label's budget) out of a worker.
    const h = await startHarness({ limits: { heavyRenderDots: 0 } });
    try {
      await addTemplates(h);
      for (const route of ['render-zpl', 'render-pdf', 'export-svg']) {
        const answer = await h.post(route, {
          label_name: 'logo-2x1',
          apiData: { logo: 'huge.png' },
          amount: 1,
        });
        expect(answer.status).toBe(422);
        expect(String(answer.json.message)).toMatch(/4000 × 4000/);
      }
      expect(h.server.renderWorkers.threads).toBe(0);
      expect(h.logs.some((l) => l.includes('"render worker started"'))).toBe(false);
    } finally {
      await h.close();
    }
  });

  test('closing the server ends its workers, a render in one included', async () => {
    const h = await startHarness();
    const heavy = h.post('render-zpl', A4_1200).then(
      (a) => a.status,
      () => 'no answer',
    );
    await until(() => h.server.renderWorkers.jobs === 1, 'the heavy render to reach the worker');
    await h.close();
    expect(h.server.renderWorkers).toEqual({ threads: 0, jobs: 0 });
    // Answered 500 if the answer got out before the connection closed; never left hanging.
    expect([500, 'no answer']).toContain(await heavy);
  });

  test('--render-workers 0: every render on the event loop, no thread ever', async () => {
    const h = await startHarness({ limits: { renderWorkers: 0 } });
    try {
      expect((await h.post('render-zpl', A4_1200)).status).toBe(200);
      expect(h.server.renderWorkers.threads).toBe(0);
    } finally {
      await h.close();
    }
  });
});
