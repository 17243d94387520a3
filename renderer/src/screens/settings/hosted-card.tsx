/**
 * The hosted API: base URL, key, secret (write-only: never pre-filled, "••• stored" when main has one),
 * hosted or local mode, "Test connection". Where this desktop cannot protect a stored secret (no keyring),
 * main's sentence says so and the secret can be kept for this session only.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { BackendMode, SettingsPatch } from '../../../../src/ipc/contract';
import { ErrorNotice } from '../../components/error-notice';
import { Pill } from '../../components/status-pill';
import { describeConnection } from '../../store/connection';
import { KeyAndSecretFields, SaveAndTest } from './credential-fields';
import { useConnection, useStores } from '../../store/stores-context';

export function HostedCard({ highlight }: { highlight: boolean }) {
  const { connection } = useStores();
  const settings = useConnection((s) => s.settings);
  const status = useConnection((s) => s.status);
  const saving = useConnection((s) => s.saving);
  const testing = useConnection((s) => s.testing);
  const testResult = useConnection((s) => (s.testResult?.target === 'hosted' ? s.testResult : null));
  const error = useConnection((s) => s.error);
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [mode, setMode] = useState<BackendMode>('hosted');
  // Offered only where main cannot protect a stored secret; there it is the choice that works.
  const [sessionOnly, setSessionOnly] = useState(true);
  const storageProblem = settings?.secretStorageProblem ?? null;

  useEffect(() => {
    if (!settings) return;
    setBaseUrl(settings.apiBaseUrl ?? '');
    setApiKey(settings.apiKey ?? '');
    setMode(settings.mode);
  }, [settings]);

  const patch = (): SettingsPatch => ({
    apiBaseUrl: baseUrl.trim() || null,
    apiKey: apiKey.trim() || null,
    mode,
    ...(secret ? { apiSecret: secret } : {}),
    ...(secret && storageProblem && sessionOnly ? { secretForSessionOnly: true } : {}),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await connection.getState().save(patch())) setSecret('');
  };

  // "Test connection" tests what is typed, without saving it (#42 item 8): Save keeps it. The secret typed stays
  // in the form (a test that passes is then saved with it).
  const test = () =>
    connection.getState().testTyped({
      apiBaseUrl: baseUrl.trim() || null,
      apiKey: apiKey.trim() || null,
      ...(secret ? { apiSecret: secret } : {}),
    });

  const described = describeConnection(status);
  const siteInUse = status?.backend === 'site';

  return (
    <section
      className={`card${highlight ? ' card-highlight' : ''}`}
      aria-labelledby="hosted-title"
      id="hosted"
    >
      <div className="card-head">
        <h2 id="hosted-title">Hosted API</h2>
        <Pill tone={siteInUse ? 'neutral' : described.tone}>
          {/* Already in Settings: no "open Settings" here. */}
          {siteInUse
            ? 'Not used: the site server prints'
            : status?.hosted === 'refused'
              ? 'Hosted API refused the key'
              : described.label}
        </Pill>
      </div>
      {status?.message && !siteInUse && <p className="muted">{status.message}</p>}
      <form onSubmit={(e) => void submit(e)}>
        <div className="grid-2">
          <label className="field">
            <span className="field-label">Base URL</span>
            <input
              type="url"
              className="mono"
              placeholder="https://api.example.com"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          </label>
          <KeyAndSecretFields
            keyLabel="API key"
            keyValue={apiKey}
            onKeyChange={setApiKey}
            secretLabel="API secret"
            secret={{ kept: settings?.secretKept ?? null, stored: settings?.hasSecret === true }}
            secretValue={secret}
            onSecretChange={setSecret}
            storageProblem={storageProblem}
            sessionOnly={sessionOnly}
            onSessionOnlyChange={setSessionOnly}
            sessionOnlyTestId="secret-storage-problem"
            onForget={() => void connection.getState().save({ apiSecret: null })}
          />
        </div>
        <fieldset className="radio-group">
          <legend className="field-label">When printing</legend>
          <label className="radio">
            <input type="radio" name="mode" checked={mode === 'hosted'} onChange={() => setMode('hosted')} />
            <span>
              Use the hosted API
              <span className="muted small"> (the bundled engine stands in when it cannot be reached)</span>
            </span>
          </label>
          <label className="radio">
            <input type="radio" name="mode" checked={mode === 'local'} onChange={() => setMode('local')} />
            <span>Offline: always use the bundled engine</span>
          </label>
          <label className="radio">
            <input type="radio" name="mode" checked={mode === 'site'} onChange={() => setMode('site')} />
            <span>
              Use the site server
              <span className="muted small"> (set up under Site server)</span>
            </span>
          </label>
        </fieldset>
        {error && <ErrorNotice error={error} />}
        <SaveAndTest
          saving={saving}
          testing={testing}
          onTest={() => void test()}
          saveLabel="Save"
          testLabel="Test connection"
          testResult={testResult}
          testId="connection-test"
        />
      </form>
    </section>
  );
}
