/**
 * The template picker: a searchable list (pinned, then recent first) labelled "Template", each entry with its source
 * badge and size; import a template file; capture a hosted template by name.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TemplateRef, TemplateSource } from '../../../../src/ipc/contract';
import { ErrorNotice } from '../../components/error-notice';
import { Icon } from '../../components/icons';
import { Pill, type Tone } from '../../components/status-pill';
import { sameRef, visibleTemplates } from '../../store/catalog';
import { useCatalog, useConnection, useDocument, useStores } from '../../store/stores-context';
import { CaptureDialog } from './capture-dialog';

const SOURCE_TONE: Record<TemplateSource, Tone> = {
  bundled: 'neutral',
  user: 'accent',
  captured: 'warn',
  site: 'ok',
};

const optionId = (ref: TemplateRef) => `tpl-${ref.source}-${ref.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

export function TemplatePicker() {
  const { catalog, document, ui } = useStores();
  const templates = useCatalog((s) => s.templates);
  const broken = useCatalog((s) => s.broken);
  const loaded = useCatalog((s) => s.loaded);
  const query = useCatalog((s) => s.query);
  const error = useCatalog((s) => s.error);
  const busy = useCatalog((s) => s.busy);
  const recent = useConnection((s) => s.settings?.recentTemplates);
  const pinned = useConnection((s) => s.settings?.pinnedTemplates);
  const selected = useDocument((s) => s.ref);
  const [capturing, setCapturing] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const visible = useMemo(
    () => visibleTemplates(templates, query, recent, pinned),
    [templates, query, recent, pinned],
  );

  /** Loads the template with the cursor on its first field (typing starts there). */
  const choose = (ref: TemplateRef) => void document.getState().selectTemplate(ref, { focus: true });

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' && visible.length === 1) {
      e.preventDefault();
      choose(visible[0]!.ref);
    } else if (e.key === 'ArrowDown' && visible.length > 0) {
      e.preventDefault();
      list.current?.querySelector<HTMLLIElement>('[role="option"]')?.focus();
    }
  };

  const onListKey = (e: KeyboardEvent<HTMLLIElement>, index: number) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step) {
      e.preventDefault();
      const options = list.current?.querySelectorAll<HTMLLIElement>('[role="option"]');
      options?.[Math.min(Math.max(index + step, 0), options.length - 1)]?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const t = visible[index];
      if (t) choose(t.ref);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const summary = await catalog.getState().importFile(file.name, await file.text());
    if (fileInput.current) fileInput.current.value = '';
    if (summary) {
      choose(summary.ref);
      ui.getState().notify({ kind: 'info', message: `Imported template ${summary.ref.name}.` });
    }
  };

  const focusIndex = Math.max(
    0,
    visible.findIndex((t) => sameRef(t.ref, selected)),
  );

  return (
    <section className="card picker" aria-labelledby="picker-title">
      <div className="card-head">
        <h2 id="picker-title">Templates</h2>
        <span className="muted small">{templates.length}</span>
      </div>
      <div className="search">
        <Icon name="search" size={16} />
        <input
          type="search"
          aria-label="Search"
          placeholder="Search templates"
          value={query}
          onChange={(e) => catalog.getState().setQuery(e.target.value)}
          onKeyDown={onSearchKey}
        />
      </div>
      <ul className="picker-list" role="listbox" aria-label="Template" ref={list}>
        {visible.map((t, i) => {
          const isSelected = sameRef(t.ref, selected);
          const id = optionId(t.ref);
          return (
            <li
              key={id}
              id={id}
              role="option"
              aria-selected={isSelected}
              aria-labelledby={`${id}-title ${id}-name`}
              aria-describedby={`${id}-desc`}
              tabIndex={i === focusIndex ? 0 : -1}
              className="picker-item"
              onClick={() => choose(t.ref)}
              onKeyDown={(e) => onListKey(e, i)}
            >
              <div className="picker-item-top">
                <span className="picker-name" id={`${id}-title`}>
                  {t.title}
                </span>
                {t.purpose === 'test' && <Pill tone="neutral">test</Pill>}
                <Pill tone={SOURCE_TONE[t.ref.source]}>{t.ref.source}</Pill>
              </div>
              <div className="picker-slug mono small" id={`${id}-name`}>
                {t.ref.name}
              </div>
              <div className="picker-desc" id={`${id}-desc`}>
                {pinned?.some((p) => sameRef(p, t.ref)) ? (
                  <span className="recent-tag">Pinned · </span>
                ) : (
                  (t.recent || recent?.some((r) => sameRef(r, t.ref))) && (
                    <span className="recent-tag">Recent · </span>
                  )
                )}
                {t.size} · {t.fieldCount} {t.fieldCount === 1 ? 'field' : 'fields'}
                {t.description ? ` · ${t.description}` : ''}
              </div>
            </li>
          );
        })}
        {loaded && visible.length === 0 && (
          <li className="picker-empty" role="presentation">
            {query
              ? `No template matches “${query}”.`
              : 'No templates yet: import one or capture a hosted one.'}
          </li>
        )}
      </ul>
      {broken.length > 0 && (
        <details className="broken">
          <summary>
            {broken.length} template {broken.length === 1 ? 'file' : 'files'} could not be read
          </summary>
          <ul>
            {broken.map((b) => (
              <li key={`${b.source}/${b.file}`}>
                <strong>{b.file}</strong> ({b.source}): {b.problems.join('; ')}
              </li>
            ))}
          </ul>
        </details>
      )}
      {error && !capturing && <ErrorNotice error={error} />}
      <div className="picker-actions">
        <label className="btn btn-secondary btn-small file-button">
          <Icon name="upload" size={16} />
          Import file
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            disabled={busy}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
        <button type="button" className="btn btn-secondary btn-small" onClick={() => setCapturing(true)}>
          <Icon name="cloud" size={16} />
          Capture by name
        </button>
      </div>
      {capturing && (
        <CaptureDialog
          onClose={(ref) => {
            setCapturing(false);
            if (ref) choose(ref);
          }}
        />
      )}
    </section>
  );
}
