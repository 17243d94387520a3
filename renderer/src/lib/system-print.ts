/**
 * The system print dialog, the desktop form of route 02: the label's SVG alone on a page sized with `@page`
 * to the label, in a hidden iframe, then `print()`. The iframe shares the app's CSP (inline style only).
 */

/** The print page for one SVG label of the given CSS page size. */
export function printPageHtml(svg: string, page: { width: string; height: string }): string {
  const size = `${page.width} ${page.height}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Label</title><style>
@page { size: ${size}; margin: 0 }
html, body { margin: 0; padding: 0; }
svg { display: block; width: ${page.width}; height: ${page.height}; }
</style></head><body>${svg}</body></html>`;
}

export function printSvg(
  svg: string,
  page: { width: string; height: string },
  doc: Document = document,
): void {
  const frame = doc.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden';
  frame.srcdoc = printPageHtml(stripXmlProlog(svg), page);
  frame.addEventListener('load', () => {
    const win = frame.contentWindow;
    if (!win) return;
    win.addEventListener('afterprint', () => setTimeout(() => frame.remove(), 0));
    win.focus();
    win.print();
  });
  doc.body.append(frame);
}

/** An `<?xml …?>` prolog or doctype is not allowed inside HTML. */
function stripXmlProlog(svg: string): string {
  return svg.replace(/^\s*<\?xml[^>]*\?>/, '').replace(/^\s*<!DOCTYPE[^>]*>/i, '');
}
