/**
 * Any error thrown by a main-side service → the body the renderer gets (src/ipc/errors.ts): the engine's,
 * the hosted client's and the printers' user errors become sentences with where to fix them; anything else
 * is `internal`, without a stack.
 */
import { ValidationError } from '../../src/backends/errors';
import { assertNever } from '../../src/base/assert-never';
import { kindOf } from '../../src/base/error-kind';
import { ResolveError } from '../../src/resolve/resolve';
import { IpcError, type IpcErrorAction, type IpcErrorBody, type IpcErrorCode } from '../../src/ipc/errors';

/** Starts a message with a capital, unless it starts with a name (a file, a URI, a field path). */
const sentence = (s: string): string =>
  /^[a-z]+(?![\w.:/[-])/.test(s) ? s[0]!.toUpperCase() + s.slice(1) : s;

/**
 * Any thrown value → the body sent to the renderer, one case per kind of the one union (src/base/error-kind.ts).
 * Unknown errors say little and never carry a stack.
 */
export function toIpcErrorBody(e: unknown): IpcErrorBody {
  if (e instanceof IpcError) return e.toBody();
  const kind = kindOf(e);
  const message = e instanceof Error ? e.message : String(e);
  switch (kind) {
    case 'template-not-found':
      return body('not-found', message);
    case 'request-invalid': {
      // A form field (apiData.<name>, from the engine or the hosted API's 422) is pointed at in the form.
      const path = e instanceof ResolveError || e instanceof ValidationError ? e.field : undefined;
      const field = path?.startsWith('apiData.') ? path.slice('apiData.'.length) : null;
      return body('invalid', message, field, field ? 'field' : null);
    }
    case 'template-invalid':
    case 'element-invalid':
    case 'image-invalid':
    case 'rfid-requires-zpl':
    case 'expired':
    case 'batch-invalid':
      return body('invalid', message);
    case 'auth':
      return body('auth', message, null, 'settings');
    case 'wrong-host':
    case 'unreachable':
    case 'malformed-response':
      return body('unreachable', message, null, 'settings');
    // Rate-limited, failed (500 twice) or an answer the spec does not list: the service, not LabelDesk.
    case 'rate-limited':
    case 'render-failed':
    case 'unexpected-status':
    case 'store-unavailable':
      return body('unreachable', message);
    case 'printer-transport':
    case 'printer-unavailable':
    case 'unknown-printer':
    case 'printer-refuses-format':
    case 'no-printers':
      return body('printer', message, null, 'printers');
    // Stopped on purpose (a newer request replaced it), or refused in the job's state: not a failure of anything.
    case 'cancelled':
    case 'job-refused':
    case 'job-not-found':
      return body('conflict', message);
    case 'internal':
      return body('internal', `Something went wrong inside LabelDesk: ${message}`);
  }
  return assertNever(kind, 'error kind');
}

function body(
  code: IpcErrorCode,
  message: string,
  field: string | null = null,
  action: IpcErrorAction = null,
): IpcErrorBody {
  return { code, message: sentence(message), field, action };
}
