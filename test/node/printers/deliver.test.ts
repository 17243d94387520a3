/**
 * deliverLabels (src/printers/deliver.ts) over real TCP against the Zebra emulator: what `labeldesk print` and
 * the print relay promise. Every label arrives; a label is counted only once the printer answered ~HS after it;
 * a fault resends from the first label not confirmed, reporting that one as a possible duplicate; a printer that
 * stops reading or answering is reported as such, never as delivered; retries are bounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryFailed, deliverLabels, type DeliveryOptions } from '../../../src/printers/deliver';
import { createTransport } from '../../../src/node/printers/open-transport';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';

const label = (n: number): string => `^XA^FO20,20^A0N,30,30^FDParcel ${n} ${'x'.repeat(200)}^FS^XZ`;
const labels = (count: number): string[] => Array.from({ length: count }, (_, i) => label(i + 1));
const printedParcels = (emulator: ZebraEmulator): number[] =>
  emulator.printer.printed.map((j) => Number(/Parcel (\d+)/.exec(j.zpl)?.[1] ?? -1));

let emulators: ZebraEmulator[] = [];
afterEach(async () => {
  for (const e of emulators) await e.close();
  emulators = [];
});
async function emulator(): Promise<ZebraEmulator> {
  const e = await startZebraEmulator({ dpi: 203, port: 0 });
  emulators.push(e);
  return e;
}
const connectTo = (uri: string) => async () => {
  const t = createTransport(uri);
  try {
    await t.open({ timeoutMs: 2_000 });
  } catch (e) {
    await t.close().catch(() => undefined);
    throw e;
  }
  return t;
};
const options = (over: Partial<DeliveryOptions> = {}): DeliveryOptions => ({
  retries: 3,
  backoffMs: 5,
  confirmTimeoutMs: 300,
  writeStallMs: 500,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  ...over,
});

describe('deliverLabels over TCP', () => {
  it('delivers every label once, each confirmed by the printer', async () => {
    const e = await emulator();
    const report = await deliverLabels(connectTo(e.uri), labels(5), options());
    expect(report).toEqual({ confirmed: 5, possibleDuplicates: [], confirmedBy: 'printer', attempts: 1 });
    expect(printedParcels(e)).toEqual([1, 2, 3, 4, 5]);
  });

  it.each([100, 250, 777, 1100])(
    'a connection reset after %i bytes: every label arrives, only the one in flight may be twice, and it is named',
    async (bytes) => {
      const e = await emulator();
      e.setFault({ dropAfterBytes: { bytes, every: false } });
      const retried: number[] = [];
      const report = await deliverLabels(
        connectTo(e.uri),
        labels(6),
        options({ onRetry: (f) => retried.push(f.labelNumber) }),
      );
      expect(report.confirmed).toBe(6);
      expect(report.attempts).toBe(2);
      expect(retried).toHaveLength(1);
      const printed = printedParcels(e);
      expect([...new Set(printed)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
      const twice = printed.filter((n, i) => printed.indexOf(n) !== i);
      // The cut label was discarded by the printer, so nothing printed twice here; it was still flagged.
      expect(twice).toEqual([]);
      expect(report.possibleDuplicates).toEqual(retried);
    },
  );

  it('a printer that resets every connection: bounded retries, then a sentence naming what was confirmed', async () => {
    const e = await emulator();
    // Every connection is reset inside label 1.
    e.setFault({ dropAfterBytes: { bytes: 100, every: true } });
    const failure = await deliverLabels(connectTo(e.uri), labels(3), options({ retries: 2 })).catch(
      (x: unknown) => x,
    );
    expect(failure).toBeInstanceOf(DeliveryFailed);
    const f = failure as DeliveryFailed;
    expect(f.kind).toBe('unreachable');
    expect(f.report.attempts).toBe(3);
    // Sent on each of the 3 connections: two resends, each a copy that may have printed.
    expect(f.report.possibleDuplicates).toEqual([1, 1]);
    expect(f.message).toMatch(
      /^label 1 of 3 was not confirmed after 2 retries: .*connection.*; no label was confirmed; label 1 was sent 3 times and may have printed$/,
    );
    expect(printedParcels(e)).toEqual([]);
  });

  it('a link that drops now and then does not use up the retries while labels get through', async () => {
    const e = await emulator();
    // Each connection is reset inside its second label: one label confirmed per connection.
    e.setFault({ dropAfterBytes: { bytes: 400, every: true } });
    const report = await deliverLabels(connectTo(e.uri), labels(5), options({ retries: 1 }));
    expect(report.confirmed).toBe(5);
    expect(report.attempts).toBeGreaterThanOrEqual(3);
    expect([...new Set(printedParcels(e))].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('a printer that reads but never answers is "not confirmed", not delivered', async () => {
    const e = await emulator();
    e.setFault({ silent: true });
    const failure = await deliverLabels(connectTo(e.uri), labels(2), options({ retries: 1 })).catch(
      (x: unknown) => x,
    );
    expect(failure).toBeInstanceOf(DeliveryFailed);
    expect((failure as DeliveryFailed).kind).toBe('unconfirmed');
    expect((failure as DeliveryFailed).report.confirmed).toBe(0);
    expect((failure as DeliveryFailed).message).toMatch(/no label was confirmed/);
  });

  it('a printer that stops reading is reported as stalled at once (no retry), and what was queued is dropped', async () => {
    const e = await emulator();
    e.setFault({ stalled: true });
    // Enough bytes to fill the socket buffers on both sides, so the write itself stalls.
    const big = [`^XA^FO0,0^FD${'y'.repeat(8 * 1024 * 1024)}^FS^XZ`];
    const failure = await deliverLabels(connectTo(e.uri), big, options()).catch((x: unknown) => x);
    expect(failure).toBeInstanceOf(DeliveryFailed);
    expect((failure as DeliveryFailed).kind).toBe('stalled');
    expect((failure as DeliveryFailed).report.attempts).toBe(1);
    expect((failure as DeliveryFailed).message).toMatch(/stopped accepting data at label 1 of 1/);
    // The printer starts reading again: the aborted job must not print now.
    e.setFault({ stalled: false });
    await new Promise((r) => setTimeout(r, 200));
    expect(e.printer.printed).toEqual([]);
  });

  it('an unknown host is refused without retries', async () => {
    const failure = await deliverLabels(
      connectTo('tcp://no-such-printer.invalid:9100'),
      labels(1),
      options(),
    ).catch((x: unknown) => x);
    expect(failure).toBeInstanceOf(DeliveryFailed);
    expect((failure as DeliveryFailed).kind).toBe('refused');
    expect((failure as DeliveryFailed).report.attempts).toBe(1);
  });
});

describe('deliverLabels resuming a job and telling about each label (the site print queue)', () => {
  it('resume: labels before are not sent; numbers count in the whole job; an in-doubt first label is flagged', async () => {
    const e = await emulator();
    const events: string[] = [];
    const all = labels(6);
    const report = await deliverLabels(
      connectTo(e.uri),
      all.slice(3),
      options({
        resume: { confirmed: 3, inDoubt: true },
        beforeLabel: async (n, dup) => void events.push(`send ${n}${dup ? ' again' : ''}`),
        onConfirmed: async (n) => void events.push(`confirmed ${n}`),
      }),
    );
    expect(report).toEqual({ confirmed: 6, possibleDuplicates: [4], confirmedBy: 'printer', attempts: 1 });
    expect(printedParcels(e)).toEqual([4, 5, 6]);
    expect(events).toEqual(['send 4 again', 'confirmed 4', 'send 5', 'confirmed 5', 'send 6', 'confirmed 6']);
  });

  it('resume without doubt: no duplicate; a fault then flags only the label in flight, by its number in the job', async () => {
    const e = await emulator();
    // Inside label 5 (each is ~240 bytes): the first connection carries labels 4 and part of 5.
    e.setFault({ dropAfterBytes: { bytes: 300, every: false } });
    const resent: number[] = [];
    const report = await deliverLabels(
      connectTo(e.uri),
      labels(6).slice(3),
      options({
        resume: { confirmed: 3, inDoubt: false },
        beforeLabel: async (n, dup) => void (dup && resent.push(n)),
      }),
    );
    expect(report.confirmed).toBe(6);
    expect(report.possibleDuplicates).toEqual([5]);
    expect(resent).toEqual([5]);
    expect([...new Set(printedParcels(e))]).toEqual([4, 5, 6]);
  });

  it('a hook that rejects stops the delivery with its own error, and the label is not written', async () => {
    const e = await emulator();
    const stop = new Error('lease lost');
    const failure = await deliverLabels(
      connectTo(e.uri),
      labels(4),
      options({
        beforeLabel: async (n) => {
          if (n === 3) throw stop;
        },
      }),
    ).catch((x: unknown) => x);
    expect(failure).toBe(stop);
    expect(printedParcels(e)).toEqual([1, 2]);
  });

  it('failure messages count labels in the whole job', async () => {
    const failure = await deliverLabels(
      connectTo('tcp://127.0.0.1:1'),
      labels(6).slice(2),
      options({ retries: 0, resume: { confirmed: 2, inDoubt: false } }),
    ).catch((x: unknown) => x);
    expect(failure).toBeInstanceOf(DeliveryFailed);
    expect((failure as DeliveryFailed).message).toMatch(/label 3 of 6 was not confirmed/);
    expect((failure as DeliveryFailed).message).toMatch(/labels 1 to 2 were confirmed/);
  });
});
