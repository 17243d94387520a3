/**
 * The parts the hosted API's and the site server's cards share: the key id and a write-only secret field (never
 * pre-filled, "••• stored" when main keeps one), the session-only choice where this desktop cannot protect a
 * stored secret, "Forget the secret" (KeyAndSecretFields), and the Save / Test connection row with the test's
 * result (SaveAndTest).
 */

/** How main keeps a secret: stored encrypted, for this session only, or not at all. */
interface SecretKept {
  kept: 'stored' | 'session' | null;
  stored: boolean;
}

function SecretField({
  label,
  secret,
  storageProblem,
  value,
  onChange,
}: {
  label: string;
  secret: SecretKept;
  storageProblem: string | null;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="password"
        autoComplete="new-password"
        placeholder={
          secret.kept === 'session' ? '••• kept for this session' : secret.stored ? '••• stored' : 'Not set'
        }
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <span className="field-hint">
        {secret.kept === 'session'
          ? 'Kept for this session only: LabelDesk forgets it when it quits. Type a new one to replace it.'
          : secret.stored
            ? 'A secret is stored, encrypted. Type a new one to replace it.'
            : storageProblem
              ? 'It is never shown again.'
              : 'Stored encrypted on this computer; it is never shown again.'}
      </span>
    </label>
  );
}

/** Offered only where main cannot protect a stored secret; there it is the choice that works. */
function SessionOnlyChoice({
  storageProblem,
  checked,
  onChange,
  testId,
}: {
  storageProblem: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}) {
  return (
    <div className="field" data-testid={testId}>
      <p className="muted small">{storageProblem}</p>
      <label className="radio">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        <span>Keep the secret for this session only</span>
      </label>
    </div>
  );
}

function ForgetSecretButton({ secret, onForget }: { secret: SecretKept; onForget: () => void }) {
  return (
    <div className="field field-end">
      <button type="button" className="btn btn-ghost btn-small btn-danger-text" onClick={onForget}>
        {secret.kept === 'session' ? 'Forget the secret' : 'Forget the stored secret'}
      </button>
    </div>
  );
}

/** The key id and its secret, with the session-only choice and "Forget the secret" where they apply. */
export function KeyAndSecretFields({
  keyLabel,
  keyValue,
  onKeyChange,
  secretLabel,
  secret,
  secretValue,
  onSecretChange,
  storageProblem,
  sessionOnly,
  onSessionOnlyChange,
  sessionOnlyTestId,
  onForget,
}: {
  keyLabel: string;
  keyValue: string;
  onKeyChange: (value: string) => void;
  secretLabel: string;
  secret: SecretKept;
  secretValue: string;
  onSecretChange: (value: string) => void;
  storageProblem: string | null;
  sessionOnly: boolean;
  onSessionOnlyChange: (checked: boolean) => void;
  sessionOnlyTestId?: string;
  onForget: () => void;
}) {
  return (
    <>
      <label className="field">
        <span className="field-label">{keyLabel}</span>
        <input
          className="mono"
          autoComplete="off"
          value={keyValue}
          onChange={(e) => onKeyChange(e.target.value)}
        />
      </label>
      <SecretField
        label={secretLabel}
        secret={secret}
        storageProblem={storageProblem}
        value={secretValue}
        onChange={onSecretChange}
      />
      {storageProblem && (
        <SessionOnlyChoice
          storageProblem={storageProblem}
          checked={sessionOnly}
          onChange={onSessionOnlyChange}
          {...(sessionOnlyTestId ? { testId: sessionOnlyTestId } : {})}
        />
      )}
      {secret.stored && <ForgetSecretButton secret={secret} onForget={onForget} />}
    </>
  );
}

export function SaveAndTest({
  saving,
  testing,
  onTest,
  saveLabel,
  testLabel,
  testResult,
  testId,
}: {
  saving: boolean;
  testing: boolean;
  onTest: () => void;
  saveLabel: string;
  testLabel: string;
  testResult: { ok: boolean; message: string } | null;
  testId: string;
}) {
  return (
    <div className="row">
      <button type="submit" className="btn btn-primary" disabled={saving}>
        {saving ? 'Saving…' : saveLabel}
      </button>
      <button type="button" className="btn btn-secondary" disabled={testing || saving} onClick={onTest}>
        {testing ? 'Testing…' : testLabel}
      </button>
      {testResult && (
        <p className={`test-result ${testResult.ok ? 'ok' : 'bad'}`} role="status" data-testid={testId}>
          {testResult.message}
        </p>
      )}
    </div>
  );
}
