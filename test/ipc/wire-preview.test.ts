/**
 * The preview's "only what changed" (#21): a node is "same" only when every byte of it is — an image swapped for
 * another of the same size, a colour, a line of text — and the scene put back holds the base's own objects.
 */
import { describe, expect, it } from 'vitest';
import { sameData, type WireScene } from '../../src/ipc/wire-scene';
import { applyWirePreview, MissingBaseScene } from '../../src/ipc/wire-preview';

describe('sameData', () => {
  it.each([
    [{ a: 1, b: [1, 2, { c: 'x' }] }, { b: [1, 2, { c: 'x' }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{ a: [1, 2] }, { a: [1, 2, 3] }, false],
    [{ a: 'x' }, { a: 'y' }, false],
    [{ n: NaN }, { n: NaN }, true],
    [{ n: 0 }, { n: null }, false],
    [new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]), true],
    [new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]), false],
    [new Uint8Array([1, 2]), [1, 2], false],
    [[1, 2], { 0: 1, 1: 2 }, false],
  ])('%o ~ %o: %s', (a, b, same) => {
    expect(sameData(a, b)).toBe(same);
    expect(sameData(b, a)).toBe(same);
  });
});

describe('applyWirePreview', () => {
  const base: WireScene = {
    unit: 'px',
    dpi: 96,
    width: 10,
    height: 10,
    background: '#ffffff',
    rfid: [],
    warnings: [],
    nodes: [
      { kind: 'rect', x: 0, y: 0, width: 1, height: 1, fill: '#000000' },
      { kind: 'rect', x: 1, y: 1, width: 1, height: 1, fill: '#000000' },
    ],
  };

  it('keeps the base node objects for "same", takes the rest from the answer', () => {
    const changed = { kind: 'rect' as const, x: 5, y: 5, width: 1, height: 1, fill: '#ff0000' };
    const scene = applyWirePreview({ ...base, id: 'b', base: 'a', nodes: [{ kind: 'same' }, changed] }, base);
    expect(scene.nodes[0]).toBe(base.nodes[0]);
    expect(scene.nodes[1]).toBe(changed);
    expect(scene).not.toHaveProperty('id');
  });

  it('refuses an answer that needs a base it is not given, or a node the base does not have', () => {
    expect(() => applyWirePreview({ ...base, base: 'a', nodes: [{ kind: 'same' }] }, undefined)).toThrow(
      MissingBaseScene,
    );
    expect(() =>
      applyWirePreview(
        { ...base, base: 'a', nodes: [{ kind: 'same' }, { kind: 'same' }, { kind: 'same' }] },
        base,
      ),
    ).toThrow(MissingBaseScene);
    expect(() => applyWirePreview({ ...base, nodes: [{ kind: 'same' }] }, undefined)).toThrow(
      MissingBaseScene,
    );
  });
});
