/**
 * Printers & Settings: printers (status, discover, default), the file printers' folder, the hosted API, the site
 * server.
 */
import { useEffect } from 'react';
import { useConnection, usePrinters, useStores, useUi } from '../../store/stores-context';
import { CopiesCard } from './copies-card';
import { FilePrinterFolderCard } from './file-printer-folder-card';
import { HostedCard } from './hosted-card';
import { PrintersCard } from './printers-card';
import { SiteCard } from './site-card';

export function SettingsScreen() {
  const { connection } = useStores();
  const section = useUi((s) => s.settingsSection);
  const info = useConnection((s) => s.info);
  const settings = useConnection((s) => s.settings);
  const printers = usePrinters((s) => s.printers);

  useEffect(() => {
    if (section) window.document.getElementById(section)?.scrollIntoView({ block: 'start' });
  }, [section]);

  return (
    <div className="screen settings-screen">
      <PrintersCard highlight={section === 'printers'} />
      <section className="card" aria-labelledby="default-title">
        <h2 id="default-title">Default printer</h2>
        <label className="field field-inline">
          <span className="field-label">Print to</span>
          <select
            value={settings?.defaultPrinter ?? ''}
            onChange={(e) => void connection.getState().save({ defaultPrinter: e.target.value || null })}
          >
            <option value="">No default</option>
            {printers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </section>
      <CopiesCard />
      <FilePrinterFolderCard />
      <HostedCard highlight={section === 'hosted'} />
      <SiteCard highlight={section === 'site'} />
      {info && (
        <p className="muted small about">
          LabelDesk {info.version} · {info.shell === 'web' ? 'web mode' : 'desktop'} · {info.platform}
        </p>
      )}
    </div>
  );
}
