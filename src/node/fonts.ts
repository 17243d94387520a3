/**
 * Node-only: the fonts layout and the renderers use. `loadBundledFonts` is the bundled set alone (DejaVu and the
 * fallback chain from assets/fonts, once per process), the same on every machine. `loadFonts` adds the fonts a
 * user put in `<data dir>/fonts` and the fonts installed on the machine (issue #23) as families a template may
 * name and as the last links of the fallback chain, each loaded only when first needed.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, join } from 'node:path';
import {
  BUNDLED_FONT_FILES,
  createFontSet,
  FALLBACK_FONT_FILES,
  normaliseStyle,
  type FontSet,
  type FontSource,
} from '../layout/fonts';
import { fontsDir } from './assets';
import { readFontNames } from './font-names';

let cached: FontSet | undefined;

function bundledFiles(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const [key, file] of Object.entries({ ...BUNDLED_FONT_FILES, ...FALLBACK_FONT_FILES })) {
    files[key] = new Uint8Array(readFileSync(join(fontsDir(), file)));
  }
  return files;
}

export function loadBundledFonts(): FontSet {
  return (cached ??= createFontSet(bundledFiles()));
}

export interface LoadFontsOptions {
  /** The app's data folder: its `fonts/` holds the user's fonts (TrueType .ttf). */
  dataDir?: string;
  /** Add the machine's installed fonts (default true). */
  system?: boolean;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}

/** A font file left out of the set, and why (shown to the user next to the font list). */
export interface SkippedFont {
  file: string;
  why: string;
}

/**
 * The bundled fonts plus the user's and the machine's, user fonts first (a user's "Arial" wins over the
 * system's). Font files are read when a template names them or fallback reaches them, not here.
 */
export function loadFonts(options: LoadFontsOptions = {}): { fonts: FontSet; skipped: SkippedFont[] } {
  const skipped: SkippedFont[] = [];
  const sources: FontSource[] = [];
  if (options.dataDir) sources.push(...userFontSources(join(options.dataDir, 'fonts'), skipped));
  if (options.system ?? true) {
    sources.push(...systemFontSources(options.platform ?? process.platform, options.env ?? process.env));
  }
  return { fonts: createFontSet(bundledFiles(), { sources }), skipped };
}

const machineSets = new Map<string, { fonts: FontSet; skipped: SkippedFont[]; folderTime: number }>();

/** When `<data dir>/fonts` last changed (a file added, removed or renamed), or -1 when there is none. */
function fontsFolderTime(dataDir: string): number {
  try {
    return statSync(join(dataDir, 'fonts')).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * What a composition root renders with (the CLI, `labeldesk serve` and its workers, the app's main process):
 * `loadFonts` once per data folder and `system` choice in this process, so every render shares one set and each
 * font file is read once. Generic families (Arial, Helvetica, Times, Courier… `isBundledFamily`) stay the bundled
 * DejaVu faces whatever is installed, so a template prints the same on every machine. A font added to (or removed
 * from) `<data dir>/fonts` since the set was made makes a new one (one stat per call), so the app sees it without
 * a restart; callers that keep the set (render ports) compare it with the one this returns.
 */
export function machineFonts(options: { dataDir: string; system: boolean }): {
  fonts: FontSet;
  skipped: SkippedFont[];
} {
  const key = `${options.system ? 'system' : 'user'}\0${options.dataDir}`;
  const folderTime = fontsFolderTime(options.dataDir);
  let set = machineSets.get(key);
  if (!set || set.folderTime !== folderTime)
    machineSets.set(key, (set = { ...loadFonts(options), folderTime }));
  return { fonts: set.fonts, skipped: set.skipped };
}

const fileSource = (key: string, path: string, family: string, style: FontSource['style']): FontSource => ({
  key,
  family,
  style,
  fallback: true,
  load: () => new Uint8Array(readFileSync(path)),
});

/** `<data dir>/fonts/*.ttf`: each must be a single TrueType-outline font; others are skipped, with the reason. */
export function userFontSources(dir: string, skipped: SkippedFont[] = []): FontSource[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return []; // no fonts folder: no user fonts
  }
  const out: FontSource[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const ext = extname(name).toLowerCase();
    if (ext !== '.ttf' && ext !== '.otf' && ext !== '.ttc') continue;
    const names = readFontNames(path);
    if (!names) {
      skipped.push({
        file: path,
        why: 'not a single TrueType-outline font (.ttc and CFF .otf are not supported)',
      });
      continue;
    }
    out.push(fileSource(`user/${name}`, path, names.family, names.style));
  }
  return out;
}

/** Folders of installed fonts where there is no fontconfig: Windows and macOS. */
function systemFontDirs(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  switch (platform) {
    case 'win32': {
      const dirs = [join(env.WINDIR ?? env.SystemRoot ?? 'C:\\Windows', 'Fonts')];
      if (env.LOCALAPPDATA) dirs.push(join(env.LOCALAPPDATA, 'Microsoft', 'Windows', 'Fonts'));
      return dirs;
    }
    case 'darwin':
      return [
        '/System/Library/Fonts',
        '/System/Library/Fonts/Supplemental',
        '/Library/Fonts',
        join(home, 'Library', 'Fonts'),
      ];
    default:
      return [
        '/usr/share/fonts',
        '/usr/local/share/fonts',
        join(home, '.local', 'share', 'fonts'),
        join(home, '.fonts'),
      ];
  }
}

/**
 * The machine's installed TrueType fonts: fontconfig's list (`fc-list`) where there is one (Linux, BSD), else
 * the system font folders read directly (Windows' Fonts folder, macOS' /System/Library/Fonts and /Library/Fonts),
 * names from each file's name table.
 */
export function systemFontSources(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): FontSource[] {
  if (platform !== 'win32' && platform !== 'darwin') {
    const listed = fcList();
    if (listed) return listed;
  }
  const out: FontSource[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(dir, name);
      if (extname(name).toLowerCase() === '.ttf') {
        if (seen.has(path)) continue;
        seen.add(path);
        const names = readFontNames(path);
        if (names) out.push(fileSource(`system/${path}`, path, names.family, names.style));
      } else if (depth < 4 && !extname(name)) {
        try {
          if (statSync(path).isDirectory()) walk(path, depth + 1);
        } catch {
          // unreadable: skip
        }
      }
    }
  };
  for (const dir of systemFontDirs(platform, env)) walk(dir, 0);
  return out;
}

/** fontconfig's TrueType fonts, or undefined when fc-list is not there. */
function fcList(): FontSource[] | undefined {
  let stdout: string;
  try {
    stdout = execFileSync('fc-list', ['--format', '%{file}\\t%{family[0]}\\t%{style[0]}\\n'], {
      encoding: 'utf8',
      timeout: 10_000,
      maxBuffer: 32 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
  const out: FontSource[] = [];
  for (const line of stdout.split('\n').sort()) {
    const [path, family, style] = line.split('\t');
    if (!path || !family || extname(path).toLowerCase() !== '.ttf') continue;
    out.push(fileSource(`system/${path}`, path, family, normaliseStyle(style)));
  }
  return out;
}
