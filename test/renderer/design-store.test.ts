/**
 * The designer's store (issue #22): one history over every change, undo and redo, coalesced drags and typing,
 * history cleared on open, the dirty flag against the last save, and the clipboard.
 */
import { describe, expect, it } from 'vitest';
import { IpcError } from '../../src/ipc/errors';
import type { TemplateSummary } from '../../src/ipc/contract';
import { px, pxToDots } from '../../src/units/units';
import { elementBox } from '../../renderer/src/design/geometry';
import { createDesignStore, type DesignState } from '../../renderer/src/store/design';
import { bundledTemplate } from '../support/templates';
import { createFakeApi } from './fake-api';

/** A store holding a 4×2 in label (203 dpi) with a text, a barcode and a rect, and a field `sku`. */
function setup() {
  const store = createDesignStore(createFakeApi());
  const s = () => store.getState();
  s().create({ name: 'bin-label', size: '4x2', unit: 'in', dpi: 203 });
  s().addElement('text');
  s().addElement('barcode', { x: 100, y: 40 });
  s().addElement('rect', { x: 200, y: 100 });
  s().addField({ name: 'sku' });
  // Opened as a saved user template: a clean document with an empty history.
  s().open(s().doc!.template, { dpi: 203, savedAs: 'bin-label' });
  s().select([0]);
  return { store, s };
}

const xDots = (state: DesignState, i: number) =>
  Math.round(pxToDots(px(elementBox(state.doc!.template.elements[i]!).x), state.doc!.dpi));

/** Every change the designer can make, from the state `setup` leaves. */
const CHANGES: Record<string, (s: DesignState) => void> = {
  'add an element': (s) => s.addElement('ellipse'),
  'move by a dot': (s) => s.moveSelection(1, 0),
  resize: (s) => s.placeBoxes(new Map([[0, { x: 10, y: 10, width: 50, height: 30 }]])),
  'set a property': (s) => s.setProperties({ text: 'Hello' }),
  'set a template property': (s) => s.setTemplateProperties({ title: 'Bin label' }),
  'change the stage size': (s) =>
    s.setTemplateProperties({ stage: { width: 3, height: 2, unit: 'in', background: '#ffffff' } }),
  'change the dpi': (s) => s.setDpi(600),
  'change the unit': (s) => s.setUnit('mm'),
  delete: (s) => s.deleteSelection(),
  duplicate: (s) => s.duplicateSelection(),
  'bring to front': (s) => s.reorderSelection('front'),
  align: (s) => s.alignSelection('right'),
  distribute: (s) => {
    s.select([0, 1, 2]);
    s.distributeSelection('x');
  },
  paste: (s) => {
    s.copy();
    s.paste();
  },
  cut: (s) => s.cut(),
  'add a field': (s) => s.addField(),
  'edit a field': (s) => s.editField(0, { label: 'SKU', required: true }),
  'rename a field': (s) => s.editField(0, { name: 'item' }),
  "set a field's rules": (s) =>
    s.editField(0, { pattern: '[A-Z]+', maxLength: 12, default: 'ABC', hint: 'Capitals' }),
  'make a field a counter': (s) =>
    s.editField(0, { type: 'counter', counter: { start: 5, step: 2, width: 4, prefix: 'A', suffix: '' } }),
  'set an image file': (s) => {
    s.addElement('image');
    s.setProperties({ url: 'data:image/png;base64,iVBORw0KGgo=' });
  },
  'remove a field': (s) => s.removeField(0),
  'move a field': (s) => {
    s.addField({ name: 'lot' });
    s.moveField(1, 0);
  },
  'bind a field': (s) => s.bindField(1, 'sku'),
};

describe('history', () => {
  for (const [name, act] of Object.entries(CHANGES)) {
    it(`undoes and redoes: ${name}`, () => {
      const { s } = setup();
      const before = s().doc!;
      act(s());
      const after = s().doc!;
      expect(after).not.toEqual(before);
      while (s().past.length && s().doc !== before) s().undo();
      expect(s().doc).toEqual(before);
      expect(s().dirty).toBe(false);
      while (s().future.length && s().doc !== after) s().redo();
      expect(s().doc).toEqual(after);
    });
  }

  it("removes a field's rule as one step: the key gone from the template, an undo puts it back", () => {
    const { s } = setup();
    s().editField(0, { maxLength: 12 });
    s().editField(0, { maxLength: undefined });
    expect(Object.keys(s().doc!.template.fields[0]!)).not.toContain('maxLength');
    s().undo();
    expect(s().doc!.template.fields[0]!.maxLength).toBe(12);
  });

  it('restores the selection each change was made with', () => {
    const { s } = setup();
    s().select([2]);
    s().duplicateSelection();
    expect(s().selection).toEqual([3]);
    s().undo();
    expect(s().selection).toEqual([2]);
    s().redo();
    expect(s().selection).toEqual([3]);
  });

  it('a new change after an undo clears what could be redone', () => {
    const { s } = setup();
    s().moveSelection(5, 0);
    s().undo();
    expect(s().future).toHaveLength(1);
    s().moveSelection(0, 3);
    expect(s().future).toHaveLength(0);
    s().redo();
    expect(xDots(s(), 0)).toBe(xDots(setup().s(), 0));
  });

  it('coalesces a drag or a burst of typing with one key into one entry', () => {
    const { s } = setup();
    const start = s().doc;
    for (const text of ['H', 'He', 'Hel', 'Hell', 'Hello'])
      s().setProperties({ text }, { coalesceKey: 'text:0' });
    for (let i = 0; i < 5; i++) s().moveSelection(1, 0, { coalesceKey: 'drag' });
    s().undo();
    expect(s().doc!.template.elements[0]).toMatchObject({ text: 'Hello' });
    s().undo();
    expect(s().doc).toBe(start);
  });

  it('starts a new entry after endCoalescing, an undo, or another key', () => {
    const { s } = setup();
    s().setProperties({ text: 'A' }, { coalesceKey: 'text:0' });
    s().endCoalescing();
    s().setProperties({ text: 'AB' }, { coalesceKey: 'text:0' });
    s().setProperties({ name: 'n' }, { coalesceKey: 'name:0' });
    expect(s().past).toHaveLength(3);
    s().undo();
    s().setProperties({ text: 'ABC' }, { coalesceKey: 'text:0' });
    expect(s().past).toHaveLength(3);
  });

  it('does not record what changes nothing (no selection, nothing to paste, a field-less element)', () => {
    const { s } = setup();
    s().select([]);
    s().moveSelection(1, 1);
    s().deleteSelection();
    s().paste();
    s().bindField(2, 'sku');
    expect(s().past).toHaveLength(0);
  });

  it('is cleared by opening a template or starting a new one', () => {
    const { s } = setup();
    s().moveSelection(1, 0);
    s().undo();
    s().open(bundledTemplate('product-2x1'), { dpi: 300, savedAs: null });
    expect([s().past.length, s().future.length, s().selection, s().dirty]).toEqual([0, 0, [], false]);
    s().undo();
    expect(s().doc!.template.name).toBe('product-2x1');
    s().addElement('rect');
    s().create({ name: 'x', size: '2x1', unit: 'mm', dpi: 600 });
    expect([s().past.length, s().future.length]).toEqual([0, 0]);
    expect(s().doc!.template.elements).toEqual([]);
  });
});

describe('dirty', () => {
  it('is set by a change and cleared by undoing back to the saved template', () => {
    const { s } = setup();
    expect(s().dirty).toBe(false);
    s().setProperties({ text: 'changed' });
    expect(s().dirty).toBe(true);
    s().undo();
    expect(s().dirty).toBe(false);
    s().redo();
    expect(s().dirty).toBe(true);
  });

  it('compares contents: changing a value and back by hand is clean; the dpi is not part of the file', () => {
    const { s } = setup();
    const text = (s().doc!.template.elements[0] as { text: string }).text;
    s().setProperties({ text: 'other' });
    s().setProperties({ text });
    expect(s().dirty).toBe(false);
    s().setDpi(300);
    expect(s().dirty).toBe(false);
  });

  it('after a save, the saved version is clean and undoing past it is dirty', () => {
    const { s } = setup();
    s().moveSelection(3, 0);
    s().markSaved(s().doc!.template);
    expect([s().dirty, s().savedAs]).toEqual([false, 'bin-label']);
    s().undo();
    expect(s().dirty).toBe(true);
  });

  it('protects unsaved changes on close', () => {
    const { s } = setup();
    s().addElement('line');
    expect(s().close()).toBe(false);
    expect(s().doc).not.toBeNull();
    expect(s().close({ discard: true })).toBe(true);
    expect(s().doc).toBeNull();
    s().create({ name: 'untouched', size: '4x6', unit: 'in', dpi: 203 });
    expect(s().close()).toBe(true);
  });
});

describe('clipboard', () => {
  it('pastes copies on top, each paste one offset (0.1 in) further', () => {
    const { s } = setup();
    s().copy();
    s().paste();
    s().paste();
    const els = s().doc!.template.elements;
    expect(els.map((e) => e.type)).toEqual(['text', 'barcode', 'rect', 'text', 'text']);
    expect([xDots(s(), 3) - xDots(s(), 0), xDots(s(), 4) - xDots(s(), 0)]).toEqual([20, 40]);
    expect(s().selection).toEqual([4]);
  });

  it('keeps what was copied when the original changes; cut then paste puts it back', () => {
    const { s } = setup();
    s().copy();
    s().setProperties({ text: 'changed after copy' });
    s().paste();
    expect(s().doc!.template.elements[3]).not.toMatchObject({ text: 'changed after copy' });
    s().select([1]);
    s().cut();
    expect(s().doc!.template.elements.map((e) => e.type)).toEqual(['text', 'rect', 'text']);
    s().paste();
    expect(s().doc!.template.elements.map((e) => e.type)).toEqual(['text', 'rect', 'text', 'barcode']);
  });
});

describe('saving through the contract', () => {
  const summary = (name: string): TemplateSummary => ({
    ref: { source: 'user', name },
    title: name,
    description: '',
    purpose: 'labels',
    size: '4 × 2 in',
    fieldCount: 1,
    recent: false,
  });

  function saving() {
    const api = createFakeApi();
    const saved: TemplateSummary[] = [];
    const store = createDesignStore(api, { onSaved: (s) => saved.push(s) });
    const s = () => store.getState();
    s().create({ name: 'new-label', size: '4x2', unit: 'in', dpi: 203 });
    s().addElement('text');
    return { api, saved, s };
  }

  it('saves a new template without replacing one of its name, then over itself; clean, the catalogue told', async () => {
    const { api, saved, s } = saving();
    api.on('templates.save', (r) => ({ saved: summary(r.template.name!), problems: [] }));
    expect(s().dirty).toBe(true);
    expect(await s().save()).toMatchObject({ ref: { name: 'new-label' } });
    expect(api.callsTo('templates.save')[0]).toMatchObject({
      overwrite: false,
      template: { name: 'new-label' },
    });
    expect([s().dirty, s().savedAs, saved.length]).toEqual([false, 'new-label', 1]);
    s().moveSelection(1, 0);
    await s().save();
    expect(api.callsTo('templates.save')[1]).toMatchObject({ overwrite: true });
    s().setTemplateProperties({ name: 'renamed' });
    await s().save();
    expect(api.callsTo('templates.save')[2]).toMatchObject({ overwrite: false });
  });

  it('saves once when asked twice while saving (a second click, Ctrl+S)', async () => {
    const { api, s } = saving();
    let finish = () => {};
    api.on(
      'templates.save',
      (r) =>
        new Promise((done) => {
          finish = () => done({ saved: summary(r.template.name!), problems: [] });
        }),
    );
    const first = s().save();
    expect(await s().save()).toBeNull();
    finish();
    expect(await first).toMatchObject({ ref: { name: 'new-label' } });
    expect(api.callsTo('templates.save')).toHaveLength(1);
    expect([s().error, s().dirty]).toEqual([null, false]);
  });

  it('imports a template under a free name and opens it; a taken name is asked about, not replaced', async () => {
    const { api, saved, s } = saving();
    const template = { ...s().doc!.template, name: 'imported' };
    api.on('templates.save', () => {
      throw new IpcError('conflict', 'Your templates already have one named "imported".', 'name');
    });
    expect(await s().importTemplate(template, { dpi: 300 })).toEqual({
      kind: 'name-taken',
      message: 'Your templates already have one named "imported".',
    });
    const bundledName = {
      path: 'name',
      element: null,
      field: null,
      message: '"imported" is the name of a bundled template, which stays as it is: save under another name',
    };
    api.on('templates.save', () => ({ saved: null, problems: [bundledName] }));
    expect(await s().importTemplate(template, { dpi: 300 })).toEqual({
      kind: 'name-taken',
      message: bundledName.message,
    });
    expect(s().doc!.template.name).toBe('new-label');
    api.on('templates.save', (r) => ({ saved: summary(r.template.name!), problems: [] }));
    expect(await s().importTemplate({ ...template, name: 'imported-2' }, { dpi: 300 })).toMatchObject({
      kind: 'imported',
    });
    expect(api.callsTo('templates.save').map((r) => r.overwrite)).toEqual([false, false, false]);
    expect([s().doc!.template.name, s().doc!.dpi, s().savedAs, s().dirty]).toEqual([
      'imported-2',
      300,
      'imported-2',
      false,
    ]);
    expect(saved.map((x) => x.ref.name)).toEqual(['imported-2']);
  });

  it('keeps the problems a save found, and stays dirty', async () => {
    const { api, s } = saving();
    const problem = { path: 'elements[0].text', element: 0, field: null, message: 'refers to field "x"' };
    api.on('templates.save', () => ({ saved: null, problems: [problem] }));
    expect(await s().save()).toBeNull();
    expect(s().problems).toEqual([problem]);
    expect(s().dirty).toBe(true);
    // They are about that template: an edit makes them stale, undoing it makes them current again.
    expect(s().problemsFor).toBe(s().doc!.template);
    s().moveSelection(1, 0);
    expect(s().problemsFor).not.toBe(s().doc!.template);
    s().undo();
    expect(s().problemsFor).toBe(s().doc!.template);
  });

  it('prints one test label of the template as saved, not of unsaved changes', async () => {
    const { api, s } = saving();
    api.on('templates.save', (r) => ({ saved: summary(r.template.name!), problems: [] }));
    api.on('print.submit', () => ({ job: null, message: 'sent' }));
    expect(await s().testPrint('1')).toBeNull();
    await s().save();
    expect(await s().testPrint('1')).toEqual({ job: null, message: 'sent' });
    expect(api.callsTo('print.submit')).toEqual([
      { ref: { source: 'user', name: 'new-label' }, values: {}, copies: 1, printer: '1' },
    ]);
    s().moveSelection(1, 0);
    expect(await s().testPrint('1')).toBeNull();
  });

  it('a name already taken is an error at the name; saving again with overwrite replaces it', async () => {
    const { api, s } = saving();
    api.on('templates.save', (r) => {
      if (!r.overwrite)
        throw new IpcError('conflict', 'Your templates already have one named "new-label".', 'name');
      return { saved: summary('new-label'), problems: [] };
    });
    expect(await s().save()).toBeNull();
    expect(s().error).toMatchObject({ code: 'conflict', field: 'name' });
    expect(await s().save({ overwrite: true })).not.toBeNull();
    expect(s().error).toBeNull();
  });

  it('opens a bundled template as a copy in the user folder, never the bundled one itself', async () => {
    const { api, s } = saving();
    expect(await s().openRef({ source: 'bundled', name: 'shipping-4x6' }, { dpi: 300 })).toBe(false);
    expect(s().error?.message).toMatch(/copy it/);
    api.on('templates.duplicate', (r) => summary(r.name));
    api.on('templates.get', (r) => ({
      ref: r.ref,
      template: { ...bundledTemplate('shipping-4x6'), name: r.ref.name },
      elementFields: {},
    }));
    const ok = await s().openRef(
      { source: 'bundled', name: 'shipping-4x6' },
      { dpi: 300, copyName: 'my-ship' },
    );
    expect(ok).toBe(true);
    expect(api.callsTo('templates.duplicate')).toEqual([
      { ref: { source: 'bundled', name: 'shipping-4x6' }, name: 'my-ship' },
    ]);
    expect(api.callsTo('templates.get').at(-1)).toEqual({ ref: { source: 'user', name: 'my-ship' } });
    expect([s().savedAs, s().dirty, s().past.length, s().doc!.dpi]).toEqual(['my-ship', false, 0, 300]);
  });
});
