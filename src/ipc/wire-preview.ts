/**
 * The live preview's scenes on the renderer's side (no engine code here: the renderer bundle stays free of it).
 * main sends only what changed (src/ipc/wire-scene.ts, toWirePreview); this puts the scene back together.
 */
import type { WirePreviewScene, WireScene } from './wire-scene';

/** A base scene the preview needs is not held any more: ask again without one. */
export class MissingBaseScene extends Error {
  override name = 'MissingBaseScene';
}

/**
 * The full scene from a preview answer: each `same` node is the base's node object itself (so a view that
 * compares by identity redraws only what changed). Throws MissingBaseScene when the answer needs a base that
 * is not given.
 */
export function applyWirePreview(preview: WirePreviewScene, base: WireScene | undefined): WireScene {
  const { id: _id, base: baseId, nodes, ...rest } = preview;
  if (baseId !== undefined && !base) throw new MissingBaseScene(`the preview builds on scene ${baseId}`);
  return {
    ...rest,
    nodes: nodes.map((node, i) => {
      if (node.kind !== 'same') return node;
      const kept = base?.nodes[i];
      if (!kept) throw new MissingBaseScene(`scene ${baseId ?? '(none)'} has no node ${i}`);
      return kept;
    }),
  };
}
