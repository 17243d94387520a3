/**
 * The Print screen's stores for issue #42: a blocked print or save names its field (item 4), a form's toasts do
 * not follow the user to other screens (item 3), pinned templates come first (item 14), "Test connection" sends
 * what is typed without saving it (item 8), and no channel name reaches a user's sentence (item 13).
 */
import { describe, expect, it } from 'vitest';
import { IpcError } from '../../src/ipc/errors';
import type { TemplateSummary } from '../../src/ipc/contract';
import { createStores } from '../../renderer/src/store';
import { blockedSentence } from '../../renderer/src/store/document';
import { visibleTemplates } from '../../renderer/src/store/catalog';
import { toUserError } from '../../renderer/src/ipc/user-error';
import { SUMMARY, createFakeApi, sceneSaying } from './fake-api';

function setup() {
  const api = createFakeApi();
  const stores = createStores(api, { saveFile: () => undefined, printSvg: () => undefined });
  return {
    api,
    stores,
    doc: () => stores.document.getState(),
    ui: () => stores.ui.getState(),
    connection: () => stores.connection.getState(),
  };
}

describe('a blocked print or save names the field (#42 item 4)', () => {
  it('says which field stopped the save, sends the cursor there, and forgets it once the field changes', async () => {
    const { api, doc, ui } = setup();
    api.on('preview.scene', (r) => ({
      scene: sceneSaying('x'),
      problems: r.values.ship_to_name ? [] : [{ field: 'ship_to_name', message: 'Recipient is required' }],
      cuts: [],
    }));
    await doc().selectTemplate(SUMMARY.ref);
    expect(await doc().exportAs('pdf')).toBeNull();
    expect(doc().blocked).toEqual({ action: 'pdf', field: 'ship_to_name', message: 'Recipient is required' });
    expect(blockedSentence(doc().blocked!)).toBe('Not saved: Recipient is required');
    expect(ui().focusRequest?.field).toBe('ship_to_name');
    doc().setPrinter('p1');
    await doc().print();
    expect(blockedSentence(doc().blocked!)).toBe('Not printed: Recipient is required');
    doc().setValue('ship_to_name', 'Ada');
    expect(doc().blocked).toBeNull();
  });

  it('a field refused by main at print is said by the button too', async () => {
    const { api, doc } = setup();
    api.on('print.submit', () => {
      throw new IpcError('invalid', 'SKU is empty — the barcode needs a value', 'sku', 'field');
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    await doc().print();
    expect(doc().blocked).toMatchObject({ action: 'print', field: 'sku' });
  });
});

describe("a form's toasts stay with the form (#42 item 3)", () => {
  it('goes when the user leaves the Print screen or picks another template; others stay', async () => {
    const { ui, doc } = setup();
    const error = { code: 'invalid', message: 'SKU is empty', field: 'sku', action: 'field' } as const;
    ui().notify({ kind: 'error', error, condition: 'field:sku' });
    ui().notify({ kind: 'info', message: 'Imported template x.' });
    ui().go('history');
    expect(ui().toasts.map((t) => t.kind)).toEqual(['info']);
    ui().go('print');
    ui().notify({ kind: 'error', error, condition: 'field:sku' });
    await doc().selectTemplate(SUMMARY.ref);
    expect(ui().toasts.map((t) => t.kind)).toEqual(['info']);
  });
});

describe('pinned templates first (#42 item 14)', () => {
  const t = (name: string, recent = false): TemplateSummary => ({
    ...SUMMARY,
    ref: { source: 'bundled', name },
    title: name,
    recent,
  });
  it('puts pinned ones first in pinned order, then recent, then by title', () => {
    const list = [t('a'), t('b'), t('c', true), t('d')];
    const names = visibleTemplates(
      list,
      '',
      [{ source: 'bundled', name: 'c' }],
      [
        { source: 'bundled', name: 'd' },
        { source: 'bundled', name: 'b' },
      ],
    ).map((x) => x.ref.name);
    expect(names).toEqual(['d', 'b', 'c', 'a']);
  });

  it('pins and unpins through settings.update, and reads the recent list again after a print', async () => {
    const { api, connection, doc } = setup();
    await connection().load();
    const settings = connection().settings!;
    api.on('settings.update', (patch) => ({ ...settings, pinnedTemplates: patch.pinnedTemplates ?? [] }));
    const ref = { source: 'bundled', name: 'shipping-4x6' } as const;
    expect(await connection().togglePin(ref)).toBeNull();
    expect(api.callsTo('settings.update').at(-1)).toEqual({ pinnedTemplates: [ref] });
    expect(connection().settings?.pinnedTemplates).toEqual([ref]);
    await connection().togglePin(ref);
    expect(connection().settings?.pinnedTemplates).toEqual([]);
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    const before = api.callsTo('settings.get').length;
    await doc().print();
    await new Promise((r) => setTimeout(r, 0));
    expect(api.callsTo('settings.get').length).toBe(before + 1);
  });
});

describe('Test connection sends what is typed (#42 item 8)', () => {
  it('asks main to test the typed values and saves nothing', async () => {
    const { api, connection } = setup();
    api.on('connection.test', () => ({
      ok: true,
      message: 'Connected.',
      status: { backend: 'local', hosted: 'unknown', message: null, printsUsed: null },
    }));
    await connection().testTyped({ apiBaseUrl: 'https://api.example.com', apiKey: 'k', apiSecret: 's' });
    expect(api.callsTo('settings.update')).toEqual([]);
    expect(api.callsTo('connection.test')).toEqual([
      { typed: { apiBaseUrl: 'https://api.example.com', apiKey: 'k', apiSecret: 's' } },
    ]);
    expect(connection().testResult).toEqual({ ok: true, message: 'Connected.', target: 'hosted' });
  });
});

describe('no channel name in a sentence (#42 item 13)', () => {
  it('drops a channel prefix from any error shown', () => {
    expect(toUserError(new IpcError('bad-request', 'settings.update: Site URL: use https://')).message).toBe(
      'Site URL: use https://',
    );
    expect(toUserError(new Error('connection.test: the host is down')).message).toBe('the host is down');
    expect(toUserError(new Error('label.pdf: not a channel')).message).toBe('label.pdf: not a channel');
  });
});
