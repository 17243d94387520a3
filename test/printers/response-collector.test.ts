/**
 * The request/response collector every stream transport shares. Pinned here: when the link drops while a query
 * is being written, the caller gets exactly one typed error and nothing is left rejected in the background — an
 * unhandled rejection there took `labeldesk batch`, `serve` and the app down (issue #15).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResponseCollector } from '../../src/printers/response-collector';
import { PrinterDisconnected, PrinterTimeout } from '../../src/printers/transport';

const URI = 'tcp://printer:9100';
const threeFrames = (r: Uint8Array): boolean => r.filter((b) => b === 0x03).length >= 3;

/** Rejections nobody handled while a test ran (vitest would also fail the run; this names the test). */
let unhandled: unknown[] = [];
const record = (reason: unknown): void => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', record);
});
afterEach(() => {
  process.off('unhandledRejection', record);
});
/** Unhandled rejections are reported after the microtask queue drains: give it two macrotask turns. */
const settled = async (): Promise<void> => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

describe('ResponseCollector', () => {
  it('link lost while the query is written: one typed error for the caller, no rejection left behind', async () => {
    const collector = new ResponseCollector(URI);
    const lost = new PrinterDisconnected(
      `${URI}: connection lost after 0 of 0 bytes (ECONNRESET)`,
      URI,
      0,
      0,
    );
    const writeError = new PrinterDisconnected(
      `${URI}: connection lost after 0 of 3 bytes (EPIPE)`,
      URI,
      0,
      3,
    );
    // As in the stream transports: the stream's 'error' fails the pending answer, then the write rejects.
    const send = async (): Promise<void> => {
      collector.fail(lost);
      throw writeError;
    };
    await expect(collector.request(send, { isComplete: threeFrames, timeoutMs: 1_000 })).rejects.toBe(
      writeError,
    );
    await settled();
    expect(unhandled).toEqual([]);
  });

  it('link lost after the query went out: the pending request fails with the link error', async () => {
    const collector = new ResponseCollector(URI);
    const lost = new PrinterDisconnected(`${URI}: connection closed by the printer`, URI, 0, 0);
    const answer = collector.request(async () => undefined, { isComplete: threeFrames, timeoutMs: 1_000 });
    collector.fail(lost);
    await expect(answer).rejects.toBe(lost);
    await settled();
    expect(unhandled).toEqual([]);
  });

  it('an answer in 1-byte pieces is collected whole; bytes from before the request are dropped', async () => {
    const collector = new ResponseCollector(URI);
    collector.push(new TextEncoder().encode('\u0002stale\u0003'));
    const reply = '\u0002a\u0003\u0002b\u0003\u0002c\u0003';
    const answer = collector.request(
      async () => {
        queueMicrotask(() => {
          for (const byte of new TextEncoder().encode(reply)) collector.push(Uint8Array.of(byte));
        });
      },
      { isComplete: threeFrames, timeoutMs: 1_000 },
    );
    expect(new TextDecoder().decode(await answer)).toBe(reply);
  });

  it('a partial answer times out with what came, typed', async () => {
    const collector = new ResponseCollector(URI);
    const answer = collector.request(
      async () => {
        queueMicrotask(() => collector.push(new TextEncoder().encode('\u0002a\u0003\u0002b')));
      },
      { isComplete: threeFrames, timeoutMs: 30 },
    );
    const error = await answer.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PrinterTimeout);
    expect(new TextDecoder().decode((error as PrinterTimeout).received)).toBe('\u0002a\u0003\u0002b');
  });
});
