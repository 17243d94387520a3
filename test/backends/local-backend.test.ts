/** The bundled engine as a LabelBackend: the same operations, the same error types as the hosted API. */
import { describe, expect, it } from 'vitest';
import { virtualClock } from '../../src/base/clock';
import {
  NoPrintersError,
  PrinterUnavailableError,
  RfidError,
  SvgExpiredError,
  ValidationError,
  apiErrorKind,
} from '../../src/backends/errors';
import { LocalEngineBackend } from '../../src/backends/local-backend';
import { downloadSvgFiles } from '../../src/backends/svg-download';
import { PrinterUnavailable, type PrinterGateway, type RelayPrinter } from '../../src/engine/printer-gateway';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { defaultTemplateStore } from '../../src/node/template-store';
import { TemplateNotFound } from '../../src/model/errors';

const clock = virtualClock(Date.UTC(2026, 9, 1));
const make = (printers?: PrinterGateway) =>
  new LocalEngineBackend({
    store: defaultTemplateStore(),
    ports: () => nodeRenderPorts(),
    clock,
    ...(printers ? { printers } : {}),
  });
const REQ = { label_name: 'shipping-4x6', amount: 2, apiData: { tracking: '1Z999AA10123456784' } };

function gateway(overrides: Partial<PrinterGateway> = {}) {
  const sent: { printer: RelayPrinter; format: string; labels: readonly (string | Uint8Array)[] }[] = [];
  const printer: RelayPrinter = { id: 3, name: 'Dock', uri: 'tcp://10.0.0.9:9100' };
  const g: PrinterGateway = {
    find: async (id) => (id === 3 ? printer : undefined),
    resolution: async () => ({ dpi: 300 }),
    accepts: () => true,
    send: async (p, job) => {
      sent.push({ printer: p, ...job });
    },
    ...overrides,
  };
  return { g, sent };
}

describe('LocalEngineBackend', () => {
  it('renders ZPL and PDF per copy in the API shapes', async () => {
    const b = make();
    const zpl = await b.renderZpl({ ...REQ, dpi: 300 });
    expect(zpl).toMatchObject({ dpi: 300, max_width_dots: 832, count: 2 });
    expect(/^\^XA[\s\S]*\^XZ\s*$/.test(zpl.labels[0] ?? '')).toBe(true);
    const pdf = await b.renderPdf(REQ);
    expect(pdf).toMatchObject({ mime: 'application/pdf', encoding: 'base64', count: 2 });
    expect(
      Buffer.from(pdf.labels[0] ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(await b.fetchMarkups(REQ)).toHaveLength(2);
  });

  it('maps engine errors to the API error types', async () => {
    const b = make();
    await expect(b.renderZpl({ ...REQ, label_name: 'Shipping-4x6' })).rejects.toBeInstanceOf(
      TemplateNotFound,
    );
    const amount = await b.renderZpl({ ...REQ, amount: 0 }).catch((e: unknown) => e);
    expect(amount).toBeInstanceOf(ValidationError);
    expect((amount as ValidationError).field).toBe('amount');
    const dpi = await b.renderZpl({ ...REQ, dpi: 50 }).catch((e: unknown) => e);
    expect((dpi as ValidationError).field).toBe('dpi');
    const rfid = { label_name: 'rfid-asset-4x2', amount: 1, apiData: {} };
    await expect(b.renderPdf(rfid)).rejects.toBeInstanceOf(RfidError);
    await expect(b.exportSvg(rfid)).rejects.toBeInstanceOf(RfidError);
    expect((await b.renderZpl(rfid)).labels[0]).toContain('^RFW');
  });

  it('export-svg without storage: data: URLs that downloadSvgFiles decodes, expiring after ttl_hours', async () => {
    const result = await make().exportSvg(REQ);
    expect(result.status).toBe('svg_exported');
    expect(result.ttl_hours).toBe(24);
    expect(result.expires_at).toBe('2026-10-02T00:00:00+00:00');
    expect(result.files.map((f) => f.path)).toEqual(['shipping-4x6-001.svg', 'shipping-4x6-002.svg']);
    const files = await downloadSvgFiles(result, () => Promise.reject(new Error('no network needed')), {
      clock,
    });
    expect(files[0]?.svg).toMatch(/^<svg|^<\?xml/);
    const later = virtualClock(Date.UTC(2026, 9, 3));
    await expect(downloadSvgFiles(result, globalThis.fetch, { clock: later })).rejects.toBeInstanceOf(
      SvgExpiredError,
    );
  });

  it('print routes: "no printers configured" without a gateway', async () => {
    const e = await make()
      .printRelay({ ...REQ, printer_id: 3 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NoPrintersError);
    expect((e as Error).message).toMatch(/^no printers configured/);
    expect(apiErrorKind(e)).toBe('no-printers');
  });

  it('print-relay renders at the printer dpi and sends one job; print-relay-pdf answers like the service', async () => {
    const { g, sent } = gateway();
    const b = make(g);
    expect(await b.printRelay({ ...REQ, printer_id: 3 })).toEqual({
      status: 'sent_to_printer',
      printer_dpi: 300,
    });
    expect(sent[0]?.format).toBe('zpl');
    // One ZPL format per copy, each delivered and confirmed on its own.
    expect(sent[0]?.labels.map((l) => (l as string).match(/\^XA/g)?.length)).toEqual([1, 1]);
    expect(await b.printRelayPdf({ ...REQ, printer_id: 3 })).toEqual({ status: 'sent_to_printer_png' });
    expect(sent[1]?.format).toBe('pdf');
    await expect(
      b.printRelayPdf({ label_name: 'rfid-asset-4x2', amount: 1, apiData: {}, printer_id: 3 }),
    ).rejects.toBeInstanceOf(RfidError);
    const unknown = await b.printRelay({ ...REQ, printer_id: 9 }).catch((x: unknown) => x);
    expect((unknown as ValidationError).field).toBe('printer_id');
  });

  it('an unreachable printer → PrinterUnavailableError naming it', async () => {
    const { g } = gateway({
      send: async (p) => {
        throw new PrinterUnavailable(p, 'connection refused');
      },
    });
    const e = await make(g)
      .printRelay({ ...REQ, printer_id: 3 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PrinterUnavailableError);
    expect((e as Error).message).toBe('printer 3 ("Dock"): connection refused');
  });
});
