/**
 * The Node.js versions LabelDesk declares (package.json `engines`) against those its dependencies declare
 * (#42 item 15): every package in the lock file must accept the oldest Node of each line we claim, or be named
 * here with the reason it does not matter. A dependency update that raises its floor fails this test, and
 * whoever updates it decides: raise ours, or say why not.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (name: string) => JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as Record<string, unknown>;

/** Packages whose declared floor is above ours, each with why LabelDesk still runs on the Node it claims. */
const ABOVE_OUR_FLOOR: Record<string, string> = {
  // Packaging only (`npm run dist`, electron-builder rebuilding native modules for Electron): the README says
  // packaging needs Node 22.13 or later. Neither the app, the CLI nor the tests load it.
  'node_modules/@electron/rebuild': 'npm run dist only',
  'node_modules/@electron/rebuild/node_modules/node-abi': 'npm run dist only',
  // fastify → light-my-request (fastify.inject) → cookie 2: plain JavaScript with no Node API newer than 20 (its
  // dist/index.js requires nothing); its `>=22` is the support policy of its authors. serve runs on Node 20 in
  // every serve test.
  'node_modules/cookie': 'plain JavaScript; serve is tested on Node 20',
};

describe('engines', () => {
  const declared = (read('package.json').engines as { node: string }).node;
  const lock = read('package-lock.json') as { packages: Record<string, { engines?: { node?: string } }> };
  /** The oldest version of each release line our range admits. */
  const floors = ['20.19.0', '22.13.0', '24.0.0'];

  it('claims Node 20.19+ and 22.13+ (and every later line), nothing older', () => {
    for (const v of floors) expect(semver.satisfies(v, declared), v).toBe(true);
    for (const v of ['18.20.0', '20.18.3', '21.7.0', '22.12.0'])
      expect(semver.satisfies(v, declared), v).toBe(false);
  });

  it('every dependency accepts the oldest Node of each line we claim, or is named here with why not', () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = entry.engines?.node;
      if (!path || !range || !semver.validRange(range)) continue;
      const refused = floors.filter((v) => !semver.satisfies(v, range));
      if (refused.length && !ABOVE_OUR_FLOOR[path])
        refusing.push(`${path} wants ${range} (not ${refused.join(', ')})`);
    }
    expect(refusing).toEqual([]);
  });

  it('names no package it no longer needs to', () => {
    for (const path of Object.keys(ABOVE_OUR_FLOOR)) expect(lock.packages[path]?.engines?.node).toBeTruthy();
  });
});
