/**
 * The stream transports (TCP here; serial and the USB fallback share the collector) against a printer that
 * resets the connection, over real sockets: every operation fails once with a typed PrinterError and no
 * rejection is left in the background. Before issue #15, a reset that reached us just as `~HS` was written left
 * the answer promise rejected with no handler, and Node ended the process (`labeldesk batch`, `serve`, the app).
 *
 * The printer runs in a worker thread so that its reset can arrive while this thread is busy: the next write
 * then fails in the socket itself, which is the order of events that crashed (write error and stream error
 * together, while the query's answer is pending).
 */
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../../src/node/printers/open-transport';
import { hasFrames } from '../../../src/printers/status';
import { PrinterError } from '../../../src/printers/transport';

let unhandled: unknown[] = [];
const record = (reason: unknown): void => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', record);
});
afterEach(() => {
  process.off('unhandledRejection', record);
});

/** A printer in another thread that resets each connection when the first bytes arrive. */
async function resettingPrinter(): Promise<{ uri: string; stop: () => Promise<number> }> {
  const worker = new Worker(
    `const { createServer } = require('node:net');
     const { parentPort } = require('node:worker_threads');
     const server = createServer((s) => {
       s.on('error', () => {});
       s.once('data', () => s.resetAndDestroy());
     });
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    { eval: true },
  );
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  return { uri: `tcp://127.0.0.1:${port}`, stop: () => worker.terminate() };
}

/** Blocks this thread (not the printer's) for `ms`, so the reset arrives before we look at the socket again. */
const blockThisThread = (ms: number): void =>
  void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('a TCP printer that resets the connection', () => {
  it('a status query written just as the reset arrives fails once, typed; nothing is left rejected (20 times)', async () => {
    const printer = await resettingPrinter();
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const t = createTransport(printer.uri);
        await t.open({ timeoutMs: 2_000 });
        await t.write(`^XA^FDlabel ${i}^FS^XZ`); // the printer resets on these bytes
        blockThisThread(30);
        const outcome = await t.request('~HS', { timeoutMs: 500, isComplete: (r) => hasFrames(r, 3) }).then(
          () => 'answered',
          (e: unknown) => (e instanceof PrinterError ? e.code : `untyped: ${String(e)}`),
        );
        outcomes.push(outcome);
        await t.close().catch(() => undefined);
      }
    } finally {
      await printer.stop();
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
    expect(outcomes).toEqual(Array(20).fill('disconnected'));
  });
});
