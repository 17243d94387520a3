/**
 * The folder store's `io: 'sync'` mode (what `labeldesk serve` uses): the same listing as the default mode,
 * broken files and all, and a change on disk applies to the very next lookup (spec §1 rule 2).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultTemplateStore, folderStore } from '../../src/node/template-store';
import { TemplateNotFound } from '../../src/model/errors';

const tpl = (name: string, text: string) => ({
  schemaVersion: 1,
  name,
  stage: { width: 1, height: 1, unit: 'in' },
  elements: [{ type: 'text', text }],
});

describe("folder store, io: 'sync'", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-sync-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists what the default mode lists, broken files included', async () => {
    writeFileSync(join(dir, 'good.json'), JSON.stringify(tpl('good', 'x')));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...tpl('bad', 'x'), stage: { width: -1 } }));
    writeFileSync(join(dir, 'syntax.json'), '{ "name": ');
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const sync = await defaultTemplateStore(dir, { io: 'sync' }).list();
    const async = await defaultTemplateStore(dir).list();
    expect(sync).toEqual(async);
    expect(sync.templates.map((t) => t.template.name)).toContain('good');
    expect(sync.broken.map((b) => b.file.split('/').pop())).toEqual(['bad.json', 'syntax.json']);
  });

  it('applies a change, an added file and a removed file to the very next lookup', async () => {
    const file = join(dir, 'live.json');
    writeFileSync(file, JSON.stringify(tpl('live', 'one')));
    const store = folderStore(dir, 'user', { io: 'sync' });
    expect((await store.get('live')).template.elements[0]).toMatchObject({ text: 'one' });
    writeFileSync(file, JSON.stringify(tpl('live', 'two!')));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect((await store.get('live')).template.elements[0]).toMatchObject({ text: 'two!' });
    writeFileSync(join(dir, 'new.json'), JSON.stringify(tpl('new', 'n')));
    expect((await store.get('new')).template.name).toBe('new');
    rmSync(file);
    await expect(store.get('live')).rejects.toBeInstanceOf(TemplateNotFound);
  });

  it('a missing folder is empty; a folder that is a file fails the lookup', async () => {
    expect((await folderStore(join(dir, 'nope'), 'user', { io: 'sync' }).list()).templates).toEqual([]);
    writeFileSync(join(dir, 'file.json'), '{}');
    await expect(folderStore(join(dir, 'file.json'), 'user', { io: 'sync' }).list()).rejects.toThrow(
      /ENOTDIR/,
    );
  });
});

describe('a fixed folder (the bundled templates)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-fixed-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is read once: later changes on disk are not looked at, while a user folder beside it still is', async () => {
    writeFileSync(join(dir, 'shipped.json'), JSON.stringify(tpl('shipped', 'as shipped')));
    const fixed = folderStore(dir, 'bundled', { io: 'sync', fixed: true });
    expect((await fixed.get('shipped')).template.elements[0]).toMatchObject({ text: 'as shipped' });
    writeFileSync(join(dir, 'shipped.json'), JSON.stringify(tpl('shipped', 'edited')));
    writeFileSync(join(dir, 'added.json'), JSON.stringify(tpl('added', 'x')));
    expect((await fixed.get('shipped')).template.elements[0]).toMatchObject({ text: 'as shipped' });
    await expect(fixed.get('added')).rejects.toBeInstanceOf(TemplateNotFound);
    // The default store: bundled fixed, the user's folder live.
    const user = mkdtempSync(join(tmpdir(), 'ld-user-store-'));
    try {
      const store = defaultTemplateStore(user, { io: 'sync' });
      await expect(store.get('mine')).rejects.toBeInstanceOf(TemplateNotFound);
      writeFileSync(join(user, 'mine.json'), JSON.stringify(tpl('mine', 'new')));
      expect((await store.get('mine')).template.name).toBe('mine');
      expect((await store.get('shipping-4x6')).origin).toBe('bundled');
    } finally {
      rmSync(user, { recursive: true, force: true });
    }
  });

  it('a listing that failed is tried again at the next lookup', async () => {
    const later = join(dir, 'later');
    writeFileSync(later, 'a file where the folder will be');
    const fixed = folderStore(later, 'bundled', { io: 'sync', fixed: true });
    await expect(fixed.list()).rejects.toThrow(/ENOTDIR/);
    rmSync(later);
    mkdirSync(later);
    writeFileSync(join(later, 'one.json'), JSON.stringify(tpl('one', '1')));
    expect((await fixed.get('one')).template.name).toBe('one');
  });
});
