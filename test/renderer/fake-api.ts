/**
 * An in-memory LabelDeskApi for the renderer's store tests: each channel answers from a handler the test
 * can replace; every call is recorded; events are pushed with `emit`.
 */
import type {
  AppEvent,
  ChannelName,
  JobView,
  LabelDeskApi,
  RequestOf,
  ResponseOf,
  TemplateDetail,
  TemplateSummary,
} from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import type { WireScene } from '../../src/ipc/wire-scene';
import type { Template } from '../../src/model/schema';

type Handler<C extends ChannelName> = (request: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>>;
type HandlerMap = { [C in ChannelName]?: Handler<C> };

export interface FakeApi extends LabelDeskApi {
  calls: { channel: ChannelName; request: unknown }[];
  callsTo<C extends ChannelName>(channel: C): RequestOf<C>[];
  on<C extends ChannelName>(channel: C, handler: Handler<C>): void;
  emit(event: AppEvent): void;
}

export const TEMPLATE: Template = {
  schemaVersion: 1,
  name: 'shipping-4x6',
  stage: { width: 4, height: 6, unit: 'in', background: '#ffffff' },
  fields: [
    { name: 'ship_to_name', label: 'Recipient', placeholder: 'NAME', type: 'text', required: true },
    { name: 'address', label: 'Address', placeholder: '', type: 'multiline', required: false },
    { name: 'serial', label: 'Serial', placeholder: '', type: 'counter', required: false },
    {
      name: 'service',
      label: 'Service',
      placeholder: 'STANDARD',
      type: 'choice',
      required: false,
      choices: ['STANDARD', 'EXPRESS'],
      default: 'STANDARD',
    },
  ],
  elements: [],
} as unknown as Template;

export const SUMMARY: TemplateSummary = {
  ref: { source: 'bundled', name: 'shipping-4x6' },
  title: 'Shipping label 4×6',
  description: 'Shipping label',
  purpose: 'labels',
  size: '4 × 6 in',
  fieldCount: 4,
  recent: false,
};

export const DETAIL: TemplateDetail = {
  ref: SUMMARY.ref,
  template: TEMPLATE,
  elementFields: { 0: ['ship_to_name'], 2: ['service', 'address'] },
};

/** A scene whose one text line says `text` (so tests can tell previews apart). */
export function sceneSaying(text: string): WireScene {
  return {
    unit: 'px',
    dpi: 96,
    width: 384,
    height: 576,
    background: '#ffffff',
    rfid: [],
    warnings: [],
    nodes: [
      {
        kind: 'text',
        element: 0,
        font: 'DejaVuSans',
        size: 12,
        color: '#000000',
        box: { x: 0, y: 0, width: 100, height: 20 },
        direction: 'ltr',
        lines: [{ text, d: 'M0 0h1v1z' }],
      },
    ],
  };
}

export const JOB: JobView = {
  id: 7,
  state: 'queued',
  reason: null,
  template: 'shipping-4x6',
  printer: 'tcp://127.0.0.1:9100',
  printerId: 'p1',
  printerName: 'Desk Zebra',
  labelCount: 2,
  counts: { pending: 2, sending: 0, sent: 0, confirmed: 0, failed: 0 },
  possibleDuplicates: [],
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  createdBy: 'test',
  reprintOf: null,
  onIt: [],
};

export function createFakeApi(): FakeApi {
  const handlers: HandlerMap = {
    'templates.list': () => ({ templates: [SUMMARY], broken: [] }),
    'templates.get': () => DETAIL,
    'preview.scene': (r) => ({ scene: sceneSaying(r.values.ship_to_name ?? 'NAME'), problems: [], cuts: [] }),
    'print.submit': () => ({ job: JOB, message: 'Sent 1 label to Desk Zebra.' }),
    'print.fit': () => ({ fits: true, problem: '', cut: '', rotates: false, fitPercent: 100 }),
    'printers.list': () => [
      {
        id: 'p1',
        name: 'Desk Zebra',
        uri: 'tcp://127.0.0.1:9100',
        kind: 'Network',
        dpi: 203,
        dpiSource: 'detected',
        darkness: null,
        language: 'zpl',
      },
    ],
    'settings.get': () => ({
      apiBaseUrl: null,
      apiKey: null,
      hasSecret: false,
      secretKept: null,
      secretStorageProblem: null,
      filePrinterFolder: null,
      siteUrl: null,
      siteKey: null,
      hasSiteSecret: false,
      siteSecretKept: null,
      mode: 'local',
      defaultPrinter: 'p1',
      lastPrinter: null,
      confirmCopiesAbove: 50,
      keepCopiesAfterPrint: false,
      recentTemplates: [SUMMARY.ref],
      pinnedTemplates: [],
    }),
    'app.info': () => ({ version: '0.1.0', shell: 'web', platform: 'linux' }),
    'fonts.families': () => ({ families: [], skipped: [] }),
    'connection.status': () => ({
      backend: 'local',
      hosted: 'unconfigured',
      message: null,
      printsUsed: null,
    }),
  };
  const listeners = new Set<(event: AppEvent) => void>();
  const calls: FakeApi['calls'] = [];
  return {
    calls,
    callsTo: <C extends ChannelName>(channel: C) =>
      calls.filter((c) => c.channel === channel).map((c) => c.request as RequestOf<C>),
    on: (channel, handler) => {
      (handlers as Record<string, unknown>)[channel] = handler;
    },
    emit: (event) => listeners.forEach((l) => l(event)),
    async invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
      calls.push({ channel, request });
      const handler = handlers[channel] as Handler<C> | undefined;
      if (!handler) throw new IpcError('internal', `No fake for ${channel}.`);
      return handler(request);
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A promise the test settles by hand. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets queued microtasks and resolved promises run. */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
