/** src/outputs/fit.ts (#42 item 1): does a label fit a printer, and what scaling, turning or cutting makes of it. */
import { describe, expect, it } from 'vitest';
import {
  checkFit,
  checkMarkupsFit,
  cutSummary,
  fitProblem,
  oversizeFor,
  rotateClockwise,
} from '../../src/outputs/fit';
import { createMonoBitmap, getDot, setDot } from '../../src/render/bitmap';
import { renderZplLabels } from '../../src/outputs/render';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { decodeZpl } from '../support/zpl-decode';
import { parseMarkup } from '../../src/model/parse';

const HEAD = { dpi: 203, widthDots: 832 };

describe('checkFit', () => {
  it('a 4x6 label fits a 4-inch head; nothing to choose', () => {
    const check = checkFit({ widthDots: 812, heightDots: 1218 }, HEAD);
    expect(check).toMatchObject({ fits: true, tooWide: false, rotates: false, fitDpi: 203 });
    expect(fitProblem('shipping-4x6', check)).toBe('');
    expect(oversizeFor(check, 'cut')).toBeUndefined();
  });

  it('A4 is too wide, turned it is still too wide, and at 100 dpi it fits', () => {
    const check = checkMarkupsFit(
      [{ stage: { width: 210, height: 297, unit: 'mm', background: '#ffffff' } }],
      HEAD,
    );
    expect(check).toMatchObject({ fits: false, tooWide: true, rotates: false, fitDpi: 100 });
    expect(check.label).toEqual({ widthDots: 1678, heightDots: 2374 });
    expect(fitProblem('packing-slip-a4', check)).toBe(
      'packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi',
    );
    expect(cutSummary(check)).toBe('the right 106 mm (846 dots)');
    expect(oversizeFor(check, undefined)).toBeUndefined();
    expect(oversizeFor(check, 'rotate')).toBeUndefined(); // turning does not make it fit
    expect(oversizeFor(check, 'fit')).toBe('fit');
  });

  it('a 6x4 landscape label fits turned 90°', () => {
    const check = checkFit({ widthDots: 1218, heightDots: 812 }, HEAD);
    expect(check).toMatchObject({ fits: false, rotates: true });
    expect(oversizeFor(check, 'rotate')).toBe('rotate');
  });

  it('on fixed media that reports its length, a longer label does not fit either', () => {
    const check = checkFit({ widthDots: 812, heightDots: 1624 }, { ...HEAD, lengthDots: 1218 });
    expect(check).toMatchObject({ fits: false, tooWide: false, tooLong: true });
    expect(fitProblem('tall', check)).toBe(
      'tall is 203 mm (1624 dots) long but the loaded labels are 152 mm (1218 dots) at 203 dpi',
    );
    expect(Math.round((1624 * check.fitDpi) / 203)).toBeLessThanOrEqual(1218);
  });
});

describe('rotateClockwise', () => {
  it('turns the first row into the last column', () => {
    const b = createMonoBitmap(3, 2);
    setDot(b, 0, 0, true);
    setDot(b, 2, 1, true);
    const r = rotateClockwise(b);
    expect([r.width, r.height]).toEqual([2, 3]);
    expect(getDot(r, 1, 0)).toBe(true); // (0,0) → (h-1-0, 0)
    expect(getDot(r, 0, 2)).toBe(true); // (2,1) → (h-1-1, 2)
  });
});

describe('renderZplLabels with oversize', () => {
  const landscape = parseMarkup({
    stage: { width: 6, height: 4, unit: 'in' },
    elements: [{ type: 'rect', x: 0, y: 0, width: 96, height: 48, fill: '#000000' }],
  });
  const ports = nodeRenderPorts();

  it('rotate: ^PW is the label height, and its top-left corner is now at the top right', async () => {
    const [job] = (await renderZplLabels([landscape], { dpi: 203, oversize: 'rotate' }, ports)).labels;
    const decoded = decodeZpl(job!);
    expect([decoded.printWidth, decoded.labelLength]).toEqual([812, 1218]);
    expect(getDot(decoded.bitmap, 811, 0)).toBe(true);
    expect(getDot(decoded.bitmap, 0, 0)).toBe(false);
  });

  it('cut (the default): the head width of it', async () => {
    const [job] = (await renderZplLabels([landscape], { dpi: 203 }, ports)).labels;
    expect(decodeZpl(job!).printWidth).toBe(832);
  });
});
