/** The words a label shows, for screen readers and tests (the canvas itself has none). */
import type { WireNode, WireScene } from '../../../src/ipc/wire-scene';

/** Every text line the label shows, in drawing order (for screen readers and tests). */
export function sceneText(scene: WireScene): string[] {
  const out: string[] = [];
  const walk = (node: WireNode) => {
    switch (node.kind) {
      case 'text':
        for (const line of node.lines) if (line.text.trim()) out.push(line.text);
        return;
      case 'barcode':
        out.push(node.value);
        return;
      case 'group':
        node.children.forEach(walk);
        return;
      default:
        return;
    }
  };
  scene.nodes.forEach(walk);
  return out;
}

/** How many text lines of the label draw `.notdef` (empty boxes), for tests and the preview's `data-notdef`. */
export function notdefLines(scene: WireScene): number {
  let count = 0;
  const lines = (node: WireNode): void => {
    if (node.kind === 'text') count += node.lines.filter((l) => l.notdef).length;
    else if (node.kind === 'barcode' && node.text) lines(node.text);
    else if (node.kind === 'group') node.children.forEach(lines);
  };
  scene.nodes.forEach(lines);
  return count;
}
