import { describe, expect, it } from 'vitest';
import type { RfidWrite } from '../../src/layout/scene';
import { RfidValueError, validateEpcHex } from '../../src/model/epc';
import { rfidCommands } from '../../src/zpl/rfid';

const EPC = '3034257BF7194E4000001A85'; // an SGTIN-96, 24 hex digits

function epc(hex: string, lock: RfidWrite['lock'] = 'none'): RfidWrite {
  return { element: 4, bank: 'epc', hex, lock };
}

function rfidError(run: () => unknown): RfidValueError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(RfidValueError);
    return e as RfidValueError;
  }
  throw new Error('expected an RfidValueError');
}

describe('rfidCommands', () => {
  it('writes a 96-bit EPC: ^RS8 (Gen 2) then ^RFW,H with the 24 hex digits', () => {
    expect(rfidCommands([epc(EPC)])).toEqual(['^RS8', `^RFW,H^FD${EPC}^FS`]);
  });

  it('emits nothing at all for a label without RFID', () => {
    expect(rfidCommands([])).toEqual([]);
  });

  it('writes the user bank from word 0 of bank 3 (bank 1 would be the EPC bank)', () => {
    const user: RfidWrite = { element: 1, bank: 'user', hex: '0011AABB22CC', lock: 'none' };
    expect(rfidCommands([epc(EPC), user])).toEqual([
      '^RS8',
      `^RFW,H^FD${EPC}^FS`,
      '^RFW,H,0,6,3^FD0011AABB22CC^FS',
    ]);
  });

  it('writes other EPC sizes with auto-adjusted PC bits when asked for them', () => {
    const hex128 = `${EPC}DEADBEEF`;
    expect(rfidCommands([epc(hex128)], { epcBits: 128 })).toEqual(['^RS8', `^RFW,H,2,16,A^FD${hex128}^FS`]);
  });

  it('normalises lowercase hex to uppercase (documented; ZPL examples and readers use uppercase)', () => {
    expect(rfidCommands([epc(EPC.toLowerCase())])).toEqual(['^RS8', `^RFW,H^FD${EPC}^FS`]);
  });

  it('permalocks without a password, with one ^RLM for every locked bank', () => {
    const user: RfidWrite = { element: 1, bank: 'user', hex: 'ABCD', lock: 'permalock' };
    expect(rfidCommands([epc(EPC, 'permalock'), user])).toEqual([
      '^RS8',
      `^RFW,H^FD${EPC}^FS`,
      '^RFW,H,0,2,3^FDABCD^FS',
      '^RLM,,,P,P^FS',
    ]);
  });

  it('writes the access password before a reversible lock', () => {
    expect(rfidCommands([epc(EPC, 'lock')], { accessPassword: '1a2b3c4d' })).toEqual([
      '^RS8',
      `^RFW,H^FD${EPC}^FS`,
      '^RFW,H,P^FD1A2B3C4D^FS',
      '^RLM,,,L^FS',
    ]);
  });
});

describe('rfidCommands rejects bad values with RfidValueError naming the problem', () => {
  it('23 hex digits for a 96-bit EPC', () => {
    const e = rfidError(() => rfidCommands([epc(EPC.slice(1))]));
    expect(e.message).toBe('epc: expected 24 hex digits for a 96-bit EPC, got 23');
    expect(e.field).toBe('epc');
    expect(e.element).toBe(4);
  });

  it('25 digits and an empty EPC', () => {
    expect(rfidError(() => rfidCommands([epc(`${EPC}0`)])).message).toMatch(/got 25$/);
    expect(rfidError(() => rfidCommands([epc('')])).message).toMatch(/got 0$/);
  });

  it('non-hex characters, naming the first one and where it is', () => {
    const e = rfidError(() => rfidCommands([epc(`${EPC.slice(0, 5)}G${EPC.slice(6)}`)]));
    expect(e.message).toBe('epc: "G" at position 5 is not a hex digit (0-9, A-F)');
    expect(rfidError(() => rfidCommands([epc(`${EPC.slice(0, 22)} 5`)])).message).toMatch(
      /" " at position 22/,
    );
  });

  it.each([
    ['^XZ command', `${EPC.slice(0, 21)}^XZ`],
    ['~JR reset', `~JR${EPC.slice(3)}`],
    ['field end + new field', `${EPC.slice(0, 12)}^FS^FO0,0^FD`],
  ])('ZPL injection attempt (%s) never reaches the output', (_name, hex) => {
    const e = rfidError(() => rfidCommands([epc(hex)]));
    expect(e.message).toMatch(/is not a hex digit/);
  });

  it('user data that is not whole 16-bit words', () => {
    const user: RfidWrite = { element: 2, bank: 'user', hex: 'ABCDEF', lock: 'none' };
    expect(rfidError(() => rfidCommands([user])).message).toBe(
      'user: expected whole 16-bit words (a non-zero multiple of 4 hex digits), got 6',
    );
  });

  it('a write to the read-only TID bank', () => {
    const tid: RfidWrite = { element: 3, bank: 'tid', hex: 'E2801100', lock: 'none' };
    expect(rfidError(() => rfidCommands([tid])).message).toMatch(/^tid: .*read-only/);
  });

  it('two writes to the same bank', () => {
    expect(rfidError(() => rfidCommands([epc(EPC), epc(EPC)])).message).toMatch(
      /more than one write to the EPC bank/,
    );
  });

  it('a reversible lock without a usable access password', () => {
    expect(rfidError(() => rfidCommands([epc(EPC, 'lock')])).message).toMatch(
      /^accessPassword: .*needs an access password/,
    );
    expect(rfidError(() => rfidCommands([epc(EPC, 'lock')], { accessPassword: '00000000' })).message).toMatch(
      /protects nothing/,
    );
    expect(rfidError(() => rfidCommands([epc(EPC, 'lock')], { accessPassword: '1234' })).message).toBe(
      'accessPassword: expected 8 hex digits, got 4',
    );
    expect(rfidError(() => rfidCommands([epc(EPC, 'lock')], { accessPassword: '1234^XZ0' })).message).toMatch(
      /"\^" at position 4/,
    );
  });
});

describe('validateEpcHex (shared with the template validator)', () => {
  it('returns the EPC uppercase', () => {
    expect(validateEpcHex(EPC.toLowerCase())).toBe(EPC);
  });

  it('checks the length for the given EPC size', () => {
    expect(validateEpcHex('0'.repeat(32), 128)).toBe('0'.repeat(32));
    expect(() => validateEpcHex(EPC, 128)).toThrow('epc: expected 32 hex digits for a 128-bit EPC, got 24');
  });

  it('exposes the bare problem for messages that name their own path', () => {
    const e = rfidError(() => validateEpcHex('12'));
    expect(e.problem).toBe('expected 24 hex digits for a 96-bit EPC, got 2');
  });

  it('refuses EPC sizes that are not whole 16-bit words', () => {
    expect(() => validateEpcHex(EPC, 95)).toThrow(RangeError);
  });
});
