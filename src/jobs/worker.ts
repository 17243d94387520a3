/**
 * Runs one print job to the end on its printer, through faults. Pure: the store, the transport (via
 * `connect`), the status query and the clock (`sleep`) are injected, so tests drive it against the emulator
 * and an in-memory store, and the CLI against TCP/USB/serial and SQLite.
 *
 * One label (one `^XA…^XZ` format) is in flight at a time: it is marked `sending` before the write, `sent` when
 * the write resolves, and `confirmed` when the printer's ~HS shows its receive buffer empty again (so it
 * printed). The next label is sent only then. That window of one is what bounds the damage of any fault to one
 * label whose fate is unknown:
 *
 * - printer reports paper out / head open / paused (also while a label is held in its buffer): the job is
 *   `paused` with the reason and polled until the fault clears, then continues by itself;
 * - connection lost (write rejected, ~HS silent or failing): reconnect with exponential backoff;
 * - on (re)connect, including after a crash, an in-flight label (`sending`/`sent`) is decided with ~HS: still
 *   in the buffer → wait for it to print (not a duplicate); buffer empty → it either printed or never arrived
 *   whole, which the printer cannot tell, so it is resent and flagged `possibleDuplicate`.
 *
 * User pause (`held`) and cancel take effect between labels: the state is read before every label is sent
 * and after every label is confirmed, and a label whose bytes are being written is always written whole.
 *
 * Guarantee per transport (`capabilities.status`):
 * - with status (TCP 9100, USB with bulk IN, serial): no label lost; at most one duplicate per fault, always
 *   flagged; `confirmed` means the printer's buffer drained past the label. Assumes LabelDesk is the only host
 *   feeding the printer while the job runs (formats from others would be counted as ours).
 * - without status (CUPS queues, Windows spooler queues, files): `confirmed` = the write was accepted by the
 *   spooler/file (the strongest signal there is); a write interrupted or a crash while `sending` resends the
 *   label flagged `possibleDuplicate`. The spooler submits the session's job when the transport closes; a
 *   paused queue holds it (shown under Wine for the Windows spooler: test/wine/winspool.test.ts). What the
 *   spooler does afterwards (its own retries, a jam) is outside LabelDesk's view.
 */
import { queryStatus as defaultQueryStatus } from '../printers/query';
import type { PrinterState, PrinterStatus } from '../printers/status';
import { PrinterError, type PrinterTransport } from '../printers/transport';
import {
  formatLabelList,
  isInFlight,
  isUnfinished,
  payloadBytes,
  type Job,
  type JobState,
  type Label,
} from './model';
import { JobNotFound, type JobStore } from './store';

/** What happens while a job runs, for progress output (closed union). */
export type JobEvent =
  | { kind: 'started'; jobId: number; pending: number }
  /** `printerState`: what the printer reported (~HS), when the pause is the printer's. */
  | { kind: 'paused'; jobId: number; reason: string; printerState?: PrinterState }
  | { kind: 'resumed'; jobId: number }
  | { kind: 'connection-lost'; jobId: number; reason: string; attempt: number; retryInMs: number }
  | { kind: 'possible-duplicate'; jobId: number; labelNumber: number }
  | { kind: 'confirmed'; jobId: number; labelNumber: number }
  | { kind: 'finished'; jobId: number; state: JobState; reason: string | null }
  | { kind: 'printer-busy'; printer: string };

export interface WorkerTiming {
  /** Poll interval, in ms, while a label is printing on a printer without faults. */
  pollMs: number;
  /** Poll interval, in ms, while the printer reports a fault (paper out, head open, paused). */
  faultPollMs: number;
  /** First reconnect delay, in ms; doubles per consecutive failure up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Consecutive connection failures (without a label confirmed in between) before the job is left paused. */
  maxConnectFailures: number;
}

export const DEFAULT_TIMING: WorkerTiming = {
  pollMs: 25,
  faultPollMs: 500,
  backoffMs: 250,
  maxBackoffMs: 5_000,
  maxConnectFailures: Number.POSITIVE_INFINITY,
};

export interface WorkerDeps {
  store: JobStore;
  /** A transport for the printer URI, open. Rejects with a PrinterError when it cannot connect. */
  connect: (printer: string) => Promise<PrinterTransport>;
  sleep: (ms: number) => Promise<void>;
  /** Defaults to `queryStatus` (~HS). */
  queryStatus?: (transport: PrinterTransport) => Promise<PrinterStatus>;
  onEvent?: (event: JobEvent) => void;
  timing?: Partial<WorkerTiming>;
  /**
   * Claims a printer for this worker across processes (see runPrinterQueue); returns the release, or
   * undefined while another live process holds it. Without it, the caller guarantees one worker per printer.
   */
  claimPrinter?: (printer: string) => (() => void) | undefined;
  /**
   * Makes sure label `labelNumber`'s payload is in the store before it is first sent (jobs rendered in chunks
   * as they print). A LabelNotRendered rejection holds the job on that label with its message (a value the
   * template cannot encode); any other rejection propagates, leaving the job unfinished.
   */
  preparePayload?: (jobId: number, labelNumber: number) => Promise<void>;
}

/** The printer stopped answering on this connection: reconnect. */
class ConnectionLost extends Error {
  override name = 'ConnectionLost';
}

/** The job was cancelled, held or finished elsewhere (another process, `labeldesk jobs cancel|pause`). */
class JobStopped extends Error {
  override name = 'JobStopped';
}

/**
 * Thrown by `preparePayload` when a label cannot be rendered: the job is held on that label (its message, which
 * names the label, is the reason) until a person skips the label or cancels the job; the labels before it have
 * printed, the ones after it wait.
 */
export class LabelNotRendered extends Error {
  override name = 'LabelNotRendered';
}

/**
 * Labels per spooler job on a printer without status (a CUPS or Windows queue, a file): each such job is
 * confirmed when the spooler accepts it, so progress moves in steps of this many and a refused job costs no
 * more than this many resends.
 */
export const SPOOLER_JOB_LABELS = 50;

/** What a job held on a label that cannot be rendered tells the person. */
export const SKIP_OR_CANCEL = 'skip that label to print the others, or cancel the job';

/**
 * Runs job `jobId` until it is done, cancelled, or (after `maxConnectFailures`) left paused for a later
 * resume. Returns the job as stored at the end. Non-printer errors (store failures, bugs) propagate.
 */
export async function runJob(jobId: number, deps: WorkerDeps): Promise<Job> {
  const timing = { ...DEFAULT_TIMING, ...deps.timing };
  const { store } = deps;
  const query = deps.queryStatus ?? ((t: PrinterTransport) => defaultQueryStatus(t));
  const emit = (event: JobEvent): void => deps.onEvent?.(event);
  /** Consecutive connection failures since the last confirmed label. */
  let failures = 0;

  const current = (): Job => {
    const job = store.getJob(jobId);
    if (!job) throw new JobNotFound(`no job ${jobId}`);
    return job;
  };
  /** Moves an unfinished job to another unfinished state; stops when someone else finished it. */
  const transition = (
    state: 'printing' | 'paused',
    reason: string | null,
    announce = true,
    labelInFlight = false,
    printerState?: PrinterState,
  ): void => {
    const job = current();
    if (!isUnfinished(job.state)) throw new JobStopped();
    // A hold waits for the label in the printer's buffer to be confirmed (else it would be resent as a
    // possible duplicate on resume); the job stays `held` meanwhile.
    if (job.state === 'held') {
      if (labelInFlight) return;
      throw new JobStopped();
    }
    if (job.state === state && job.reason === reason) return;
    store.setJobState(jobId, state, reason);
    if (state === 'paused' && job.reason !== reason && announce) {
      emit({ kind: 'paused', jobId, reason: reason ?? '', ...(printerState ? { printerState } : {}) });
    }
    if (state === 'printing' && job.state === 'paused') emit({ kind: 'resumed', jobId });
  };
  const finish = (state: JobState, reason: string | null): Job => {
    if (!isUnfinished(current().state)) return current();
    const job = store.setJobState(jobId, state, reason);
    emit({ kind: 'finished', jobId, state, reason });
    return job;
  };
  const faultReason = (s: PrinterStatus): string => (s.reasons.length ? s.reasons.join(', ') : s.state);
  /**
   * A status the job can act on. Silence and an answer that is not a well-formed ~HS (garbage, truncated, a
   * printer rebooting) are treated alike, as a lost connection: the job reconnects with backoff and counts the
   * failure against `maxConnectFailures`, instead of waiting forever on a printer that never says "ready".
   */
  const usable = (status: PrinterStatus): PrinterStatus & { formatsInBuffer: number } => {
    if (status.state === 'offline') throw new ConnectionLost(faultReason(status));
    if (status.formatsInBuffer === null)
      throw new ConnectionLost(`no usable status (${faultReason(status)})`);
    return { ...status, formatsInBuffer: status.formatsInBuffer };
  };

  /** ~HS until the printer can print; pauses the job (with the reason) meanwhile. */
  const waitUntilReady = async (transport: PrinterTransport): Promise<void> => {
    for (;;) {
      const status = usable(await query(transport));
      if (status.state === 'ready') return transition('printing', null);
      transition('paused', faultReason(status), true, false, status.state);
      await deps.sleep(timing.faultPollMs);
    }
  };

  /** ~HS until the label has left the printer's buffer (printed); pauses the job while the printer is faulted. */
  const confirm = async (transport: PrinterTransport, label: Label): Promise<void> => {
    if (transport.capabilities.status) {
      for (;;) {
        const status = usable(await query(transport));
        if (status.formatsInBuffer === 0) break;
        if (status.state === 'ready') {
          await deps.sleep(timing.pollMs);
        } else {
          transition('paused', faultReason(status), true, true, status.state);
          await deps.sleep(timing.faultPollMs);
        }
      }
    }
    store.setLabelState(jobId, label.number, { state: 'confirmed' });
    emit({ kind: 'confirmed', jobId, labelNumber: label.number });
    transition('printing', null);
  };

  const send = async (transport: PrinterTransport, label: Label): Promise<void> => {
    if (deps.preparePayload) {
      await deps.preparePayload(jobId, label.number);
      // Rendering a chunk takes a while: a pause or cancel meanwhile stops before the label is sent.
      transition('printing', null);
    }
    const stored = store.payload(jobId, label.number);
    // A ZPL file's label is its own bytes (one char per byte), sent as they came.
    const payload = current().zplFile ? payloadBytes(stored) : stored;
    store.setLabelState(jobId, label.number, { state: 'sending', attempt: true });
    // A failed write leaves the label `sending` for settle() to decide with the printer: the transports'
    // `bytesWritten` counts whole chunks the OS confirmed, so a chunk cut short may still have arrived whole.
    await transport.write(payload);
    store.setLabelState(jobId, label.number, { state: 'sent' });
  };

  /** Decides the fate of a label left `sending`/`sent` by a fault or a crash. */
  const settle = async (transport: PrinterTransport, label: Label): Promise<void> => {
    if (transport.capabilities.status) {
      const status = usable(await query(transport));
      // Held in the buffer (one label in flight at a time, so it is this one): it will print; not a duplicate.
      if (status.formatsInBuffer > 0) return confirm(transport, label);
    }
    // Without status, a label left `sent` was written into a spooler session that the fault or crash ended: the
    // spooler may have taken it (lp submits what it read when its input closes) or not. Resent, flagged.
    store.setLabelState(jobId, label.number, { state: 'pending', possibleDuplicate: true });
    emit({ kind: 'possible-duplicate', jobId, labelNumber: label.number });
  };

  /**
   * Without status the spooler (lp, the Windows spooler) takes the session's labels as one job when the
   * transport closes: written labels stay `sent` until then (at most SPOOLER_JOB_LABELS of them), and are
   * confirmed only if the spooler accepted the job. A refused job sets them back to `pending` (nothing of it
   * printed) and fails like a lost connection.
   */
  const submit = async (transport: PrinterTransport, written: Label[]): Promise<void> => {
    if (!written.length) return;
    try {
      await transport.close();
    } catch (e) {
      for (const label of written) store.setLabelState(jobId, label.number, { state: 'pending' });
      throw e;
    }
    for (const label of written.splice(0)) {
      store.setLabelState(jobId, label.number, { state: 'confirmed' });
      emit({ kind: 'confirmed', jobId, labelNumber: label.number });
    }
    failures = 0;
  };

  const printOn = async (transport: PrinterTransport): Promise<Job> => {
    for (const label of store.labels(jobId)) {
      if (isInFlight(label.state)) await settle(transport, label);
    }
    const written: Label[] = [];
    try {
      for (const label of store.labels(jobId)) {
        if (label.state !== 'pending') continue;
        if (transport.capabilities.status) await waitUntilReady(transport);
        else transition('printing', null);
        await send(transport, label);
        if (transport.capabilities.status) {
          await confirm(transport, label);
          // Progress is a confirmed label, not a write: a queue that takes every write and refuses the job
          // at submission counts its refusals (submit resets the count when the spooler accepts).
          failures = 0;
        } else {
          written.push(label);
          if (written.length >= SPOOLER_JOB_LABELS) {
            await submit(transport, written);
            await transport.open();
          }
        }
      }
      await submit(transport, written);
    } catch (e) {
      // A pause or cancel between labels, or a label that cannot be rendered (found before any of its bytes is
      // written): what was written is whole labels; let the spooler have them, confirmed if it accepts. Left
      // to the close in `finally`, they would be submitted all the same but stay `sent`, and print again.
      if (e instanceof JobStopped || e instanceof LabelNotRendered) {
        await submit(transport, written).catch(() => undefined);
      } else if (!transport.capabilities.status && written.length) {
        // A write failed mid-session: part of a label may be in it. Where the transport can, the session is
        // thrown away (nothing of it prints) instead of being submitted by the close in `finally`; its labels
        // stay `sent` and are resent, flagged, since a transport that cannot abort may still have submitted.
        await transport.abort?.().catch(() => undefined);
      }
      throw e;
    }
    const skipped = store.labels(jobId).filter((l) => l.state === 'failed');
    return finish(
      'done',
      skipped.length
        ? `skipped label${skipped.length === 1 ? '' : 's'} ${formatLabelList(skipped.map((l) => l.number))}`
        : null,
    );
  };

  for (;;) {
    const job = current();
    if (!isUnfinished(job.state) || job.state === 'held') return job;
    emit({ kind: 'started', jobId, pending: store.counts(jobId).pending });
    let transport: PrinterTransport | undefined;
    try {
      transport = await deps.connect(job.printer);
      return await printOn(transport);
    } catch (e) {
      if (e instanceof JobStopped) return current();
      if (e instanceof LabelNotRendered) {
        const reason = `${e.message}; ${SKIP_OR_CANCEL}`;
        if (isUnfinished(current().state)) store.setJobState(jobId, 'held', reason);
        emit({ kind: 'paused', jobId, reason });
        return current();
      }
      if (!(e instanceof PrinterError || e instanceof ConnectionLost)) throw e;
      failures++;
      const reason = `connection lost: ${e.message}`;
      if (failures > timing.maxConnectFailures) {
        if (isUnfinished(current().state)) {
          store.setJobState(jobId, 'paused', `${reason} (gave up after ${failures - 1} retries)`);
        }
        return current();
      }
      const retryInMs = Math.min(timing.backoffMs * 2 ** (failures - 1), timing.maxBackoffMs);
      try {
        // Announced as `connection-lost` below, with the retry.
        transition('paused', reason, false);
      } catch (stopped) {
        if (stopped instanceof JobStopped) return current();
        throw stopped;
      }
      emit({ kind: 'connection-lost', jobId, reason: e.message, attempt: failures, retryInMs });
      await deps.sleep(retryInMs);
    } finally {
      await transport?.close().catch(() => undefined);
    }
  }
}
