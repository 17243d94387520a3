/**
 * The fonts the CLI renders with (issue #23): the bundled set, the fonts in `<data dir>/fonts` and the machine's
 * installed fonts. Generic families (Arial, Helvetica, Times, Courier…) stay the bundled DejaVu faces, so a
 * template prints the same on every machine; another family a template names is a user or system font of that
 * name where there is one (docs/fonts.md).
 */
import { resolve as resolvePath } from 'node:path';
import type { FontSet } from '../layout/fonts';
import { defaultDataDir } from '../node/files/data-dir';
import { machineFonts } from '../node/fonts';
import type { CliIo } from './io';

const warned = new Set<string>();

/** `--data-dir` (relative to the working directory), else `$LABELDESK_DATA_DIR`, else the OS default. */
export function cliFonts(values: { 'data-dir'?: string | undefined }, io: CliIo): FontSet {
  const dataDir = values['data-dir'] ? resolvePath(io.cwd, values['data-dir']) : defaultDataDir(io.env);
  const { fonts, skipped } = machineFonts({ dataDir, system: true });
  for (const s of skipped) {
    if (warned.has(s.file)) continue;
    warned.add(s.file);
    io.stderr(`labeldesk: warning: font ${s.file} skipped: ${s.why}\n`);
  }
  return fonts;
}
