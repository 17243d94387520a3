/**
 * The front desk's rules in the stores (#17 items 3, 4, 5, 10, 11): copies are refused out of range, a large
 * quantity asks first, copies go back to 1; toasts about a condition go when it ends; the chosen printer is
 * remembered; a batch is not started twice; a job held on a label offers to skip it; the header shows what
 * is printing.
 */
import { describe, expect, it } from 'vitest';
import type { JobView, SettingsView } from '../../src/ipc/contract';
import { SKIP_OR_CANCEL as MAIN_SKIP_OR_CANCEL } from '../../src/jobs/worker';
import { createStores, startApp } from '../../renderer/src/store';
import { SKIP_OR_CANCEL, heldOnLabel, printingPrinter } from '../../renderer/src/store/jobs';
import { JOB, SUMMARY, createFakeApi, deferred, flush } from './fake-api';

function setup() {
  const api = createFakeApi();
  const stores = createStores(api, { saveFile: () => undefined, printSvg: () => undefined });
  return { api, stores, doc: () => stores.document.getState(), ui: () => stores.ui.getState() };
}

const settings = (over: Partial<SettingsView>): SettingsView => ({
  apiBaseUrl: null,
  apiKey: null,
  hasSecret: false,
  secretKept: null,
  secretStorageProblem: null,
  siteUrl: null,
  siteKey: null,
  hasSiteSecret: false,
  siteSecretKept: null,
  filePrinterFolder: null,
  mode: 'local',
  defaultPrinter: null,
  lastPrinter: null,
  confirmCopiesAbove: 50,
  keepCopiesAfterPrint: false,
  recentTemplates: [],
  pinnedTemplates: [],
  ...over,
});

async function ready(s: ReturnType<typeof setup>) {
  await startApp(s.stores);
  await flush();
  s.doc().setValue('ship_to_name', 'Ada');
  await s.doc().refreshPreview();
}

describe('copies', () => {
  it('refuses 5000, 0 and -3 inline and prints nothing (no silent 1000 or 1)', async () => {
    const s = setup();
    await ready(s);
    for (const typed of ['5000', '0', '-3']) {
      s.doc().setCopies(typed);
      expect(s.doc().copiesText).toBe(typed);
      expect(s.doc().copiesProblem).toContain('1 to 1000');
      expect(await s.doc().print()).toBeNull();
      expect(s.ui().controlFocus?.target).toBe('copies');
    }
    expect(s.api.callsTo('print.submit')).toEqual([]);
  });

  it('asks before printing more than the Settings threshold, and prints that many after yes', async () => {
    const s = setup();
    await ready(s);
    s.doc().setCopies('120');
    expect(await s.doc().print()).toBeNull();
    expect(s.doc().confirmingCopies).toBe(120);
    expect(s.api.callsTo('print.submit')).toEqual([]);
    await s.doc().print({ confirmedCopies: 120 });
    expect(s.api.callsTo('print.submit').map((r) => r.copies)).toEqual([120]);
    expect(s.doc().confirmingCopies).toBeNull();
  });

  it('goes back to 1 after a print and when the template changes, unless Settings keep them', async () => {
    const s = setup();
    await ready(s);
    s.doc().setCopies('3');
    await s.doc().print();
    expect(s.api.callsTo('print.submit').map((r) => r.copies)).toEqual([3]);
    expect([s.doc().copies, s.doc().copiesText]).toEqual([1, '1']);

    s.doc().setCopies('4');
    await s.doc().selectTemplate(SUMMARY.ref);
    expect([s.doc().copies, s.doc().copiesText]).toEqual([1, '1']);

    s.api.on('settings.get', () => settings({ defaultPrinter: 'p1', keepCopiesAfterPrint: true }));
    await s.stores.connection.getState().load();
    s.doc().setValue('ship_to_name', 'Ada');
    s.doc().setCopies('4');
    await s.doc().print();
    expect(s.doc().copies).toBe(4);
  });
});

describe('toasts about a condition', () => {
  it('"Choose a printer" goes as soon as a printer is chosen', async () => {
    const s = setup();
    await s.doc().selectTemplate(SUMMARY.ref);
    await s.doc().print();
    expect(s.ui().toasts.map((t) => (t.kind === 'error' ? t.error.message : t.kind))).toEqual([
      'Choose a printer to print to.',
    ]);
    s.doc().choosePrinter('p1');
    expect(s.ui().toasts).toEqual([]);
  });

  it("a field's error goes when the field changes; a printer's when the printer is ready again", async () => {
    const s = setup();
    await ready(s);
    s.ui().notify({
      kind: 'error',
      error: { code: 'invalid', message: 'Recipient is too long.', field: 'ship_to_name', action: 'field' },
      condition: 'field:ship_to_name',
    });
    s.ui().notify({
      kind: 'error',
      error: { code: 'printer', message: 'Desk Zebra is out of paper.', field: null, action: 'printers' },
      condition: 'printer:p1',
    });
    s.doc().setValue('ship_to_name', 'Ada L.');
    expect(s.ui().toasts.map((t) => t.kind === 'error' && t.error.message)).toEqual([
      'Desk Zebra is out of paper.',
    ]);
    s.stores.printers.getState().applyStatus({
      printer: 'p1',
      state: 'ready',
      message: 'Ready',
      checkedAt: new Date(Date.now() + 1000).toISOString(),
    });
    expect(s.ui().toasts).toEqual([]);
  });
});

describe('the chosen printer', () => {
  it('is remembered and chosen again at the next start, before the default', async () => {
    const s = setup();
    s.api.on('printers.list', () => [{ ...printer('p1', 'Desk Zebra') }, { ...printer('p2', 'Dock Zebra') }]);
    let stored = settings({ defaultPrinter: 'p1' });
    s.api.on('settings.get', () => stored);
    s.api.on('settings.update', (patch) => (stored = { ...stored, ...patch } as SettingsView));
    await startApp(s.stores);
    expect(s.doc().printer).toBe('p1');
    s.doc().choosePrinter('p2');
    await flush();
    expect(s.api.callsTo('settings.update')).toEqual([{ lastPrinter: 'p2' }]);

    // A reload: new stores over the same main.
    const reloaded = createStores(s.api, { saveFile: () => undefined, printSvg: () => undefined });
    await startApp(reloaded);
    expect(reloaded.document.getState().printer).toBe('p2');
  });
});

describe('batch', () => {
  it('a second start while the first is starting or printing does not start another batch', async () => {
    const s = setup();
    const batch = () => s.stores.batch.getState();
    s.api.on('batch.plan', () => ({
      columns: ['ship_to_name'],
      mapping: { ship_to_name: 'ship_to_name' },
      copiesColumn: null,
      fields: [{ name: 'ship_to_name', label: 'Recipient' }],
      unmappedFields: [],
      missingRequired: [],
      sheets: null,
      sheet: null,
      lineWord: 'line',
      rows: 2,
      validRows: 2,
      labels: 2,
      problems: [],
    }));
    const answer = deferred<{ job: JobView; skipped: number[] }>();
    s.api.on('batch.start', () => answer.promise);
    await batch().setTemplate(SUMMARY.ref);
    batch().setPrinter('p1');
    await batch().setFile('orders.csv', 'ship_to_name\nA\nB\n');
    const first = batch().start();
    const second = batch().start();
    answer.resolve({ job: { ...JOB, state: 'printing' }, skipped: [] });
    await Promise.all([first, second]);
    expect(await batch().start()).toBeNull(); // its job still prints
    expect(s.api.callsTo('batch.start')).toHaveLength(1);
  });
});

describe('jobs', () => {
  it('knows the label a job is held on (main says so at the end of its reason) and skips it', async () => {
    expect(SKIP_OR_CANCEL).toBe(MAIN_SKIP_OR_CANCEL);
    const held = {
      state: 'held' as const,
      reason: `label 5 (record 5) cannot be printed: EAN-13 check digit should be 1, not 3; ${SKIP_OR_CANCEL}`,
    };
    expect(heldOnLabel(held)).toBe(5);
    expect(heldOnLabel({ state: 'held', reason: 'paused by the user' })).toBeNull();
    expect(heldOnLabel({ ...held, state: 'printing' })).toBeNull();

    const s = setup();
    s.api.on('jobs.skip', () => ({ ...JOB, state: 'printing' }));
    await s.stores.jobs.getState().skip(JOB.id, 5);
    expect(s.api.callsTo('jobs.skip')).toEqual([{ id: JOB.id, labels: [5] }]);
    expect(s.stores.jobs.getState().live[JOB.id]?.job.state).toBe('printing');
  });

  it('the header follows the printer a job is printing on, not only the Print screen choice', () => {
    const s = setup();
    expect(printingPrinter(s.stores.jobs.getState().live)).toBeNull();
    s.stores.jobs.getState().track({ ...JOB, id: 8, state: 'printing', printerId: 'p2' });
    s.stores.jobs.getState().track({ ...JOB, id: 9, state: 'done', printerId: 'p1' });
    expect(printingPrinter(s.stores.jobs.getState().live)).toBe('p2');
  });
});

function printer(id: string, name: string) {
  return {
    id,
    name,
    uri: `tcp://127.0.0.1:91${id.slice(1)}0`,
    kind: 'Network',
    dpi: 203,
    dpiSource: 'detected' as const,
    darkness: null,
    language: 'zpl' as const,
  };
}
