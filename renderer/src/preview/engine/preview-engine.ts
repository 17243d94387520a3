/**
 * The renderer's side of the preview worker (preview-worker.ts): one worker, started with the app, asked for each
 * preview; `null` when it cannot make one (an image by URL, fonts not loaded, the worker gone), and the document
 * store then asks main as before. Loaded only in the browser (main.tsx); tests of the stores use main's path.
 */
import type { FieldValues, PreviewResult } from '../../../../src/ipc/contract';
import type { Template } from '../../../../src/model/schema';
import type { PreviewAsk, PreviewReply } from './preview-protocol';

export interface PreviewEngine {
  preview(ask: { template: Template; values: FieldValues; since?: string }): Promise<PreviewResult | null>;
}

export function startPreviewEngine(): PreviewEngine | undefined {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./preview-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return undefined;
  }
  let seq = 0;
  const waiting = new Map<number, (result: PreviewResult | null) => void>();
  let broken = false;
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
  return {
    preview(ask) {
      if (broken) return Promise.resolve(null);
      const message: PreviewAsk = { seq: ++seq, ...ask };
      return new Promise((resolve) => {
        waiting.set(message.seq, resolve);
        worker.postMessage(message);
      });
    },
  };
}
