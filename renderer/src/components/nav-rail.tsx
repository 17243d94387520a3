/**
 * The left navigation rail: one link per screen (`#/batch`…), the current one marked with aria-current. Links,
 * not buttons, so "Print" names one button on the page: the one that prints.
 */
import { useStores, useUi } from '../store/stores-context';
import type { Screen } from '../store/ui';
import { Icon, type IconName } from './icons';

const ITEMS: { screen: Screen; label: string; icon: IconName }[] = [
  { screen: 'print', label: 'Print', icon: 'print' },
  { screen: 'design', label: 'Design', icon: 'design' },
  { screen: 'batch', label: 'Batch', icon: 'batch' },
  { screen: 'history', label: 'History', icon: 'history' },
  { screen: 'settings', label: 'Printers & Settings', icon: 'settings' },
];

export function NavRail() {
  const { ui } = useStores();
  const current = useUi((s) => s.screen);
  return (
    <nav className="rail" aria-label="Screens">
      <div className="rail-brand" aria-hidden="true">
        <Icon name="label" size={22} />
        <span>LabelDesk</span>
      </div>
      <ul className="rail-list">
        {ITEMS.map((item) => (
          <li key={item.screen}>
            <a
              href={`#/${item.screen}`}
              className="rail-item"
              aria-current={current === item.screen ? 'page' : undefined}
              title={item.label}
              onClick={(e) => {
                // The shell writes the address once the screen changed (a guard may keep this one).
                e.preventDefault();
                ui.getState().go(item.screen);
              }}
            >
              <Icon name={item.icon} size={20} />
              <span>{item.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
