/**
 * What the preview worker and the page's own thread both run to make a live preview (#21): the same
 * `previewLabel` main runs (src/ipc/preview-label.ts) over the bundled fonts, so the Scene is the one every output
 * is made from, and only the nodes that changed since the renderer's held scene are handed over. Images in data:
 * URLs are read here; an image by URL or path is main's to fetch under its policy (`ok: false`, main previews),
 * as is text in a script only the fallback fonts draw and text in a font family that is not a bundled one (a user's
 * or the machine's font): the page loads DejaVu alone (docs/fonts.md).
 */
import { BUNDLED_FONT_FILES, createFontSet, type FontSet } from '../../../../src/layout/fonts';
import { prepareAsciiShaping } from '../../../../src/layout/text-pairwise';
import { namesUnbundledFamily, previewLabel } from '../../../../src/ipc/preview-label';
import { PreviewSender } from '../../../../src/ipc/wire-scene';
import type { FieldValues, PreviewResult } from '../../../../src/ipc/contract';
import type { Template } from '../../../../src/model/schema';
import { drawsNotdef } from '../../../../src/layout/notdef';
import { dataUrlImages } from './data-images';

/** The bundled fonts, as the build copies them next to the code that loads them. */
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

/** The fonts most labels use, whose tables are read ahead (one per idle moment) so a first preview is quick. */
const PREPARED_FONTS = ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSansMono'];

function prepare(fonts: FontSet, keys: string[]): void {
  const key = keys.shift();
  if (key === undefined) return;
  const later =
    typeof requestIdleCallback === 'function'
      ? (run: () => void) => requestIdleCallback(run)
      : (run: () => void) => setTimeout(run, 50);
  later(() => {
    prepareAsciiShaping(fonts.get(key).font);
    prepare(fonts, keys);
  });
}

export type ComputedPreview = { ok: true; result: PreviewResult } | { ok: false; why: string };

export interface PreviewComputer {
  /** The fonts are in: until then (and for good if one cannot load) every answer is `ok: false`. */
  ready(): boolean;
  compute(template: Template, values: FieldValues, since?: string): Promise<ComputedPreview>;
}

/** Starts loading the fonts at once; `prefix` names this computer's scenes (unique per thread). */
export function createPreviewComputer(prefix: string): PreviewComputer {
  let fonts: FontSet | undefined;
  loadFonts().then(
    (loaded) => {
      fonts = loaded;
      prepare(loaded, [...PREPARED_FONTS]);
    },
    () => undefined,
  );
  const loadImages = dataUrlImages();
  /** The scenes sent lately, for the next answer to send only what changed since. */
  const previews = new PreviewSender(`${prefix}${Math.random().toString(36).slice(2, 8)}`, 4);
  return {
    ready: () => fonts !== undefined,
    async compute(template, values, since) {
      try {
        if (!fonts) return { ok: false, why: 'the fonts are still loading' };
        // A family that is not a bundled one may be a user's or the machine's font, which only main loads.
        if (namesUnbundledFamily(template)) return { ok: false, why: 'the text names a user or system font' };
        const { scene, problems, cuts } = await previewLabel(template, values, { fonts, loadImages });
        // The page loads DejaVu only, not the fallback chain (docs/fonts.md): text it cannot draw is main's.
        if (drawsNotdef(scene.nodes)) return { ok: false, why: 'the text needs a fallback font' };
        return { ok: true, result: { scene: previews.send(scene, fonts, since), problems, cuts } };
      } catch (e) {
        return { ok: false, why: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
      }
    },
  };
}
