/**
 * `fonts.families` (issue #23): the families the designer may offer besides the generic ones — the user's fonts
 * in `<data dir>/fonts` under the family their name table gives, and the machine's — with the files that could
 * not be used and why. Through dispatch, as the page calls it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { dispatch } from '../../../main/app/dispatch';
import { plainCipher } from '../../../main/app/secret-store';
import { isBundledFamily } from '../../../src/layout/fonts';
import { systemFontSources } from '../../../src/node/fonts';
import { RENAMED_SERIF_FAMILY, renamedSerif } from '../../support/renamed-font';

let dir: string;
let services: AppServices;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-font-families-'));
  mkdirSync(join(dir, 'fonts'));
  writeFileSync(join(dir, 'fonts', 'acme.ttf'), renamedSerif());
  writeFileSync(join(dir, 'fonts', 'notes.ttf'), 'not a font');
  services = await createAppServices({ dataDir: dir, shell: 'web', version: 'test', cipher: plainCipher });
});
afterAll(async () => {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('fonts.families', () => {
  it('lists the user’s font by its family, the machine’s families, no generic one, and the skipped file', async () => {
    const answer = await dispatch(services, 'fonts.families', {});
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const { families, skipped } = answer.result as {
      families: string[];
      skipped: { file: string; why: string }[];
    };
    expect(families).toContain(RENAMED_SERIF_FAMILY);
    const installed = systemFontSources(process.platform, process.env).map((s) => s.family);
    const offered = new Set(families);
    expect(installed.filter((f) => !isBundledFamily(f) && !offered.has(f))).toEqual([]);
    // Installed here (fonts-dejavu-core), but a generic family: always the bundled face, so not offered twice.
    expect(installed).toContain('DejaVu Sans');
    expect(families).not.toContain('DejaVu Sans');
    expect(families).toEqual([...families].sort((a, b) => a.localeCompare(b)));
    expect(skipped).toEqual([
      { file: join(dir, 'fonts', 'notes.ttf'), why: expect.stringMatching(/TrueType/) },
    ]);
  });
});
