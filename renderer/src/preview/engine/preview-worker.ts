/**
 * The live preview computed off the page's main thread, for a template too heavy to preview in the keystroke's
 * own frame (preview-engine.ts decides): preview-computer.ts's work, with the template kept between messages.
 */
import type { Template } from '../../../../src/model/schema';
import type { PreviewAsk, PreviewReply } from './preview-protocol';
import { createPreviewComputer } from './preview-computer';

const computer = createPreviewComputer('w');

/**
 * The template the renderer sent last, kept: keystrokes send only values. The same object from one preview to
 * the next also keeps its compiled form (src/resolve/resolve.ts caches it per template object).
 */
let held: { id: number; template: Template } | undefined;

async function answer(ask: PreviewAsk): Promise<PreviewReply> {
  if (ask.template) held = { id: ask.templateId, template: ask.template };
  // Messages arrive in order, so this cannot happen; if it did, main previews.
  if (held?.id !== ask.templateId) return { seq: ask.seq, ok: false, why: 'not the template held' };
  return { seq: ask.seq, ...(await computer.compute(held.template, ask.values, ask.since)) };
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PreviewAsk>) => void) | null;
  postMessage(message: PreviewReply): void;
};
scope.onmessage = (event) => {
  void answer(event.data).then((reply) => scope.postMessage(reply));
};
