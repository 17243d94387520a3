import { describe, expect, it } from 'vitest';
import { IpcError } from '../../src/ipc/errors';
import type { BatchPlanView, JobView, PrinterStatusView, TemplateSummary } from '../../src/ipc/contract';
import { applyEvent, createStores } from '../../renderer/src/store';
import { startBlocker } from '../../renderer/src/store/batch';
import { visibleTemplates } from '../../renderer/src/store/catalog';
import { describeConnection } from '../../renderer/src/store/connection';
import { formatEta, jobProgress } from '../../renderer/src/store/jobs';
import { stepZoom } from '../../renderer/src/store/ui';
import { toUserError } from '../../renderer/src/api/user-error';
import { JOB, SUMMARY, createFakeApi, flush } from './fake-api';

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

  it('searches names, descriptions and sources', () => {
    expect(visibleTemplates(list, 'ALP', []).map((x) => x.ref.name)).toEqual(['alpha']);
    expect(visibleTemplates(list, 'captured', []).map((x) => x.ref.name)).toEqual(['badge']);
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
    unmappedFields: ['tracking'],
    rows: 3,
    validRows: 2,
    labels: 2,
    problems: [{ row: 3, field: 'ship_to_name', problem: 'Recipient is required.' }],
  };

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
  });

  it('will not start with problems until the user chooses to skip those rows', async () => {
    const { api, stores } = setup();
    api.on('batch.plan', () => plan);
    api.on('batch.start', () => ({ job: JOB, skipped: [3] }));
    await stores.batch.getState().setTemplate(SUMMARY.ref);
    await stores.batch.getState().setFile('in.csv', 'x');
    stores.batch.getState().setPrinter('p1');
    expect(startBlocker(stores.batch.getState())).toMatch(/skip/);
    expect(await stores.batch.getState().start()).toBeNull();
    stores.batch.getState().setSkipInvalid(true);
    expect(startBlocker(stores.batch.getState())).toBeNull();
    expect((await stores.batch.getState().start())?.id).toBe(JOB.id);
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

  it('never keeps the secret it saves, and reads connection status after saving', async () => {
    const { api, stores } = setup();
    api.on('settings.update', () => ({
      apiBaseUrl: 'https://api.example.com',
      apiKey: 'k',
      hasSecret: true,
      mode: 'hosted',
      defaultPrinter: null,
      recentTemplates: [],
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
