import { describe, expect, it } from 'vitest';
import { Transform } from 'konva/lib/Util';
import type { Matrix } from '../../src/layout/scene';
import type { WireScene } from '../../src/ipc/wire-scene';
import {
  barsToPathData,
  decomposeMatrix,
  fieldsForElement,
  nodeToKonva,
  sceneToKonva,
} from '../../renderer/src/preview/scene-to-konva';
import { sceneText } from '../../renderer/src/preview/scene-text';

/** Konva's own node transform from the decomposed attributes (translate, rotate, skew, scale). */
function konvaMatrix(m: Matrix): number[] {
  const t = decomposeMatrix(m);
  return new Transform()
    .translate(t.x, t.y)
    .rotate((t.rotation * Math.PI) / 180)
    .skew(t.skewX, t.skewY)
    .scale(t.scaleX, t.scaleY)
    .getMatrix();
}

describe('decomposeMatrix', () => {
  const cases: [string, Matrix][] = [
    ['identity', [1, 0, 0, 1, 0, 0]],
    ['translate', [1, 0, 0, 1, 12.5, -3]],
    ['rotate 90°', [0, 1, -1, 0, 40, 10]],
    [
      'rotate -30° and scale',
      [1.5 * Math.cos(-0.5236), 1.5 * Math.sin(-0.5236), -2 * Math.sin(-0.5236), 2 * Math.cos(-0.5236), 5, 6],
    ],
    ['rotate 180°', [-1, 0, 0, -1, 100, 50]],
    ['mirror x', [-1, 0, 0, 1, 80, 0]],
    ['skew', [1, 0, 0.4, 1, 0, 0]],
    ['a = b = 0', [0, 0, 2, 3, 1, 1]],
  ];
  for (const [name, m] of cases) {
    it(`round-trips through Konva's transform: ${name}`, () => {
      const got = konvaMatrix(m);
      m.forEach((v, i) => expect(got[i]).toBeCloseTo(v, 9));
    });
  }
});

describe('sceneToKonva', () => {
  const scene: WireScene = {
    unit: 'px',
    dpi: 96,
    width: 384,
    height: 192,
    background: '#ffffff',
    rfid: [],
    warnings: [],
    nodes: [
      {
        kind: 'rect',
        element: 0,
        x: 1,
        y: 2,
        width: 30,
        height: 40,
        cornerRadius: 4,
        stroke: { color: '#000000', width: 2, dash: [4, 2] },
      },
      { kind: 'ellipse', cx: 50, cy: 60, rx: 10, ry: 5, fill: '#ff0000' },
      { kind: 'path', element: 2, d: 'M0 0L10 10', fillRule: 'evenodd', fill: '#00ff00' },
      {
        kind: 'group',
        element: 3,
        transform: [0, 1, -1, 0, 40, 10],
        opacity: 0.5,
        children: [
          {
            kind: 'text',
            font: 'DejaVuSans',
            size: 10,
            color: '#111111',
            box: { x: 0, y: 0, width: 80, height: 24 },
            direction: 'ltr',
            lines: [
              { text: 'Hello', d: 'M0 0h5v5z' },
              { text: '', d: '' },
            ],
          },
        ],
      },
      {
        kind: 'barcode',
        element: 4,
        format: 'code128',
        value: 'ABC',
        color: '#000000',
        rects: [0, 0, 2, 50, 4, 0, 1, 50],
        box: { x: 0, y: 0, width: 10, height: 60 },
        moduleWidth: 1,
      },
      {
        kind: 'image',
        element: 5,
        x: 0,
        y: 0,
        width: 8,
        height: 8,
        mime: 'image/png',
        src: 'data:image/png;base64,AA==',
        monochrome: 'dither',
      },
    ],
  };

  const label = sceneToKonva(scene);

  it('keeps the label size in CSS px for a px scene', () => {
    expect(label).toMatchObject({ width: 384, height: 192, unitScale: 1, background: '#ffffff' });
  });

  it('scales a scene in printer dots to CSS px', () => {
    const dots = sceneToKonva({ ...scene, unit: 'dots', dpi: 203, width: 812, height: 406 });
    expect(dots.unitScale).toBeCloseTo(96 / 203);
    expect(dots.width).toBeCloseTo(384, 0);
  });

  it('maps rects with corner radius and stroke (colour, width, dash), clickable by element', () => {
    expect(label.nodes[0]).toEqual({
      key: '0',
      name: 'el-0',
      element: 0,
      listening: true,
      type: 'rect',
      x: 1,
      y: 2,
      width: 30,
      height: 40,
      cornerRadius: 4,
      stroke: '#000000',
      strokeWidth: 2,
      dash: [4, 2],
    });
  });

  it('maps ellipses by centre and radii; nodes without an element do not listen', () => {
    expect(label.nodes[1]).toEqual({
      key: '1',
      listening: false,
      type: 'ellipse',
      x: 50,
      y: 60,
      radiusX: 10,
      radiusY: 5,
      fill: '#ff0000',
    });
  });

  it('maps paths with their fill rule', () => {
    expect(label.nodes[2]).toMatchObject({
      type: 'path',
      data: 'M0 0L10 10',
      fillRule: 'evenodd',
      fill: '#00ff00',
    });
  });

  it('maps groups to Konva transform attributes; children inherit the element', () => {
    const group = label.nodes[3];
    expect(group).toMatchObject({ type: 'group', x: 40, y: 10, rotation: 90, opacity: 0.5, element: 3 });
    if (group?.type !== 'group') throw new Error('expected a group');
    // A hit box for the text box (the one that takes clicks), then one path per non-empty line, in the
    // text's colour, named for the element (the selection outline) but off Konva's hit canvas.
    expect(group.children).toEqual([
      expect.objectContaining({
        type: 'rect',
        x: 0,
        y: 0,
        width: 80,
        height: 24,
        element: 3,
        fill: 'rgba(0,0,0,0)',
        listening: true,
      }),
      expect.objectContaining({
        type: 'path',
        data: 'M0 0h5v5z',
        fill: '#111111',
        name: 'el-3',
        listening: false,
      }),
    ]);
  });

  it('draws barcode bars as one path over a hit box', () => {
    const specs = label.nodes.filter((n) => n.element === 4);
    expect(specs).toEqual([
      expect.objectContaining({ type: 'rect', x: 0, y: 0, width: 10, height: 60, listening: true }),
      expect.objectContaining({
        type: 'path',
        data: 'M0 0h2v50h-2zM4 0h1v50h-1z',
        fill: '#000000',
        listening: false,
      }),
    ]);
  });

  it('passes images by data URL', () => {
    expect(label.nodes.at(-1)).toMatchObject({ type: 'image', src: 'data:image/png;base64,AA==', width: 8 });
  });

  it('lists the text a label shows', () => {
    expect(sceneText(scene)).toEqual(['Hello', 'ABC']);
  });
});

describe('sceneToKonva across preview updates (#21)', () => {
  const rect = (x: number) => ({
    kind: 'rect' as const,
    element: 0,
    x,
    y: 0,
    width: 5,
    height: 5,
    fill: '#000000',
  });
  const base: WireScene = {
    unit: 'px',
    dpi: 96,
    width: 100,
    height: 100,
    background: '#ffffff',
    rfid: [],
    warnings: [],
    nodes: [rect(0), rect(10)],
  };

  it('an unchanged node (the same object) keeps its descriptions; a changed one gets new ones', () => {
    const before = sceneToKonva(base);
    const after = sceneToKonva({ ...base, nodes: [base.nodes[0]!, rect(20)] });
    expect(after.nodes[0]).toBe(before.nodes[0]);
    expect(after.nodes[1]).not.toBe(before.nodes[1]);
    expect(after.nodes[1]).toMatchObject({ x: 20, key: '1' });
  });

  it('the same node at another index is described again under its new key', () => {
    const before = sceneToKonva(base);
    const moved = sceneToKonva({ ...base, nodes: [base.nodes[1]!] });
    expect(moved.nodes[0]).not.toBe(before.nodes[1]);
    expect(moved.nodes[0]).toMatchObject({ key: '0', x: 10 });
  });
});

describe('helpers', () => {
  it('barsToPathData ignores a trailing partial quadruple', () => {
    expect(barsToPathData([1, 2, 3, 4, 5])).toBe('M1 2h3v4h-3z');
  });
  it('fieldsForElement maps a clicked element to its fields', () => {
    expect(fieldsForElement({ 2: ['a', 'b'] }, 2)).toEqual(['a', 'b']);
    expect(fieldsForElement({ 2: ['a'] }, 9)).toEqual([]);
    expect(fieldsForElement(undefined, 2)).toEqual([]);
  });
  it('nodeToKonva keys nested children by path', () => {
    const [group] = nodeToKonva(
      {
        kind: 'group',
        transform: [1, 0, 0, 1, 0, 0],
        opacity: 1,
        children: [{ kind: 'rect', x: 0, y: 0, width: 1, height: 1 }],
      },
      '7',
    );
    expect(group?.type === 'group' && group.children[0]?.key).toBe('7.0');
  });
});
