import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMonoBitmap, getDot, setDot, type MonoBitmap } from '../../src/render/bitmap';
import type { RfidWrite } from '../../src/layout/scene';
import { nodeDeflate } from '../../src/node/render-ports';
import { buildZplJob, buildZplJobs } from '../../src/zpl/job';
import { RfidValueError } from '../../src/model/epc';
import { decodeZpl } from '../support/zpl-decode';
import { bitmapArbitrary } from './bitmap-arbitrary';

function blackBox16x8(): MonoBitmap {
  const bitmap = createMonoBitmap(16, 8);
  bitmap.data.fill(0xff);
  return bitmap;
}

function hairline12x4(): MonoBitmap {
  const bitmap = createMonoBitmap(12, 4);
  for (let x = 0; x < 12; x++) setDot(bitmap, x, 2, true);
  return bitmap;
}

const EPC = '3034257BF7194E4000001A85';
const epc = (hex: string): RfidWrite => ({ element: 0, bank: 'epc', hex, lock: 'none' });

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

/** A 4x6 in label at 203 dpi: white, with rows of glyph-like noise (text lines) and a barcode-like block. */
function typicalLabel(): MonoBitmap {
  const bitmap = createMonoBitmap(812, 1218);
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let line = 0; line < 14; line++) {
    const top = 40 + line * 50;
    const length = 200 + Math.floor(random() * 500);
    for (let y = top; y < top + 24; y++) {
      for (let x = 40; x < 40 + length; x++) if (random() < 0.35) setDot(bitmap, x, y, true);
    }
  }
  for (let x = 60; x < 750; x += 1 + Math.floor(random() * 8)) {
    const barWidth = 1 + Math.floor(random() * 4);
    for (let y = 800; y < 1000; y++) for (let dx = 0; dx < barWidth; dx++) setDot(bitmap, x + dx, y, true);
  }
  return bitmap;
}

describe('buildZplJob golden output', () => {
  it('16x8 black box, defaults (z64, no darkness, no label home, no RFID)', () => {
    expect(buildZplJob({ bitmap: blackBox16x8() })).toBe(
      '^XA\n^PW16\n^LL8\n^FO0,0^GFA,16,16,2,:Z64:eNr7jwYAh4gP8Q==:D828^FS\n^XZ\n',
    );
  });

  it('1-dot line in each encoding', () => {
    const bitmap = hairline12x4();
    const job = (data: string): string => `^XA\n^PW12\n^LL4\n^FO0,0^GFA,8,8,2,${data}^FS\n^XZ\n`;
    expect(buildZplJob({ bitmap, compression: 'z64' })).toBe(job(':Z64:eNpjAIL/HxgYAAbUAfA=:EDD5'));
    expect(buildZplJob({ bitmap, compression: 'acs' })).toBe(job(',:IF,,'));
    expect(buildZplJob({ bitmap, compression: 'hex' })).toBe(job('00000000FFF00000'));
  });

  it('every option: darkness, then ^PW/^LL, label home, RFID, graphic', () => {
    const zpl = buildZplJob({
      bitmap: hairline12x4(),
      compression: 'acs',
      darkness: { mode: 'absolute', level: 8 },
      labelHome: { x: 10, y: 20 },
      rfid: [epc(EPC)],
    });
    expect(zpl).toBe(
      `^XA\n~SD08\n^PW12\n^LL4\n^LH10,20\n^RS8\n^RFW,H^FD${EPC}^FS\n^FO0,0^GFA,8,8,2,,:IF,,^FS\n^XZ\n`,
    );
  });

  it('relative darkness is ^MD', () => {
    expect(buildZplJob({ bitmap: hairline12x4(), darkness: { mode: 'relative', delta: -3 } })).toMatch(
      /^\^XA\n\^MD-3\n\^PW12\n/,
    );
  });
});

describe('buildZplJob decisions', () => {
  it('^PW is capped at the printer width and wider content is cropped, not an error', () => {
    const bitmap = createMonoBitmap(900, 10);
    bitmap.data.fill(0xff);
    const decoded = decodeZpl(buildZplJob({ bitmap }));
    expect(decoded.printWidth).toBe(832);
    expect(decoded.graphics[0]?.rowBytes).toBe(104);
    expect(decoded.bitmap.width).toBe(832);
    expect(decoded.bitmap.data.every((byte) => byte === 0xff)).toBe(true);
  });

  it('cropping to a width that is not a multiple of 8 clears the dots past it', () => {
    const bitmap = createMonoBitmap(900, 3);
    bitmap.data.fill(0xff);
    const graphic = decodeZpl(buildZplJob({ bitmap, maxWidthDots: 830 })).graphics[0];
    expect(graphic?.rowBytes).toBe(104);
    for (let row = 0; row < 3; row++) expect(graphic?.data[row * 104 + 103]).toBe(0b1111_1100);
  });

  it('content within the printer width is kept exactly', () => {
    const bitmap = createMonoBitmap(832, 5);
    setDot(bitmap, 831, 4, true);
    setDot(bitmap, 0, 0, true);
    const decoded = decodeZpl(buildZplJob({ bitmap }));
    expect(decoded.printWidth).toBe(832);
    expect(getDot(decoded.bitmap, 831, 4)).toBe(true);
    expect(getDot(decoded.bitmap, 0, 0)).toBe(true);
  });

  it('stray padding bits past the width do not change the output', () => {
    const clean = hairline12x4();
    const dirty = hairline12x4();
    for (let y = 0; y < 4; y++) dirty.data[y * 2 + 1] = (dirty.data[y * 2 + 1] ?? 0) | 0x0f;
    expect(buildZplJob({ bitmap: dirty, compression: 'hex' })).toBe(
      buildZplJob({ bitmap: clean, compression: 'hex' }),
    );
  });

  it('a 4x6 in label at 300 dpi goes out as 3 bands and prints back identically', () => {
    const bitmap = createMonoBitmap(1200, 1800);
    for (let y = 0; y < 1800; y += 3) for (let x = y % 1200; x < 1200; x += 97) setDot(bitmap, x, y, true);
    const zpl = buildZplJob({ bitmap, maxWidthDots: 1200 });
    const decoded = decodeZpl(zpl);
    expect(decoded.graphics.map((g) => [g.y, g.byteCount])).toEqual([
      [0, 99_900],
      [666, 99_900],
      [1332, 70_200],
    ]);
    expect(decoded.printWidth).toBe(1200);
    expect(decoded.labelLength).toBe(1800);
    expect(sameBytes(decoded.bitmap.data, bitmap.data)).toBe(true);
  });

  it('^LL must be 1..32000 dots', () => {
    expect(() => buildZplJob({ bitmap: createMonoBitmap(8, 0) })).toThrow(/label length/);
    expect(() => buildZplJob({ bitmap: createMonoBitmap(8, 32_001) })).toThrow(
      /label length must be 1\.\.32000/,
    );
    expect(decodeZpl(buildZplJob({ bitmap: createMonoBitmap(8, 32_000) })).labelLength).toBe(32_000);
  });

  it('rejects out-of-range darkness and label home', () => {
    const bitmap = hairline12x4();
    expect(() => buildZplJob({ bitmap, darkness: { mode: 'absolute', level: 31 } })).toThrow(RangeError);
    expect(() => buildZplJob({ bitmap, darkness: { mode: 'relative', delta: 1.5 } })).toThrow(RangeError);
    expect(() => buildZplJob({ bitmap, labelHome: { x: -1, y: 0 } })).toThrow(RangeError);
  });

  it('a bad EPC fails the whole job (no job is emitted with a broken or injected ^FD)', () => {
    expect(() => buildZplJob({ bitmap: hairline12x4(), rfid: [epc(`${EPC.slice(0, 21)}^XZ`)] })).toThrow(
      RfidValueError,
    );
  });
});

describe('buildZplJob round trips', () => {
  it.each(['z64', 'acs', 'hex'] as const)(
    '%s: the decoded label has the same size and the same dots',
    (compression) => {
      fc.assert(
        fc.property(bitmapArbitrary(), (bitmap) => {
          const decoded = decodeZpl(buildZplJob({ bitmap, compression }));
          expect(decoded.printWidth).toBe(bitmap.width);
          expect(decoded.labelLength).toBe(bitmap.height);
          expect(sameBytes(decoded.bitmap.data, bitmap.data)).toBe(true);
        }),
        { numRuns: 100 },
      );
    },
  );
});

describe('buildZplJobs', () => {
  it('returns one complete ^XA...^XZ job per copy, each with its own EPC', () => {
    const bitmap = hairline12x4();
    const epcs = [EPC, '3034257BF7194E4000001A86', '3034257BF7194E4000001A87'];
    const jobs = buildZplJobs(
      epcs.map((hex) => ({ bitmap, rfid: [epc(hex)] })),
      { compression: 'acs' },
    );
    expect(jobs).toHaveLength(3);
    jobs.forEach((job, i) => {
      expect(job).toBe(buildZplJob({ bitmap, compression: 'acs', rfid: [epc(epcs[i] ?? '')] }));
      expect(decodeZpl(job).rfidWrites).toEqual([{ params: 'W,H', data: epcs[i] }]);
    });
  });

  it('returns no jobs for no copies', () => {
    expect(buildZplJobs([])).toEqual([]);
  });

  it('passes an injected deflate to every Z64 field, and the jobs print back identically', () => {
    const bitmap = typicalLabel();
    let calls = 0;
    const deflate = (bytes: Uint8Array, rowBytes?: number): Uint8Array => {
      calls++;
      return nodeDeflate(bytes, rowBytes);
    };
    const [job] = buildZplJobs([{ bitmap }], { deflate });
    expect(calls).toBe(2); // 812 × 1218 at 102 bytes a row: two bands of at most 99,999 bytes
    expect(job).toBe(buildZplJob({ bitmap, deflate: nodeDeflate }));
    expect(job).not.toBe(buildZplJob({ bitmap }));
    expect(sameBytes(decodeZpl(job ?? '').bitmap.data, bitmap.data)).toBe(true);
  });
});

describe('size', () => {
  it('a typical mostly-white 812x1218 label is far smaller in Z64 than in hex', () => {
    const bitmap = typicalLabel();
    const z64 = buildZplJob({ bitmap });
    const acs = buildZplJob({ bitmap, compression: 'acs' });
    const hex = buildZplJob({ bitmap, compression: 'hex' });
    expect(hex.length).toBeGreaterThan(248_000); // 124,236 bytes as two digits each
    expect(z64.length * 8).toBeLessThan(hex.length);
    expect(z64.length).toBeLessThan(acs.length);
    for (const zpl of [z64, acs, hex]) expect(sameBytes(decodeZpl(zpl).bitmap.data, bitmap.data)).toBe(true);
  });
});
