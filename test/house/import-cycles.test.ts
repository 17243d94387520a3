/**
 * `npm run lint:deps` fails on an import cycle (issue #20): the repo's dependency-cruiser config, run on two
 * small folders — modules that import each other for a value, and for a type only — fails naming them, and
 * passes once the shared part has a module of its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');
const scratch = mkdtempSync(join(tmpdir(), 'ld-cycles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cruise(files: Record<string, string>): { code: number | null; out: string } {
  const dir = mkdtempSync(join(scratch, 'case-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const r = spawnSync(DEPCRUISE, ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('lint:deps', () => {
  it('fails on a cycle of values, naming both modules', () => {
    const r = cruise({
      'a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/no-circular/);
    expect(r.out).toMatch(/a\.ts/);
    expect(r.out).toMatch(/b\.ts/);
  });

  it('fails on a cycle of types only', () => {
    const r = cruise({
      'shape.ts':
        "import { fast } from './fast';\nexport interface Shaped { n: number }\nexport const f = fast;\n",
      'fast.ts': "import type { Shaped } from './shape';\nexport const fast = (): Shaped => ({ n: 1 });\n",
    });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/no-circular/);
  });

  it('passes when the shared type has a module of its own', () => {
    const r = cruise({
      'shaped.ts': 'export interface Shaped { n: number }\n',
      'shape.ts': "import { fast } from './fast';\nexport const f = fast;\n",
      'fast.ts': "import type { Shaped } from './shaped';\nexport const fast = (): Shaped => ({ n: 1 });\n",
    });
    expect(r.out).not.toMatch(/no-circular/);
    expect(r.code).toBe(0);
  });
});
