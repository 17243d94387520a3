/** The one decision of dpi and ZPL settings for jobs: asked, else profile, else the printer, else 203 (warned). */
import { describe, expect, it } from 'vitest';
import { defaultProfile, parsePrinterProfile } from '../../../src/printers/profiles';
import { PrinterRefused, type PrinterTransport } from '../../../src/printers/transport';
import { decidePrinterSetup } from '../../../main/jobs/printer-setup';
import { ZebraPrinterModel } from '../../emulator/zebra-core';
import { memoryTransport } from '../../support/memory-transport';

const URI = 'tcp://10.0.0.5:9100';
const printerAt = (dpi: number) => async (): Promise<PrinterTransport> => {
  const t = memoryTransport(new ZebraPrinterModel({ dpi }), URI);
  await t.open();
  return t;
};
const unreachable = async (): Promise<PrinterTransport> => {
  throw new PrinterRefused(`${URI}: connection refused`, URI);
};

describe('decidePrinterSetup', () => {
  it('the dpi asked for wins; the profile applies its print width, offsets and darkness at its own dpi', async () => {
    const profile = parsePrinterProfile({
      ...defaultProfile(URI, 'Dock 7', 300, 'set'),
      printWidthDots: 1200,
      darkness: 20,
      offset: { x: 8, y: 0 },
    });
    expect(await decidePrinterSetup(URI, undefined, { profile, connect: unreachable })).toEqual({
      dpi: 300,
      detected: false,
      zpl: { maxWidthDots: 1200, labelHome: { x: 8, y: 0 }, darkness: { mode: 'absolute', level: 20 } },
      warnings: [],
    });
    expect(await decidePrinterSetup(URI, 203, { profile, connect: unreachable })).toEqual({
      dpi: 203,
      detected: false,
      zpl: { maxWidthDots: 832 },
      warnings: [],
    });
  });

  it('without a profile it asks the printer; an unreachable printer means 203 dpi, with warnings', async () => {
    expect(
      await decidePrinterSetup(URI, undefined, { profile: undefined, connect: printerAt(600) }),
    ).toMatchObject({
      dpi: 600,
      detected: true,
      warnings: [],
    });
    const guessed = await decidePrinterSetup(URI, undefined, { profile: undefined, connect: unreachable });
    expect(guessed.dpi).toBe(203);
    expect(guessed.warnings).toEqual([
      `${URI}: ${URI}: connection refused; the job is stored and waits for the printer`,
      `${URI} did not report its resolution; rendering at 203 dpi (use --dpi)`,
    ]);
  });
});
