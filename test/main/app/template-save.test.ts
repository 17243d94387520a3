/**
 * The designer's save through the IPC contract (issue #22): into the user's folder, atomic, earlier versions
 * kept and restorable, bundled templates never touched, problems at the element, names that are files.
 * Real files in a temp folder; a full disk is simulated under writeFileAtomic's own file handle.
 */
import type * as FsPromises from 'node:fs/promises';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appTemplates, type AppTemplates } from '../../../main/app/templates';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { dispatch } from '../../../main/app/dispatch';
import { REVISIONS_KEPT } from '../../../main/app/template-revisions';
import { apiFromBridge } from '../../../src/ipc/bridge';
import { createStores } from '../../../renderer/src/store';
import type { Template } from '../../../src/model/schema';
import { TEMPLATES_DIR, bundledTemplate, rawTemplate } from '../../support/templates';
import { ipcCalls } from '../../support/ipc-calls';

/** While `full` is set, writes to files whose path it matches write half their bytes, then fail: disk full. */
const disk = vi.hoisted(() => ({ full: null as RegExp | null }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const open: typeof real.open = async (path, ...rest) => {
    const handle = await real.open(path, ...rest);
    if (!disk.full?.test(String(path))) return handle;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'writeFile') {
          return async (data: string) => {
            await target.write(data.slice(0, data.length / 2));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { ...real, open, default: { ...real, open } };
});

let dir: string;
let templates: AppTemplates;
let services: AppServices;
const userDir = () => join(dir, 'templates');
const userFile = (name: string) => join(userDir(), `${name}.json`);
const revisionsDir = (name: string) => join(userDir(), '.revisions', name);

const { call } = ipcCalls(() => services);

/** A small valid template named `name`, its one text saying `text`. */
const label = (name: string, text = 'v1', extra: Partial<Template> = {}): Template => ({
  schemaVersion: 1,
  name,
  stage: { width: 2, height: 1, unit: 'in', background: '#ffffff' },
  fields: [],
  elements: [{ type: 'text', x: 10, y: 10, text } as Template['elements'][number]],
  ...extra,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-template-save-'));
  templates = appTemplates(dir);
  services = await createAppServices({ dataDir: dir, shell: 'web', version: 'test', cipher: plainCipher });
});
afterAll(async () => {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  disk.full = null;
});

describe('templates.save', () => {
  it('writes the template into the user folder; the Print screen lists it at once', async () => {
    const result = await call('templates.save', { template: label('bin-label'), overwrite: false });
    expect(result).toEqual({
      saved: expect.objectContaining({ ref: { source: 'user', name: 'bin-label' } }),
      problems: [],
    });
    expect(JSON.parse(readFileSync(userFile('bin-label'), 'utf8'))).toMatchObject({ name: 'bin-label' });
    const { templates: listed } = await call('templates.list', {});
    expect(listed.map((t) => t.ref)).toContainEqual({ source: 'user', name: 'bin-label' });
  });

  it('shows each save at once, even two of the same size within one clock tick', async () => {
    // Both within one tick of a coarse file-system clock: the same time, the same size, only a new file.
    const tick = new Date(Math.floor(Date.now() / 1000) * 1000);
    await call('templates.save', { template: label('quick', 'AAAA'), overwrite: true });
    utimesSync(userFile('quick'), tick, tick);
    await call('templates.get', { ref: { source: 'user', name: 'quick' } });
    await call('templates.save', { template: label('quick', 'BBBB'), overwrite: true });
    utimesSync(userFile('quick'), tick, tick);
    const { template } = await call('templates.get', { ref: { source: 'user', name: 'quick' } });
    expect(template.elements[0]).toMatchObject({ text: 'BBBB' });
  });

  it('asks before replacing a template of the same name (conflict at the name)', async () => {
    await templates.save(label('taken'), false);
    await expect(
      call('templates.save', { template: label('taken', 'other'), overwrite: false }),
    ).rejects.toMatchObject({
      code: 'conflict',
      field: 'name',
    });
    expect(readFileSync(userFile('taken'), 'utf8')).toContain('"v1"');
  });

  it('keeps the version a save replaces, newest first, byte for byte', async () => {
    await templates.save(label('kept', 'one'), false);
    const first = readFileSync(userFile('kept'));
    await templates.save(label('kept', 'two'), true);
    const second = readFileSync(userFile('kept'));
    await templates.save(label('kept', 'three'), true);
    const revisions = await call('templates.revisions', { name: 'kept' });
    expect(revisions).toHaveLength(2);
    expect(readFileSync(join(revisionsDir('kept'), `${revisions[0]!.id}.json`))).toEqual(second);
    expect(readFileSync(join(revisionsDir('kept'), `${revisions[1]!.id}.json`))).toEqual(first);
    expect(Date.parse(revisions[0]!.savedAt)).toBeGreaterThanOrEqual(Date.parse(revisions[1]!.savedAt));
    expect(revisions[0]!.bytes).toBe(second.length);
  });

  it('an imported file (the Print screen’s Import) that replaces a template of the same name keeps its version too', async () => {
    await templates.save(label('imported', 'mine, edited'), false);
    const mine = readFileSync(userFile('imported'));
    const summary = await call('templates.import', {
      fileName: 'imported.json',
      text: JSON.stringify(label('imported', 'from a colleague')),
    });
    expect(summary.ref).toEqual({ source: 'user', name: 'imported' });
    expect(readFileSync(userFile('imported'), 'utf8')).toContain('from a colleague');
    const [kept] = await templates.revisions('imported');
    expect(readFileSync(join(revisionsDir('imported'), `${kept!.id}.json`))).toEqual(mine);
  });

  it('makes no revision for a save that changes nothing', async () => {
    await templates.save(label('same'), false);
    await templates.save(label('same'), true);
    expect(await templates.revisions('same')).toEqual([]);
  });

  it(`keeps the last ${REVISIONS_KEPT} versions`, async () => {
    for (let i = 1; i <= REVISIONS_KEPT + 3; i++) await templates.save(label('many', `version ${i}`), true);
    const revisions = await templates.revisions('many');
    expect(revisions).toHaveLength(REVISIONS_KEPT);
    expect(readdirSync(revisionsDir('many'))).toHaveLength(REVISIONS_KEPT);
    const texts = revisions.map(
      (r) =>
        (JSON.parse(readFileSync(join(revisionsDir('many'), `${r.id}.json`), 'utf8')) as Template)
          .elements[0],
    );
    expect(texts.map((t) => (t as { text: string }).text)).toEqual(
      Array.from({ length: REVISIONS_KEPT }, (_, i) => `version ${REVISIONS_KEPT + 2 - i}`),
    );
  });

  it('restores a kept version; the one it replaces is kept in turn', async () => {
    await templates.save(label('restore-me', 'good'), false);
    await templates.save(label('restore-me', 'bad save'), true);
    const [good] = await templates.revisions('restore-me');
    const summary = await call('templates.restoreRevision', { name: 'restore-me', revision: good!.id });
    expect(summary.ref).toEqual({ source: 'user', name: 'restore-me' });
    const { template } = await call('templates.get', { ref: summary.ref });
    expect(template.elements[0]).toMatchObject({ text: 'good' });
    const revisions = await templates.revisions('restore-me');
    const texts = revisions.map((r) =>
      readFileSync(join(revisionsDir('restore-me'), `${r.id}.json`), 'utf8'),
    );
    expect(texts.some((t) => t.includes('bad save'))).toBe(true);
    await expect(
      call('templates.restoreRevision', { name: 'restore-me', revision: '20000101T000000000Z' }),
    ).rejects.toMatchObject({ code: 'not-found' });
    await expect(
      call('templates.restoreRevision', { name: 'restore-me', revision: '../../x' }),
    ).rejects.toMatchObject({ code: 'bad-request', field: 'revision' });
  });

  it('returns the problems of a bad template at their element and field, and writes nothing', async () => {
    const bad = {
      ...label('broken'),
      fields: [{ name: 'sku', label: 'SKU', placeholder: '', type: 'choice' }],
      elements: [
        { type: 'text', text: 'ok' },
        { type: 'barcode', format: 'code12', text: '1' },
        { type: 'text', text: '{lot}' },
      ],
    };
    const result = await call('templates.save', { template: bad as never, overwrite: false });
    expect(result.saved).toBeNull();
    expect(result.problems).toContainEqual(
      expect.objectContaining({ path: 'elements[1].format', element: 1, field: null }),
    );
    expect(result.problems).toContainEqual(
      expect.objectContaining({ element: 2, message: expect.stringContaining('"lot"') }),
    );
    expect(result.problems).toContainEqual(expect.objectContaining({ path: 'fields[0].choices', field: 0 }));
    expect(readdirSync(userDir())).not.toContain('broken.json');
  });

  it('refuses names that are not one file name on every system, writing nothing anywhere', async () => {
    const before = readdirSync(dir, { recursive: true }).sort();
    for (const name of [
      '../x',
      'a/b',
      'a\\b',
      'CON',
      'nul.txt',
      'Com1',
      'a:b',
      'what?',
      '..',
      '.hidden',
      'x.',
      'tab\there',
    ]) {
      const result = await call('templates.save', { template: label(name), overwrite: true });
      expect(result.saved, name).toBeNull();
      expect(
        result.problems.map((p) => p.path),
        name,
      ).toContain('name');
      await expect(
        call('templates.duplicate', { ref: { source: 'bundled', name: 'product-2x1' }, name }),
      ).rejects.toMatchObject({ code: 'invalid' });
      await expect(call('templates.revisions', { name })).rejects.toMatchObject({ code: 'invalid' });
    }
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before);
  });

  it("refuses a new template under a bundled template's name; an imported one of that name saves", async () => {
    const result = await templates.save(label('product-2x1'), true);
    expect(result.problems).toEqual([
      expect.objectContaining({ path: 'name', message: expect.stringContaining('bundled') }),
    ]);
    writeFileSync(userFile('shipping-4x6'), JSON.stringify(rawTemplate('shipping-4x6')));
    const again = await templates.save(bundledTemplate('shipping-4x6'), true);
    expect(again.saved?.ref).toEqual({ source: 'user', name: 'shipping-4x6' });
    rmSync(userFile('shipping-4x6'));
  });
});

describe('atomic writes', () => {
  it('a save that fails half-way leaves the old file whole, and no half-written file or revision', async () => {
    await templates.save(label('safe', 'the old version'), false);
    const old = readFileSync(userFile('safe'));
    disk.full = /[/\\]\.safe\.json\.[0-9a-f]+\.tmp$/;
    await expect(
      call('templates.save', { template: label('safe', 'the new version'), overwrite: true }),
    ).rejects.toMatchObject({
      code: 'invalid',
      message: expect.stringMatching(/^"safe" was not saved: cannot write .*safe\.json: the disk is full\.$/),
    });
    expect(readFileSync(userFile('safe'))).toEqual(old);
    expect(readdirSync(userDir()).filter((f) => f.includes('safe'))).toEqual(['safe.json']);
    expect(await templates.revisions('safe')).toEqual([]);
    const { template } = await call('templates.get', { ref: { source: 'user', name: 'safe' } });
    expect(template.elements[0]).toMatchObject({ text: 'the old version' });
  });

  it('a revision that cannot be written stops the save before the template is touched', async () => {
    await templates.save(label('safe2', 'old'), false);
    const old = readFileSync(userFile('safe2'));
    disk.full = /\.revisions/;
    await expect(templates.save(label('safe2', 'new'), true)).rejects.toThrow(/the disk is full/);
    expect(readFileSync(userFile('safe2'))).toEqual(old);
    expect(readdirSync(revisionsDir('safe2'))).toEqual([]);
  });
});

describe('templates.duplicate and export', () => {
  it('copies a bundled template into the user folder and leaves the bundled file byte-identical', async () => {
    const bundledFile = join(TEMPLATES_DIR, 'shipping-4x6.json');
    const before = readFileSync(bundledFile);
    const summary = await call('templates.duplicate', {
      ref: { source: 'bundled', name: 'shipping-4x6' },
      name: 'my-shipping',
    });
    expect(summary.ref).toEqual({ source: 'user', name: 'my-shipping' });
    expect(summary.title).toMatch(/\(copy\)$/);
    expect(readFileSync(bundledFile)).toEqual(before);
    const { template } = await call('templates.get', { ref: summary.ref });
    expect(template.elements).toEqual(bundledTemplate('shipping-4x6').elements);
    expect(template.fields).toEqual(bundledTemplate('shipping-4x6').fields);
  });

  it('refuses a name any template already has', async () => {
    for (const name of ['product-2x1', 'my-shipping']) {
      await expect(
        call('templates.duplicate', { ref: { source: 'bundled', name: 'shipping-4x6' }, name }),
      ).rejects.toMatchObject({ code: 'conflict', field: 'name' });
    }
  });

  it('exports a template file as it is', async () => {
    const file = await call('templates.export', { ref: { source: 'bundled', name: 'product-2x1' } });
    expect(file.fileName).toBe('product-2x1.json');
    expect(Buffer.from(file.base64, 'base64')).toEqual(readFileSync(join(TEMPLATES_DIR, 'product-2x1.json')));
  });
});

describe('templates.import', () => {
  it('refuses a template whose name cannot be a file name', async () => {
    await expect(
      call('templates.import', { fileName: 'con.json', text: JSON.stringify(label('CON')) }),
    ).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('Windows') });
  });
});

describe('the designer, end to end', () => {
  it("a label drawn, bound and saved in the designer is in the Print screen's list and previews its value", async () => {
    const api = apiFromBridge({ invoke: (c, r) => dispatch(services, c, r), onEvent: () => () => undefined });
    const stores = createStores(api, { saveFile: () => undefined, printSvg: () => undefined });
    const design = () => stores.design.getState();
    design().create({ name: 'drawn', size: '2x1', unit: 'in', dpi: 203 });
    design().addElement('text');
    design().addField({ name: 'sku', label: 'SKU' });
    design().bindField(0, 'sku');
    expect(await design().save()).toMatchObject({ ref: { source: 'user', name: 'drawn' } });
    await vi.waitFor(() =>
      expect(stores.catalog.getState().templates.map((t) => t.ref)).toContainEqual({
        source: 'user',
        name: 'drawn',
      }),
    );
    const preview = await api.invoke('preview.scene', {
      ref: { source: 'user', name: 'drawn' },
      values: { sku: 'A-1' },
    });
    expect(preview.problems).toEqual([]);
    expect(JSON.stringify(preview.scene)).toContain('A-1');
  });
});
