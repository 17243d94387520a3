/**
 * `npm run lint:deps` (issue #20) fails on an import cycle and on an import against the layering: the repo's
 * dependency-cruiser config, run on small folders — modules that import each other for a value, and for a type
 * only; a layer importing one above it or the Node wing — fails naming them, and passes once the shared part
 * has a module of its own or the import goes downwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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

/**
 * The layering rules name paths from the repository's root (`src/layout/…`), so a case is a small tree of its
 * own, cruised from its root with the repo's config.
 */
function cruiseTree(files: Record<string, string>): { code: number | null; out: string } {
  const dir = mkdtempSync(join(scratch, 'tree-'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
  );
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const config = join(ROOT, '.dependency-cruiser.cjs');
  const r = spawnSync(DEPCRUISE, ['--config', config, '--output-type', 'err', 'src'], {
    cwd: dir,
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

describe('lint:deps layering', () => {
  it('fails when a layer imports one above it (layout → outputs), naming the rule and both modules', () => {
    const r = cruiseTree({
      'src/outputs/render.ts': 'export const render = 1;\n',
      'src/layout/layout.ts': "import { render } from '../outputs/render';\nexport const l = render;\n",
    });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/layer-layout: src\/layout\/layout\.ts → src\/outputs\/render\.ts/);
  });

  it('fails when a type-only import goes upwards (model → layout)', () => {
    const r = cruiseTree({
      'src/layout/scene.ts': 'export interface Scene { n: number }\n',
      'src/model/schema.ts':
        "import type { Scene } from '../layout/scene';\nexport const s = (x: Scene) => x.n;\n",
    });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/layer-model/);
  });

  it('fails when a pure layer imports the Node wing', () => {
    const r = cruiseTree({
      'src/node/files/atomic-file.ts': 'export const write = 1;\n',
      'src/render/svg.ts': "import { write } from '../node/files/atomic-file';\nexport const s = write;\n",
    });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/layer-render: src\/render\/svg\.ts → src\/node\/files\/atomic-file\.ts/);
  });

  it('passes imports downwards and into the Node wing from above it', () => {
    const r = cruiseTree({
      'src/model/schema.ts': 'export const schema = 1;\n',
      'src/layout/layout.ts': "import { schema } from '../model/schema';\nexport const l = schema;\n",
      'src/outputs/render.ts': "import { l } from '../layout/layout';\nexport const r = l;\n",
      'src/node/serve/server.ts': "import { r } from '../../outputs/render';\nexport const s = r;\n",
      'src/cli/main.ts': "import { s } from '../node/serve/server';\nexport const m = s;\n",
    });
    expect(r.out).not.toMatch(/error/);
    expect(r.code).toBe(0);
  });
});
