/**
 * Errors across the IPC boundary. Main turns every failure into an `IpcErrorBody` (a closed `code`, a
 * sentence a user can act on, and where to act); the renderer gets an `IpcError` with the same fields. Stack
 * traces never cross: an unexpected failure becomes `internal` with a short message (main/app/ipc-error-body.ts
 * maps the engine's errors; this file stays light, the renderer bundles it).
 */
import { z } from 'zod';
import { problemsOf } from '../model/errors';
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
