/**
 * Any error thrown by a main-side service → the body the renderer gets (src/ipc/errors.ts): the engine's,
 * the hosted client's and the printers' user errors become sentences with where to fix them; anything else
 * is `internal`, without a stack.
 */
import { ApiError } from '../../src/backends/errors';
import { assertNever } from '../../src/base/assert-never';
import { TemplateNotFound, TemplateValidationError } from '../../src/model/errors';
import { ResolveError } from '../../src/resolve/resolve';
import { ElementError } from '../../src/layout/element-context';
import { ImageError } from '../../src/layout/images';
import { RfidRequiresZpl } from '../../src/outputs/render';
import { PrinterError } from '../../src/printers/transport';
import { JobNotFound } from '../../src/jobs/store';
import { BatchError } from '../../src/jobs/batch';
import { JobRequestError } from '../../src/node/jobs/job-service-types';
import { IpcError, type IpcErrorAction, type IpcErrorBody, type IpcErrorCode } from '../../src/ipc/errors';

/** Starts a message with a capital, unless it starts with a name (a file, a URI, a field path). */
const sentence = (s: string): string =>
  /^[a-z]+(?![\w.:/[-])/.test(s) ? s[0]!.toUpperCase() + s.slice(1) : s;

/** Any thrown value → the body sent to the renderer. Unknown errors say little and never carry a stack. */
export function toIpcErrorBody(e: unknown): IpcErrorBody {
  if (e instanceof IpcError) return e.toBody();
  if (e instanceof TemplateNotFound) return body('not-found', e.message);
  if (e instanceof ApiError) {
    switch (e.kind) {
      case 'auth':
        return body('auth', e.message, null, 'settings');
      case 'wrong-host':
      case 'unreachable':
      case 'malformed-response':
        return body('unreachable', e.message, null, 'settings');
      case 'validation':
      case 'rfid':
        return body('invalid', e.message);
      case 'no-printers':
      case 'printer-unavailable':
        return body('printer', e.message, null, 'printers');
      // Rate-limited, failed (500 twice) or an answer the spec does not list: the service, not LabelDesk.
      case 'rate-limited':
      case 'render-failed':
      case 'unexpected-status':
        return body('unreachable', e.message);
      case 'expired':
        return body('invalid', e.message);
      case 'template-not-found':
        return body('not-found', e.message);
      // Stopped on purpose (a newer request replaced it): not a failure of anything.
      case 'cancelled':
        return body('conflict', e.message);
    }
    return assertNever(e.kind, 'hosted API error kind');
  }
  if (e instanceof ResolveError) {
    const field = e.field.startsWith('apiData.') ? e.field.slice('apiData.'.length) : null;
    return body('invalid', e.message, field, field ? 'field' : null);
  }
  if (e instanceof TemplateValidationError || e instanceof ElementError || e instanceof ImageError) {
    return body('invalid', e.message);
  }
  if (e instanceof RfidRequiresZpl) return body('invalid', e.message);
  if (e instanceof PrinterError) return body('printer', e.message, null, 'printers');
  if (e instanceof JobRequestError || e instanceof JobNotFound) return body('conflict', e.message);
  if (e instanceof BatchError) return body('invalid', e.message);
  const message = e instanceof Error ? e.message : String(e);
  return body('internal', `Something went wrong inside LabelDesk: ${message}`);
}

function body(
  code: IpcErrorCode,
  message: string,
  field: string | null = null,
  action: IpcErrorAction = null,
): IpcErrorBody {
  return { code, message: sentence(message), field, action };
}
