#!/usr/bin/env node
/**
 * The system tools the test suite spawns, each with the Debian package that brings it: the one list that
 * `scripts/install-test-tools.sh` installs from and `npm test` checks against before it runs anything.
 *
 *   node scripts/test-tools.mjs                  check: exit 1 naming every missing tool and the script to run
 *   node scripts/test-tools.mjs --missing-packages   print the Debian packages still to install (one a line)
 *
 * Wine is optional: the Windows printing test is skipped with a WARNING where wine64 cannot be installed, so its
 * absence is reported but does not stop the run.
 */
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';

const INSTALL_SCRIPT = 'scripts/install-test-tools.sh';

/** A command on PATH. */
const onPath = (name) => () =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** A file at a fixed place. */
const at = (path) => () => existsSync(path);

/** PostgreSQL's server binaries live in a versioned folder, not on PATH (test/support/postgres.ts). */
const postgresServer = () => {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return false;
  return readdirSync(base).some((v) => existsSync(join(base, v, 'bin', 'initdb')));
};

/** Tesseract's traineddata for one language (test/outputs/render-scripts.test.ts reads nine scripts back). */
let langs;
const tesseractLang = (lang) => () => {
  if (!onPath('tesseract')()) return false;
  langs ??= spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' }).stdout ?? '';
  return langs.split('\n').some((l) => l.trim() === lang);
};

/**
 * A Python module from Debian (independent file writers the tests compare against), in Debian's own Python:
 * the tests call /usr/bin/python3, not whichever python3 comes first on PATH (a pyenv or venv one lacks it).
 */
export const DEBIAN_PYTHON = '/usr/bin/python3';
const pythonModule = (mod) => () =>
  existsSync(DEBIAN_PYTHON) &&
  spawnSync(DEBIAN_PYTHON, ['-c', `import ${mod}`], { stdio: 'ignore' }).status === 0;

const chromium = () =>
  process.env.CHROMIUM_PATH ? existsSync(process.env.CHROMIUM_PATH) : at('/usr/bin/chromium')();

/**
 * `commands`: the programs of the package that tests spawn by name (test/house/test-tools.test.ts holds every
 * program a test spawns to this list); `optional`: the tests that need it skip, with a WARNING, without it.
 */
export const TOOLS = [
  { what: 'zbarimg (barcodes read back)', commands: ['zbarimg'], pkg: 'zbar-tools' },
  { what: 'dmtxread (Data Matrix read back)', commands: ['dmtxread'], pkg: 'dmtx-utils' },
  {
    what: 'pdftoppm, pdftotext, pdfinfo, pdffonts, pdfimages (PDFs read back)',
    commands: ['pdftoppm', 'pdftotext', 'pdfinfo', 'pdffonts', 'pdfimages'],
    pkg: 'poppler-utils',
  },
  { what: 'socat (serial ports as pseudo-terminals)', commands: ['socat'], pkg: 'socat' },
  { what: 'cupsd (a private CUPS daemon)', commands: ['cupsd'], pkg: 'cups' },
  {
    what: 'lp, lpstat, lpadmin, cupsenable… (CUPS clients)',
    commands: ['lp', 'lpstat', 'lpadmin', 'cupsenable', 'cupsdisable', 'cupsreject'],
    pkg: 'cups-client',
  },
  { what: 'lpr (CUPS BSD clients)', commands: ['lpr'], pkg: 'cups-bsd' },
  { what: 'chromium (the e2e tests; or set CHROMIUM_PATH)', commands: [], check: chromium, pkg: 'chromium' },
  { what: 'rsvg-convert (SVG at print resolution)', commands: ['rsvg-convert'], pkg: 'librsvg2-bin' },
  { what: 'tesseract (printed text read back)', commands: ['tesseract'], pkg: 'tesseract-ocr' },
  ...['jpn', 'chi_sim', 'kor', 'ara', 'heb', 'tha', 'hin', 'ell', 'rus'].map((lang) => ({
    what: `tesseract language ${lang}`,
    commands: [],
    check: tesseractLang(lang),
    pkg: `tesseract-ocr-${lang.replace('_', '-')}`,
  })),
  { what: 'fc-list (system fonts)', commands: ['fc-list'], pkg: 'fontconfig' },
  {
    what: 'DejaVu Sans (one installed system font)',
    commands: [],
    check: at('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'),
    pkg: 'fonts-dejavu-core',
  },
  { what: 'initdb, postgres (a private PostgreSQL)', commands: [], check: postgresServer, pkg: 'postgresql' },
  {
    what: `openpyxl in ${DEBIAN_PYTHON} (an independent .xlsx writer)`,
    commands: [],
    check: pythonModule('openpyxl'),
    pkg: 'python3-openpyxl',
  },
  {
    what: 'wine64 (Windows printing under Wine; skipped with a WARNING without it)',
    commands: [],
    check: at('/usr/lib/wine/wine64'),
    pkg: 'wine64',
    optional: true,
  },
];

const present = (tool) => (tool.check ? tool.check() : tool.commands.every((c) => onPath(c)()));

/** The check (or, with --missing-packages, the list) when run as a script; importing it only gives TOOLS. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const missing = TOOLS.filter((tool) => !present(tool));
  if (process.argv.includes('--missing-packages')) {
    for (const pkg of new Set(missing.map((t) => t.pkg))) console.log(pkg);
  } else {
    for (const { what, pkg, optional } of missing) {
      console.error(`${optional ? 'WARNING' : 'missing'}: ${what} (Debian package ${pkg})`);
    }
    if (missing.some((t) => !t.optional)) {
      console.error(
        `\nThe tests spawn these tools. Install them all with:  sudo bash ${INSTALL_SCRIPT}\n` +
          '(Debian or Ubuntu; the same script CI runs.) Nothing was tested.',
      );
      process.exit(1);
    }
  }
}
