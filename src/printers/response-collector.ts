/**
 * Request/response over a byte stream that has no framing of its own (TCP, serial, USB bulk IN): collects
 * incoming bytes and resolves a pending request when its completion test says the answer is whole. Shared by
 * every status-capable transport so they time out and discard stale bytes alike.
 */
import { DEFAULT_TIMEOUTS, PrinterTimeout, type RequestOptions } from './transport';

interface Pending {
  isComplete: (received: Uint8Array) => boolean;
  resolve: (answer: Uint8Array) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class ResponseCollector {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private pending: Pending | undefined;

  constructor(private readonly uri: string) {}

  /** Bytes arrived from the printer. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.check();
  }

  /**
   * Runs one request: drops bytes received so far (late answers to earlier queries), calls `send`, then waits
   * for a complete answer. Only one request at a time: transports serialise callers.
   */
  async request(send: () => Promise<void>, options: RequestOptions): Promise<Uint8Array> {
    if (this.pending) throw new Error('ResponseCollector: a request is already pending');
    this.clear();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs;
    const answer = new Promise<Uint8Array>((resolve, reject) => {
      this.pending = { isComplete: options.isComplete, resolve, reject, timer: undefined };
    });
    try {
      await send();
    } catch (e) {
      // The link can drop while the query is being written: then `fail()` has already rejected `answer`, and
      // nobody will ever await it — the write's own error is what the caller gets. Observe the rejection so it
      // is not an unhandled one (which would take the whole process down).
      answer.catch(() => undefined);
      this.settle();
      throw e;
    }
    const pending = this.pending as Pending | undefined; // set by the executor above, unless send() settled it
    if (pending) {
      // The clock starts once the query is out: a slow write is the write timeout's business.
      pending.timer = setTimeout(() => {
        const partial = this.take();
        this.settle()?.reject(
          new PrinterTimeout(
            partial.length
              ? `${this.uri}: incomplete answer after ${timeoutMs} ms (${partial.length} bytes)`
              : `${this.uri}: no answer within ${timeoutMs} ms`,
            this.uri,
            'request',
            0,
            partial,
          ),
        );
      }, timeoutMs);
      this.check();
    }
    return answer;
  }

  /** The link dropped: fail a pending request. */
  fail(error: Error): void {
    this.settle()?.reject(error);
  }

  private check(): void {
    const pending = this.pending;
    if (!pending || pending.timer === undefined) return;
    const received = this.peek();
    if (pending.isComplete(received)) {
      this.clear();
      this.settle()?.resolve(received);
    }
  }

  private settle(): Pending | undefined {
    const pending = this.pending;
    this.pending = undefined;
    if (pending?.timer !== undefined) clearTimeout(pending.timer);
    return pending;
  }

  private peek(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0] ?? new Uint8Array(0);
    const all = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    this.chunks = [all];
    return all;
  }

  private take(): Uint8Array {
    const all = this.peek();
    this.clear();
    return all;
  }

  private clear(): void {
    this.chunks = [];
    this.size = 0;
  }
}
