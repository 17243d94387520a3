/**
 * The README's test command on a fresh machine (#42 item 15): `npm test` first checks every system tool the
 * tests spawn and, when one is missing, stops at once naming it and the one script that installs them all —
 * the script .ci/run calls. These tests hold that list to what the tests really spawn.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../scripts/test-tools.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const CHECK = join(ROOT, 'scripts/test-tools.mjs');

/** Programs every Debian has (coreutils, util-linux, procps, git) or that come with Node itself. */
const BASE_SYSTEM = new Set(['sh', 'bash', 'git', 'node', 'npm', 'npx', 'id', 'getconf', 'taskset', 'kill']);
/** Calls the pattern below matches that spawn nothing: a test's own `run(route)` helper. */
const NOT_PROGRAMS = new Set(['fetch-markups']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

describe('npm test checks its system tools first', () => {
  it('runs the check before anything else', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.test).toMatch(/^node scripts\/test-tools\.mjs && /);
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toContain('bash scripts/install-test-tools.sh');
  });

  it('on a machine without them, exits 1 naming each missing tool and the script that installs them all', () => {
    const r = spawnSync(process.execPath, [CHECK], {
      env: { PATH: '/nonexistent', CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('missing: zbarimg');
    expect(r.stderr).toContain('Debian package zbar-tools');
    expect(r.stderr).toContain('missing: chromium');
    expect(r.stderr).toContain('sudo bash scripts/install-test-tools.sh');
    expect(r.stdout).toBe('');
  });

  it('lists the Debian packages still to install for the install script', () => {
    const r = spawnSync(process.execPath, [CHECK, '--missing-packages'], {
      env: { PATH: '/nonexistent', CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const packages = r.stdout.trim().split('\n');
    expect(packages).toEqual(
      expect.arrayContaining(['zbar-tools', 'poppler-utils', 'chromium', 'cups-client']),
    );
    expect(new Set(packages).size).toBe(packages.length);
  });

  it('knows every program a test spawns by name', () => {
    const listed = new Set(TOOLS.flatMap((t) => t.commands));
    const spawned = new Map<string, string>();
    const call = /\b(?:execFileSync|execFile|spawnSync|spawn|run)\(\s*['"`]([\w.+-]+)['"`]/g;
    for (const file of [...sources(join(ROOT, 'test')), ...sources(join(ROOT, 'scripts'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(call)) {
        spawned.set(m[1]!, file.slice(ROOT.length + 1));
      }
    }
    expect(spawned.size).toBeGreaterThan(5);
    const unknown = [...spawned].filter(
      ([name]) => !listed.has(name) && !BASE_SYSTEM.has(name) && !NOT_PROGRAMS.has(name),
    );
    expect(unknown).toEqual([]);
  });
});
