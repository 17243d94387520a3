/**
 * Failures as the UI shows them: main's sentence verbatim and where the user can fix it. Errors are read by
 * shape, not by class, because an `IpcError` rebuilt by Electron's preload or the web bridge may not be the
 * same class object the renderer bundles.
 */
import { isChannelName } from '../../../src/ipc/contract';
import type { IpcErrorAction, IpcErrorCode } from '../../../src/ipc/errors';

export interface UserError {
  code: IpcErrorCode | 'client';
  /** A sentence for people, shown as is. */
  message: string;
  field: string | null;
  /** Main's action, or `choose-printer`: the renderer's own (the Print screen's printer box). */
  action: IpcErrorAction | 'choose-printer';
}

const ACTIONS = new Set(['settings', 'printers', 'field']);

/**
 * A sentence for people: never an IPC channel's name in front (`settings.update: …`), which is for logs only
 * (#42 item 13). Main words its own errors so; this keeps any other path (an older main, a bridge) from showing one.
 */
export function withoutChannel(message: string): string {
  const m = /^([a-z][A-Za-z]*\.[a-z][A-Za-z]*): (.*)$/s.exec(message);
  return m && isChannelName(m[1]) ? m[2]! : message;
}

/** Any thrown value → a UserError. */
export function toUserError(e: unknown): UserError {
  if (typeof e === 'object' && e !== null) {
    const { code, message, field, action } = e as Record<string, unknown>;
    if (typeof message === 'string' && typeof code === 'string') {
      return {
        code: code as IpcErrorCode,
        message: withoutChannel(message),
        field: typeof field === 'string' ? field : null,
        action: typeof action === 'string' && ACTIONS.has(action) ? (action as IpcErrorAction) : null,
      };
    }
    if (typeof message === 'string')
      return { code: 'client', message: withoutChannel(message), field: null, action: null };
  }
  return { code: 'client', message: String(e), field: null, action: null };
}

/** What the action button says. */
export function actionLabel(action: UserError['action']): string | null {
  switch (action) {
    case 'settings':
      return 'Open Settings';
    case 'printers':
      return 'Open Printers';
    case 'field':
      return 'Go to field';
    case 'choose-printer':
      return 'Choose a printer';
    case null:
      return null;
  }
}
