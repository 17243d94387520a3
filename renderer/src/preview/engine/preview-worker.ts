/**
 * The live preview computed in the renderer, off its main thread (#21): the same `previewLabel` main runs
 * (src/ipc/preview-label.ts) over the bundled fonts, so a keystroke does not cross IPC and the Scene is the one
 * every output is made from. Images in data: URLs are read here; an image by URL or path is main's to fetch
 * under its policy, so such a label answers `ok: false` and the renderer asks main instead.
 */
import { BUNDLED_FONT_FILES, createFontSet, type FontSet } from '../../../../src/layout/fonts';
import { previewLabel } from '../../../../src/ipc/preview-label';
import { PreviewSender } from '../../../../src/ipc/wire-scene';
import type { Template } from '../../../../src/model/schema';
import type { PreviewAsk, PreviewReply } from './preview-protocol';
import { dataUrlImages } from './data-images';

/** The bundled fonts, as the build copies them next to this worker. */
const FONT_URLS: Record<string, URL> = {
  DejaVuSans: new URL('../../../../assets/fonts/DejaVuSans.ttf', import.meta.url),
  'DejaVuSans-Bold': new URL('../../../../assets/fonts/DejaVuSans-Bold.ttf', import.meta.url),
  'DejaVuSans-Oblique': new URL('../../../../assets/fonts/DejaVuSans-Oblique.ttf', import.meta.url),
  'DejaVuSans-BoldOblique': new URL('../../../../assets/fonts/DejaVuSans-BoldOblique.ttf', import.meta.url),
  DejaVuSansMono: new URL('../../../../assets/fonts/DejaVuSansMono.ttf', import.meta.url),
  'DejaVuSansMono-Bold': new URL('../../../../assets/fonts/DejaVuSansMono-Bold.ttf', import.meta.url),
  'DejaVuSansMono-Oblique': new URL('../../../../assets/fonts/DejaVuSansMono-Oblique.ttf', import.meta.url),
  'DejaVuSansMono-BoldOblique': new URL(
    '../../../../assets/fonts/DejaVuSansMono-BoldOblique.ttf',
    import.meta.url,
  ),
  DejaVuSerif: new URL('../../../../assets/fonts/DejaVuSerif.ttf', import.meta.url),
  'DejaVuSerif-Bold': new URL('../../../../assets/fonts/DejaVuSerif-Bold.ttf', import.meta.url),
  'DejaVuSerif-Italic': new URL('../../../../assets/fonts/DejaVuSerif-Italic.ttf', import.meta.url),
  'DejaVuSerif-BoldItalic': new URL('../../../../assets/fonts/DejaVuSerif-BoldItalic.ttf', import.meta.url),
};

async function loadFonts(): Promise<FontSet> {
  const missing = Object.keys(BUNDLED_FONT_FILES).filter((key) => !FONT_URLS[key]);
  if (missing.length) throw new Error(`no URL for the bundled fonts ${missing.join(', ')}`);
  const entries = await Promise.all(
    Object.entries(FONT_URLS).map(async ([key, url]) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`font ${key}: ${response.status}`);
      return [key, new Uint8Array(await response.arrayBuffer())] as const;
    }),
  );
  return createFontSet(Object.fromEntries(entries));
}

/** Until the fonts are in (and for good if one cannot load), every preview is main's: no keystroke waits. */
let fonts: FontSet | undefined;
loadFonts().then(
  (loaded) => {
    fonts = loaded;
  },
  () => undefined,
);

const loadImages = dataUrlImages();

/** The scenes sent lately, for the next answer to send only what changed since. */
const previews = new PreviewSender(`w${Math.random().toString(36).slice(2, 8)}`, 4);

/**
 * The template the renderer sent last, kept: keystrokes send only values. The same object from one preview to
 * the next also keeps its compiled form (src/resolve/resolve.ts caches it per template object).
 */
let held: { id: number; template: Template } | undefined;

async function answer(ask: PreviewAsk): Promise<PreviewReply> {
  try {
    if (ask.template) held = { id: ask.templateId, template: ask.template };
    // Messages arrive in order, so this cannot happen; if it did, main previews.
    if (held?.id !== ask.templateId) return { seq: ask.seq, ok: false, why: 'not the template held' };
    if (!fonts) return { seq: ask.seq, ok: false, why: 'the fonts are still loading' };
    const { scene, problems, cuts } = await previewLabel(held.template, ask.values, { fonts, loadImages });
    const wire = previews.send(scene, fonts, ask.since);
    return { seq: ask.seq, ok: true, result: { scene: wire, problems, cuts } };
  } catch (e) {
    return { seq: ask.seq, ok: false, why: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PreviewAsk>) => void) | null;
  postMessage(message: PreviewReply): void;
};
scope.onmessage = (event) => {
  void answer(event.data).then((reply) => scope.postMessage(reply));
};
