/**
 * The shell: navigation rail, status bar, the current screen, toasts. The screen follows the address's hash
 * (`#/history`) so the back button and bookmarks work; the less used screens load on first visit.
 */
import { Suspense, lazy, useEffect, type MouseEvent } from 'react';
import { editableFields } from './lib/form-keys';
import { NavRail } from './components/nav-rail';
import { StatusBar } from './components/status-bar';
import { Toasts } from './components/toasts';
import { PrintScreen } from './screens/print/print-screen';
import { printingPrinter } from './store/jobs';
import { useDocument, useJobs, useStores, useUi } from './store/stores-context';
import { SCREENS, type Screen } from './store/ui';
import { assertNever } from '../../src/base/assert-never';

const BatchScreen = lazy(() =>
  import('./screens/batch/batch-screen').then((m) => ({ default: m.BatchScreen })),
);
const HistoryScreen = lazy(() =>
  import('./screens/history/history-screen').then((m) => ({ default: m.HistoryScreen })),
);
const DesignScreen = lazy(() =>
  import('./screens/design/design-screen').then((m) => ({ default: m.DesignScreen })),
);
const SettingsScreen = lazy(() =>
  import('./screens/settings/settings-screen').then((m) => ({ default: m.SettingsScreen })),
);

const screenFromHash = (hash: string): Screen | null => {
  const name = hash.replace(/^#\/?/, '');
  return (SCREENS as readonly string[]).includes(name) ? (name as Screen) : null;
};

function CurrentScreen({ screen }: { screen: Screen }) {
  switch (screen) {
    case 'print':
      return <PrintScreen />;
    case 'design':
      return <DesignScreen />;
    case 'batch':
      return <BatchScreen />;
    case 'history':
      return <HistoryScreen />;
    case 'settings':
      return <SettingsScreen />;
    default:
      return assertNever(screen, 'screen');
  }
}

export function App() {
  const { ui, printers, document } = useStores();
  const screen = useUi((s) => s.screen);
  const chosen = useDocument((s) => s.printer);
  const printing = useJobs((s) => printingPrinter(s.live));

  useEffect(() => {
    const sync = () => {
      const target = screenFromHash(window.location.hash);
      if (target && target !== ui.getState().screen && !ui.getState().go(target)) {
        // Kept on this screen (unsaved changes): the address says so again.
        window.location.hash = `#/${ui.getState().screen}`;
      }
    };
    sync();
    window.addEventListener('hashchange', sync);
    return () => window.removeEventListener('hashchange', sync);
  }, [ui]);

  useEffect(() => {
    if (screenFromHash(window.location.hash) !== screen) window.location.hash = `#/${screen}`;
  }, [screen]);

  // The status of the printers the status bar shows (the chosen one, the one printing), on every screen.
  useEffect(() => {
    const ids = [...new Set([chosen, printing].filter((id): id is string => id !== null))];
    if (!ids.length) return;
    return printers.getState().watch(() => ids);
  }, [chosen, printing, printers]);

  // The first tab stop: straight to the label's first field (or the screen), past the rail and the header.
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const first = editableFields(document.getState().detail?.template.fields ?? [])[0];
    if (screen === 'print' && first) ui.getState().focusField(first.name);
    else window.document.getElementById('content')?.focus();
  };

  return (
    <div className="app">
      <a className="skip-link" href="#content" onClick={skip}>
        {screen === 'print' ? 'Skip to the label' : 'Skip to the screen'}
      </a>
      <NavRail />
      <div className="main">
        <StatusBar screen={screen} />
        <main className="content" id="content" tabIndex={-1}>
          <Suspense fallback={<p className="muted empty">Loading…</p>}>
            <CurrentScreen screen={screen} />
          </Suspense>
        </main>
      </div>
      <Toasts />
    </div>
  );
}
