/**
 * The one decision of dpi and ZPL settings (print, jobs, app): asked, else a person's profile setting, else the
 * printer (when there is no profile, or the caller refreshes), else the profile's detected dpi, else 203.
 */
import { describe, expect, it } from 'vitest';
import { askOverNewConnection, decidePrinterSetup, dpiReportedBy } from '../../../src/node/printers/setup';
import { defaultProfile, parsePrinterProfile } from '../../../src/printers/profiles';
import { PrinterRefused, type PrinterTransport } from '../../../src/printers/transport';
import { ZebraPrinterModel } from '../../emulator/zebra-core';
import { memoryTransport } from '../../support/memory-transport';

const URI = 'tcp://10.0.0.5:9100';
/** A Zebra at `dpi` behind a new connection each time (the emulator answers ~HI), counting the connections. */
function printerAt(dpi: number, more: { printWidthDots?: number; sgd?: boolean } = {}) {
  const opened: PrinterTransport[] = [];
  const connect = async (): Promise<PrinterTransport> => {
    const t = memoryTransport(new ZebraPrinterModel({ dpi, ...more }), URI);
    await t.open();
    opened.push(t);
    return t;
  };
  return { connect, opened, askDpi: askOverNewConnection(URI, connect) };
}
const unreachable = async (): Promise<number | undefined> => {
  throw new PrinterRefused(`${URI}: connection refused`, URI);
};
const detectedAt = (dpi: number) => defaultProfile(URI, 'Dock 7', dpi, 'detected');

describe('decidePrinterSetup', () => {
  it('a profile whose dpi is only assumed asks the printer, keeps its darkness, and saves the answer as detected', async () => {
    // Issue #17: a printer added with a darkness but no dpi printed at 203 on a 300 dpi head (68 % labels).
    const assumed = parsePrinterProfile({ ...defaultProfile(URI, 'Dock 7', 203, 'assumed'), darkness: 22 });
    const printer = printerAt(300);
    const setup = await decidePrinterSetup(URI, undefined, { profile: assumed, askDpi: printer.askDpi });
    expect(setup).toMatchObject({
      dpi: 300,
      detected: true,
      zpl: { maxWidthDots: 1232, darkness: { mode: 'absolute', level: 22 } },
    });
    expect(setup.save).toMatchObject({ dpi: 300, dpiSource: 'detected', darkness: 22, printWidthDots: 1232 });
    // Unreachable: nobody knows the dpi, so the fallback comes with a warning rather than passing for a fact.
    const away = await decidePrinterSetup(URI, undefined, { profile: assumed, askDpi: unreachable });
    expect(away.dpi).toBe(203);
    expect(away.save).toBeUndefined();
    expect(away.warnings.join(' ')).toMatch(/did not report its resolution/);
  });

  it('a new printer’s head width is the one it reports (a 2-inch printer is not cut to 4 inches); a width a person set stays', async () => {
    // #42 item 1: the printer view and the fit check use the width the head prints, asked over SGD.
    const narrow = printerAt(203, { printWidthDots: 448 });
    const setup = await decidePrinterSetup(URI, undefined, { profile: undefined, askDpi: narrow.askDpi });
    expect(setup).toMatchObject({ dpi: 203, detected: true, zpl: { maxWidthDots: 448 } });
    expect(setup.save).toMatchObject({ dpi: 203, dpiSource: 'detected', printWidthDots: 448 });
    // Asked again (a refresh), a width someone typed is kept.
    const typed = parsePrinterProfile({ ...detectedAt(203), printWidthDots: 400 });
    const again = await decidePrinterSetup(URI, undefined, {
      profile: typed,
      askDpi: narrow.askDpi,
      refresh: true,
    });
    expect(again.zpl.maxWidthDots).toBe(400);
    // Older firmware without SGD: the dpi from ~HI, the default 4-inch width at that dpi.
    const old = printerAt(300, { sgd: false });
    const oldSetup = await decidePrinterSetup(URI, undefined, { profile: undefined, askDpi: old.askDpi });
    expect(oldSetup).toMatchObject({ dpi: 300, zpl: { maxWidthDots: 1232 } });
  });

  it('the dpi asked for wins; the profile applies its print width, offsets and darkness at its own dpi', async () => {
    const profile = parsePrinterProfile({
      ...defaultProfile(URI, 'Dock 7', 300, 'set'),
      printWidthDots: 1200,
      darkness: 20,
      offset: { x: 8, y: 0 },
    });
    expect(await decidePrinterSetup(URI, undefined, { profile, askDpi: unreachable, refresh: true })).toEqual(
      {
        dpi: 300,
        detected: false,
        zpl: { maxWidthDots: 1200, labelHome: { x: 8, y: 0 }, darkness: { mode: 'absolute', level: 20 } },
        warnings: [],
      },
    );
    expect(await decidePrinterSetup(URI, 203, { profile, askDpi: unreachable })).toEqual({
      dpi: 203,
      detected: false,
      zpl: { maxWidthDots: 832 },
      warnings: [],
    });
  });

  it('without a profile it asks the printer and returns a new profile to save, closing its connection', async () => {
    const printer = printerAt(600);
    const setup = await decidePrinterSetup(URI, undefined, { profile: undefined, askDpi: printer.askDpi });
    expect(setup).toMatchObject({ dpi: 600, detected: true, warnings: [], zpl: { maxWidthDots: 2464 } });
    expect(setup.save).toMatchObject({ uri: URI, name: '10.0.0.5:9100', dpi: 600, dpiSource: 'detected' });
    expect(printer.opened).toHaveLength(1);
    await expect(printer.opened[0]!.write('~HS')).rejects.toThrow(/not open/);
  });

  it('trusts a detected profile without asking, unless the caller refreshes it (then a new dpi is saved)', async () => {
    const printer = printerAt(300);
    const kept = await decidePrinterSetup(URI, undefined, {
      profile: detectedAt(203),
      askDpi: printer.askDpi,
    });
    expect([kept.dpi, kept.save, printer.opened.length]).toEqual([203, undefined, 0]);

    const refreshed = await decidePrinterSetup(URI, undefined, {
      profile: detectedAt(203),
      askDpi: printer.askDpi,
      refresh: true,
    });
    expect(refreshed).toMatchObject({ dpi: 300, detected: true, zpl: { maxWidthDots: 1232 } });
    expect(refreshed.save).toMatchObject({ dpi: 300, printWidthDots: 1232, name: 'Dock 7' });
    // The same answer again changes nothing to save.
    const same = await decidePrinterSetup(URI, undefined, {
      profile: detectedAt(300),
      askDpi: printer.askDpi,
      refresh: true,
    });
    expect(same.save).toBeUndefined();
  });

  it('an unreachable printer: its profile if any, else 203 with warnings that say what happens', async () => {
    const withProfile = await decidePrinterSetup(URI, undefined, {
      profile: detectedAt(300),
      askDpi: unreachable,
      refresh: true,
    });
    expect([withProfile.dpi, withProfile.warnings]).toEqual([300, [`${URI}: connection refused`]]);

    const guessed = await decidePrinterSetup(URI, undefined, {
      profile: undefined,
      askDpi: unreachable,
      whenUnreachable: 'the job is stored and waits for the printer',
    });
    expect(guessed.dpi).toBe(203);
    expect(guessed.save).toBeUndefined();
    expect(guessed.warnings).toEqual([
      `${URI}: connection refused; the job is stored and waits for the printer`,
      `${URI} did not report its resolution; rendering at 203 dpi (use --dpi)`,
    ]);
  });

  it('a caller printing over its own connection can have an unanswered query fail instead', async () => {
    const setup = decidePrinterSetup(URI, undefined, {
      profile: detectedAt(300),
      askDpi: unreachable,
      refresh: true,
      failIfUnanswered: true,
    });
    await expect(setup).rejects.toThrow(/connection refused/);
  });

  it('a link that cannot report (a file, a CUPS queue) is not asked', async () => {
    const t = memoryTransport(new ZebraPrinterModel({ dpi: 300 }), URI);
    await t.open();
    const silent = { ...t, capabilities: { ...t.capabilities, status: false } } as PrinterTransport;
    expect(await dpiReportedBy(silent)).toBeUndefined();
    expect(await dpiReportedBy(t)).toEqual({ dpi: 300, source: 'sgd', printWidthDots: 1232 });
  });
});
