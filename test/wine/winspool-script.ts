/**
 * Runs under Wine, in the Windows Node.js (node.exe): LabelDesk's own printing code — discovery, the print
 * language decision, `deliverLabels` (what `labeldesk print` does) and the job worker (a batch) — over the
 * winspool transport, which `cups://Name` selects on Windows. winspool-wine.test.ts bundles this file with
 * esbuild (koffi stays external: the win32 build from a scratch folder), runs it, and checks what arrived.
 *
 *   node.exe winspool-script.mjs REQUEST.json RESULT.json
 *
 * Every step's outcome (or typed error) goes to RESULT.json: node.exe's own stdout/stderr must be files under
 * Wine, and a result file is what the test reads anyway.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { discoverPrinters } from '../../src/node/printers/discovery';
import { printLanguage } from '../../src/node/printers/language';
import { createStatusTransport, openTransport } from '../../src/node/printers/open-transport';
import { deliverLabels } from '../../src/printers/deliver';
import { PrinterError } from '../../src/printers/transport';
import { parsePrinterUri } from '../../src/printers/uri';
import { runJob, type JobEvent } from '../../src/jobs/worker';
import { memoryJobStore } from '../support/memory-job-store';

export type WineStep =
  | { kind: 'list' }
  | { kind: 'language'; uri: string }
  | { kind: 'status-transport'; uri: string }
  /** `deliverLabels` over one winspool session: labels are base64. */
  | { kind: 'print'; uri: string; labels: string[] }
  /** A job through the job worker (one label in flight at a time), labels base64. */
  | { kind: 'batch'; uri: string; labels: string[] };

export interface WineError {
  name: string;
  code?: string;
  message: string;
  cause?: WineError;
}

export type WineOutcome =
  { kind: string; ok: true; value: unknown } | { kind: string; ok: false; error: WineError };

function describe(e: unknown): WineError {
  if (!(e instanceof Error)) return { name: 'thrown', message: String(e) };
  return {
    name: e.name,
    ...(e instanceof PrinterError ? { code: e.code } : {}),
    message: e.message,
    ...(e.cause !== undefined ? { cause: describe(e.cause) } : {}),
  };
}

const fromBase64 = (labels: string[]): Uint8Array[] => labels.map((l) => Buffer.from(l, 'base64'));
const noWait = (): Promise<void> => Promise.resolve();

async function run(step: WineStep): Promise<unknown> {
  switch (step.kind) {
    case 'list':
      return discoverPrinters({ sources: ['cups'] });
    case 'language':
      return printLanguage(parsePrinterUri(step.uri));
    case 'status-transport': {
      const transport = await createStatusTransport(step.uri);
      return { uri: transport.uri, status: transport.capabilities.status };
    }
    case 'print':
      return deliverLabels(
        () => openTransport(step.uri, { cups: { title: 'LabelDesk wine test' } }),
        fromBase64(step.labels),
        { retries: 1, sleep: noWait },
      );
    case 'batch': {
      const store = memoryJobStore();
      const labels = fromBase64(step.labels).map((b) => Buffer.from(b).toString('utf8'));
      const job = store.createJob(
        {
          printer: step.uri,
          format: 'zpl',
          templateName: 'wine',
          template: {},
          rows: [{}],
          copies: labels.length,
          dpi: 203,
          createdBy: 'wine test',
        },
        () => labels,
      );
      const events: JobEvent['kind'][] = [];
      const ended = await runJob(job.id, {
        store,
        connect: (uri) => openTransport(uri),
        sleep: noWait,
        onEvent: (e) => events.push(e.kind),
        timing: { backoffMs: 1, maxBackoffMs: 1, maxConnectFailures: 2 },
      });
      return {
        state: ended.state,
        reason: ended.reason,
        labels: store.labels(job.id).map((l) => l.state),
        events,
      };
    }
  }
}

const [requestPath, resultPath] = process.argv.slice(2);
if (!requestPath || !resultPath) throw new Error('usage: node winspool-script.mjs REQUEST.json RESULT.json');
const steps = JSON.parse(readFileSync(requestPath, 'utf8')) as WineStep[];
const outcomes: WineOutcome[] = [];
for (const step of steps) {
  try {
    outcomes.push({ kind: step.kind, ok: true, value: await run(step) });
  } catch (e) {
    outcomes.push({ kind: step.kind, ok: false, error: describe(e) });
  }
  // After every step: when a step hangs and node.exe is killed, the test tells which one it was.
  writeFileSync(resultPath, JSON.stringify(outcomes, null, 2));
}
