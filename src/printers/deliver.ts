/**
 * Delivering one print job's labels to a printer and knowing they arrived: what `labeldesk print` and the print
 * relay of `labeldesk serve` (routes 03/04) do. The job queue (src/jobs/worker.ts) goes further — it waits for
 * each label to leave the printer's buffer — because it owns the printer for a whole batch; a one-off print or
 * an HTTP request cannot wait for the paper.
 *
 * "Confirmed" here means the printer has read the label in full:
 * - with status (TCP 9100, serial, USB with bulk IN): each label is written, then `~HS` is asked; a printer
 *   answers only after reading every byte before the query, so a well-formed answer confirms the label. Silence
 *   or a garbled answer confirms nothing.
 * - without status (OS queues, files): the spooler or the file accepting the whole job (the transport's
 *   `close()`, which for CUPS waits for `lp` to submit it) is the confirmation; there is nothing stronger.
 *
 * When the link drops or the printer stops answering, the connection is aborted (bytes not yet read by the
 * printer are discarded, so they cannot print later), and after a pause the job goes on from the first label
 * not confirmed. That label may have arrived before the fault and is then printed twice: it is reported as a
 * possible duplicate, by number — at most one per fault. A printer that stops reading (a write stall), cannot
 * be found, or refuses the format is not retried: waiting longer would not help. Retries are bounded.
 *
 * A site server's shared queue (src/node/site/print-queue.ts) records each label's progress in its database
 * through the awaited `beforeLabel`/`onConfirmed` hooks and, when another instance takes a job over, goes on
 * with `resume` from the first label not confirmed — the same rule for the label left in doubt.
 */
import { hasFrames, interpretHostStatusReply } from './status';
import { DEFAULT_TIMEOUTS, PrinterError, PrinterTimeout, toBytes, type PrinterTransport } from './transport';

export interface DeliveryOptions {
  /**
   * Reconnects after consecutive faults with no label confirmed in between before giving up (0: none), as the
   * job queue counts them: a long job over a flaky link that keeps making progress is not given up.
   */
  retries: number;
  /** Pause before reconnect n (1-based), in ms: `backoffMs * 2^(n-1)`, capped at 5 s. */
  backoffMs?: number;
  /** Longest wait for the printer to accept more bytes, in ms. */
  writeStallMs?: number;
  /** Longest wait for the confirming `~HS` answer, in ms. */
  confirmTimeoutMs?: number;
  sleep: (ms: number) => Promise<void>;
  /** Told about each fault that leads to a retry, for progress output and logs. */
  onRetry?: (fault: DeliveryFault) => void;
  /**
   * Going on with a job an earlier delivery began (the site server's shared queue, src/node/site/print-queue.ts,
   * after the instance driving it stopped): labels 1 to `confirmed` were confirmed then and are not sent again;
   * `labels` holds the job's labels from `confirmed + 1` on, and every label number (reports, hooks, messages)
   * counts in the whole job. `inDoubt`: label `confirmed + 1` was in flight when that delivery stopped, so its
   * first send here is a possible duplicate, as after a fault of this one.
   */
  resume?: { confirmed: number; inDoubt: boolean };
  /**
   * Awaited before label n (1-based in the job) is written; `possibleDuplicate` when it is a resend after a fault
   * (it is then also in the report). A rejection stops the delivery: the connection is aborted and the error
   * rethrown as it is (not a DeliveryFailed), so nothing of that label is written.
   */
  beforeLabel?: (labelNumber: number, possibleDuplicate: boolean) => Promise<void>;
  /**
   * Awaited once label n is confirmed, before the next one is written (a durable record of progress). A
   * rejection stops the delivery like one of `beforeLabel`.
   */
  onConfirmed?: (labelNumber: number) => Promise<void>;
}

export interface DeliveryFault {
  /** The 1-based label that was not confirmed. */
  labelNumber: number;
  attempt: number;
  retryInMs: number;
  reason: string;
}

export interface DeliveryReport {
  /** Labels confirmed (all of them, when deliver() returns). */
  confirmed: number;
  /**
   * Labels sent again after a fault that left their fate unknown: each entry is one resend, one copy that may
   * have printed twice (a label resent twice after two faults is listed twice). Ascending.
   */
  possibleDuplicates: number[];
  /** `printer`: the printer itself confirmed each label; `spooler`: the OS queue or file accepted the job. */
  confirmedBy: 'printer' | 'spooler';
  /** Connections opened. */
  attempts: number;
}

/** Why a delivery stopped before every label was confirmed. */
export type DeliveryFailureKind =
  /** The printer stopped reading: the bytes sent were discarded with the connection. */
  | 'stalled'
  /** The link kept failing (dropped, refused, no answer) through every retry. */
  | 'unreachable'
  /** Connected, but the printer never confirmed a label (silent or garbled ~HS) through every retry. */
  | 'unconfirmed'
  /** Not a fault that waiting would fix: no such printer, a transport that cannot do it, an OS error. */
  | 'refused';

/**
 * The job stopped before every label was confirmed. `confirmed` labels (the first ones) arrived; the others did
 * not, or may have only in part — never more than the one in flight. The message is one sentence for people.
 */
export class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
  constructor(
    message: string,
    readonly kind: DeliveryFailureKind,
    readonly report: DeliveryReport,
    /** Labels in the job. */
    readonly total: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The printer did not confirm a label over an open link (silence or a garbled answer). */
class NotConfirmed extends Error {
  override name = 'NotConfirmed';
}

const MAX_BACKOFF_MS = 5_000;

/**
 * Sends `labels` (one ZPL format each, or one document for an OS queue) over connections from `connect` (which
 * resolves with an open transport) and resolves once every label is confirmed. Throws DeliveryFailed otherwise;
 * never leaves a connection open.
 */
export async function deliverLabels(
  connect: () => Promise<PrinterTransport>,
  labels: readonly (string | Uint8Array)[],
  options: DeliveryOptions,
): Promise<DeliveryReport> {
  const payloads = labels.map(toBytes);
  const done = options.resume?.confirmed ?? 0;
  const total = done + payloads.length;
  const report: DeliveryReport = {
    confirmed: done,
    possibleDuplicates: [],
    confirmedBy: 'printer',
    attempts: 0,
  };
  const writeStallMs = options.writeStallMs ?? DEFAULT_TIMEOUTS.writeStallMs;
  const confirmTimeoutMs = options.confirmTimeoutMs ?? DEFAULT_TIMEOUTS.requestMs;
  /** The label in flight when the last fault came: it may have arrived, so its resend is a possible duplicate. */
  let inDoubt: number | undefined = options.resume?.inDoubt ? done + 1 : undefined;
  /** Times the first unconfirmed label's bytes went out: each may have printed. */
  let sendsUnconfirmed = inDoubt === undefined ? 0 : 1;
  /** Faults since the last label was confirmed. */
  let failures = 0;
  let confirmedBefore = done;

  for (;;) {
    let transport: PrinterTransport | undefined;
    let failure: unknown;
    report.attempts++;
    try {
      transport = await connect();
      if (!transport.capabilities.status) {
        report.confirmedBy = 'spooler';
        // The whole job in one write: a spooler submits it on close, all or nothing.
        const resent = inDoubt;
        if (resent !== undefined) report.possibleDuplicates.push(resent);
        inDoubt = undefined;
        for (let n = report.confirmed + 1; n <= total; n++) {
          await options.beforeLabel?.(n, n === resent);
          await transport.write(payloads[n - 1 - done] as Uint8Array, { timeoutMs: writeStallMs });
        }
        const open = transport;
        transport = undefined;
        await open.close();
        while (report.confirmed < total) {
          report.confirmed++;
          await options.onConfirmed?.(report.confirmed);
        }
        return report;
      }
      while (report.confirmed < total) {
        const n = report.confirmed + 1;
        const resend = inDoubt === n;
        if (resend) report.possibleDuplicates.push(n);
        await options.beforeLabel?.(n, resend);
        inDoubt = n;
        sendsUnconfirmed++;
        await transport.write(payloads[n - 1 - done] as Uint8Array, { timeoutMs: writeStallMs });
        await confirmReceipt(transport, confirmTimeoutMs);
        report.confirmed++;
        inDoubt = undefined;
        sendsUnconfirmed = 0;
        await options.onConfirmed?.(n);
      }
      const open = transport;
      transport = undefined;
      await open.close().catch(() => undefined);
      return report;
    } catch (e) {
      failure = e;
    } finally {
      // An unconfirmed label must not print later from bytes still queued for the printer.
      if (transport) await (transport.abort?.() ?? transport.close()).catch(() => undefined);
    }

    const labelNumber = report.confirmed + 1;
    const reason = failure instanceof Error ? failure.message : String(failure);
    // A person deciding whether to print again must know that the unconfirmed label may be on paper already.
    const mayHavePrinted = sendsUnconfirmed
      ? `; label ${labelNumber} was sent ${sendsUnconfirmed === 1 ? 'once' : `${sendsUnconfirmed} times`} and may have printed`
      : '';
    const fail = (kind: DeliveryFailureKind, sentence: string): DeliveryFailed =>
      new DeliveryFailed(`${sentence}${mayHavePrinted}`, kind, { ...report }, total, {
        cause: failure,
      });
    if (!(failure instanceof PrinterError || failure instanceof NotConfirmed)) throw failure;
    if (failure instanceof PrinterTimeout && failure.phase === 'write') {
      throw fail(
        'stalled',
        `the printer stopped accepting data at label ${labelNumber} of ${total} (${reason}); ${confirmedText(report)}`,
      );
    }
    if (
      failure instanceof PrinterError &&
      (failure.code === 'not-found' || failure.code === 'unsupported' || failure.code === 'io')
    ) {
      throw fail('refused', `${reason}; ${confirmedText(report)}`);
    }
    if (report.confirmed > confirmedBefore) failures = 0;
    confirmedBefore = report.confirmed;
    const attempt = ++failures;
    if (attempt > options.retries) {
      const kind = failure instanceof NotConfirmed ? 'unconfirmed' : 'unreachable';
      const tries = options.retries
        ? ` after ${options.retries} ${options.retries === 1 ? 'retry' : 'retries'}`
        : '';
      throw fail(
        kind,
        `label ${labelNumber} of ${total} was not confirmed${tries}: ${reason}; ${confirmedText(report)}`,
      );
    }
    const retryInMs = Math.min((options.backoffMs ?? 250) * 2 ** (attempt - 1), MAX_BACKOFF_MS);
    options.onRetry?.({ labelNumber, attempt, retryInMs, reason });
    await options.sleep(retryInMs);
  }
}

/** Asks ~HS; a well-formed answer proves the printer read every byte sent before it. */
async function confirmReceipt(transport: PrinterTransport, timeoutMs: number): Promise<void> {
  let reply: Uint8Array;
  try {
    reply = await transport.request('~HS', { timeoutMs, isComplete: (r) => hasFrames(r, 3) });
  } catch (e) {
    if (!(e instanceof PrinterTimeout)) throw e;
    throw new NotConfirmed(
      e.received.length
        ? `the printer's status answer was incomplete after ${timeoutMs} ms`
        : `the printer did not answer a status query within ${timeoutMs} ms`,
    );
  }
  if (interpretHostStatusReply(reply).formatsInBuffer === null) {
    throw new NotConfirmed('the printer answered a status query with something that is not a status');
  }
}

/**
 * For people: "label 2 was sent again after the connection failed and may have printed twice", one sentence per
 * label, or undefined when nothing was resent.
 */
export function describeResends(possibleDuplicates: readonly number[]): string[] {
  const counts = new Map<number, number>();
  for (const n of possibleDuplicates) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, extra]) =>
    extra === 1
      ? `label ${n} was sent again after the connection failed and may have printed twice`
      : `label ${n} was sent again ${extra} times after the connection failed and may have printed up to ${extra + 1} times`,
  );
}

function confirmedText(report: DeliveryReport): string {
  if (report.confirmed === 0) return 'no label was confirmed';
  return `labels 1 to ${report.confirmed} were confirmed`.replace('labels 1 to 1 were', 'label 1 was');
}
