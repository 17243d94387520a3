/**
 * Failures as the UI shows them: main's sentence verbatim and where the user can fix it. Errors are read by
 * shape, not by class, because an `IpcError` rebuilt by Electron's preload or the web bridge may not be the
 * same class object the renderer bundles.
 */
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

/** Any thrown value → a UserError. */
export function toUserError(e: unknown): UserError {
  if (typeof e === 'object' && e !== null) {
    const { code, message, field, action } = e as Record<string, unknown>;
    if (typeof message === 'string' && typeof code === 'string') {
      return {
        code: code as IpcErrorCode,
        message,
        field: typeof field === 'string' ? field : null,
        action: typeof action === 'string' && ACTIONS.has(action) ? (action as IpcErrorAction) : null,
      };
    }
    if (typeof message === 'string') return { code: 'client', message, field: null, action: null };
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
