/**
 * Pins the packaged app's fuses (electron-builder.yml): deliberate choices, so nobody undoes one by accident.
 * The file protocol's extra privileges are off because the renderer is served from app:// (app-protocol.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/node/assets';

const fuses = () => {
  const yml = readFileSync(join(packageRoot(), 'electron-builder.yml'), 'utf8');
  const block = /^electronFuses:\n((?: {2}.*\n)+)/m.exec(yml)?.[1] ?? '';
  return Object.fromEntries(
    [...block.matchAll(/^ {2}(\w+): (true|false)$/gm)].map((m) => [m[1]!, m[2] === 'true']),
  );
};

describe('Electron fuses', () => {
  it('are set for a hardened app, the file protocol granting nothing extra', () => {
    expect(fuses()).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
