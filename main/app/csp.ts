/**
 * The renderer's Content Security Policy, one string for all three places that state it: index.html's meta
 * tag (checked equal by test/main/app/web-server.test.ts), the Electron shell's `app://` responses and web
 * mode's responses.
 *
 * No `'unsafe-inline'` anywhere: the renderer's CSS is one bundled file; React, Konva and the print frame set
 * styles through the CSSOM (element.style, adoptedStyleSheets), which `style-src` does not govern — only
 * `<style>` elements and `style="…"` attributes in markup need it, and the renderer has neither.
 */
export const RENDERER_CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** As a response header: adds what a meta tag cannot carry (no framing by any other page). */
export const RENDERER_CSP_HEADER = `${RENDERER_CSP}; frame-ancestors 'none'`;
