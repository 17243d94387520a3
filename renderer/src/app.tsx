/**
 * The shell: navigation rail, status bar, the current screen, toasts. The screen follows the address's hash
 * (`#/history`) so the back button and bookmarks work; the less used screens load on first visit.
 */
import { Suspense, lazy, useEffect } from 'react';
import { NavRail } from './components/nav-rail';
import { StatusBar } from './components/status-bar';
import { Toasts } from './components/toasts';
import { PrintScreen } from './screens/print/print-screen';
import { useDocument, useStores, useUi } from './store/stores-context';
import { SCREENS, type Screen } from './store/ui';
import { assertNever } from '../../src/layout/scene';

const BatchScreen = lazy(() =>
  import('./screens/batch/batch-screen').then((m) => ({ default: m.BatchScreen })),
);
const HistoryScreen = lazy(() =>
  import('./screens/history/history-screen').then((m) => ({ default: m.HistoryScreen })),
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
  const { ui, printers } = useStores();
  const screen = useUi((s) => s.screen);
  const printer = useDocument((s) => s.printer);

  useEffect(() => {
    const sync = () => {
      const target = screenFromHash(window.location.hash);
      if (target && target !== ui.getState().screen) ui.getState().go(target);
    };
    sync();
    window.addEventListener('hashchange', sync);
    return () => window.removeEventListener('hashchange', sync);
  }, [ui]);

  useEffect(() => {
    if (screenFromHash(window.location.hash) !== screen) window.location.hash = `#/${screen}`;
  }, [screen]);

  // The selected printer's status, for the status bar, on every screen.
  useEffect(() => {
    if (!printer) return;
    return printers.getState().watch(() => [printer]);
  }, [printer, printers]);

  return (
    <div className="app">
      <NavRail />
      <div className="main">
        <StatusBar screen={screen} />
        <main className="content" id="content">
          <Suspense fallback={<p className="muted empty">Loading…</p>}>
            <CurrentScreen screen={screen} />
          </Suspense>
        </main>
      </div>
      <Toasts />
    </div>
  );
}
