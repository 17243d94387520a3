/**
 * The system print dialog, the desktop form of route 02: the label's SVG alone on a page sized with `@page`
 * to the label, in a hidden iframe, then `print()`. The iframe shares the app's CSP, which allows no inline
 * `<style>`: the page's rules are given through the CSSOM (a constructed sheet), which the CSP does not govern.
 */

/** The print page for one SVG label (markup only; its rules are `printPageCss`). */
export function printPageHtml(svg: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Label</title></head><body>${svg}</body></html>`;
}

/** The print page's rules for a label of the given CSS page size. */
export function printPageCss(page: { width: string; height: string }): string {
  return `@page { size: ${page.width} ${page.height}; margin: 0 }
html, body { margin: 0; padding: 0; }
svg { display: block; width: ${page.width}; height: ${page.height}; }`;
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
  frame.srcdoc = printPageHtml(stripXmlProlog(svg));
  frame.addEventListener('load', () => {
    const win = frame.contentWindow;
    if (!win) return;
    // The sheet must come from the frame's own realm to be adopted by its document.
    const sheet = new (win as Window & typeof globalThis).CSSStyleSheet();
    sheet.replaceSync(printPageCss(page));
    win.document.adoptedStyleSheets = [sheet];
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
