/**
 * LabelDesk browser SDK for route 02, print (spec §4.2). Bundled to `labeldesk-sdk.js` (global `LabelDesk`) by
 * scripts/build-sdk.mjs and served by `labeldesk serve` at `/sdk/labeldesk-sdk.js`.
 *
 *   LabelDesk.setConfig({ apiBaseUrl, api_key, api_token, printPageUrl, debug });
 *   await LabelDesk.printLabel({ label_name, amount, apiData, mode: 'print_markups' });
 *
 * printLabel calls POST {apiBaseUrl}/custom-labels/print, loads the client's `print-label.html` (same origin as
 * the page, with a `#printRoot` element) into a hidden frame, draws every copy there as SVG with the engine's
 * own layout (the same text wrapping, fonts and barcode geometry as the server's PDF, SVG and ZPL), sets
 * `@page` to the label size, and opens the browser's print dialog ("Save as PDF" makes a PDF).
 *
 * SECURITY: the key and secret given to setConfig are readable by anyone who can open the page. Use this SDK
 * only on internal, signed-in pages; on public pages call a server-side route (01, 03–07) from your server.
 */
import { BUNDLED_FONT_FILES, createFontSet, type FontSet } from '../layout/fonts';
import { collectImageUrls } from '../layout/images';
import { prepareImages } from '../engine/incomplete-markup';
import { layout } from '../layout/layout';
import type { Scene } from '../layout/scene';
import { renderSvg } from '../render/svg';
import type { Markup } from '../model/schema';
import { loadBrowserImages } from './browser-images';
import { fontKeysFor } from './font-keys';

export interface SdkConfig {
  /** The API's `{base_url}`, e.g. `http://127.0.0.1:8787`. */
  apiBaseUrl: string;
  api_key: string;
  /** The API secret. */
  api_token: string;
  /** Path (or URL, same origin as the page) of the print page `print-label.html`. */
  printPageUrl: string;
  /** Log each step to the console. */
  debug?: boolean;
}

export interface PrintRequest {
  label_name: string;
  amount: number;
  apiData: Record<string, string>;
  /** `print_markups` for this route. */
  mode: 'print_markups';
  /**
   * An image that cannot be loaded fails the print (true), instead of being left out with a warning (the
   * default, as the hosted SDK does; the warnings come back from printLabel and go to the console).
   */
  strict?: boolean;
}

/** An error answer of the API, or a problem found before calling it. */
export class LabelDeskError extends Error {
  constructor(
    message: string,
    /** HTTP status when the API answered. */
    readonly status?: number,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LabelDeskError';
  }
}

// Captured while the script runs: fonts are served next to it (`/sdk/fonts/`).
const scriptUrl =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;

let config: SdkConfig | undefined;
const fontFiles = new Map<string, Promise<Uint8Array>>();
let frame: HTMLIFrameElement | undefined;

function debug(...args: unknown[]): void {
  if (config?.debug) console.debug('[labeldesk]', ...args);
}

/** Sets the API address, credentials and print page. Throws LabelDeskError naming a missing key. */
export function setConfig(next: SdkConfig): void {
  for (const key of ['apiBaseUrl', 'api_key', 'api_token', 'printPageUrl'] as const) {
    if (typeof next?.[key] !== 'string' || !next[key])
      throw new LabelDeskError(`setConfig: ${key} is required (a string)`);
  }
  config = { ...next, apiBaseUrl: next.apiBaseUrl.replace(/\/+$/, ''), debug: next.debug === true };
  debug('configured for', config.apiBaseUrl);
}

function fontsBase(cfg: SdkConfig): string {
  return scriptUrl ? new URL('fonts/', scriptUrl).href : `${cfg.apiBaseUrl}/sdk/fonts/`;
}

function fetchFont(cfg: SdkConfig, key: string): Promise<Uint8Array> {
  let pending = fontFiles.get(key);
  if (!pending) {
    const file = BUNDLED_FONT_FILES[key];
    if (!file) throw new LabelDeskError(`no bundled font "${key}"`);
    pending = fetch(fontsBase(cfg) + file).then(async (r) => {
      if (!r.ok) throw new LabelDeskError(`font ${file}: the server answered ${r.status}`);
      return new Uint8Array(await r.arrayBuffer());
    });
    pending.catch(() => fontFiles.delete(key));
    fontFiles.set(key, pending);
  }
  return pending;
}

async function loadFonts(cfg: SdkConfig, markups: readonly Markup[]): Promise<FontSet> {
  const keys = fontKeysFor(markups);
  const files = await Promise.all(keys.map(async (k) => [k, await fetchFont(cfg, k)] as const));
  debug('fonts', keys);
  return createFontSet(Object.fromEntries(files));
}

async function fetchMarkups(cfg: SdkConfig, req: PrintRequest): Promise<Markup[]> {
  const response = await fetch(`${cfg.apiBaseUrl}/custom-labels/print`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-KEY': cfg.api_key, 'X-API-SECRET': cfg.api_token },
    body: JSON.stringify({ label_name: req.label_name, amount: req.amount, apiData: req.apiData }),
  });
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) {
    throw new LabelDeskError(
      `the API answered ${response.status} with ${type || 'no content type'}, not JSON: is apiBaseUrl the API host?`,
      response.status,
    );
  }
  const body = (await response.json()) as unknown;
  if (!response.ok) {
    const { message, field } = (body ?? {}) as { message?: string; field?: string };
    throw new LabelDeskError(message ?? `the API answered ${response.status}`, response.status, field);
  }
  if (!Array.isArray(body))
    throw new LabelDeskError('the API answered something other than a list of markups');
  return body as Markup[];
}

function checkRequest(req: PrintRequest): void {
  if (req?.mode !== 'print_markups')
    throw new LabelDeskError(`printLabel: mode must be "print_markups", got ${JSON.stringify(req?.mode)}`);
  if (typeof req.label_name !== 'string' || !req.label_name)
    throw new LabelDeskError('printLabel: label_name is required');
  if (!Number.isInteger(req.amount) || req.amount < 1)
    throw new LabelDeskError('printLabel: amount must be a whole number from 1');
  if (typeof req.apiData !== 'object' || req.apiData === null)
    throw new LabelDeskError('printLabel: apiData must be an object of strings');
}

/**
 * One SVG per copy; copies with identical markup are laid out once. Each gets its own id prefix (inlined
 * together). An image that cannot be loaded is left out with a warning unless `strict`.
 */
async function drawCopies(
  cfg: SdkConfig,
  received: readonly Markup[],
  strict: boolean,
): Promise<{ svgs: string[]; warnings: string[] }> {
  if (received.some((m) => m.elements.some((e) => e.type === 'rfid' && e.visible !== false))) {
    throw new LabelDeskError('RFID labels must be rendered as ZPL: print them with print-relay (03)');
  }
  const [fonts, prepared] = await Promise.all([
    loadFonts(cfg, received),
    prepareImages(received, { loadImages: loadBrowserImages }, strict ? 'strict' : 'omit'),
  ]);
  const { markups, warnings } = prepared;
  for (const warning of warnings) console.warn('[labeldesk]', warning);
  const images = await prepared.ports.loadImages(collectImageUrls(markups));
  const scenes = new Map<string, Scene>();
  const svgs = markups.map((markup, i) => {
    const key = JSON.stringify(markup);
    let scene = scenes.get(key);
    if (!scene) {
      scene = layout(markup, { fonts, images, target: { unit: 'px' }, onInvalid: 'throw' });
      scenes.set(key, scene);
    }
    return renderSvg(scene, fonts, { idPrefix: `ld${i}-` });
  });
  return { svgs, warnings };
}

function loadFrame(url: string): Promise<HTMLIFrameElement> {
  frame?.remove();
  const f = document.createElement('iframe');
  f.setAttribute('aria-hidden', 'true');
  f.title = 'LabelDesk print';
  // Off-screen rather than display:none, which some browsers refuse to print.
  f.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden';
  frame = f;
  return new Promise((resolve, reject) => {
    f.addEventListener('load', () => resolve(f), { once: true });
    f.addEventListener('error', () => reject(new LabelDeskError(`cannot load the print page ${url}`)), {
      once: true,
    });
    f.src = url;
    document.body.appendChild(f);
  });
}

/**
 * The `@page` size and page boxes for a label of this stage size. The print page is the client's own, and a
 * page break between copies only happens in block layout: a `#printRoot` (or an ancestor) styled as a flex
 * box, a fixed-height scroller or columns would print the first copy only, so that layout is undone for print.
 */
export function printCss(stage: Markup['stage']): string {
  const w = `${stage.width}${stage.unit}`;
  const h = `${stage.height}${stage.unit}`;
  return (
    `@page { size: ${w} ${h}; margin: 0 }\n` +
    `html, body { margin: 0; padding: 0; background: #fff }\n` +
    `@media print {\n` +
    `  html, body, :has(#printRoot), #printRoot { display: block !important; position: static !important;` +
    ` float: none !important; height: auto !important; min-height: 0 !important; max-height: none !important;` +
    ` overflow: visible !important; columns: auto !important; transform: none !important }\n` +
    `}\n` +
    `#printRoot > .ld-copy { width: ${w}; height: ${h}; overflow: hidden; break-after: page; page-break-after: always }\n` +
    `#printRoot > .ld-copy:last-child { break-after: auto; page-break-after: auto }\n` +
    `#printRoot > .ld-copy > svg { display: block; width: 100%; height: 100% }\n`
  );
}

/**
 * Prints `amount` copies of a template through the browser's print dialog. Resolves with the number of copies
 * drawn once the dialog has been opened, and what was left out (images that could not be loaded); rejects with
 * LabelDeskError naming the problem.
 */
export async function printLabel(req: PrintRequest): Promise<{ copies: number; warnings: string[] }> {
  const cfg = config;
  if (!cfg) throw new LabelDeskError('call LabelDesk.setConfig first');
  checkRequest(req);
  debug('print', req.label_name, req.amount);
  const markups = await fetchMarkups(cfg, req);
  const first = markups[0];
  if (!first) throw new LabelDeskError('the API answered no markup');
  const [{ svgs, warnings }, f] = await Promise.all([
    drawCopies(cfg, markups, req.strict === true),
    loadFrame(cfg.printPageUrl),
  ]);
  const doc = f.contentDocument;
  const win = f.contentWindow;
  if (!doc || !win)
    throw new LabelDeskError(`the print page ${cfg.printPageUrl} must be on the same origin as this page`);
  const root = doc.getElementById('printRoot');
  if (!root)
    throw new LabelDeskError(`the print page ${cfg.printPageUrl} has no element with id "printRoot"`);
  const style = doc.createElement('style');
  style.id = 'labeldesk-print-style';
  style.textContent = printCss(first.stage);
  doc.head.appendChild(style);
  root.replaceChildren();
  for (const svg of svgs) {
    const page = doc.createElement('div');
    page.className = 'ld-copy';
    page.innerHTML = svg; // our own renderer's output: every value is escaped (src/render/svg)
    root.appendChild(page);
  }
  debug('drew', svgs.length, 'copies; opening the print dialog');
  win.focus();
  win.print();
  return { copies: svgs.length, warnings };
}
