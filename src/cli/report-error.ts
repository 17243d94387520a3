/**
 * The CLI's edge for errors: a thrown value → what the user reads on stderr and the exit code, one case per kind
 * of the one union (src/base/error-kind.ts). A mistake in the command line exits 2; anything the user or their
 * printer, template, data or service can fix exits 1 with one line saying what; our own bug exits 70 (EX_SOFTWARE)
 * with a stack only on request.
 */
import { assertNever } from '../base/assert-never';
import { kindOf } from '../base/error-kind';
import { CliError, UsageError, type CliIo } from './io';

export function reportError(e: unknown, io: CliIo): number {
  if (e instanceof UsageError) {
    io.stderr(`labeldesk: ${e.message}\n`);
    return 2;
  }
  if (e instanceof CliError) {
    io.stderr(`labeldesk: ${e.message}\n`);
    return 1;
  }
  const kind = kindOf(e);
  const message = e instanceof Error ? e.message : String(e);
  switch (kind) {
    // What the user can fix: the engine's errors (a template, a value, an element, an image, RFID asked as
    // PDF/SVG), a printer that cannot be reached, named or used for this format, the service (credentials,
    // limits, its answers, an expired export, a cancelled request), jobs and batches.
    case 'template-not-found':
    case 'template-invalid':
    case 'request-invalid':
    case 'element-invalid':
    case 'image-invalid':
    case 'rfid-requires-zpl':
    case 'printer-transport':
    case 'unknown-printer':
    case 'printer-refuses-format':
    case 'printer-unavailable':
    case 'no-printers':
    case 'auth':
    case 'rate-limited':
    case 'render-failed':
    case 'wrong-host':
    case 'unreachable':
    case 'malformed-response':
    case 'unexpected-status':
    case 'cancelled':
    case 'expired':
    case 'job-not-found':
    case 'job-refused':
    case 'batch-invalid':
    case 'store-unavailable':
      io.stderr(`labeldesk: ${message}\n`);
      return 1;
    case 'internal': {
      // Our bug, not the user's: say so briefly, stack only on request.
      io.stderr(`labeldesk: internal error: ${message}\n`);
      if (io.env.LABELDESK_DEBUG) io.stderr(`${e instanceof Error ? (e.stack ?? '') : ''}\n`);
      else io.stderr('labeldesk: set LABELDESK_DEBUG=1 for details, and please report this.\n');
      return 70;
    }
  }
  return assertNever(kind, 'error kind');
}
