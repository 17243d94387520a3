/**
 * Errors across the IPC boundary. Main turns every failure into an `IpcErrorBody` (a closed `code`, a
 * sentence a user can act on, and where to act); the renderer gets an `IpcError` with the same fields. Stack
 * traces never cross: an unexpected failure becomes `internal` with a short message (main/app/ipc-error-body.ts
 * maps the engine's errors; this file stays light, the renderer bundles it).
 */
import { z } from 'zod';
import { problemsOf } from '../model/errors';
import { CHANNELS, type ChannelName, type ParsedRequestOf } from './contract';
import { requestFieldLabel } from './field-labels';

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

/**
 * A request main refused: the user's sentence names the field by its label ("Site URL: use https://…"); the
 * channel and the property path are for the log only (`logLine`), never shown (#42 item 13).
 */
export class BadRequest extends IpcError {
  constructor(
    message: string,
    field: string | null,
    /** `settings.update: siteUrl: …`: what main's log says. */
    readonly logLine: string,
  ) {
    super('bad-request', message, field);
  }
}

/** Parses a channel's payload; a bad one is `bad-request` naming the field by its label and the problem. */
export function parseRequest<C extends ChannelName>(channel: C, payload: unknown): ParsedRequestOf<C> {
  const result = CHANNELS[channel].request.safeParse(payload ?? {});
  if (result.success) return result.data as ParsedRequestOf<C>;
  const problem = problemsOf(result.error)[0];
  const path = problem?.path ?? '';
  const what = problem?.message ?? 'invalid request';
  const sentence = path ? `${requestFieldLabel(path)}: ${what}` : `The request was refused: ${what}`;
  throw new BadRequest(sentence, path || null, `${path ? `${channel}: ${path}` : channel}: ${what}`);
}
