/**
 * The site server (issue #24, `labeldesk serve --database`): its URL, the key id and secret (write-only, like
 * the hosted API's: never pre-filled, "••• stored" when main keeps one), whether it is the backend, and "Test
 * connection". With it the site's templates, counters and history are the app's.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { SettingsPatch } from '../../../../src/ipc/contract';
import { ErrorNotice } from '../../components/error-notice';
import { Pill } from '../../components/status-pill';
import { describeConnection } from '../../store/connection';
import { useConnection, useStores } from '../../store/stores-context';

export function SiteCard({ highlight }: { highlight: boolean }) {
  const { connection } = useStores();
  const settings = useConnection((s) => s.settings);
  const status = useConnection((s) => s.status);
  const saving = useConnection((s) => s.saving);
  const testing = useConnection((s) => s.testing);
  const testResult = useConnection((s) => (s.testResult?.target === 'site' ? s.testResult : null));
  const error = useConnection((s) => s.error);
  const [siteUrl, setSiteUrl] = useState('');
  const [siteKey, setSiteKey] = useState('');
  const [secret, setSecret] = useState('');
  const [use, setUse] = useState(false);
  const [sessionOnly, setSessionOnly] = useState(true);
  const storageProblem = settings?.secretStorageProblem ?? null;

  useEffect(() => {
    if (!settings) return;
    setSiteUrl(settings.siteUrl ?? '');
    setSiteKey(settings.siteKey ?? '');
    setUse(settings.mode === 'site');
  }, [settings]);

  const inUse = settings?.mode === 'site';
  const patch = (): SettingsPatch => ({
    siteUrl: siteUrl.trim() || null,
    siteKey: siteKey.trim() || null,
    // Unticking the site falls back to the bundled engine; ticking it makes the site the backend.
    ...(use !== inUse ? { mode: use ? 'site' : 'local' } : {}),
    ...(secret ? { siteSecret: secret } : {}),
    ...(secret && storageProblem && sessionOnly ? { siteSecretForSessionOnly: true } : {}),
  });

  const unsaved =
    !settings ||
    (siteUrl.trim() || null) !== settings.siteUrl ||
    (siteKey.trim() || null) !== settings.siteKey ||
    use !== inUse ||
    secret !== '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await connection.getState().save(patch())) setSecret('');
  };

  const test = async () => {
    const sent = unsaved ? patch() : undefined;
    await connection.getState().test(sent, 'site');
    if (sent?.siteSecret && !connection.getState().error) setSecret('');
  };

  const described = inUse ? describeConnection(status) : null;

  return (
    <section className={`card${highlight ? ' card-highlight' : ''}`} aria-labelledby="site-title" id="site">
      <div className="card-head">
        <h2 id="site-title">Site server</h2>
        <Pill tone={described?.tone ?? 'neutral'}>{described?.label ?? 'Not used'}</Pill>
      </div>
      <p className="muted small">
        A LabelDesk site server (<span className="mono">labeldesk serve --database postgres://…</span>) shares
        templates, counters and history between workstations: every counter number comes from it, so two
        workstations never print the same serial.
      </p>
      {inUse && status?.message && <p className="muted">{status.message}</p>}
      <form onSubmit={(e) => void submit(e)} aria-label="Site server">
        <div className="grid-2">
          <label className="field">
            <span className="field-label">Site URL</span>
            <input
              type="url"
              className="mono"
              placeholder="https://labels.example.internal"
              value={siteUrl}
              onChange={(e) => setSiteUrl(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field-label">Site key id</span>
            <input
              className="mono"
              autoComplete="off"
              value={siteKey}
              onChange={(e) => setSiteKey(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field-label">Site key secret</span>
            <input
              type="password"
              autoComplete="new-password"
              placeholder={
                settings?.siteSecretKept === 'session'
                  ? '••• kept for this session'
                  : settings?.hasSiteSecret
                    ? '••• stored'
                    : 'Not set'
              }
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
            <span className="field-hint">
              {settings?.siteSecretKept === 'session'
                ? 'Kept for this session only: LabelDesk forgets it when it quits. Type a new one to replace it.'
                : settings?.hasSiteSecret
                  ? 'A secret is stored, encrypted. Type a new one to replace it.'
                  : storageProblem
                    ? 'It is never shown again.'
                    : 'Stored encrypted on this computer; it is never shown again.'}
            </span>
          </label>
          {storageProblem && (
            <div className="field">
              <p className="muted small">{storageProblem}</p>
              <label className="radio">
                <input
                  type="checkbox"
                  checked={sessionOnly}
                  onChange={(e) => setSessionOnly(e.target.checked)}
                />
                <span>Keep the secret for this session only</span>
              </label>
            </div>
          )}
          {settings?.hasSiteSecret && (
            <div className="field field-end">
              <button
                type="button"
                className="btn btn-ghost btn-small btn-danger-text"
                onClick={() => void connection.getState().save({ siteSecret: null })}
              >
                {settings.siteSecretKept === 'session' ? 'Forget the secret' : 'Forget the stored secret'}
              </button>
            </div>
          )}
        </div>
        <label className="radio">
          <input type="checkbox" checked={use} onChange={(e) => setUse(e.target.checked)} />
          <span>
            Print through the site server
            <span className="muted small">
              {' '}
              (its templates, counters and history; unticked: the bundled engine)
            </span>
          </span>
        </label>
        {error && <ErrorNotice error={error} />}
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save site server'}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={testing || saving}
            onClick={() => void test()}
          >
            {testing ? 'Testing…' : 'Test site connection'}
          </button>
          {testResult && (
            <p
              className={`test-result ${testResult.ok ? 'ok' : 'bad'}`}
              role="status"
              data-testid="site-connection-test"
            >
              {testResult.message}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
