/**
 * User and system fonts in the composition roots (issue #23): `labeldesk render` and `labeldesk serve` draw a
 * family a template names with the font of that name in `<data dir>/fonts` — a bundled TTF copied under another
 * family name, so the expected outlines are known: the renamed DejaVu Serif must print exactly as "Times" (the
 * bundled DejaVu Serif) does, and not as "Arial". Generic families stay the bundled faces. `labeldesk serve`
 * never uses the machine's fonts; the CLI does. The page's preview hands a label naming such a family to main.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fontkit from 'fontkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBundledFamily } from '../../src/layout/fonts';
import { namesUnbundledFamily, previewLabel } from '../../src/ipc/preview-label';
import { parseTemplate } from '../../src/model/parse';
import { machineFonts, systemFontSources } from '../../src/node/fonts';
import { cli } from '../support/cli';
import { RENAMED_SERIF_FAMILY as ACME, renamedSerif } from '../support/renamed-font';
import { startHarness, writeTemplate, type Harness } from './serve/harness';

const TEXT = 'Hamburg 20457';

function template(name: string, family: string): Record<string, unknown> {
  return {
    schemaVersion: 1,
    name,
    stage: { width: 3, height: 1, unit: 'in' },
    fields: [],
    elements: [
      { type: 'text', x: 10, y: 10, width: 270, height: 60, text: TEXT, font: { family, size: 28 } },
    ],
  };
}

/** An installed TrueType family that is not generic and draws every character of TEXT (Noto Sans, Nanum…). */
function systemFamily(): string {
  for (const src of systemFontSources(process.platform, process.env)) {
    if (isBundledFamily(src.family) || src.style !== 'normal') continue;
    const font = fontkit.create(Buffer.from(src.load()));
    if ('unitsPerEm' in font && [...TEXT].every((ch) => font.hasGlyphForCodePoint(ch.codePointAt(0)!))) {
      return src.family;
    }
  }
  throw new Error('no installed TrueType font draws Latin text (.ci/run installs fonts)');
}

let dir: string;
let dataDir: string;
let systemName: string;
const FAMILIES = { acme: ACME, times: 'Times', arial: 'Arial', system: '' };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-fonts-wired-'));
  dataDir = join(dir, 'data');
  mkdirSync(join(dataDir, 'fonts'), { recursive: true });
  writeFileSync(join(dataDir, 'fonts', 'acme.ttf'), renamedSerif());
  systemName = systemFamily();
  FAMILIES.system = systemName;
  for (const [name, family] of Object.entries(FAMILIES)) {
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(template(name, family)));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function render(name: string, format: 'zpl' | 'svg' | 'pdf'): Promise<string> {
  const r = await cli(['render', '--template', `${name}.json`, '--format', format], {
    cwd: dir,
    env: { LABELDESK_DATA_DIR: dataDir },
  });
  expect(r.stderr).not.toMatch(/warning|error/i);
  expect(r.code).toBe(0);
  return r.stdout || Buffer.from(r.bytes).toString('latin1');
}

describe('labeldesk render with <data dir>/fonts and the machine’s fonts', () => {
  it('the renamed font is found under its new family name', () => {
    const { fonts } = machineFonts({ dataDir, system: false });
    expect(fonts.families()).toContain(ACME);
    expect(fonts.resolve(ACME, 'normal').key).toBe('user/acme.ttf');
  });

  it('a font added to the folder later is found: the next call makes a new set', () => {
    const later = join(dir, 'later');
    const before = machineFonts({ dataDir: later, system: false }).fonts;
    expect(before.resolve(ACME, 'normal').key).toBe('DejaVuSans');
    expect(machineFonts({ dataDir: later, system: false }).fonts).toBe(before); // unchanged: the same set
    mkdirSync(join(later, 'fonts'), { recursive: true });
    writeFileSync(join(later, 'fonts', 'acme.ttf'), renamedSerif());
    const after = machineFonts({ dataDir: later, system: false }).fonts;
    expect(after).not.toBe(before);
    expect(after.resolve(ACME, 'normal').key).toBe('user/acme.ttf');
  });

  it.each(['zpl', 'svg'] as const)(
    '%s: a template naming the user font prints as its outlines do',
    async (format) => {
      const [acme, times, arial] = await Promise.all([
        render('acme', format),
        render('times', format),
        render('arial', format),
      ]);
      expect(times).not.toBe(arial);
      // The same outlines at the same place: byte for byte the bundled serif's output.
      expect(acme).toBe(times);
    },
  );

  it('pdf: the user font is embedded (its PostScript name, DejaVuSerif, as the subset’s BaseFont)', async () => {
    const [acme, arial] = await Promise.all([render('acme', 'pdf'), render('arial', 'pdf')]);
    expect(acme).toMatch(/\/BaseFont\s*\/[A-Z]{6}\+DejaVuSerif\b/);
    expect(arial).not.toMatch(/DejaVuSerif/);
  });

  it('a system family a template names is drawn with the installed font', async () => {
    const [system, arial] = await Promise.all([render('system', 'zpl'), render('arial', 'zpl')]);
    expect(system).not.toBe(arial);
  });
});

/**
 * A `serve` harness (options as given) whose data folder's fonts/ holds Acme, started before the describe's tests
 * and closed after them, with the FAMILIES templates: `zpl` of a template by name (asserting a 200), the harness.
 */
function serveWithAcme(options: Parameters<typeof startHarness>[0]): {
  zpl(name: string): Promise<string>;
  harness(): Harness;
} {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(options, (data) => {
      mkdirSync(join(data, 'fonts'));
      writeFileSync(join(data, 'fonts', 'acme.ttf'), renamedSerif());
    });
    for (const [name, family] of Object.entries(FAMILIES))
      writeTemplate(h.templatesDir, name, template(name, family));
  });
  afterAll(() => h.close());
  return {
    async zpl(name) {
      const a = await h.post('render-zpl', { label_name: name, apiData: {}, amount: 1 });
      expect(a.status).toBe(200);
      return a.json.labels[0] as string;
    },
    harness: () => h,
  };
}

describe('labeldesk serve: the bundled fonts and its own <data dir>/fonts, never the machine’s', () => {
  const { zpl } = serveWithAcme({});

  it('a template naming a font in the server’s fonts folder prints with it', async () => {
    const [acme, times, arial] = [await zpl('acme'), await zpl('times'), await zpl('arial')];
    expect(times).not.toBe(arial);
    expect(acme).toBe(times);
  });

  it('a family only the machine has is not looked up: it prints as the default family (Arial)', async () => {
    // A key holder naming families cannot probe what is installed, nor make the server hold every font.
    expect(await zpl('system')).toBe(await zpl('arial'));
  });
});

describe('labeldesk serve’s render workers: the same fonts (the data folder through workerData)', () => {
  // Every render is "heavy": each goes to a worker thread.
  const { zpl, harness } = serveWithAcme({ limits: { heavyRenderDots: 0 } });

  it('a worker prints the server’s user font, and a machine-only family as Arial', async () => {
    const [acme, times, arial, system] = [
      await zpl('acme'),
      await zpl('times'),
      await zpl('arial'),
      await zpl('system'),
    ];
    expect(harness().logs.join('\n')).toMatch(/render worker started/);
    expect(times).not.toBe(arial);
    expect(acme).toBe(times);
    expect(system).toBe(arial);
  });
});

describe('the page’s preview hands a label naming a user or system family to main', () => {
  it('names only what is not a generic family', () => {
    const parsed = (family: string) => parseTemplate(template('t', family), 't');
    expect(namesUnbundledFamily(parsed(ACME))).toBe(true);
    expect(namesUnbundledFamily(parsed('Arial'))).toBe(false);
    expect(namesUnbundledFamily(parsed('times new roman'))).toBe(false);
    expect(namesUnbundledFamily(parsed('DejaVu Sans Mono'))).toBe(false);
  });

  it('main’s preview (the machine’s fonts) lays the text out in the user font', async () => {
    const { fonts } = machineFonts({ dataDir, system: true });
    const { scene } = await previewLabel(
      parseTemplate(template('acme', ACME), 'acme'),
      {},
      {
        fonts,
        loadImages: async () => new Map(),
      },
    );
    const text = scene.nodes.find((n) => n.kind === 'text');
    expect(text?.kind === 'text' && text.font).toBe('user/acme.ttf');
  });
});
