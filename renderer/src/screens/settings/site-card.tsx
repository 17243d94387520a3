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
import { KeyAndSecretFields, SaveAndTest } from './credential-fields';
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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await connection.getState().save(patch())) setSecret('');
  };

  // "Test connection" tests what is typed, without saving it (as the hosted API's card does): Save keeps it.
  const test = () =>
    connection.getState().testSiteTyped({
      siteUrl: siteUrl.trim() || null,
      siteKey: siteKey.trim() || null,
      ...(secret ? { siteSecret: secret } : {}),
    });

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
          <KeyAndSecretFields
            keyLabel="Site key id"
            keyValue={siteKey}
            onKeyChange={setSiteKey}
            secretLabel="Site key secret"
            secret={{ kept: settings?.siteSecretKept ?? null, stored: settings?.hasSiteSecret === true }}
            secretValue={secret}
            onSecretChange={setSecret}
            storageProblem={storageProblem}
            sessionOnly={sessionOnly}
            onSessionOnlyChange={setSessionOnly}
            onForget={() => void connection.getState().save({ siteSecret: null })}
          />
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
        <SaveAndTest
          saving={saving}
          testing={testing}
          onTest={() => void test()}
          saveLabel="Save site server"
          testLabel="Test site connection"
          testResult={testResult}
          testId="site-connection-test"
        />
      </form>
    </section>
  );
}
