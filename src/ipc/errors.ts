/**
 * Errors across the IPC boundary. Main turns every failure into an `IpcErrorBody` (a closed `code`, a
 * sentence a user can act on, and where to act); the renderer gets an `IpcError` with the same fields. Stack
 * traces never cross: an unexpected failure becomes `internal` with a short message.
 */
import { z } from 'zod';
import { ApiError } from '../api/errors';
import { TemplateNotFound, TemplateValidationError, problemsOf } from '../template/errors';
import { ResolveError } from '../resolve/resolve';
import { ElementError } from '../layout/layout';
import { ImageError } from '../layout/images';
import { RfidRequiresZpl } from '../engine/render';
import { PrinterError } from '../printers/transport';
import { CHANNELS, type ChannelName, type ParsedRequestOf } from './contract';

export const IPC_ERROR_CODES = [
  'bad-request',
  'not-found',
  'invalid',
  'auth',
  'unreachable',
  'printer',
  'conflict',
  'internal',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

/** Where the user can fix it (the renderer turns this into a link or focus). */
export type IpcErrorAction = 'settings' | 'printers' | 'field' | null;

export const IpcErrorBodySchema = z.object({
  code: z.enum(IPC_ERROR_CODES),
  message: z.string(),
  /** The form field at fault, when there is one. */
  field: z.string().nullable(),
  action: z.enum(['settings', 'printers', 'field']).nullable(),
});
export type IpcErrorBody = z.infer<typeof IpcErrorBodySchema>;

export class IpcError extends Error {
  override name = 'IpcError';
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly field: string | null = null,
    readonly action: IpcErrorAction = null,
  ) {
    super(message);
  }

  toBody(): IpcErrorBody {
    return { code: this.code, message: this.message, field: this.field, action: this.action };
  }

  static fromBody(body: IpcErrorBody): IpcError {
    return new IpcError(body.code, body.message, body.field, body.action);
  }
}

/** Parses a channel's payload; a bad one is `bad-request` naming the path and the problem. */
export function parseRequest<C extends ChannelName>(channel: C, payload: unknown): ParsedRequestOf<C> {
  const result = CHANNELS[channel].request.safeParse(payload ?? {});
  if (result.success) return result.data as ParsedRequestOf<C>;
  const problem = problemsOf(result.error)[0];
  const path = problem?.path ?? '';
  const where = path ? `${channel}: ${path}` : channel;
  throw new IpcError('bad-request', `${where}: ${problem?.message ?? 'invalid request'}`, path || null);
}

const sentence = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

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
      default:
        return body('internal', e.message);
    }
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
