/**
 * The renderer's side of the preview worker (preview-worker.ts): one worker, asked for each
 * preview; `null` when it cannot make one (an image by URL, fonts not loaded, the worker gone), and the document
 * store then asks main as before. Loaded only in the browser (main.tsx); tests of the stores use main's path.
 */
import type { FieldValues, PreviewResult } from '../../../../src/ipc/contract';
import type { Template } from '../../../../src/model/schema';
import type { PreviewAsk, PreviewReply } from './preview-protocol';

export interface PreviewEngine {
  preview(ask: { template: Template; values: FieldValues; since?: string }): Promise<PreviewResult | null>;
  /** Starts the worker (and its fonts' download) ahead of the first preview: call once the app is up. */
  warm(): void;
}

/**
 * The engine; its worker starts when the app is up and idle (`warm`) or at the first preview, not with the app
 * (its fonts, ~6 MB, would compete with the app's start), and answers `null` until its fonts are in — those
 * first previews are main's.
 */
export function startPreviewEngine(): PreviewEngine {
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
  return {
    warm() {
      start();
    },
    preview(ask) {
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
    },
  };
}
