/** An IpcError's sentence, verbatim, with a button to where it can be fixed. */
import { actionLabel, type UserError } from '../ipc/user-error';
import { useStores } from '../store/stores-context';

export function ErrorNotice({ error, onDismiss }: { error: UserError; onDismiss?: () => void }) {
  const { ui } = useStores();
  const label = actionLabel(error.action);
  return (
    <div className="notice notice-error" role="alert">
      <span className="notice-icon" aria-hidden="true">
        !
      </span>
      <p className="notice-text">{error.message}</p>
      {label && (
        <button type="button" className="btn btn-small" onClick={() => ui.getState().followAction(error)}>
          {label}
        </button>
      )}
      {onDismiss && (
        <button type="button" className="btn btn-ghost btn-small" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
