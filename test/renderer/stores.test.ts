import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '../../src/ipc/errors';
import type {
  BatchPlanView,
  JobView,
  LabelView,
  PrinterStatusView,
  TemplateSummary,
} from '../../src/ipc/contract';
import { applyEvent, createStores } from '../../renderer/src/store';
import { startBlocker } from '../../renderer/src/store/batch';
import { visibleTemplates } from '../../renderer/src/store/catalog';
import { describeConnection } from '../../renderer/src/store/connection';
import { LABELS_REFRESH_MS, filterAdmits, formatEta, jobProgress } from '../../renderer/src/store/jobs';
import { planFields } from '../../renderer/src/screens/batch/batch-plan';
import { stepZoom } from '../../renderer/src/store/ui';
import { toUserError } from '../../renderer/src/ipc/user-error';
import { JOB, SUMMARY, createFakeApi, deferred, flush } from './fake-api';

const setup = () => {
  const api = createFakeApi();
  const stores = createStores(api, { saveFile: () => undefined, printSvg: () => undefined });
  return { api, stores };
};

const status = (state: PrinterStatusView['state'], checkedAt: string): PrinterStatusView => ({
  printer: 'p1',
  state,
  message: state,
  checkedAt,
});

describe('catalog', () => {
  const t = (name: string, source: TemplateSummary['ref']['source'], recent = false): TemplateSummary => ({
    ...SUMMARY,
    ref: { source, name },
    title: name,
    description: `${name} label`,
    recent,
  });
  const list = [
    t('zeta', 'bundled'),
    t('alpha', 'user'),
    t('badge', 'captured', true),
    t('mid', 'bundled', true),
  ];

  it('puts recent templates first in recent order, then the rest by name', () => {
    const names = visibleTemplates(list, '', [{ source: 'bundled', name: 'mid' }]).map((x) => x.ref.name);
    expect(names).toEqual(['mid', 'badge', 'alpha', 'zeta']);
  });

  it('searches titles, names, descriptions and sources', () => {
    expect(visibleTemplates(list, 'ALP', []).map((x) => x.ref.name)).toEqual(['alpha']);
    expect(visibleTemplates(list, 'captured', []).map((x) => x.ref.name)).toEqual(['badge']);
    const titled = { ...t('ship-4x6', 'bundled'), title: 'Shipping label' };
    expect(visibleTemplates([...list, titled], 'shipping', []).map((x) => x.ref.name)).toEqual(['ship-4x6']);
  });

  it('lists test templates (galleries) last, even when recent', () => {
    const gallery = { ...t('element-gallery', 'bundled', true), purpose: 'test' as const };
    const names = visibleTemplates([gallery, ...list], '', [gallery.ref]).map((x) => x.ref.name);
    expect(names.at(-1)).toBe('element-gallery');
  });

  it('import reloads the list and returns the summary; a refusal is kept as the error sentence', async () => {
    const { api, stores } = setup();
    api.on('templates.import', () => SUMMARY);
    expect(await stores.catalog.getState().importFile('a.json', '{}')).toEqual(SUMMARY);
    expect(api.callsTo('templates.list')).toHaveLength(1);
    api.on('templates.import', () => {
      throw new IpcError('invalid', 'a.json: elements[3].format: unknown barcode format "code12".');
    });
    expect(await stores.catalog.getState().importFile('a.json', '{}')).toBeNull();
    expect(stores.catalog.getState().error?.message).toBe(
      'a.json: elements[3].format: unknown barcode format "code12".',
    );
  });
});

describe('printers', () => {
  it('keeps the newer status whether it came by polling or by event', () => {
    const { stores } = setup();
    applyEvent(stores, { kind: 'printer-status', status: status('paper-out', '2026-01-01T10:00:02.000Z') });
    stores.printers.getState().applyStatus(status('ready', '2026-01-01T10:00:01.000Z'));
    expect(stores.printers.getState().statuses.p1?.state).toBe('paper-out');
    stores.printers.getState().applyStatus(status('ready', '2026-01-01T10:00:03.000Z'));
    expect(stores.printers.getState().statuses.p1?.state).toBe('ready');
  });

  it('a status that cannot be asked shows as "no status" with the sentence', async () => {
    const { api, stores } = setup();
    api.on('printers.status', () => {
      throw new IpcError('printer', 'The printer does not answer.', null, 'printers');
    });
    await stores.printers.getState().refreshStatus('p1');
    expect(stores.printers.getState().statuses.p1).toMatchObject({
      state: 'no-status',
      message: 'The printer does not answer.',
    });
  });

  it('removing a printer lets go of it everywhere: document, batch, and its cached status', async () => {
    const { api, stores } = setup();
    await stores.printers.getState().load();
    stores.document.getState().setPrinter('p1');
    stores.batch.getState().setPrinter('p1');
    applyEvent(stores, { kind: 'printer-status', status: status('ready', '2026-01-01T10:00:00.000Z') });
    api.on('printers.remove', () => ({ removed: true }));
    api.on('printers.list', () => []);
    expect(await stores.printers.getState().remove('p1')).toBe(true);
    expect(api.callsTo('printers.remove')).toEqual([{ id: 'p1' }]);
    expect(stores.document.getState().printer).toBeNull();
    expect(stores.batch.getState().printer).toBeNull();
    expect(stores.printers.getState().statuses.p1).toBeUndefined();
  });

  it('removing another printer keeps the chosen one', async () => {
    const { api, stores } = setup();
    stores.document.getState().setPrinter('p1');
    stores.batch.getState().setPrinter('p1');
    api.on('printers.remove', () => ({ removed: true }));
    await stores.printers.getState().remove('p2');
    expect(stores.document.getState().printer).toBe('p1');
    expect(stores.batch.getState().printer).toBe('p1');
  });

  it('polls the watched printers until stopped', async () => {
    const { api, stores } = setup();
    api.on('printers.status', () => status('ready', new Date().toISOString()));
    const stop = stores.printers.getState().watch(() => ['p1'], 5);
    await new Promise((r) => setTimeout(r, 30));
    stop();
    const count = api.callsTo('printers.status').length;
    expect(count).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsTo('printers.status').length).toBe(count);
  });
});

describe('jobs', () => {
  const at = (job: JobView, updatedAt: string, patch: Partial<JobView> = {}): JobView => ({
    ...job,
    ...patch,
    updatedAt,
  });

  it('job events update the live job, its ETA and message, but never with an older state', () => {
    const { stores } = setup();
    const printing = at(JOB, '2026-01-01T10:00:05.000Z', {
      state: 'printing',
      counts: { ...JOB.counts, pending: 1, sent: 1 },
    });
    applyEvent(stores, { kind: 'job', job: printing, etaSeconds: 3, message: null });
    applyEvent(stores, {
      kind: 'job',
      job: at(JOB, '2026-01-01T10:00:01.000Z'),
      etaSeconds: 9,
      message: null,
    });
    const live = stores.jobs.getState().live[JOB.id];
    expect(live?.job.state).toBe('printing');
    expect(live?.etaSeconds).toBe(3);
    expect(jobProgress(live!.job)).toEqual({ done: 1, total: 2, fraction: 0.5 });
  });

  it('reprints the ticked labels', async () => {
    const { api, stores } = setup();
    api.on('jobs.reprint', () => ({ job: { ...JOB, id: 8, reprintOf: 7 } }));
    api.on('jobs.list', () => []);
    await stores.jobs.getState().reprint(7, [2]);
    expect(api.callsTo('jobs.reprint')).toEqual([{ id: 7, labels: [2] }]);
    await stores.jobs.getState().reprint(7);
    expect(api.callsTo('jobs.reprint')[1]).toEqual({ id: 7 });
  });

  it("refreshes the open job's labels as its events arrive, at most once per throttle window", async () => {
    vi.useFakeTimers();
    try {
      const { api, stores } = setup();
      const labels = (state: LabelView['state']): LabelView[] => [
        {
          number: 1,
          record: null,
          values: [],
          state,
          possibleDuplicate: false,
          attempts: 1,
          updatedAt: JOB.updatedAt,
        },
      ];
      let answer = labels('pending');
      api.on('jobs.get', () => ({ job: JOB, labels: answer }));
      await stores.jobs.getState().open(JOB.id);
      expect(api.callsTo('jobs.get')).toHaveLength(1);

      answer = labels('sent');
      for (const second of [1, 2, 3]) {
        const job = at(JOB, `2026-01-01T10:00:0${second}.000Z`, { state: 'printing' });
        applyEvent(stores, { kind: 'job', job, etaSeconds: null, message: null });
      }
      await vi.advanceTimersByTimeAsync(0);
      expect(api.callsTo('jobs.get')).toHaveLength(2);
      expect(stores.jobs.getState().selected?.labels[0]?.state).toBe('sent');
      expect(stores.jobs.getState().selected?.job.state).toBe('printing');

      answer = labels('confirmed');
      const done = at(JOB, '2026-01-01T10:00:04.000Z', { state: 'done' });
      applyEvent(stores, { kind: 'job', job: done, etaSeconds: null, message: null });
      applyEvent(stores, { kind: 'job', job: done, etaSeconds: null, message: null });
      await vi.advanceTimersByTimeAsync(LABELS_REFRESH_MS - 10);
      expect(api.callsTo('jobs.get')).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(10);
      expect(api.callsTo('jobs.get')).toHaveLength(3);
      expect(stores.jobs.getState().selected?.labels[0]?.state).toBe('confirmed');

      // Another job's events do not ask for the open job's labels.
      const other = at({ ...JOB, id: 9 }, '2026-01-01T10:00:05.000Z');
      applyEvent(stores, { kind: 'job', job: other, etaSeconds: null, message: null });
      await vi.advanceTimersByTimeAsync(LABELS_REFRESH_MS * 2);
      expect(api.callsTo('jobs.get')).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a job event for a job the history does not list adds it, newest first, if the filter admits it', async () => {
    const { api, stores } = setup();
    api.on('jobs.list', () => [JOB]);
    await stores.jobs.getState().loadList();
    const newer = at({ ...JOB, id: 8 }, '2026-01-01T10:01:00.000Z');
    applyEvent(stores, { kind: 'job', job: newer, etaSeconds: null, message: null });
    expect(stores.jobs.getState().list.map((j) => j.id)).toEqual([8, 7]);

    // The printer filter holds the printer's id: matched against the job's printerId, not its URI.
    stores.jobs.setState({ filter: { state: '', printer: 'p2', text: '' } });
    const elsewhere = at({ ...JOB, id: 9, printerId: 'p1' }, '2026-01-01T10:02:00.000Z');
    applyEvent(stores, { kind: 'job', job: elsewhere, etaSeconds: null, message: null });
    expect(stores.jobs.getState().list.map((j) => j.id)).toEqual([8, 7]);
    const there = at({ ...JOB, id: 10, printerId: 'p2' }, '2026-01-01T10:03:00.000Z');
    applyEvent(stores, { kind: 'job', job: there, etaSeconds: null, message: null });
    expect(stores.jobs.getState().list.map((j) => j.id)).toEqual([10, 8, 7]);
  });

  it('filterAdmits checks state, printer id and text', () => {
    const filter = { state: '' as const, printer: '', text: '' };
    expect(filterAdmits(filter, JOB)).toBe(true);
    expect(filterAdmits({ ...filter, state: 'failed' }, JOB)).toBe(false);
    expect(filterAdmits({ ...filter, printer: 'p1' }, JOB)).toBe(true);
    expect(filterAdmits({ ...filter, printer: 'tcp://127.0.0.1:9100' }, JOB)).toBe(false);
    expect(filterAdmits({ ...filter, text: 'SHIPPING' }, JOB)).toBe(true);
    expect(filterAdmits({ ...filter, text: 'badge' }, JOB)).toBe(false);
  });

  it('a double-clicked Reprint reprints once', async () => {
    const { api, stores } = setup();
    const answer = deferred<{ job: JobView }>();
    api.on('jobs.reprint', () => answer.promise);
    api.on('jobs.list', () => []);
    const first = stores.jobs.getState().reprint(7);
    expect(stores.jobs.getState().reprinting).toBe(true);
    expect(await stores.jobs.getState().reprint(7)).toBeNull();
    answer.resolve({ job: { ...JOB, id: 8, reprintOf: 7 } });
    expect((await first)?.id).toBe(8);
    expect(api.callsTo('jobs.reprint')).toHaveLength(1);
    expect(stores.jobs.getState().reprinting).toBe(false);
  });

  it('the history filter sends only what is set', async () => {
    const { api, stores } = setup();
    api.on('jobs.list', () => [JOB]);
    stores.jobs.getState().setFilter({ state: 'failed', text: '  ship ' });
    await flush();
    expect(api.callsTo('jobs.list')).toEqual([{ state: 'failed', text: 'ship', limit: 200 }]);
    expect(stores.jobs.getState().list).toEqual([JOB]);
  });

  it('formats an ETA for people', () => {
    expect([formatEta(null), formatEta(12.4), formatEta(65), formatEta(120)]).toEqual([
      null,
      '12 s',
      '1 min 5 s',
      '2 min',
    ]);
  });
});

describe('batch', () => {
  const plan: BatchPlanView = {
    columns: ['name', 'trk'],
    mapping: { name: 'ship_to_name' },
    copiesColumn: null,
    fields: [
      { name: 'ship_to_name', label: 'Recipient' },
      { name: 'tracking', label: 'Tracking number' },
    ],
    unmappedFields: [{ name: 'tracking', label: 'Tracking number', placeholder: '' }],
    missingRequired: [],
    sheets: null,
    sheet: null,
    lineWord: 'line',
    rows: 3,
    validRows: 2,
    labels: 2,
    problems: [{ record: 2, line: 3, field: 'Recipient', value: '', problem: 'Recipient is required.' }],
  };

  it('offers each field as its label with its name', () => {
    expect(planFields(plan).map((f) => f.text)).toEqual([
      'Recipient (ship_to_name)',
      'Tracking number (tracking)',
    ]);
  });

  it('re-plans with the mapping the user chose', async () => {
    const { api, stores } = setup();
    api.on('batch.plan', () => plan);
    const batch = stores.batch.getState();
    await batch.setTemplate(SUMMARY.ref);
    await batch.setFile('in.csv', 'name,trk\nA,1\n');
    await stores.batch.getState().mapColumn('trk', 'tracking');
    expect(api.callsTo('batch.plan').at(-1)).toEqual({
      ref: SUMMARY.ref,
      csv: 'name,trk\nA,1\n',
      mapping: { trk: 'tracking' },
    });
    // Another column for the same field: the first one feeds nothing now; "Not used" is a choice too.
    await stores.batch.getState().mapColumn('name', 'tracking');
    await stores.batch.getState().mapColumn('trk', '');
    expect(api.callsTo('batch.plan').at(-1)).toMatchObject({ mapping: { name: 'tracking', trk: '' } });
  });

  it('sends a workbook as its bytes and the sheet chosen; another sheet starts the mapping afresh', async () => {
    const { api, stores } = setup();
    api.on('batch.plan', () => plan);
    await stores.batch.getState().setTemplate(SUMMARY.ref);
    await stores.batch.getState().setWorkbook('orders.xlsx', 'UEsDBA==');
    await stores.batch.getState().mapColumn('trk', 'tracking');
    await stores.batch.getState().setSheet('March');
    expect(api.callsTo('batch.plan').at(-1)).toEqual({
      ref: SUMMARY.ref,
      workbook: { name: 'orders.xlsx', base64: 'UEsDBA==', sheet: 'March' },
    });
  });

  it('with problems, nothing blocks the button, but it prints only once the skip is confirmed', async () => {
    const { api, stores } = setup();
    api.on('batch.plan', () => plan);
    api.on('batch.start', () => ({ job: JOB, skipped: [3] }));
    await stores.batch.getState().setTemplate(SUMMARY.ref);
    await stores.batch.getState().setFile('in.csv', 'x');
    stores.batch.getState().setPrinter('p1');
    expect(startBlocker(stores.batch.getState())).toBeNull();
    expect(await stores.batch.getState().start()).toBeNull();
    expect(api.callsTo('batch.start')).toEqual([]);
    expect((await stores.batch.getState().start({ skipInvalid: true }))?.id).toBe(JOB.id);
    expect(api.callsTo('batch.start')).toEqual([
      { ref: SUMMARY.ref, csv: 'x', printer: 'p1', skipInvalid: true },
    ]);
    expect(stores.jobs.getState().live[JOB.id]).toBeDefined();
  });
});

describe('ui and connection', () => {
  it('steps zoom through fixed levels from any scale', () => {
    expect(stepZoom(1, 1)).toBe(1.25);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(0.9, 1)).toBe(1);
    expect(stepZoom(4, 1)).toBe(4);
    expect(stepZoom(0.25, -1)).toBe(0.25);
  });

  it('describes the connection for the status bar', () => {
    const base = { message: null, printsUsed: null };
    expect(describeConnection({ ...base, backend: 'hosted', hosted: 'online' }).label).toBe(
      'Hosted API online',
    );
    expect(describeConnection({ ...base, backend: 'local', hosted: 'offline' }).label).toBe(
      'Offline: printing with the bundled engine',
    );
    expect(describeConnection({ ...base, backend: 'local', hosted: 'unconfigured' }).tone).toBe('neutral');
  });

  it('a refused key is a warning that leads to Settings', () => {
    const described = describeConnection({
      backend: 'hosted',
      hosted: 'refused',
      message: 'The hosted API refused the key (401).',
      printsUsed: null,
    });
    expect(described).toEqual({
      tone: 'warn',
      label: 'Hosted API refused the key — open Settings',
      action: 'settings',
    });
  });

  it('"Test connection" with unsaved changes saves them first, then tests', async () => {
    const { api, stores } = setup();
    const order: string[] = [];
    api.on('settings.update', () => {
      order.push('save');
      return {
        apiBaseUrl: 'https://api.example.com',
        apiKey: 'k2',
        hasSecret: true,
        secretKept: 'stored',
        secretStorageProblem: null,
        filePrinterFolder: null,
        siteUrl: null,
        siteKey: null,
        hasSiteSecret: false,
        siteSecretKept: null,
        mode: 'hosted',
        defaultPrinter: null,
        lastPrinter: null,
        confirmCopiesAbove: 50,
        keepCopiesAfterPrint: false,
        recentTemplates: [],
        pinnedTemplates: [],
      };
    });
    api.on('connection.test', () => {
      order.push('test');
      return {
        ok: true,
        message: 'Connected.',
        status: { backend: 'hosted', hosted: 'online', message: null, printsUsed: null },
      };
    });
    await stores.connection.getState().test({ apiKey: 'k2', apiSecret: 'new' });
    expect(order).toEqual(['save', 'test']);
    expect(api.callsTo('settings.update')).toEqual([{ apiKey: 'k2', apiSecret: 'new' }]);
    expect(stores.connection.getState().testResult).toEqual({
      ok: true,
      message: 'Connected.',
      target: 'hosted',
    });

    // Nothing unsaved: only the test.
    await stores.connection.getState().test();
    expect(order).toEqual(['save', 'test', 'test']);
  });

  it('does not test when saving the typed changes fails', async () => {
    const { api, stores } = setup();
    api.on('settings.update', () => {
      throw new IpcError('invalid', 'apiBaseUrl: expected an http(s) URL');
    });
    api.on('connection.test', () => {
      throw new Error('should not be called');
    });
    await stores.connection.getState().test({ apiBaseUrl: 'ftp://x' });
    expect(api.callsTo('connection.test')).toEqual([]);
    expect(stores.connection.getState().error?.message).toBe('apiBaseUrl: expected an http(s) URL');
  });

  it('never keeps the secret it saves, and reads connection status after saving', async () => {
    const { api, stores } = setup();
    api.on('settings.update', () => ({
      apiBaseUrl: 'https://api.example.com',
      apiKey: 'k',
      hasSecret: true,
      secretKept: 'stored',
      secretStorageProblem: null,
      filePrinterFolder: null,
      siteUrl: null,
      siteKey: null,
      hasSiteSecret: false,
      siteSecretKept: null,
      mode: 'hosted',
      defaultPrinter: null,
      lastPrinter: null,
      confirmCopiesAbove: 50,
      keepCopiesAfterPrint: false,
      recentTemplates: [],
      pinnedTemplates: [],
    }));
    await stores.connection.getState().save({ apiSecret: 's3cret' });
    expect(JSON.stringify(stores.connection.getState())).not.toContain('s3cret');
    expect(api.callsTo('connection.status')).toHaveLength(1);
  });

  it('reads errors by shape, so an IpcError rebuilt elsewhere keeps its sentence and action', () => {
    const body = {
      code: 'auth',
      message: 'The hosted API refused the key.',
      field: null,
      action: 'settings',
    };
    expect(toUserError(body)).toEqual(body);
    expect(toUserError(new Error('boom'))).toMatchObject({ code: 'client', message: 'boom', action: null });
  });
});
