/**
 * `labeldesk serve` as the hosted service's own API client calls it (issue #19): its public route names
 * print-node and print-node-pdf (our print-relay and print-relay-pdf), and its SVG download
 * `GET /custom-labels/download-svg?path=<encodeURIComponent(files[].path)>` with the two key headers and no
 * body. Real TCP to the Zebra emulator; the received label is decoded and scanned. Also the incomplete-markup
 * policy on serve: an image that cannot be loaded is left out and named in X-LabelDesk-Warnings, or refused
 * with "strict": true.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTransport } from '../../../src/node/printers/open-transport';
import { filePrinterGateway } from '../../../src/node/serve/file-printer-gateway';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { zbarValues } from '../../support/zbar';
import { decodeZplToPgm } from '../../support/zpl-decode';
import { answerOf, bundled, startHarness, writeTemplate, type Harness } from './harness';

const TRACKING = '1Z999AA10123456784';
const body = (printer_id: number, amount = 1) => ({
  label_name: 'shipping-4x6',
  amount,
  apiData: { ship_to_name: 'Ada Lovelace', tracking: TRACKING },
  printer_id,
});

let work: string;
let h: Harness;
let printer: ZebraEmulator;

/** Exactly the hosted client's request: the path, POST, its two headers and a JSON body. */
function hostedPost(route: string, json: unknown) {
  return fetch(`${h.url}/custom-labels/${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-KEY': h.key, 'X-API-SECRET': h.secret },
    body: JSON.stringify(json),
  }).then(answerOf);
}

/** The hosted client's download: GET, the path URL-encoded, the two headers, no body. */
function downloadSvg(
  path: string,
  headers: Record<string, string> = { 'X-API-KEY': h.key, 'X-API-SECRET': h.secret },
) {
  return fetch(`${h.url}/custom-labels/download-svg?path=${encodeURIComponent(path)}`, { headers }).then(
    answerOf,
  );
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ld-hosted-client-'));
  printer = await startZebraEmulator({ dpi: 203, port: 0 });
  const printersFile = join(work, 'printers.json');
  writeFileSync(
    printersFile,
    JSON.stringify([
      { id: 7, uri: printer.uri, name: 'Dock 7' },
      { id: 20, uri: `file://${join(work, 'out.pdf')}`, name: 'PDF to file' },
    ]),
  );
  h = await startHarness({
    printers: filePrinterGateway({ file: printersFile, openTransport: (uri) => createTransport(uri) }),
  });
});

afterAll(async () => {
  await h?.close();
  await printer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('print-node and print-node-pdf: the hosted names of print-relay and print-relay-pdf', () => {
  test('print-node sends one ZPL job per copy to the printer, and the label received scans', async () => {
    const before = printer.jobs.length;
    const a = await hostedPost('print-node', body(7, 2));
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'sent_to_printer', printer_dpi: 203 });
    const jobs = printer.jobs.slice(before);
    expect(jobs).toHaveLength(2);
    const pgm = join(work, 'node.pgm');
    const decoded = decodeZplToPgm(jobs[0]!.zpl, pgm);
    expect(decoded.printWidth).toBe(812);
    expect(zbarValues(pgm)).toContain(TRACKING);
  });

  test('print-node-pdf delivers the PDF and answers as print-relay-pdf does', async () => {
    const a = await hostedPost('print-node-pdf', body(20, 2));
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'sent_to_printer_png' });
    expect(execFileSync('pdfinfo', [join(work, 'out.pdf')], { encoding: 'utf8' })).toMatch(/Pages:\s+2\b/);
  });

  test('the aliases have the same auth, errors and counting as the routes they stand for', async () => {
    const unauthorised = await h.post('print-node', body(7), { 'content-type': 'application/json' });
    expect(unauthorised.status).toBe(401);
    const unknownPrinter = await hostedPost('print-node', body(99));
    expect(unknownPrinter.status).toBe(422);
    expect(unknownPrinter.json.field).toBe('printer_id');
    const unknownTemplate = await hostedPost('print-node-pdf', { ...body(20), label_name: 'nope' });
    expect(unknownTemplate.status).toBe(404);

    const usage = await h.usage(h.key);
    // 2 copies by print-node, 2 by print-node-pdf: counted under the spec's route names.
    expect(usage['print-relay']?.copies).toBe(2);
    expect(usage['print-relay-pdf']?.copies).toBe(2);
    expect(Object.keys(usage)).not.toContain('print-node');
    expect(Object.values(usage).reduce((sum, u) => sum + u.copies, 0)).toBe(4);
  });
});

describe('GET /custom-labels/download-svg?path=…', () => {
  test('answers the exported SVG for files[].path, with the key headers; 404 once it has expired', async () => {
    const exported = await hostedPost('export-svg', { label_name: 'shipping-4x6', amount: 1, apiData: {} });
    expect(exported.status).toBe(200);
    const file = exported.json.files[0] as { url: string; path: string };
    const a = await downloadSvg(file.path);
    expect(a.status).toBe(200);
    expect(a.contentType).toBe('image/svg+xml');
    expect(a.text).toBe(await (await fetch(file.url)).text());

    h.clock.advanceHours(24);
    const expired = await downloadSvg(file.path);
    expect(expired.status).toBe(404);
    expect(expired.contentType).toMatch(/^application\/json/);
    expect(expired.json.message).toBe('no such file, or it has expired');
  });

  test('no key → 401 (JSON); a path that is not an exported file, traversal included → 404; no path → 422', async () => {
    const exported = await hostedPost('export-svg', { label_name: 'shipping-4x6', amount: 1, apiData: {} });
    const path = exported.json.files[0].path as string;
    const noKey = await downloadSvg(path, {});
    expect(noKey.status).toBe(401);
    expect(noKey.json.message).toMatch(/X-API-KEY and X-API-SECRET/);
    for (const wrong of [
      '../keys.json',
      'svg/../keys.json',
      `/${path}`,
      'svg/',
      path.replace(/\.svg$/, '.json'),
    ]) {
      const a = await downloadSvg(wrong);
      expect(a.status, wrong).toBe(404);
      expect(a.json.message).toBe('no such file, or it has expired');
    }
    const missing = await answerOf(
      await fetch(`${h.url}/custom-labels/download-svg`, {
        headers: { 'X-API-KEY': h.key, 'X-API-SECRET': h.secret },
      }),
    );
    expect(missing.status).toBe(422);
    expect(missing.json.field).toBe('path');
  });

  test('other methods on download-svg and GET on the label routes still answer 404/405 as JSON', async () => {
    const post = await hostedPost('download-svg', {});
    expect(post.status).toBe(404);
    const get = await answerOf(await fetch(`${h.url}/custom-labels/print-node`, { headers: h.headers }));
    expect(get.status).toBe(405);
  });
});

describe('incomplete markup on serve: an image that cannot be loaded', () => {
  beforeAll(() => {
    const template = bundled('shipping-4x6') as { elements: Record<string, unknown>[] };
    writeTemplate(h.templatesDir, 'unreachable-logo', {
      ...template,
      elements: template.elements.map((el) =>
        el.type === 'image' ? { ...el, url: 'http://127.0.0.1:1/logo.png' } : el,
      ),
    });
  });

  test('is left out with a warning in X-LabelDesk-Warnings (a JSON array), and the rest is rendered', async () => {
    const a = await hostedPost('render-zpl', {
      label_name: 'unreachable-logo',
      amount: 1,
      apiData: { tracking: TRACKING },
    });
    expect(a.status).toBe(200);
    const warnings = JSON.parse(a.headers.get('x-labeldesk-warnings') ?? 'null') as string[];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^elements\[\d+\] \(image\): image http:\/\/127\.0\.0\.1:1\/logo\.png: .*; left out$/,
    );
    const pgm = join(work, 'no-logo.pgm');
    decodeZplToPgm(a.json.labels[0], pgm);
    expect(zbarValues(pgm)).toContain(TRACKING);
  });

  test('"strict": true refuses the label instead (422 naming the image)', async () => {
    const a = await hostedPost('render-zpl', {
      label_name: 'unreachable-logo',
      amount: 1,
      apiData: {},
      strict: true,
    });
    expect(a.status).toBe(422);
    expect(a.json.message).toContain('http://127.0.0.1:1/logo.png');
    expect(a.headers.get('x-labeldesk-warnings')).toBeNull();
  });

  test('a label whose images all load has no warnings header', async () => {
    const a = await hostedPost('render-zpl', { label_name: 'shipping-4x6', amount: 1, apiData: {} });
    expect(a.status).toBe(200);
    expect(a.headers.get('x-labeldesk-warnings')).toBeNull();
  });
});

describe('from a browser page on another origin', () => {
  test('the preflight of download-svg allows GET with the key headers; answers expose X-LabelDesk-Warnings', async () => {
    const origin = 'http://intranet.example';
    const cors = await startHarness({ corsOrigins: [origin] });
    try {
      const preflight = await fetch(`${cors.url}/custom-labels/download-svg?path=svg%2Fx.svg`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-api-key,x-api-secret',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
      const a = await fetch(`${cors.url}/custom-labels/download-svg?path=svg%2Fx.svg`, {
        headers: { Origin: origin, 'X-API-KEY': cors.key, 'X-API-SECRET': cors.secret },
      });
      expect(a.status).toBe(404);
      expect(a.headers.get('access-control-allow-origin')).toBe(origin);
      expect(a.headers.get('access-control-expose-headers')).toContain('X-LabelDesk-Warnings');
    } finally {
      await cors.close();
    }
  });
});
