import { mkdtempSync, rmSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TemplateNotFound } from '../../src/model/errors';
import { defaultTemplateStore, folderStore } from '../../src/node/template-store';
import { memoryStore } from '../../src/model/store';
import { bundledTemplate, rawTemplate } from '../support/templates';

const tpl = (name: string, text = 'hello') => ({
  schemaVersion: 1,
  name,
  stage: { width: 1, height: 1, unit: 'in' },
  elements: [{ type: 'text', text }],
});

describe('template store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-templates-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds bundled templates by exact name only, suggesting the right case', async () => {
    const store = defaultTemplateStore();
    expect((await store.get('shipping-4x6')).template.name).toBe('shipping-4x6');
    const err = await store.get('Shipping-4x6').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemplateNotFound);
    expect((err as Error).message).toBe(
      'template not found: "Shipping-4x6" (names are case-sensitive); did you mean "shipping-4x6"?',
    );
  });

  it('reports a broken file with every problem and keeps the others usable', async () => {
    writeFileSync(join(dir, 'good.json'), JSON.stringify(tpl('good')));
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ ...tpl('bad'), stage: { width: -1, height: 1, unit: 'ft' } }),
    );
    writeFileSync(join(dir, 'syntax.json'), '{ "name": ');
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const listing = await folderStore(dir, 'user').list();
    expect(listing.templates.map((t) => t.template.name)).toEqual(['good']);
    expect(listing.broken.map((b) => [b.file.split('/').pop(), b.problems.map((p) => p.path)])).toEqual([
      ['bad.json', ['stage.width', 'stage.unit']],
      ['syntax.json', ['']],
    ]);
  });

  it('applies a change on disk to the very next lookup (spec §1 rule 2)', async () => {
    const file = join(dir, 'live.json');
    writeFileSync(file, JSON.stringify(tpl('live', 'one')));
    const store = folderStore(dir, 'user');
    expect((await store.get('live')).template.elements[0]).toMatchObject({ text: 'one' });
    writeFileSync(file, JSON.stringify(tpl('live', 'two!')));
    utimesSync(file, new Date(), new Date(Date.now() + 5000)); // make sure mtime moves on coarse filesystems
    expect((await store.get('live')).template.elements[0]).toMatchObject({ text: 'two!' });
  });

  it("lets the user's folder override a bundled template of the same name", async () => {
    const raw = rawTemplate('product-2x1') as Record<string, unknown>;
    writeFileSync(join(dir, 'mine.json'), JSON.stringify({ ...raw, description: 'my shop version' }));
    const entry = await defaultTemplateStore(dir).get('product-2x1');
    expect(entry).toMatchObject({ origin: 'user', template: { description: 'my shop version' } });
  });

  it('reports two files with the same name in one folder', async () => {
    writeFileSync(join(dir, 'a.json'), JSON.stringify(tpl('same')));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(tpl('same')));
    const listing = await folderStore(dir, 'user').list();
    expect(listing.templates).toHaveLength(1);
    expect(listing.broken[0]?.problems[0]?.message).toMatch(/"same" is already defined in .*a\.json/);
  });

  it('a missing user folder is simply empty', async () => {
    expect((await folderStore(join(dir, 'nope'), 'user').list()).templates).toEqual([]);
  });

  it('memory store looks up by exact name', async () => {
    const store = memoryStore([{ template: bundledTemplate('product-2x1'), origin: 'captured' }]);
    await expect(store.get('product-2x1')).resolves.toMatchObject({ origin: 'captured' });
    await expect(store.get('PRODUCT-2x1')).rejects.toBeInstanceOf(TemplateNotFound);
  });
});
