/**
 * The UI store's leave guard (#22): the designer with unsaved changes keeps its screen until the user says
 * what to do with them; without a guard, or once it lets go, screens change as before.
 */
import { describe, expect, it } from 'vitest';
import { createUiStore } from '../../renderer/src/store/ui';

describe('leave guard', () => {
  it('keeps the screen while the guard says no, asks it with the screen wanted', () => {
    const ui = createUiStore();
    expect(ui.getState().go('design')).toBe(true);
    const asked: string[] = [];
    let allow = false;
    ui.getState().setLeaveGuard((to) => {
      asked.push(to);
      return allow;
    });
    expect(ui.getState().go('print')).toBe(false);
    expect(ui.getState().screen).toBe('design');
    // Going to the screen shown asks nothing.
    expect(ui.getState().go('design')).toBe(true);
    allow = true;
    expect(ui.getState().go('batch')).toBe(true);
    expect(ui.getState().screen).toBe('batch');
    expect(asked).toEqual(['print', 'batch']);
  });

  it('without a guard, screens change', () => {
    const ui = createUiStore();
    ui.getState().setLeaveGuard(() => false);
    ui.getState().setLeaveGuard(null);
    expect(ui.getState().go('history')).toBe(true);
    expect(ui.getState().screen).toBe('history');
  });

  it("an error's action goes through the guard too", () => {
    const ui = createUiStore();
    ui.getState().go('design');
    ui.getState().setLeaveGuard(() => false);
    ui.getState().followAction({
      code: 'printer',
      message: 'Printer offline.',
      field: null,
      action: 'printers',
    });
    expect(ui.getState().screen).toBe('design');
    ui.getState().setLeaveGuard(null);
    ui.getState().followAction({
      code: 'printer',
      message: 'Printer offline.',
      field: null,
      action: 'printers',
    });
    expect([ui.getState().screen, ui.getState().settingsSection]).toEqual(['settings', 'printers']);
  });
});
