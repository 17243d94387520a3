/**
 * Node-only: the shared print queue of a site server (issue #24, `labeldesk serve --database`). The print relay's
 * jobs (routes 03/04) are rows of the site database (assets/sql/002-print-queue.sql); each printer is driven by
 * one instance at a time, under a lease; when that instance dies another takes the printer over within seconds
 * and goes on with each job at its first label not confirmed. The guarantees are the embedded relay's and job
 * queue's: no label lost, at most one possible duplicate per fault, each one reported (in the job's row, in
 * the label's, and in the log of the instance that resent it).
 *
 * A request (PrinterGateway.send, so route 03's contract does not change): the labels, rendered once by the
 * instance that took the request, are stored with the job in one statement; the request then waits until the
 * job is done (2xx) or failed (PrinterUnavailable → 500 with deliverLabels' sentence, as today), whichever
 * instance drives the printer. It learns that from its own driver at once, else by polling the job's row
 * (`pollMs`; a primary-key read — LISTEN/NOTIFY would need one more connection per instance and still a poll
 * for the notifications lost with it). The wait is bounded (`waitMs`, default 2 min): past it the job's labels
 * not yet sent are cancelled and the request answers 500 naming what was confirmed, so a 500 still means "not
 * delivered, and what was not confirmed will not print later" — a client retrying it does not get the job
 * twice. If the waiting instance dies, nobody cancels: the job is durable and is finished by whoever drives
 * its printer (its client saw the connection drop and knows nothing; the job's row does).
 *
 * Drivers. Every instance runs one: every `pollMs`, and at once when it queues a job, it looks for printers with
 * unfinished jobs that its own printers file knows (the instances of a site are expected to share one), takes
 * each one's lease if it is free, and delivers that printer's jobs one at a time, oldest first, with
 * deliverLabels (src/printers/deliver.ts — the one implementation of confirmed delivery): a label is marked
 * `sending` before its bytes are written and `confirmed` once the printer answered ~HS after it, each write
 * awaited before the next label. A job taken over is resumed at its first label not confirmed; if that label
 * was `sending`, it is in doubt (it may have printed) and is resent flagged as a possible duplicate — the
 * embedded queue's rule; a label merely `pending` is not flagged. When a printer has no more work its lease is
 * released.
 *
 * Leases, not advisory locks. A session advisory lock ends with its connection, which is a good death signal
 * for `kill -9`, but it lives on one connection for the whole time a printer is driven: with a pool that is a
 * connection taken out of it per printer, and when that connection is lost (a database restart, a network cut)
 * the lock is gone while the process goes on printing, learning of it only on its next query — and PostgreSQL
 * may not notice a half-open connection (a machine that lost power, a cut network) for as long as TCP keepalive
 * takes, keeping a dead instance's printer locked. A lease row instead says exactly until when (`expires_at`, on the database's clock, so instances'
 * clocks do not matter) and is fenced: each take gets a new `epoch`, and every write the driver makes before
 * sending a label checks that its lease (printer, holder, epoch) is still current, so an instance whose lease
 * was taken over cannot send another label. The holder renews the lease every `leaseMs / 3`; it also keeps a
 * local deadline — the time it sent its last successful renewal plus 90 % of `leaseMs`, which is before the
 * database's expiry — and aborts its printer connection when that passes without a renewal (the database
 * unreachable, say), so it has stopped writing before any other instance may take the printer. What no lease
 * can fence is a holder frozen mid-write for longer than the lease (a paused VM): the printer cannot check an
 * epoch. Takeover time is at most `leaseMs` plus one poll (5.5 s by default). Heartbeats and the drivers' writes
 * go through a small pool of their own, so requests filling the site pool cannot starve a heartbeat.
 *
 * Graceful stop (close): no new job is taken (a new request is answered 500: nothing was queued, send it again);
 * each driver finishes the label in flight and stops before the next (nothing in doubt) and releases its lease,
 * so another instance goes on at once (within one of its polls); a driver still blocked after `leaseMs` has its
 * connection aborted. The requests waiting here wait on for `stopWaitMs` (10 s) — their jobs are being printed
 * elsewhere by then — and are answered as usual; one still waiting after that is answered 500 saying its job
 * stays queued and will print, so it is not sent again. The HTTP server closes after that.
 *
 * A lost database connection never stops the process: every failure of the queue's own work is logged and
 * retried at the next poll; a driver that cannot record progress stops (its label then in doubt) and is started
 * again once the database answers.
 *
 * Not here yet: jobs submitted by workstations (issue #24) are not rows of this queue. Route 03 still asks the
 * printer its resolution from the instance that took the request, on a connection of its own, while another
 * instance may be printing to it (as concurrent requests to one embedded server always have). A job for a
 * printer no running instance knows stays queued until its request gives up.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { KindedError } from '../../base/error-kind';
import {
  PrinterUnavailable,
  type JobFormat,
  type PrinterGateway,
  type RelayJob,
  type RelayPrinter,
} from '../../engine/printer-gateway';
import { DeliveryFailed, deliverLabels, describeResends } from '../../printers/deliver';
import { openedTransport, toBytes, type PrinterTransport } from '../../printers/transport';
import type { SiteDb } from './db';

export interface PrintQueueSettings {
  /** A printer's lease not renewed for this long may be taken by another instance, in ms. */
  leaseMs: number;
  /** How often a driver looks for work and a waiting request reads its job, in ms. */
  pollMs: number;
  /** The longest a request waits for its job, in ms (see the file comment). */
  waitMs: number;
  /** Reconnects after consecutive faults without progress before a job fails (the embedded relay's 2). */
  retries: number;
  /** How long a finished job's labels (their bytes) are kept, in ms; the job's row stays. */
  keepLabelsMs: number;
  /** On close, how long the requests waiting here still wait for their jobs (printed elsewhere), in ms. */
  stopWaitMs: number;
}

export const PRINT_QUEUE_DEFAULTS: PrintQueueSettings = {
  leaseMs: 5_000,
  pollMs: 500,
  waitMs: 120_000,
  retries: 2,
  keepLabelsMs: 7 * 24 * 3_600_000,
  stopWaitMs: 10_000,
};

/** How often an instance deletes old labels. */
const SWEEP_EVERY_MS = 10 * 60_000;

export type QueueLog = (
  level: 'info' | 'warn' | 'error',
  fields: Record<string, unknown>,
  message: string,
) => void;

export interface SitePrintQueueOptions {
  db: SiteDb;
  /** This instance's name (unique per process): lease holder, `accepted_by`, `driven_by`. */
  instance: string;
  /** This instance's printers (the printers file): `find`, `accepts` and `resolution` are its own. */
  printers: PrinterGateway;
  /** A new, not yet opened transport to a printer URI for a job of this format. */
  openTransport: (uri: string, job: { format?: JobFormat }) => PrinterTransport;
  settings?: Partial<PrintQueueSettings>;
  log: QueueLog;
}

export interface SitePrintQueue {
  /** The print relay's gateway: `send` queues the job and waits for its end. */
  gateway: PrinterGateway;
  /**
   * The job an earlier request of `apiKey` queued under `idempotencyKey`, if any (the request sent again):
   * the caller answers with `follow` instead of rendering and queueing it a second time.
   */
  queued(apiKey: string, idempotencyKey: string): Promise<QueuedJob | undefined>;
  /** Waits for a queued job to end, as `gateway.send` does for its own; throws PrinterUnavailable likewise. */
  follow(printer: RelayPrinter, job: QueuedJob): Promise<void>;
  /** Stops driving (the label in flight finished, leases released) and stops waiting; see the file comment. */
  close(): Promise<void>;
}

/** A job already in the queue, found by its idempotency key. */
export interface QueuedJob {
  id: string;
  printerId: number;
  format: JobFormat;
  /** What route 03 rendered at (its answer's printer_dpi). */
  printerDpi: number | null;
}

/** This instance's lease of a printer was taken over or ran out: it must not write to the printer any more. */
class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** The queue is stopping: the driver stops before the next label. */
class Stopping extends Error {
  override name = 'Stopping';
}

/** The job is no longer `printing` (its request gave up waiting): the driver goes on with the next job. */
class JobEnded extends Error {
  override name = 'JobEnded';
}

interface JobRow {
  id: string;
  format: JobFormat;
  labels: number;
  state: 'queued' | 'printing';
  driven_by: string | null;
}

/** A lease this instance holds on one printer. */
interface Lease {
  printerId: number;
  epoch: string;
  /** Taken over, expired, or released: nothing more may be written to the printer under it. */
  readonly lost: boolean;
  /** Aborted when the lease is lost or the queue stops: interrupts the backoff between reconnects. */
  signal: AbortSignal;
  /** Throws LeaseLost when the lease is lost or its local deadline passed. */
  check(): void;
  /** The connection to abort when the lease is lost (undefined: none open). */
  watch(transport: PrinterTransport | undefined): void;
  /** Stops the heartbeat and deletes the lease row (when still ours). */
  release(): Promise<void>;
}

/** SQL: the lease ($1 printer, $2 holder, $3 epoch) is still current. */
const LEASE_HELD = `EXISTS (SELECT 1 FROM printer_leases
  WHERE printer_id = $1 AND holder = $2 AND epoch = $3 AND expires_at > now())`;

export function sitePrintQueue(options: SitePrintQueueOptions): SitePrintQueue {
  const settings: PrintQueueSettings = { ...PRINT_QUEUE_DEFAULTS, ...options.settings };
  const { db, instance, printers, log } = options;
  // The drivers' own connections (heartbeats and per-label writes): the site pool's settings, fewer of them,
  // and no statement waited for longer than a lease (a driver stuck on a vanished server would hold its printer
  // here forever, and close() with it).
  const ownPool = new pg.Pool({
    ...(db.pool as unknown as { options: pg.PoolConfig }).options,
    max: 4,
    query_timeout: Math.max(settings.leaseMs, 2_000),
  });
  ownPool.on('error', (e) => log('error', { error: e.message }, 'print queue: database connection lost'));
  const q = <R extends pg.QueryResultRow>(text: string, values: readonly unknown[]) =>
    ownPool.query<R>(text, values as unknown[]);

  let stopping = false;
  /** Once stopping: when the requests still waiting here give up (performance.now()). */
  let stopDeadline = Number.POSITIVE_INFINITY;
  /** The requests waiting here for their jobs. */
  const waiting = new Set<Promise<void>>();
  const stopped = new AbortController();
  /** Printer id → its running driver. */
  const driving = new Map<number, Promise<void>>();
  /** Leases held now (for close). */
  const leases = new Set<Lease & { forceAbort(): void }>();
  /** Job id → wakes the request waiting for it here (its driver here finished it, or we stop). */
  const waiters = new Map<string, () => void>();

  // ------------------------------------------------------------------------------------------------ drivers

  let ticking = false;
  /** The last look for work failed (logged once per streak). */
  let lookFailing = false;
  let nextSweep = 0;
  let tickAgain = false;
  const tickTimer = setInterval(() => void tick(), settings.pollMs);
  tickTimer.unref();

  /** Starts a driver for every printer of ours with unfinished jobs and no driver here. Never rejects. */
  async function tick(): Promise<void> {
    if (stopping) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    try {
      do {
        tickAgain = false;
        const open = await q<{ printer_id: number }>(
          `SELECT DISTINCT printer_id FROM print_jobs WHERE state IN ('queued', 'printing')`,
          [],
        );
        for (const { printer_id: id } of open.rows) {
          if (stopping || driving.has(id)) continue;
          const run = drive(id)
            .catch((e: unknown) =>
              log('error', { printer: id, error: (e as Error).message }, 'print queue: driver stopped'),
            )
            .finally(() => driving.delete(id));
          driving.set(id, run);
        }
      } while (tickAgain && !stopping);
      lookFailing = false;
      if (!stopping && Date.now() >= nextSweep) {
        nextSweep = Date.now() + SWEEP_EVERY_MS;
        await sweep();
      }
    } catch (e) {
      if (!lookFailing)
        log('error', { error: (e as Error).message }, 'print queue: cannot look for work (retrying)');
      lookFailing = true;
    } finally {
      ticking = false;
    }
  }

  /**
   * Drops the labels' bytes of jobs finished more than `keepLabelsMs` ago (the job rows stay, with their counts
   * and possible duplicates). Any instance may; deleting twice deletes nothing.
   */
  async function sweep(): Promise<void> {
    const swept = await q(
      `DELETE FROM print_labels WHERE job_id IN (
         SELECT id FROM print_jobs
           WHERE state IN ('done', 'failed') AND finished_at < now() - $1 * interval '1 millisecond')`,
      [settings.keepLabelsMs],
    );
    if (swept.rowCount) log('info', { labels: swept.rowCount }, 'print queue: old labels deleted');
  }

  /** Drives one printer while its lease is ours and it has work. */
  async function drive(printerId: number): Promise<void> {
    const printer = await printers.find(printerId);
    if (!printer) return; // not in this instance's printers file
    const lease = await takeLease(printerId);
    if (!lease) return; // another instance drives it
    try {
      while (!stopping && !lease.lost) {
        const next = await q<JobRow>(
          `SELECT id, format, labels, state, driven_by FROM print_jobs
             WHERE printer_id = $1 AND state IN ('queued', 'printing') ORDER BY id LIMIT 1`,
          [printerId],
        );
        const job = next.rows[0];
        if (!job) break;
        try {
          await runJob(printer, job, lease);
        } catch (e) {
          if (e instanceof JobEnded) continue;
          if (e instanceof LeaseLost || e instanceof Stopping) break;
          throw e;
        }
      }
    } finally {
      await lease.release();
    }
  }

  /** Delivers one job's labels not yet confirmed. Throws LeaseLost, Stopping, JobEnded or a database error. */
  async function runJob(printer: RelayPrinter, job: JobRow, lease: Lease): Promise<void> {
    const fence = [printer.id, instance, lease.epoch];
    const claimed = await q(
      `UPDATE print_jobs SET state = 'printing', driven_by = $2, updated_at = now()
         WHERE id = $4 AND state IN ('queued', 'printing') AND ${LEASE_HELD}`,
      [...fence, job.id],
    );
    if (!claimed.rowCount) throw await whyNot(job.id, lease);
    const rest = await q<{ number: number; state: string; payload: Buffer }>(
      `SELECT number, state, payload FROM print_labels
         WHERE job_id = $1 AND state <> 'confirmed' ORDER BY number`,
      [job.id],
    );
    const first = rest.rows[0];
    const confirmed = first ? first.number - 1 : job.labels;
    const inDoubt = first?.state === 'sending';
    const fields = { printer: printer.id, job: Number(job.id) };
    if (job.state === 'printing' && job.driven_by !== instance) {
      log(
        'warn',
        { ...fields, from: job.driven_by, label: confirmed + 1, inDoubt },
        `print queue: print job ${job.id} resumed at label ${confirmed + 1} (driven by ${job.driven_by ?? 'another instance'} before)` +
          (inDoubt ? '; that label was in flight and is sent again (it may print twice)' : ''),
      );
    }
    try {
      if (first) {
        const report = await deliverLabels(
          async () => {
            lease.check();
            const transport = await openedTransport(
              options.openTransport(printer.uri, { format: job.format }),
            );
            lease.watch(transport);
            return transport;
          },
          rest.rows.map((r) => r.payload),
          {
            retries: settings.retries,
            // Between reconnects: cut short when the lease is lost or the queue stops.
            sleep: async (ms) => {
              try {
                await sleep(ms, undefined, { signal: lease.signal });
              } catch {
                if (stopping) throw new Stopping();
                lease.check();
                throw new LeaseLost('the lease ended');
              }
            },
            resume: { confirmed, inDoubt },
            onRetry: (fault) =>
              log(
                'warn',
                { ...fields, label: fault.labelNumber, attempt: fault.attempt, reason: fault.reason },
                `print queue: print job ${job.id}: reconnecting in ${fault.retryInMs} ms`,
              ),
            beforeLabel: async (n, resend) => {
              if (stopping) throw new Stopping();
              lease.check();
              const marked = await q(
                `WITH l AS (
                   UPDATE print_labels SET state = 'sending', attempts = attempts + 1,
                          possible_duplicate = possible_duplicate OR $6
                     WHERE job_id = $4 AND number = $5 AND ${LEASE_HELD}
                       AND EXISTS (SELECT 1 FROM print_jobs WHERE id = $4 AND state = 'printing')
                     RETURNING number)
                 UPDATE print_jobs SET updated_at = now(),
                        possible_duplicates = CASE WHEN $6 THEN possible_duplicates || $5::integer
                                                   ELSE possible_duplicates END
                   WHERE id = $4 AND EXISTS (SELECT 1 FROM l)`,
                [...fence, job.id, n, resend],
              );
              if (!marked.rowCount) throw await whyNot(job.id, lease);
              if (resend) {
                for (const line of describeResends([n]))
                  log('warn', { ...fields, label: n }, `print queue: print job ${job.id}: ${line}`);
              }
            },
            onConfirmed: async (n) => {
              await q(
                `WITH l AS (
                   UPDATE print_labels SET state = 'confirmed', confirmed_at = now()
                     WHERE job_id = $1 AND number = $2 RETURNING number)
                 UPDATE print_jobs SET confirmed = greatest(confirmed, $2), updated_at = now() WHERE id = $1`,
                [job.id, n],
              );
            },
          },
        );
        if (report.possibleDuplicates.length)
          log(
            'warn',
            { ...fields, possibleDuplicates: report.possibleDuplicates },
            `print queue: print job ${job.id} delivered with labels sent again after a fault`,
          );
      }
      await q(
        `UPDATE print_jobs SET state = 'done', finished_at = now(), updated_at = now()
           WHERE id = $1 AND state = 'printing'`,
        [job.id],
      );
      log('info', { ...fields, labels: job.labels }, `print queue: print job ${job.id} done`);
    } catch (e) {
      if (!(e instanceof DeliveryFailed)) throw e;
      await q(
        `UPDATE print_jobs SET state = 'failed', error = $5, finished_at = now(), updated_at = now()
           WHERE id = $4 AND state = 'printing' AND ${LEASE_HELD}`,
        [...fence, job.id, e.message],
      );
      log('warn', { ...fields, error: e.message }, `print queue: print job ${job.id} failed`);
    } finally {
      lease.watch(undefined);
      waiters.get(job.id)?.();
    }
  }

  /** Why a fenced write to an open job changed nothing: the job ended (JobEnded), else the lease is gone. */
  async function whyNot(jobId: string, lease: Lease): Promise<Error> {
    lease.check();
    const open = await q(`SELECT 1 FROM print_jobs WHERE id = $1 AND state IN ('queued', 'printing')`, [
      jobId,
    ]);
    return open.rowCount ? new LeaseLost('the lease was taken over') : new JobEnded();
  }

  /**
   * Takes the printer's lease if it is free (none, released, or expired) or still this instance's from a driver
   * that stopped (a database error; there is one driver per printer here, so that one is gone); undefined when
   * another instance holds it.
   */
  async function takeLease(printerId: number): Promise<Lease | undefined> {
    const asked = performance.now();
    const taken = await q<{ epoch: string; previous: string | null }>(
      `WITH old AS (SELECT holder FROM printer_leases WHERE printer_id = $1)
       INSERT INTO printer_leases (printer_id, holder, epoch, expires_at)
         VALUES ($1, $2, nextval('printer_lease_epochs'), now() + $3 * interval '1 millisecond')
       ON CONFLICT (printer_id) DO UPDATE SET holder = EXCLUDED.holder, epoch = EXCLUDED.epoch,
            taken_at = now(), renewed_at = now(), expires_at = EXCLUDED.expires_at
         WHERE printer_leases.expires_at <= now() OR printer_leases.holder = EXCLUDED.holder
       RETURNING epoch, (SELECT holder FROM old) AS previous`,
      [printerId, instance, settings.leaseMs],
    );
    const row = taken.rows[0];
    if (!row) return undefined;
    const epoch = row.epoch;
    if (row.previous && row.previous !== instance)
      log(
        'warn',
        { printer: printerId, from: row.previous, epoch: Number(epoch) },
        `print queue: printer ${printerId} taken over from ${row.previous} (its lease ran out)`,
      );
    else
      log('info', { printer: printerId, epoch: Number(epoch) }, `print queue: driving printer ${printerId}`);

    // Before the database's expiry: `asked` is before the statement ran, and a margin for clock rates.
    let deadline = asked + settings.leaseMs * 0.9;
    let lost = false;
    let released = false;
    let renewing = false;
    let failing = false;
    let transport: PrinterTransport | undefined;
    const controller = new AbortController();
    const onStop = () => controller.abort();
    stopped.signal.addEventListener('abort', onStop);

    const lose = (why: string) => {
      if (lost) return;
      lost = true;
      controller.abort();
      if (!released) log('warn', { printer: printerId, epoch: Number(epoch) }, `print queue: ${why}`);
      const open = transport;
      transport = undefined;
      if (open) void (open.abort?.() ?? open.close()).catch(() => undefined);
    };
    // The local deadline is acted on when it passes, not at the next heartbeat (which comes up to a third of a
    // lease later: at or after the database's expiry, when another instance may already be printing).
    let expiry: NodeJS.Timeout | undefined;
    const watchDeadline = () => {
      clearTimeout(expiry);
      if (lost) return;
      const left = deadline - performance.now();
      if (left < 0) {
        lose(`lease of printer ${printerId} not renewed in time; stopped sending to it`);
        return;
      }
      expiry = setTimeout(watchDeadline, Math.ceil(left) + 1);
      expiry.unref();
    };
    const heartbeat = setInterval(
      () => {
        if (lost) return;
        if (performance.now() > deadline) {
          lose(`lease of printer ${printerId} not renewed in time; stopped sending to it`);
          return;
        }
        if (renewing) return;
        renewing = true;
        const at = performance.now();
        q(
          `UPDATE printer_leases SET expires_at = now() + $4 * interval '1 millisecond', renewed_at = now()
             WHERE printer_id = $1 AND holder = $2 AND epoch = $3 AND expires_at > now()`,
          [printerId, instance, epoch, settings.leaseMs],
        )
          .then((r) => {
            failing = false;
            if (r.rowCount) {
              deadline = Math.max(deadline, at + settings.leaseMs * 0.9);
              watchDeadline();
            } else lose(`lease of printer ${printerId} was taken over or ran out; stopped sending to it`);
          })
          .catch((e: unknown) => {
            if (!failing)
              log(
                'error',
                { printer: printerId, error: (e as Error).message },
                'print queue: cannot renew a printer lease (retrying)',
              );
            failing = true;
          })
          .finally(() => (renewing = false));
      },
      Math.max(50, Math.floor(settings.leaseMs / 3)),
    );
    heartbeat.unref();
    watchDeadline();

    const lease: Lease & { forceAbort(): void } = {
      printerId,
      epoch,
      get lost() {
        return lost;
      },
      signal: controller.signal,
      check() {
        if (!lost && performance.now() > deadline)
          lose(`lease of printer ${printerId} not renewed in time; stopped sending to it`);
        if (lost) throw new LeaseLost(`the lease of printer ${printerId} is no longer this instance's`);
      },
      watch(t) {
        transport = t;
      },
      forceAbort() {
        const open = transport;
        transport = undefined;
        if (open) void (open.abort?.() ?? open.close()).catch(() => undefined);
      },
      async release() {
        released = true;
        clearInterval(heartbeat);
        clearTimeout(expiry);
        stopped.signal.removeEventListener('abort', onStop);
        leases.delete(lease);
        const wasLost = lost;
        lost = true;
        controller.abort();
        try {
          // Also a lease this instance gave up by itself (not renewed in time): fenced by its epoch.
          await q(`DELETE FROM printer_leases WHERE printer_id = $1 AND holder = $2 AND epoch = $3`, [
            printerId,
            instance,
            epoch,
          ]);
          if (!wasLost) log('info', { printer: printerId }, `print queue: released printer ${printerId}`);
        } catch (e) {
          if (!wasLost)
            log(
              'error',
              { printer: printerId, error: (e as Error).message },
              'print queue: cannot release a printer lease (it runs out by itself)',
            );
        }
      },
    };
    leases.add(lease);
    return lease;
  }

  // ----------------------------------------------------------------------------------------------- requests

  /**
   * Stores the job with its labels in one statement. With an idempotency key already used by the same API key
   * (two copies of one request that both got this far) nothing is stored and the earlier job's id is returned:
   * the request then waits for that one.
   */
  async function enqueue(printer: RelayPrinter, job: RelayJob): Promise<string> {
    const payloads = job.labels.map((l) => Buffer.from(toBytes(l)));
    const inserted = await db.query<{ id: string }>(
      `WITH j AS (
         INSERT INTO print_jobs (printer_id, format, api_key, accepted_by, labels, idempotency_key, printer_dpi)
           VALUES ($1, $2, $3, $4, $5, $7, $8)
           ON CONFLICT (api_key, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
           RETURNING id),
       l AS (
         INSERT INTO print_labels (job_id, number, payload)
           SELECT j.id, u.n, u.p FROM j, unnest($6::bytea[]) WITH ORDINALITY AS u(p, n))
       SELECT id FROM j`,
      [
        printer.id,
        job.format,
        job.apiKey ?? '',
        instance,
        payloads.length,
        payloads,
        job.idempotencyKey ?? null,
        job.printerDpi ?? null,
      ],
    );
    const id = inserted.rows[0]?.id;
    if (id !== undefined) return id;
    const earlier = job.idempotencyKey ? await queued(job.apiKey ?? '', job.idempotencyKey) : undefined;
    if (!earlier) throw new Error('the print job was not stored');
    return earlier.id;
  }

  async function queued(apiKey: string, idempotencyKey: string): Promise<QueuedJob | undefined> {
    const { rows } = await db.query<{
      id: string;
      printer_id: number;
      format: JobFormat;
      printer_dpi: number | null;
    }>(
      'SELECT id, printer_id, format, printer_dpi FROM print_jobs WHERE api_key = $1 AND idempotency_key = $2',
      [apiKey, idempotencyKey],
    );
    const row = rows[0];
    return row
      ? { id: row.id, printerId: row.printer_id, format: row.format, printerDpi: row.printer_dpi }
      : undefined;
  }

  /** Waits for `id` like a request of this instance: counted among the waits close() lets finish. */
  async function followJob(printer: RelayPrinter, id: string): Promise<void> {
    const wait = waitFor(printer, id);
    waiting.add(wait);
    try {
      await wait;
    } finally {
      waiting.delete(wait);
    }
  }

  /** Waits for job `id` to end; throws PrinterUnavailable when it failed, was given up, or we stop. */
  async function waitFor(printer: RelayPrinter, id: string): Promise<void> {
    const until = performance.now() + settings.waitMs;
    let failing = false;
    for (;;) {
      if (stopping && performance.now() >= stopDeadline)
        throw new PrinterUnavailable(
          printer,
          `this server stopped while print job ${id} waited to be printed; the job stays queued and another ` +
            'instance prints it — do not send it again',
        );
      try {
        const row = (
          await db.query<{ state: string; error: string | null }>(
            'SELECT state, error FROM print_jobs WHERE id = $1',
            [id],
          )
        ).rows[0];
        failing = false;
        if (row?.state === 'done') return;
        if (row?.state === 'failed')
          throw new PrinterUnavailable(printer, row.error ?? 'the print job failed');
        if (performance.now() >= until) {
          const given = await giveUp(id);
          if (given) throw new PrinterUnavailable(printer, given);
          continue; // it ended meanwhile: read it again
        }
      } catch (e) {
        if (e instanceof PrinterUnavailable) throw e;
        if (!failing)
          log(
            'error',
            { job: Number(id), error: (e as Error).message },
            'print queue: cannot read a job (retrying)',
          );
        failing = true;
        // The job can be neither followed nor cancelled: say so, rather than "not delivered".
        if (performance.now() >= until + settings.waitMs)
          throw new PrinterUnavailable(
            printer,
            `print job ${id}: the site database stopped answering while the job waited; it may still be ` +
              'printed — check the printer or GET /site/jobs before sending it again',
            e,
          );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, settings.pollMs);
        function done() {
          clearTimeout(timer);
          waiters.delete(id);
          resolve();
        }
        waiters.set(id, done);
      });
    }
  }

  /**
   * The request waited `waitMs`: its job's labels not yet sent are cancelled (state failed). Returns the
   * sentence for the 500, or undefined when the job had ended meanwhile.
   */
  async function giveUp(id: string): Promise<string | undefined> {
    const seconds = Math.round(settings.waitMs / 1000);
    const ended = await db.query<{ confirmed: number; labels: number; sending: boolean }>(
      `UPDATE print_jobs SET state = 'failed', finished_at = now(), updated_at = now(),
              error = 'not delivered within ' || $2::text || ' s: cancelled'
         WHERE id = $1 AND state IN ('queued', 'printing')
         RETURNING confirmed, labels,
           EXISTS (SELECT 1 FROM print_labels WHERE job_id = $1 AND state = 'sending') AS sending`,
      [id, seconds],
    );
    const row = ended.rows[0];
    if (!row) return undefined;
    const confirmed =
      row.confirmed === 0
        ? 'no label was confirmed'
        : `labels 1 to ${row.confirmed} were confirmed`.replace('labels 1 to 1 were', 'label 1 was');
    return (
      `print job ${id} was not delivered within ${seconds} s (other jobs before it, or a slow printer) and is ` +
      `cancelled: ${confirmed} of ${row.labels}` +
      (row.sending
        ? `; label ${row.confirmed + 1} was being sent and may print`
        : '; the rest will not print')
    );
  }

  const gateway: PrinterGateway = {
    find: (id) => printers.find(id),
    accepts: (printer, format) => printers.accepts(printer, format),
    resolution: (printer) => printers.resolution(printer),
    async send(printer, job) {
      if (stopping) throw new PrinterUnavailable(printer, 'this server is stopping; send the job again');
      let id: string;
      try {
        id = await enqueue(printer, job);
      } catch (e) {
        log('error', { printer: printer.id, error: (e as Error).message }, 'print queue: cannot queue a job');
        // The site database's own verdict (unavailable: 503) stands; anything else is this printer's 500.
        if (e instanceof KindedError) throw e;
        throw new PrinterUnavailable(printer, 'the print queue (the site database) did not take the job', e);
      }
      void tick();
      await followJob(printer, id);
    },
  };

  return {
    gateway,
    queued,
    async follow(printer, job) {
      if (stopping) throw new PrinterUnavailable(printer, 'this server is stopping; send the job again');
      await followJob(printer, job.id);
    },
    async close() {
      if (stopping) return;
      stopping = true;
      clearInterval(tickTimer);
      stopped.abort();
      // The label in flight finishes; a driver still blocked after a lease's time has its connection cut.
      const force = setTimeout(() => {
        for (const lease of leases) lease.forceAbort();
      }, settings.leaseMs);
      force.unref();
      await Promise.allSettled([...driving.values()]);
      clearTimeout(force);
      // The requests waiting here wait on a while: their printers are free now, another instance goes on with them.
      stopDeadline = performance.now() + settings.stopWaitMs;
      await Promise.allSettled([...waiting]);
      await ownPool.end().catch(() => undefined);
    },
  };
}
