/**
 * A User Timing mark each time the preview is painted — the Konva layer drawn, or the printer view's 1-bit image
 * loaded — so DevTools' Performance panel (and `npm run bench`'s app section, through a PerformanceObserver)
 * can tell keystroke → paint without encoding the canvas. Only the latest mark is kept: a day of typing must
 * not fill the page's timeline buffer.
 */
export const PREVIEW_PAINTED = 'labeldesk:preview-painted';

export type PaintedView = 'screen' | 'printer';

export function markPreviewPainted(view: PaintedView): void {
  performance.clearMarks(PREVIEW_PAINTED);
  performance.mark(PREVIEW_PAINTED, { detail: { view } });
}
