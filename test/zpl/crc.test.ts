import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crc16Xmodem, crc16XmodemValue } from '../../src/zpl/crc';
import { crc16XmodemReference } from '../support/zpl-decode';

describe('crc16Xmodem (CRC-16/XMODEM over the Z64 base64 text)', () => {
  it('gives the catalogue check value 31C3 for "123456789"', () => {
    expect(crc16Xmodem('123456789')).toBe('31C3');
    expect(crc16XmodemValue(new TextEncoder().encode('123456789'))).toBe(0x31c3);
  });

  it('is 0000 for empty input (init 0, no final xor)', () => {
    expect(crc16Xmodem('')).toBe('0000');
  });

  it('always writes exactly four digits, zero-padded (a five- or three-digit CRC breaks printers)', () => {
    // Cross-checked with Python's binascii.crc_hqx(b"A6022", 0) == 0x000A.
    expect(crc16Xmodem('A6022')).toBe('000A');
  });

  it('is four UPPERCASE hex digits and matches a bit-by-bit reference for any ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 200 }), (text) => {
        const crc = crc16Xmodem(text);
        expect(crc).toMatch(/^[0-9A-F]{4}$/);
        expect(crc).toBe(crc16XmodemReference(text));
      }),
    );
  });

  it('gives the same result for bytes and for the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 100 }), (text) => {
        expect(crc16Xmodem(new TextEncoder().encode(text))).toBe(crc16Xmodem(text));
      }),
    );
  });

  it('refuses non-ASCII text rather than guessing an encoding', () => {
    expect(() => crc16Xmodem('é')).toThrow(RangeError);
  });
});
