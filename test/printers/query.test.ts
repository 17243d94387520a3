/** The pure queries, over an in-memory link to the emulated printer. */
import { describe, expect, it } from 'vitest';
import { queryDpi, queryIdentity, queryStatus, queryVariable } from '../../src/printers/query';
import type { PrinterTransport } from '../../src/printers/transport';
import { PrinterUnsupported } from '../../src/printers/transport';
import { ZebraPrinterModel } from '../emulator/zebra-core';
import { memoryTransport } from '../support/memory-transport';

async function link(options: ConstructorParameters<typeof ZebraPrinterModel>[0]) {
  const printer = new ZebraPrinterModel(options);
  const transport = memoryTransport(printer);
  await transport.open();
  return { printer, transport };
}

describe('queries', () => {
  it('status, identity, dpi at 203, 300 and 600', async () => {
    for (const dpi of [203, 300, 600]) {
      const { transport } = await link({ dpi });
      expect((await queryStatus(transport)).state).toBe('ready');
      expect((await queryIdentity(transport)).dotsPerMm).toBe(Math.round(dpi / 25.4));
      expect(await queryDpi(transport)).toEqual({
        dpi,
        source: 'sgd',
        printWidthDots: Math.round((dpi * 4.1) / 8) * 8,
      });
    }
  });

  it('the print width a printer reports is taken only when a head can have it', async () => {
    expect((await queryDpi((await link({ dpi: 203, printWidthDots: 448 })).transport)).printWidthDots).toBe(
      448,
    );
    for (const printWidthDots of [0, 99_999]) {
      const { transport } = await link({ dpi: 203, printWidthDots });
      expect(await queryDpi(transport)).toEqual({ dpi: 203, source: 'sgd' });
    }
  });

  it('falls back to ~HI when SGD is not spoken', async () => {
    const { transport } = await link({ dpi: 600, sgd: false });
    expect(await queryDpi(transport, { timeoutMs: 100 })).toEqual({ dpi: 600, source: 'identity' });
  });

  it('status of a jobs-only transport is unknown, never ready', async () => {
    const jobsOnly: PrinterTransport = {
      uri: 'cups://LabelQ',
      capabilities: { status: false },
      open: async () => undefined,
      write: async () => undefined,
      request: () => Promise.reject(new PrinterUnsupported('no', 'cups://LabelQ')),
      close: async () => undefined,
    };
    expect(await queryStatus(jobsOnly)).toEqual({
      state: 'unknown',
      reasons: ['cups://LabelQ cannot report printer status (jobs only)'],
      formatsInBuffer: null,
      labelsRemaining: null,
    });
  });

  it('a garbled dpi value falls back to ~HI; a variable name that could inject SGD is refused', async () => {
    const { transport } = await link({ dpi: 203 });
    await transport.write('! U1 setvar "head.resolution.in_dpi" "lots"\r\n');
    // The garbled SGD value falls back to ~HI.
    expect(await queryDpi(transport)).toEqual({ dpi: 203, source: 'identity' });
    await expect(queryVariable(transport, 'x" "y')).rejects.toThrow(RangeError);
  });
});
