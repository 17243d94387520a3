import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nodeDeflate } from '../../src/node/render-ports';
import { createMonoBitmap, setDot, type MonoBitmap } from '../../src/render/bitmap';
import { crc16Xmodem } from '../../src/zpl/crc';
import {
  GFA_MAX_BYTES,
  encodeGfa,
  encodeGfaBands,
  planGfaBands,
  type GfaCompression,
} from '../../src/zpl/gfa';
import { ZplDecodeError, decodeGfaParams } from '../support/zpl-decode';
import { bitmapArbitrary } from './bitmap-arbitrary';

const ENCODINGS: GfaCompression[] = ['z64', 'acs', 'hex'];

function blackBox16x8(): MonoBitmap {
  const bitmap = createMonoBitmap(16, 8);
  bitmap.data.fill(0xff);
  return bitmap;
}

/** 12 x 4 dots, white except a 1-dot horizontal line across row 2. */
function hairline12x4(): MonoBitmap {
  const bitmap = createMonoBitmap(12, 4);
  for (let x = 0; x < 12; x++) setDot(bitmap, x, 2, true);
  return bitmap;
}

function solid(width: number, height: number): MonoBitmap {
  const bitmap = createMonoBitmap(width, height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) setDot(bitmap, x, y, true);
  return bitmap;
}

/** `^GFA,...` back to bytes with the independent test decoder. */
function decode(gfa: string): ReturnType<typeof decodeGfaParams> {
  expect(gfa.startsWith('^GF')).toBe(true);
  return decodeGfaParams(gfa.slice(3));
}

function header(gfa: string): { b: number; c: number; d: number; data: string } {
  const m = /^\^GFA,(\d+),(\d+),(\d+),(.*)$/s.exec(gfa);
  if (!m) throw new Error(`not a ^GFA: ${gfa.slice(0, 30)}`);
  return { b: Number(m[1]), c: Number(m[2]), d: Number(m[3]), data: m[4] ?? '' };
}

describe('^GFA golden output', () => {
  // Z64 goldens were cross-checked with Python: zlib.decompress(b64decode(...)) gives the rows and
  // binascii.crc_hqx(base64_text, 0) gives the CRC. They depend on fflate's level-9 output: if an fflate upgrade
  // changes them, re-check the round trip tests, then update.
  it('16x8 black box', () => {
    const box = blackBox16x8();
    expect(encodeGfa(box, 'z64')).toBe('^GFA,16,16,2,:Z64:eNr7jwYAh4gP8Q==:D828');
    expect(encodeGfa(box, 'acs')).toBe('^GFA,16,16,2,JF:::::::');
    expect(encodeGfa(box, 'hex')).toBe('^GFA,16,16,2,FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF');
  });

  it('1-dot horizontal line (12 dots wide: the last 4 bits of each row are padding)', () => {
    const line = hairline12x4();
    expect(encodeGfa(line, 'z64')).toBe('^GFA,8,8,2,:Z64:eNpjAIL/HxgYAAbUAfA=:EDD5');
    // `,` white row, `:` same again, `IF,` = FFF then zeros to the end of the row, `,` white row.
    expect(encodeGfa(line, 'acs')).toBe('^GFA,8,8,2,,:IF,,');
    expect(encodeGfa(line, 'hex')).toBe('^GFA,8,8,2,00000000FFF00000');
  });

  it('ACS splits long runs into prefixes of at most z+Y (419): 1000 F digits = zYF zYF nHF', () => {
    expect(encodeGfa(solid(4000, 1), 'acs')).toBe('^GFA,500,500,500,zYFzYFnHF');
    expect(encodeGfa(solid(800, 2), 'acs')).toBe('^GFA,200,200,100,pF:');
  });
});

describe('^GFA deliberate choices', () => {
  it('b = c = the UNCOMPRESSED byte count (rowBytes x rows) and d = rowBytes, in every encoding', () => {
    fc.assert(
      fc.property(bitmapArbitrary(), fc.constantFrom(...ENCODINGS), (bitmap, compression) => {
        const { b, c, d } = header(encodeGfa(bitmap, compression));
        expect(b).toBe(bitmap.rowBytes * bitmap.height);
        expect(c).toBe(b);
        expect(d).toBe(bitmap.rowBytes);
      }),
    );
  });

  it('Z64 CRC is four UPPERCASE hex digits computed over the base64 text', () => {
    fc.assert(
      fc.property(bitmapArbitrary(), (bitmap) => {
        const { data } = header(encodeGfa(bitmap, 'z64'));
        const m = /^:Z64:([A-Za-z0-9+/]+=*):([0-9A-F]{4})$/.exec(data);
        expect(m).not.toBeNull();
        expect(m?.[2]).toBe(crc16Xmodem(m?.[1] ?? ''));
      }),
    );
  });

  it('ACS never emits "!" (renderers disagree whether it means 0x11 or fill-with-1s), even for all-black rows', () => {
    expect(encodeGfa(solid(64, 3), 'acs')).not.toContain('!');
    fc.assert(
      fc.property(bitmapArbitrary(), (bitmap) => {
        expect(header(encodeGfa(bitmap, 'acs')).data).not.toContain('!');
      }),
    );
  });

  it('ACS never stacks two repeat letters of the same case (firmware that does not add them stays correct)', () => {
    fc.assert(
      fc.property(bitmapArbitrary(2000, 3), (bitmap) => {
        expect(header(encodeGfa(bitmap, 'acs')).data).not.toMatch(/[g-z]{2}|[G-Y]{2}/);
      }),
      { numRuns: 50 },
    );
  });

  it('hex is uppercase', () => {
    const bitmap = createMonoBitmap(16, 1);
    bitmap.data.set([0xab, 0xcd]);
    expect(header(encodeGfa(bitmap, 'hex')).data).toBe('ABCD');
  });

  it('the data never contains ^ or ~ (either would abort the download and start a command)', () => {
    fc.assert(
      fc.property(bitmapArbitrary(), fc.constantFrom(...ENCODINGS), (bitmap, compression) => {
        expect(header(encodeGfa(bitmap, compression)).data).not.toMatch(/[\^~]/);
      }),
    );
  });
});

describe('^GFA round trips through the independent decoder', () => {
  it.each(ENCODINGS)(
    '%s: random bitmaps (odd widths, white/black/repeated rows) decode to identical bits',
    (compression) => {
      fc.assert(
        fc.property(bitmapArbitrary(), (bitmap) => {
          const decoded = decode(encodeGfa(bitmap, compression));
          expect(decoded.rowBytes).toBe(bitmap.rowBytes);
          expect(decoded.rows).toBe(bitmap.height);
          expect(decoded.data).toEqual(bitmap.data);
        }),
        { numRuns: 200 },
      );
    },
  );

  it.each(ENCODINGS)(
    '%s: wide bitmaps with runs longer than one ACS prefix decode to identical bits',
    (compression) => {
      fc.assert(
        fc.property(bitmapArbitrary(4000, 3), (bitmap) => {
          expect(decode(encodeGfa(bitmap, compression)).data).toEqual(bitmap.data);
        }),
        { numRuns: 30 },
      );
    },
  );

  it('encodes a band of rows on its own, first row never a ":" repeat', () => {
    const bitmap = solid(16, 6);
    const gfa = encodeGfa(bitmap, 'acs', { y: 2, rows: 3 });
    expect(gfa).toBe('^GFA,6,6,2,JF::');
    expect(decode(gfa).data).toEqual(bitmap.data.subarray(4, 10));
  });
});

describe('banding at <= 99,999 bytes per ^GFA', () => {
  it('4x6 in at 300 dpi (1200x1800 dots, 150 bytes/row, 270,000 bytes) is 3 bands of whole rows', () => {
    expect(planGfaBands(150, 1800)).toEqual([
      { y: 0, rows: 666 },
      { y: 666, rows: 666 },
      { y: 1332, rows: 468 },
    ]);
  });

  it('4x6 in at 203 dpi (812x1218 dots, 102 bytes/row, 124,236 bytes) is 2 bands', () => {
    expect(planGfaBands(102, 1218)).toEqual([
      { y: 0, rows: 980 },
      { y: 980, rows: 238 },
    ]);
  });

  it('exactly 99,999 bytes stays one band; one more row splits', () => {
    expect(planGfaBands(3, 33_333)).toEqual([{ y: 0, rows: 33_333 }]);
    expect(planGfaBands(3, 33_334)).toEqual([
      { y: 0, rows: 33_333 },
      { y: 33_333, rows: 1 },
    ]);
  });

  it('each band is ^FO0,y^GFA...^FS with b <= 99,999, and the bands together rebuild the bitmap', () => {
    // A diagonal and a border cross every band boundary.
    const bitmap = createMonoBitmap(1200, 1800);
    for (let y = 0; y < 1800; y++) {
      setDot(bitmap, Math.floor((y * 1199) / 1799), y, true);
      setDot(bitmap, 0, y, true);
      setDot(bitmap, 1199, y, true);
    }
    for (const compression of ENCODINGS) {
      const fields = encodeGfaBands(bitmap, compression);
      expect(fields).toHaveLength(3);
      const rebuilt = new Uint8Array(bitmap.data.length);
      let total = 0;
      for (const field of fields) {
        const m = /^\^FO0,(\d+)(\^GFA.*)\^FS$/s.exec(field);
        expect(m).not.toBeNull();
        const decoded = decode(m?.[2] ?? '');
        expect(decoded.byteCount).toBeLessThanOrEqual(GFA_MAX_BYTES);
        rebuilt.set(decoded.data, Number(m?.[1]) * bitmap.rowBytes);
        total += decoded.byteCount;
      }
      expect(total).toBe(270_000);
      // Buffer.equals: vitest's deep equality is slow on 270,000-element arrays.
      expect(Buffer.from(rebuilt).equals(Buffer.from(bitmap.data))).toBe(true);
    }
  });

  it('refuses a row too wide for any band rather than emitting an over-limit field', () => {
    expect(() => planGfaBands(100_000, 1)).toThrow(RangeError);
  });
});

describe('the test decoder checks what a printer checks', () => {
  const good = encodeGfa(hairline12x4(), 'z64');

  it('accepts our own Z64', () => {
    expect(decode(good).data).toEqual(hairline12x4().data);
  });

  it('rejects a Z64 whose CRC was tampered with', () => {
    const tampered = good.replace(/:EDD5$/, ':EDD6');
    expect(tampered).not.toBe(good);
    expect(() => decode(tampered)).toThrow(/CRC mismatch/);
  });

  it('rejects Z64 data changed under an unchanged CRC (the CRC covers the base64 text)', () => {
    const tampered = good.replace('eNpjAIL', 'eNpjAIM');
    expect(tampered).not.toBe(good);
    expect(() => decode(tampered)).toThrow(ZplDecodeError);
  });

  it('rejects a lowercase CRC, b != c, and ACS "!"', () => {
    expect(() => decodeGfaParams('A,2,2,2,:Z64:eNr7/wcAAf8B/g==:abcd')).toThrow(/uppercase/);
    expect(() => decodeGfaParams('A,2,1,2,FFFF')).toThrow(/b \(2\) != c \(1\)/);
    expect(() => decodeGfaParams('A,2,2,2,!')).toThrow(/"!"/);
  });

  it('rejects data that does not fill exactly b bytes', () => {
    expect(() => decodeGfaParams('A,4,4,2,FFFF')).toThrow(ZplDecodeError);
    expect(() => decodeGfaParams('A,2,2,2,FFFFFF')).toThrow(ZplDecodeError);
  });
});

describe('Z64 with an injected deflate (Node: native zlib through the render ports)', () => {
  const deflate = nodeDeflate;

  it('round-trips random bitmaps through the independent decoder, CRC four uppercase hex digits', () => {
    fc.assert(
      fc.property(bitmapArbitrary(), (bitmap) => {
        const gfa = encodeGfa(bitmap, 'z64', undefined, { deflate });
        const { data } = header(gfa);
        expect(data).toMatch(/^:Z64:[A-Za-z0-9+/]+=*:[0-9A-F]{4}$/);
        const base64 = data.slice(5, -5);
        expect(data.slice(-4)).toBe(crc16Xmodem(base64));
        expect(decode(gfa).data).toEqual(bitmap.data);
      }),
      { numRuns: 200 },
    );
  });

  it('uses the injected compressor: its zlib stream is what the base64 carries', () => {
    const bitmap = hairline12x4();
    const calls: number[] = [];
    const gfa = encodeGfa(bitmap, 'z64', undefined, {
      deflate: (bytes) => {
        calls.push(bytes.length);
        return deflateSync(bytes, { level: 1 });
      },
    });
    expect(calls).toEqual([8]);
    const base64 = header(gfa).data.slice(5, -5);
    expect(Buffer.from(base64, 'base64')).toEqual(deflateSync(bitmap.data, { level: 1 }));
  });

  it('without one, stays on fflate level 9 (the goldens above)', () => {
    expect(encodeGfa(hairline12x4(), 'z64')).toBe(encodeGfa(hairline12x4(), 'z64', undefined, {}));
    expect(encodeGfa(hairline12x4(), 'z64')).toBe('^GFA,8,8,2,:Z64:eNpjAIL/HxgYAAbUAfA=:EDD5');
  });

  it('tells the compressor the row length of the bitmap it compresses', () => {
    const seen: (number | undefined)[] = [];
    encodeGfa(hairline12x4(), 'z64', undefined, {
      deflate: (bytes, rowBytes) => {
        seen.push(rowBytes);
        return deflateSync(bytes);
      },
    });
    expect(seen).toEqual([2]);
  });
});
