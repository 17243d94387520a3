/**
 * The shared SVG path-data parser (src/render/path-data) and the two backends that draw from it: the 1-bit
 * rasteriser's `flattenPath` and pdf-direct's `svgPathOps`. Small golden cases pin what each backend emits;
 * a property checks that no input makes either throw anything but the path-data error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenPath } from '../../src/render/dots/flatten';
import { PathSyntaxError, svgPathOps } from '../../src/render/pdf/writer/path-ops';
import { parsePathData, PathDataError } from '../../src/render/path-data';

describe('parsePathData', () => {
  it('makes relative, implicit and H/V commands absolute lines', () => {
    expect(parsePathData('m1 2 3 4h.5.5v-1-2z')).toEqual([
      { kind: 'moveTo', x: 1, y: 2 },
      { kind: 'lineTo', x0: 1, y0: 2, x: 4, y: 6 },
      { kind: 'lineTo', x0: 4, y0: 6, x: 4.5, y: 6 },
      { kind: 'lineTo', x0: 4.5, y0: 6, x: 5, y: 6 },
      { kind: 'lineTo', x0: 5, y0: 6, x: 5, y: 5 },
      { kind: 'lineTo', x0: 5, y0: 5, x: 5, y: 3 },
      { kind: 'close', x: 1, y: 2 },
    ]);
  });

  it('reads exponents, signs and packed decimals', () => {
    expect(parsePathData('M1e-3-2E1L.5.5')).toEqual([
      { kind: 'moveTo', x: 0.001, y: -20 },
      { kind: 'lineTo', x0: 0.001, y0: -20, x: 0.5, y: 0.5 },
    ]);
  });

  it('reflects the previous control point for S after C, and uses the current point otherwise', () => {
    expect(parsePathData('M0 0C0 2 4 2 4 0s4-2 4 0M0 0S1 1 2 0')).toEqual([
      { kind: 'moveTo', x: 0, y: 0 },
      { kind: 'cubicTo', x0: 0, y0: 0, x1: 0, y1: 2, x2: 4, y2: 2, x: 4, y: 0 },
      { kind: 'cubicTo', x0: 4, y0: 0, x1: 4, y1: -2, x2: 8, y2: -2, x: 8, y: 0 },
      { kind: 'moveTo', x: 0, y: 0 },
      { kind: 'cubicTo', x0: 0, y0: 0, x1: 0, y1: 0, x2: 1, y2: 1, x: 2, y: 0 },
    ]);
  });

  it('reflects the previous control point for T after Q, and not after a line', () => {
    expect(parsePathData('M0 0Q3 3 6 0t6 0L14 0T16 0')).toEqual([
      { kind: 'moveTo', x: 0, y: 0 },
      { kind: 'quadTo', x0: 0, y0: 0, x1: 3, y1: 3, x: 6, y: 0 },
      { kind: 'quadTo', x0: 6, y0: 0, x1: 9, y1: -3, x: 12, y: 0 },
      { kind: 'lineTo', x0: 12, y0: 0, x: 14, y: 0 },
      { kind: 'quadTo', x0: 14, y0: 0, x1: 14, y1: 0, x: 16, y: 0 },
    ]);
  });

  it('keeps arcs in endpoint form, with the current point', () => {
    expect(parsePathData('M1 1a2 3 30 1 0 4 5')).toEqual([
      { kind: 'moveTo', x: 1, y: 1 },
      { kind: 'arcTo', x0: 1, y0: 1, rx: 2, ry: 3, rotation: 30, largeArc: true, sweep: false, x: 5, y: 6 },
    ]);
  });

  it('rejects arc flags other than 0 and 1 unless asked to read them as pdfkit does', () => {
    expect(() => parsePathData('M0 0a5 5 0 2 1 10 0')).toThrow('arc flag must be 0 or 1');
    expect(parsePathData('M0 0a5 5 0 2 1 10 0', { lenientArcFlags: true })[1]).toMatchObject({
      largeArc: true,
    });
  });

  it('does not split packed arc flags yet: "011" reads as the number 11', () => {
    expect(() => parsePathData('M0 0a1 1 0 011 1')).toThrow(PathDataError);
  });

  it('names the problem in malformed data', () => {
    expect(() => parsePathData('M0 0 X1')).toThrow('unexpected "X" in path data');
    expect(() => parsePathData('M0 0 L1')).toThrow('expected a number after "L"');
    expect(() => parsePathData('10 10')).toThrow('numbers without a command');
    expect(() => parsePathData('M0 0z 5')).toThrow('numbers without a command');
  });
});

describe('flattenPath (mono-raster)', () => {
  it('keeps straight subpaths as they are and marks Z', () => {
    expect(flattenPath('M1 1h2v2H1z m1 1l1 0', 1)).toEqual([
      { points: [1, 1, 3, 1, 3, 3, 1, 3], closed: true },
      { points: [2, 2, 3, 2], closed: false },
    ]);
  });

  it('splits curves by the tolerance', () => {
    expect(flattenPath('M0 0Q2 2 4 0', 1)).toEqual([{ points: [0, 0, 4, 0], closed: false }]);
    expect(flattenPath('M0 0Q2 2 4 0', 0.25)).toEqual([{ points: [0, 0, 2, 1, 4, 0], closed: false }]);
  });

  it('flattens a half circle into chords on the circle', () => {
    const [line] = flattenPath('M0 0a5 5 0 0 1 10 0', 1);
    const expected = [0, 0, 2.5, -4.330127, 7.5, -4.330127, 10, 0];
    expect(line?.points).toHaveLength(expected.length);
    line?.points.forEach((v, i) => expect(v).toBeCloseTo(expected[i] ?? NaN, 5));
  });
});

describe('svgPathOps (pdf-direct)', () => {
  it('writes lines and closes', () => {
    expect(svgPathOps('M1 1h2v2H1z m1 1l1 0')).toBe('1 1 m\n3 1 l\n3 3 l\n1 3 l\nh\n2 2 m\n3 2 l\n');
  });

  it('raises quadratics to cubics, with T reflected', () => {
    expect(svgPathOps('M0 0Q3 3 6 0T12 0')).toBe('0 0 m\n2 2 4 2 6 0 c\n8 -2 10 -2 12 0 c\n');
  });

  it('writes S with the reflected control point', () => {
    expect(svgPathOps('M0 0C0 2 4 2 4 0S8 -2 8 0')).toBe('0 0 m\n0 2 4 2 4 0 c\n4 -2 8 -2 8 0 c\n');
  });

  it('writes arcs as cubics of at most 90°, reading any nonzero flag as 1 like pdfkit', () => {
    const halfCircle = '0 0 m\n0 -2.7614 2.2386 -5 5 -5 c\n7.7614 -5 10 -2.7614 10 0 c\n';
    expect(svgPathOps('M0 0a5 5 0 0 1 10 0')).toBe(halfCircle);
    expect(svgPathOps('M0 0A5 5 0 2 1 10 0')).toBe(halfCircle);
  });
});

describe('malformed path data', () => {
  it('is only ever reported as the path-data error, in both backends', () => {
    const pathText = fc.string({
      unit: fc.constantFrom(...'MmLlHhVvCcSsQqTtAaZz0123456789.-+eE ,x'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(pathText, (d) => {
        for (const draw of [() => flattenPath(d, 0.5), () => svgPathOps(d)]) {
          try {
            draw();
          } catch (e) {
            expect(e).toBeInstanceOf(PathDataError);
            expect(e).toBeInstanceOf(PathSyntaxError);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
