/**
 * The renderer's preview engine (#21). A keystroke's preview is computed in the page's own thread when the
 * template is light enough, so it is drawn in the same frame as the typed character (a worker's answer arrives
 * after that frame and waits for the next: two frames). A template whose previews take longer than a frame's
 * share goes to the preview worker (preview-worker.ts) from then on, so typing never waits on it. `null` when
 * neither can make the preview (an image by URL, fonts not loaded yet, the worker gone): the document store
 * then asks main as before. Loaded only in the browser (main.tsx); tests of the stores use main's path.
 */
import type { FieldValues, PreviewResult } from '../../../../src/ipc/contract';
import type { Template } from '../../../../src/model/schema';
import type { PreviewComputer } from './preview-computer';
import type { PreviewAsk, PreviewReply } from './preview-protocol';

export interface PreviewEngine {
  preview(ask: { template: Template; values: FieldValues; since?: string }): Promise<PreviewResult | null>;
  /** Loads the engine and its fonts ahead of the first preview: call once the app is up and idle. */
  warm(): void;
}

/**
 * A preview in the page's thread longer than this (ms) counts as slow; a template slow three times running is
 * previewed by the worker from then on. A frame is 16.7 ms, and the page still has the form and the canvas to
 * draw in it.
 */
const IN_FRAME_BUDGET_MS = 6;
const SLOW_RUNS_TO_MOVE = 3;

/** The preview worker: asked for the previews of heavy templates; `null` when it cannot make one. */
function previewWorker(): (ask: {
  template: Template;
  values: FieldValues;
  since?: string;
}) => Promise<PreviewResult | null> {
  let worker: Worker | undefined;
  let broken = false;
  let seq = 0;
  /** Templates by the id they were sent under; the worker holds the last one sent. */
  const templateIds = new WeakMap<Template, number>();
  let lastTemplateId = 0;
  let heldByWorker = 0;
  const waiting = new Map<number, (result: PreviewResult | null) => void>();
  const start = (): Worker | undefined => {
    if (worker || broken) return worker;
    try {
      worker = new Worker(new URL('./preview-worker.ts', import.meta.url), { type: 'module' });
    } catch {
      broken = true;
      return undefined;
    }
    worker.onmessage = (event: MessageEvent<PreviewReply>) => {
      const reply = event.data;
      const done = waiting.get(reply.seq);
      waiting.delete(reply.seq);
      done?.(reply.ok ? reply.result : null);
    };
    worker.onerror = () => {
      // A worker that fails to load or throws: every preview goes to main from now on.
      broken = true;
      for (const done of waiting.values()) done(null);
      waiting.clear();
    };
    return worker;
  };
  return (ask) => {
    const running = start();
    if (!running || broken) return Promise.resolve(null);
    const { template, ...rest } = ask;
    let templateId = templateIds.get(template);
    if (templateId === undefined) templateIds.set(template, (templateId = ++lastTemplateId));
    const message: PreviewAsk = {
      seq: ++seq,
      templateId,
      ...(templateId === heldByWorker ? {} : { template }),
      ...rest,
    };
    heldByWorker = templateId;
    return new Promise((resolve) => {
      waiting.set(message.seq, resolve);
      running.postMessage(message);
    });
  };
}

export function startPreviewEngine(): PreviewEngine {
  /** The page's own computer, loaded on demand (the engine and its fonts stay out of the app's first load). */
  let here: PreviewComputer | undefined;
  let loading: Promise<void> | undefined;
  const load = (): void => {
    loading ??= import('./preview-computer').then(
      ({ createPreviewComputer }) => {
        here = createPreviewComputer('p');
      },
      () => undefined,
    );
  };
  let worker: ReturnType<typeof previewWorker> | undefined;
  /** Consecutive slow previews per template, and the templates moved to the worker. */
  const slowRuns = new WeakMap<Template, number>();
  const heavy = new WeakSet<Template>();

  return {
    warm: load,
    async preview(ask) {
      if (heavy.has(ask.template)) return (worker ??= previewWorker())(ask);
      load();
      if (!here?.ready()) return null;
      const started = performance.now();
      const answer = await here.compute(ask.template, ask.values, ask.since);
      const slow = performance.now() - started > IN_FRAME_BUDGET_MS;
      const runs = slow ? (slowRuns.get(ask.template) ?? 0) + 1 : 0;
      slowRuns.set(ask.template, runs);
      if (runs >= SLOW_RUNS_TO_MOVE) heavy.add(ask.template);
      return answer.ok ? answer.result : null;
    },
  };
}
