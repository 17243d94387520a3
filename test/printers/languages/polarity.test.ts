/**
 * Each language's bit polarity, byte order and row direction, pinned on the bytes themselves against the
 * manuals (not through the decoders): one black dot at the label's top-left corner, and PackBits against the
 * worked example of Apple's TN1023.
 */
import { describe, expect, it } from 'vitest';
import { createMonoBitmap, setDot } from '../../../src/render/bitmap';
import { packBits } from '../../../src/printers/languages/packbits';
import { writeLabelJob } from '../../../src/printers/languages';

/** 16 × 2 dots, black only at (0, 0). */
function cornerDot() {
  const bitmap = createMonoBitmap(16, 2);
  setDot(bitmap, 0, 0, true);
  return bitmap;
}

const ascii = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('one black dot top left', () => {
  it('TSPL BITMAP: 0 bits are black, MSB first, top row first', () => {
    const job = writeLabelJob('tspl', cornerDot(), { dpi: 203 });
    const text = ascii(job);
    const at = text.indexOf('BITMAP 0,0,2,2,0,') + 'BITMAP 0,0,2,2,0,'.length;
    expect([...job.subarray(at, at + 4)]).toEqual([0x7f, 0xff, 0xff, 0xff]);
    expect(text).toMatch(/^SIZE 0\.079,0\.010\r\n/);
    expect(text).toMatch(/\r\nPRINT 1,1\r\n$/);
  });

  it('EPL2 GW: 0 bits are black, MSB first, top row first', () => {
    const job = writeLabelJob('epl2', cornerDot(), { dpi: 203, copies: 3 });
    const text = ascii(job);
    const at = text.indexOf('GW0,0,2,2,') + 'GW0,0,2,2,'.length;
    expect([...job.subarray(at, at + 4)]).toEqual([0x7f, 0xff, 0xff, 0xff]);
    expect(text).toContain('\nq16\nQ2,24\n');
    expect(text.endsWith('\nP3\n')).toBe(true);
  });

  it('DYMO: 1 bits are black; the row as ETB runs (1 black, 15 white) or SYN bytes', () => {
    const job = writeLabelJob('dymo-lw', cornerDot(), { dpi: 300 });
    // ESC @, ESC h, ESC B 0, ESC D 2, ESC L 0 2, then the two rows and ESC E.
    expect([...job]).toEqual([
      0x1b, 0x40, 0x1b, 0x68, 0x1b, 0x42, 0x00, 0x1b, 0x44, 0x02, 0x1b, 0x4c, 0x00, 0x02, 0x16, 0x80, 0x00,
      0x17, 0x0f, 0x1b, 0x45,
    ]);
  });

  it('Brother QL: 1 bits are black, the row mirrored after the 12 offset pins', () => {
    const job = writeLabelJob('brother-ql', cornerDot(), { dpi: 300, media: 'continuous' });
    const g = job.indexOf(0x67);
    // The whole 90-byte head line: the label's left dot is pin 12 + 696 − 1 = 707, byte 88, bit 0x10.
    const line = new Uint8Array(90);
    line[88] = 0x10;
    const packed = [...packBits(line)];
    expect(packed).toEqual([0xa9, 0x00, 0x01, 0x10, 0x00]); // 88 zero bytes, then 10 00 as literals
    expect([...job.subarray(g, g + 3 + packed.length)]).toEqual([0x67, 0x00, packed.length, ...packed]);
    expect(job[g + 3 + packed.length]).toBe(0x5a); // the second row is blank: Z
    expect(job.at(-1)).toBe(0x1a);
  });
});

describe('one black dot top left, 1 = black languages', () => {
  it('SBPL ESC GB: 1 bits are black, whole 8 × 8 blocks (rows padded white to 8)', () => {
    const job = writeLabelJob('sbpl', cornerDot(), { dpi: 203, copies: 2 });
    const text = ascii(job);
    expect(text.startsWith('\x1bA\x1bA100020016')).toBe(true);
    const at = text.indexOf('\x1bGB002001') + '\x1bGB002001'.length;
    expect([...job.subarray(at, at + 16)]).toEqual([0x80, ...new Array<number>(15).fill(0)]);
    expect(text.slice(at + 16)).toBe('\x1bQ2\x1bZ');
  });

  it('DPL 7-bit image: 1 bits are black, a hex row record per dot row, then the format', () => {
    const text = ascii(writeLabelJob('dpl', cornerDot(), { dpi: 203 }));
    expect(text).toBe(
      '\x02e\x02IDAFLDLABEL\r' +
        '80028000\r' +
        '80020000\r' +
        'FFFF\r' +
        '\x02L\rD11\r1Y1100000000000LDLABEL\rQ0001\rE\r',
    );
  });

  it('DPL repeats an unchanged row with one repeat record', () => {
    const text = ascii(writeLabelJob('dpl', createMonoBitmap(16, 5), { dpi: 203 }));
    expect(text).toContain('IDAFLDLABEL\r80020000\r0000FF04\rFFFF\r');
  });
});

describe('PackBits', () => {
  it('encodes TN1023’s example as Apple does', () => {
    const input = [
      0xaa, 0xaa, 0xaa, 0x80, 0x00, 0x2a, 0xaa, 0xaa, 0xaa, 0xaa, 0x80, 0x00, 0x2a, 0x22, 0xaa, 0xaa, 0xaa,
      0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa,
    ];
    expect([...packBits(input)]).toEqual([
      0xfe, 0xaa, 0x02, 0x80, 0x00, 0x2a, 0xfd, 0xaa, 0x03, 0x80, 0x00, 0x2a, 0x22, 0xf7, 0xaa,
    ]);
  });
});
