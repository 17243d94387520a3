/**
 * The app's main-side services through their handlers (what both shells call), against real parts: a temp data
 * folder, the Zebra emulator on loopback TCP, the bundled templates, the job queue in SQLite.
 */
import { execFileSync } from 'node:child_process';
import { createKey } from '../../../src/node/serve/key-store';
import { startServer } from '../../../src/node/serve/server';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import type { AppEvent } from '../../../src/ipc/contract';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { scanZplJob } from '../../support/barcode-label';
import { applyWirePreview } from '../../../src/ipc/wire-preview';
import { previewLabel } from '../../../src/ipc/preview-label';
import { toWirePreview } from '../../../src/ipc/wire-scene';
import { BUNDLED_FONT_FILES, createFontSet } from '../../../src/layout/fonts';
import { fontsDir } from '../../../src/node/assets';
import { dataUrlImages, NotInWorker } from '../../../renderer/src/preview/engine/data-images';
import { ipcCalls } from '../../support/ipc-calls';

let dir: string;
let services: AppServices;
let zebra: ZebraEmulator;
let zebra300: ZebraEmulator;
const events: AppEvent[] = [];

/** A call as both shells make it (main/app/dispatch.ts); an error answer is thrown as its body. */
const { call } = ipcCalls(() => services);

const ref = { source: 'bundled', name: 'shipping-4x6' } as const;
const values = {
  ship_to_name: 'Grace Hopper',
  ship_to_address: '1 Navy Yard',
  tracking: '1Z999AA10123456784',
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-services-'));
  zebra = await startZebraEmulator({ dpi: 203 });
  zebra300 = await startZebraEmulator({ dpi: 300 });
  services = await createAppServices({
    dataDir: dir,
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    // "Print to file" printers may write only here (main/app/file-printer-folder.ts).
    filePrinterFolder: dir,
    printers: [
      { id: 1, uri: zebra.uri, name: 'Dock Zebra' },
      { id: 2, uri: zebra300.uri, name: 'Lab Zebra 300' },
    ],
  });
  services.onEvent((e) => events.push(e));
});

afterAll(async () => {
  await services.close();
  await zebra.close();
  await zebra300.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('printers', () => {
  it('preconfigures the --printers file and refuses a bad or duplicate address by field', async () => {
    const list = await call('printers.list', {});
    expect(list.map((p) => p.name)).toEqual(['Dock Zebra', 'Lab Zebra 300']);
    expect(list[0]).toMatchObject({
      kind: expect.stringMatching(/^Network 127\.0\.0\.1:\d+$/),
      language: 'zpl',
    });
    await expect(call('printers.save', { name: 'X', uri: 'lpt://1' })).rejects.toMatchObject({
      code: 'invalid',
      field: 'uri',
    });
    await expect(call('printers.save', { name: 'Again', uri: zebra.uri })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('Dock Zebra'),
    });
  });

  it('reports paper out and head open as the printer answers ~HS, and ready again', async () => {
    expect((await call('printers.status', { printer: '1' })).state).toBe('ready');
    zebra.setFault({ paperOut: true });
    const out = await call('printers.status', { printer: '1' });
    expect(out).toMatchObject({ state: 'paper-out', message: expect.stringMatching(/^Paper out/) });
    expect(events.some((e) => e.kind === 'printer-status' && e.status.state === 'paper-out')).toBe(true);
    zebra.setFault({ paperOut: false, headOpen: true });
    expect((await call('printers.status', { printer: '1' })).state).toBe('head-open');
    zebra.setFault({ headOpen: false });
    expect((await call('printers.status', { printer: '1' })).state).toBe('ready');
  });

  it('draws the printer view at the dpi the printer reports, once it has been asked', async () => {
    // Before: no profile, and the preview never asks the printer itself (it runs on every keystroke).
    const guess = await call('preview.raster', { ref, values, printer: '2' });
    expect(guess).toMatchObject({ dpi: 203, dpiAssumed: true });
    // The status poll asks a ready printer its resolution once and keeps it in the printer's profile.
    expect((await call('printers.status', { printer: '2' })).state).toBe('ready');
    const view = await call('preview.raster', { ref, values, printer: '2' });
    expect(view).toMatchObject({ dpi: 300, dpiAssumed: false });
    expect(view.widthDots).toBe(1200); // 4 in at 300 dpi
    expect(view.dataUrl).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(view.dataUrl.split(',')[1]!, 'base64');
    expect(png[25]).toBe(0); // greyscale
    expect(png[24]).toBe(1); // 1 bit per dot
  });
});

describe('the live preview sends only what changed (#21)', () => {
  it('since a scene it sent: the typed element in full, every other node as "same"; the scene put back equals a full one', async () => {
    const first = await call('preview.scene', { ref, values });
    expect(first.scene.base).toBeUndefined();
    expect(first.scene.nodes.some((n) => n.kind === 'same')).toBe(false);
    const typed = { ...values, ship_to_name: 'Grace Hopperx' };
    const next = await call('preview.scene', { ref, values: typed, since: first.scene.id });
    expect(next.scene.base).toBe(first.scene.id);
    const changed = next.scene.nodes.filter((n) => n.kind !== 'same');
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(next.scene.nodes.length / 2);
    expect(JSON.stringify(changed)).toContain('Grace Hopperx');
    expect(JSON.stringify(next.scene).length).toBeLessThan(JSON.stringify(first.scene).length / 3);

    const whole = await call('preview.scene', { ref, values: typed });
    const rebuilt = applyWirePreview(next.scene, applyWirePreview(first.scene, undefined));
    const { id: _id, ...wholeScene } = whole.scene;
    expect(rebuilt).toEqual(wholeScene);
  });

  it('a since it does not know (another process, long ago, made up) gets every node', async () => {
    for (const since of ['00000000.1', 'x', '']) {
      const answer = await call('preview.scene', { ref, values, since });
      expect(answer.scene.base).toBeUndefined();
      expect(answer.scene.nodes.some((n) => n.kind === 'same')).toBe(false);
    }
  });

  it('since a scene of another template: nothing is taken from it that differs', async () => {
    const other = await call('preview.scene', {
      ref: { source: 'bundled', name: 'product-2x1' },
      values: { product_name: 'Widget' },
    });
    const answer = await call('preview.scene', { ref, values, since: other.scene.id });
    const whole = await call('preview.scene', { ref, values });
    const { id: _id, ...wholeScene } = whole.scene;
    expect(applyWirePreview(answer.scene, applyWirePreview(other.scene, undefined))).toEqual(wholeScene);
  });
});

describe('the preview worker computes the scene main computes (#21)', () => {
  const fontFiles = Object.fromEntries(
    Object.entries(BUNDLED_FONT_FILES).map(([key, file]) => [
      key,
      new Uint8Array(readFileSync(join(fontsDir(), file))),
    ]),
  );
  const workerPorts = () => ({ fonts: createFontSet(fontFiles), loadImages: dataUrlImages() });

  it.each([
    ['shipping-4x6', values],
    ['packing-slip-a4', { order_id: 'SO-1', customer: 'Ada', items: '2 × Widget\n1 × Gadget' }],
    ['element-gallery-4x6', { caption: 'Hello' }],
    ['product-2x1', { product_name: 'Widget' }],
    ['rfid-asset-4x2', {}],
    ['visitor-badge-4x3', { name: 'Grace Hopper' }],
  ])('%s: every node, warning, problem and cut alike', async (name, given) => {
    const ref = { source: 'bundled', name } as const;
    const main = await call('preview.scene', { ref, values: given });
    const { template } = await call('templates.get', { ref });
    const ports = workerPorts();
    const here = await previewLabel(template, given, ports);
    const { id: _id, ...mainScene } = main.scene;
    expect(toWirePreview(here.scene, ports.fonts, 'w.1')).toEqual({ ...mainScene, id: 'w.1' });
    expect(here.problems).toEqual(main.problems);
    expect(here.cuts).toEqual(main.cuts);
  });

  it('an image by URL or path is not read in the worker: the preview is refused, not drawn without it', async () => {
    const { template } = await call('templates.get', { ref });
    const withFile = {
      ...template,
      elements: template.elements.map((el) => (el.type === 'image' ? { ...el, url: 'logo.png' } : el)),
    };
    await expect(previewLabel(withFile, values, workerPorts())).rejects.toThrow(NotInWorker);
  });
});

describe('values that do not fit', () => {
  it('names the field and what is lost when an address is too long for its box (#17 item 6)', async () => {
    const address =
      '12 Analytical Row\nFlat 7, Babbage House\nMarylebone\nLondon NW1 6XE\nGreater London\nUnited Kingdom';
    const { cuts, problems } = await call('preview.scene', {
      ref,
      values: { ...values, ship_to_address: address },
    });
    expect(problems).toEqual([]);
    expect(cuts).toHaveLength(1);
    expect(cuts[0]).toMatchObject({ field: 'ship_to_address' });
    expect(cuts[0]!.message).toMatch(
      /^Address: “.*United Kingdom” does not fit on the label and would be cut off\.$/,
    );
    const fits = await call('preview.scene', { ref, values });
    expect(fits.cuts).toEqual([]);
  });
});

describe('templates', () => {
  it('imports a template file into the user folder, and names the problem of a bad one', async () => {
    await expect(
      call('templates.import', { fileName: 'broken.json', text: '{"name": ' }),
    ).rejects.toMatchObject({
      code: 'invalid',
      message: expect.stringMatching(/broken\.json.*not valid JSON/s),
    });
    const bad = JSON.stringify({
      schemaVersion: 1,
      name: 'x',
      stage: { width: 2, height: 1, unit: 'in' },
      fields: [],
      elements: [{ type: 'barcode', x: 0, y: 0, width: 10, height: 10, value: '1', format: 'code12' }],
    });
    await expect(call('templates.import', { fileName: 'x.json', text: bad })).rejects.toMatchObject({
      message: expect.stringContaining('elements[0].format'),
    });
    const { template } = await call('templates.get', { ref: { source: 'bundled', name: 'product-2x1' } });
    const imported = await call('templates.import', {
      fileName: 'mine.json',
      text: JSON.stringify({ ...template, name: 'my-product' }),
    });
    expect(imported.ref).toEqual({ source: 'user', name: 'my-product' });
    const { templates } = await call('templates.list', {});
    expect(templates.some((t) => t.ref.source === 'user' && t.ref.name === 'my-product')).toBe(true);
  });
});

describe('printing', () => {
  it('prints 2 copies as a job: each arrives once and decodes to the typed tracking number', async () => {
    const before = zebra.jobs.length;
    const sent = await call('print.submit', { ref, values, copies: 2, printer: '1' });
    const job = sent.job!;
    expect(sent.message).toBe('Printing 2 labels on Dock Zebra.');
    expect(job).toMatchObject({ labelCount: 2, printerId: '1', printerName: 'Dock Zebra' });
    await expect.poll(() => zebra.jobs.length - before, { timeout: 20_000 }).toBe(2);
    for (const [i, received] of zebra.jobs.slice(before).entries()) {
      expect(scanZplJob(received.zpl, dir, `svc-${i}`)).toContain(values.tracking);
    }
    await expect
      .poll(async () => (await call('jobs.get', { id: job.id })).job.state, { timeout: 20_000 })
      .toBe('done');
    const { labels } = await call('jobs.get', { id: job.id });
    expect(labels.map((l) => l.state)).toEqual(['confirmed', 'confirmed']);
    // History shows what is on each label and finds the job by what was typed (#17 item 9).
    expect(labels[0]?.values).toEqual(
      expect.arrayContaining([
        { label: 'Recipient', value: 'Grace Hopper' },
        { label: 'Tracking number', value: values.tracking },
      ]),
    );
    expect((await call('jobs.list', { text: 'grace' })).map((j) => j.id)).toContain(job.id);
    expect((await call('jobs.list', { text: 'zzz' })).map((j) => j.id)).not.toContain(job.id);
    expect(events.some((e) => e.kind === 'job' && e.job.id === job.id)).toBe(true);
    // Printing moved the template to the front of the recent list.
    expect((await call('settings.get', {})).recentTemplates[0]).toEqual(ref);
  });

  it('a 300-dpi printer added with a darkness value prints at 300 dpi (^PW1200) with that darkness', async () => {
    // Issue #17: the darkness made a profile whose dpi was "203 detected" although nobody had asked the printer.
    const dock = await startZebraEmulator({ dpi: 300 });
    try {
      const added = await call('printers.save', { name: 'Dock 300', uri: dock.uri, darkness: 22 });
      expect(added).toMatchObject({ dpi: null, dpiSource: null, darkness: 22 });
      const { job } = await call('print.submit', { ref, values, copies: 1, printer: added.id });
      await expect.poll(() => dock.jobs.length, { timeout: 20_000 }).toBe(1);
      const zpl = dock.jobs[0]!.zpl;
      expect(zpl).toContain('^PW1200');
      expect(zpl).toContain('^LL1800');
      expect(zpl).toContain('~SD22');
      // The printer said 300: the profile now says so, and still has the darkness a person set.
      const [view] = (await call('printers.list', {})).filter((p) => p.id === added.id);
      expect(view).toMatchObject({ dpi: 300, dpiSource: 'detected', darkness: 22 });
      await expect
        .poll(async () => (await call('jobs.get', { id: job!.id })).job.state, { timeout: 20_000 })
        .toBe('done');
      await call('printers.remove', { id: added.id });
    } finally {
      await dock.close();
    }
  });

  it('a printer added while unreachable has no dpi until it answers (never "203 detected")', async () => {
    const added = await call('printers.save', { name: 'Away', uri: 'tcp://127.0.0.1:1', darkness: 10 });
    expect(added).toMatchObject({ dpi: null, dpiSource: null, darkness: 10 });
    await call('printers.remove', { id: added.id });
  });

  it('while a job waits on paper out, the printer shows what the job saw, then the labels print once', async () => {
    const before = zebra.jobs.length;
    zebra.setFault({ paperOut: true });
    const { job } = await call('print.submit', { ref, values, copies: 1, printer: '1' });
    await expect
      .poll(async () => (await call('printers.status', { printer: '1' })).state, { timeout: 15_000 })
      .toBe('paper-out');
    expect((await call('printers.status', { printer: '1' })).message).toMatch(/^Job paused: .*paper/);
    expect(events.some((e) => e.kind === 'job' && e.job.id === job!.id && e.job.state === 'paused')).toBe(
      true,
    );
    zebra.setFault({ paperOut: false });
    await expect
      .poll(async () => (await call('jobs.get', { id: job!.id })).job.state, { timeout: 20_000 })
      .toBe('done');
    expect(zebra.jobs.length - before).toBe(1);
    expect((await call('printers.status', { printer: '1' })).state).toBe('ready');
  });

  it('refuses a label whose required field is empty, naming the field, and sends nothing', async () => {
    const before = zebra.jobs.length;
    await expect(
      call('print.submit', { ref, values: { ...values, tracking: '' }, copies: 1, printer: '1' }),
    ).rejects.toMatchObject({ code: 'invalid', field: 'tracking', action: 'field' });
    await expect(
      call('output.export', { ref, values: { ...values, tracking: '' }, copies: 1, format: 'pdf' }),
    ).rejects.toMatchObject({ field: 'tracking' });
    await new Promise((r) => setTimeout(r, 300));
    expect(zebra.jobs.length).toBe(before);
  });

  it('sends an office queue one PDF, not ZPL', async () => {
    const out = join(dir, 'office.pdf');
    const office = await call('printers.save', { name: 'Office', uri: `file://${out}` });
    expect(office.language).toBe('pdf');
    const sent = await call('print.submit', { ref, values, copies: 3, printer: office.id });
    expect(sent).toEqual({ job: null, message: 'Sent 3 labels as one PDF to Office.' });
    const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' });
    expect(text.match(/Grace Hopper/g)).toHaveLength(3);
    await expect(
      call('batch.start', { ref, csv: 'tracking\n1Z1\n', printer: office.id, skipInvalid: true }),
    ).rejects.toMatchObject({ code: 'printer' });
  });

  it('never gives a new printer the id of a removed one; removing the default names another (#42 item 5)', async () => {
    const temp = await call('printers.save', { name: 'Temp', uri: 'tcp://127.0.0.1:9' });
    await call('settings.update', { defaultPrinter: temp.id });
    expect((await call('printers.remove', { id: temp.id })).removed).toBe(true);
    const listed = (await call('printers.list', {})).map((p) => p.id);
    expect(listed.length).toBeGreaterThan(0);
    const { defaultPrinter, lastPrinter } = await call('settings.get', {});
    // The printer last chosen when it is still there, else the first listed.
    expect(defaultPrinter).toBe(lastPrinter && listed.includes(lastPrinter) ? lastPrinter : listed[0]);
    const next = await call('printers.save', { name: 'Next', uri: 'tcp://127.0.0.1:10' });
    expect(next.id).not.toBe(temp.id);
    await call('printers.remove', { id: next.id });
    await call('settings.update', { defaultPrinter: null });
  });

  it('keeps the API secret off the network: https, or http to this computer only', async () => {
    await expect(call('settings.update', { apiBaseUrl: 'http://labels.example.com' })).rejects.toMatchObject({
      code: 'bad-request',
      field: 'apiBaseUrl',
    });
    await call('settings.update', { apiBaseUrl: 'http://127.0.0.1:8787' });
    await call('settings.update', { apiBaseUrl: 'https://labels.example.com' });
  });

  it('saves a PDF and a ZPL file for the chosen printer', async () => {
    const pdf = await call('output.export', { ref, values, copies: 2, format: 'pdf' });
    expect(pdf.fileName).toBe('shipping-4x6.pdf');
    expect(Buffer.from(pdf.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const zpl = await call('output.export', { ref, values, copies: 1, format: 'zpl', printer: '2' });
    const text = Buffer.from(zpl.base64, 'base64').toString();
    expect(text).toMatch(/^\^XA/);
    expect(text).toContain('^PW1200'); // the 300-dpi printer's width
  });
});

describe('hosted API', () => {
  it('captures a hosted template by name into the captured folder, then previews it locally', async () => {
    const hostedDir = mkdtempSync(join(tmpdir(), 'ld-services-hosted-'));
    const { key, secret } = await createKey(join(hostedDir, 'keys.json'));
    const server = await startServer({ dataDir: hostedDir, port: 0 });
    try {
      await call('settings.update', {
        apiBaseUrl: server.url,
        apiKey: key,
        apiSecret: secret,
        mode: 'hosted',
      });
      expect((await call('connection.test', {})).ok).toBe(true);
      const { summary } = await call('templates.capture', {
        name: 'product-2x1',
        fields: [{ name: 'product_name' }, { name: 'sku' }],
      });
      expect(summary.ref).toEqual({ source: 'captured', name: 'product-2x1' });
      const preview = await call('preview.scene', { ref: summary.ref, values: { product_name: 'Widget' } });
      expect(JSON.stringify(preview.scene)).toContain('Widget');
      // One fetch-markups call for the capture, counted; the preview cost nothing.
      expect((await call('connection.status', {})).printsUsed).toEqual({ labels: 1, requests: 1 });
    } finally {
      await call('settings.update', { mode: 'local' });
      await server.close();
      rmSync(hostedDir, { recursive: true, force: true });
    }
  });
});
