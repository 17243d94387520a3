import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dpiFromDotsPerMm,
  interpretHostStatusReply,
  parseDpiValue,
  parseHostIdentification,
  parseHostStatus,
  parseSgdReply,
  statusFromHostStatus,
  statusFromSilence,
  StatusParseError,
} from '../../src/printers/status';
import { ZebraPrinterModel } from '../emulator/zebra-core';

const STX = '\u0002';
const ETX = '\u0003';
const frame = (s: string): string => `${STX}${s}${ETX}\r\n`;
/** A ~HS answer as a ZD420 sends it when idle. */
const IDLE =
  frame('030,0,0,1245,000,0,0,0,000,0,0,0') + frame('001,0,0,0,1,2,6,0,00000000,1,000') + frame('1234,0');

describe('parseHostStatus', () => {
  it('reads the fields of an idle printer', () => {
    expect(parseHostStatus(IDLE)).toEqual({
      paperOut: false,
      paused: false,
      labelLengthDots: 1245,
      formatsInBuffer: 0,
      bufferFull: false,
      diagnosticMode: false,
      partialFormat: false,
      corruptRam: false,
      underTemperature: false,
      overTemperature: false,
      headUp: false,
      ribbonOut: false,
      thermalTransfer: true,
      printMode: 2,
      labelWaiting: false,
      labelsRemaining: 0,
    });
    expect(statusFromHostStatus(parseHostStatus(IDLE))).toEqual({
      state: 'ready',
      reasons: [],
      formatsInBuffer: 0,
      labelsRemaining: 0,
      labelLengthDots: 1245,
    });
  });

  it('reads paper out (string 1 field 2), pause (field 3), formats in buffer, head up (string 2 field 3), ribbon out (field 4), labels remaining (the 8-digit field)', () => {
    const reply =
      frame('030,1,1,1245,003,1,0,1,000,0,0,0') + frame('001,0,1,1,0,2,6,0,00000042,1,000') + frame('1234,0');
    const hs = parseHostStatus(new TextEncoder().encode(reply));
    expect(hs).toMatchObject({
      paperOut: true,
      paused: true,
      formatsInBuffer: 3,
      bufferFull: true,
      partialFormat: true,
      headUp: true,
      ribbonOut: true,
      labelsRemaining: 42,
    });
    expect(statusFromHostStatus(hs)).toEqual({
      state: 'head-open',
      reasons: [
        'print head is open',
        'out of paper (media)',
        'out of ribbon',
        'paused',
        'receive buffer is full',
      ],
      formatsInBuffer: 3,
      labelsRemaining: 42,
      labelLengthDots: 1245,
    });
  });

  it('treats temperature and RAM faults as not ready', () => {
    const hot =
      frame('030,0,0,1245,000,0,0,0,000,0,0,1') + frame('001,0,0,0,1,2,6,0,00000000,1,000') + frame('1234,0');
    expect(interpretHostStatusReply(hot)).toMatchObject({
      state: 'unknown',
      reasons: ['print head is over temperature'],
    });
  });

  it.each([
    [
      'two strings only',
      frame('030,0,0,1245,000,0,0,0,000,0,0,0') + frame('001,0,0,0,1,2,6,0,00000000,1,000'),
      '~HS: expected 3 strings, got 2',
    ],
    ['a missing ETX', `${STX}030,0,0`, 'frame not closed by <ETX>'],
    ['text before STX', `x${IDLE}`, 'expected <STX> at offset 0, got 0x78'],
    [
      'a short string 1',
      frame('030,0,0') + frame('001,0,0,0,1,2,6,0,00000000,1,000') + frame('1234,0'),
      '~HS string 1: expected 12 fields, got 3',
    ],
    [
      'a flag that is not 0/1',
      frame('030,2,0,1245,000,0,0,0,000,0,0,0') + frame('001,0,0,0,1,2,6,0,00000000,1,000') + frame('1234,0'),
      '~HS paper out flag: expected 0 or 1, got "2"',
    ],
    [
      'letters in a field',
      frame('030,0,0,12x5,000,0,0,0,000,0,0,0') + frame('001,0,0,0,1,2,6,0,00000000,1,000') + frame('1234,0'),
      '~HS string 1: field 4 "12x5" is not a number',
    ],
  ])('rejects %s', (_what, reply, message) => {
    expect(() => parseHostStatus(reply)).toThrow(new StatusParseError(message, reply));
  });

  it('never reports ready for silence, a partial answer or garbage', () => {
    expect(statusFromSilence(2000)).toEqual({
      state: 'offline',
      reasons: [
        'no answer to ~HS within 2000 ms (printer off, hung, or silent because media/ribbon is out or the head is open)',
      ],
      formatsInBuffer: null,
      labelsRemaining: null,
    });
    expect(interpretHostStatusReply('').state).toBe('offline');
    expect(interpretHostStatusReply(IDLE.slice(0, 40)).state).toBe('unknown');
    expect(interpretHostStatusReply('"203"')).toMatchObject({
      state: 'unknown',
      reasons: [expect.stringMatching(/^unreadable answer to ~HS: /)],
    });
  });

  it('agrees with the emulator: every fault combination parses back to the same flags', () => {
    const printer = new ZebraPrinterModel({ dpi: 203 });
    fc.assert(
      fc.property(
        fc.record({
          paperOut: fc.boolean(),
          headOpen: fc.boolean(),
          paused: fc.boolean(),
          ribbonOut: fc.boolean(),
        }),
        (faults) => {
          printer.setFault(faults);
          const hs = parseHostStatus(printer.hostStatus());
          expect({
            paperOut: hs.paperOut,
            headOpen: hs.headUp,
            paused: hs.paused,
            ribbonOut: hs.ribbonOut,
          }).toEqual(faults);
          expect(statusFromHostStatus(hs).state === 'ready').toBe(!Object.values(faults).some(Boolean));
        },
      ),
    );
  });
});

describe('fuzzing the parsers', () => {
  const typedOnly = (parse: () => unknown): void => {
    try {
      parse();
    } catch (e) {
      expect(e).toBeInstanceOf(StatusParseError);
    }
  };
  // Bytes biased towards the characters the formats are made of, so the fuzzer gets deep into them.
  const nearMiss = fc
    .array(
      fc.oneof(
        fc.constantFrom(0x02, 0x03, 0x0d, 0x0a, 0x2c, 0x22, 0x30, 0x31, 0x3f, 0x56),
        fc.integer({ min: 0, max: 255 }),
      ),
      { maxLength: 200 },
    )
    .map((a) => Uint8Array.from(a));
  const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 300 }), nearMiss);

  it('random bytes: only StatusParseError, never a crash', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        typedOnly(() => parseHostStatus(bytes));
        typedOnly(() => parseHostIdentification(bytes));
        typedOnly(() => parseSgdReply(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('random bytes and mutated answers are never "ready" unless they are a well-formed fault-free ~HS', () => {
    const mutated = fc
      .tuple(fc.nat({ max: IDLE.length - 1 }), fc.integer({ min: 0, max: 255 }))
      .map(([at, byte]) => {
        const bytes = new TextEncoder().encode(IDLE);
        bytes[at] = byte;
        return bytes;
      });
    fc.assert(
      fc.property(fc.oneof(anyBytes, mutated), (bytes) => {
        const status = interpretHostStatusReply(bytes);
        if (status.state !== 'ready') return;
        // Ready only from something that parses, with every fault flag clear.
        const hs = parseHostStatus(bytes);
        expect([
          hs.paperOut,
          hs.paused,
          hs.headUp,
          hs.ribbonOut,
          hs.bufferFull,
          hs.overTemperature,
          hs.underTemperature,
          hs.corruptRam,
          hs.diagnosticMode,
        ]).not.toContain(true);
      }),
      { numRuns: 2000 },
    );
    // Pure noise never is.
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        (bytes) => interpretHostStatusReply(bytes).state !== 'ready',
      ),
    );
  });
});

describe('~HI and SGD', () => {
  it('parses ~HI and turns dots/mm into dpi', () => {
    expect(parseHostIdentification(frame('ZD420-203dpi,V84.20.18Z,8,8192KB'))).toEqual({
      model: 'ZD420-203dpi',
      firmware: 'V84.20.18Z',
      dotsPerMm: 8,
      memory: '8192KB',
      options: '',
    });
    expect(parseHostIdentification('ZT410-300dpi,V75.20.01Z,12,8176KB,X\r\n')).toMatchObject({
      dotsPerMm: 12,
      options: 'X',
    });
    expect([6, 8, 12, 24].map(dpiFromDotsPerMm)).toEqual([152, 203, 300, 600]);
  });

  it.each([
    [frame('ZD420'), '~HI: expected MODEL,VERSION,DOTS_PER_MM,MEMORY[,OPTIONS], got 1 fields'],
    [frame('ZD420,V84,eight,8192KB'), '~HI: dots per mm "eight" is not a number'],
    [frame('ZD420,banana,8,8192KB'), '~HI: "banana" is not a firmware version'],
  ])('rejects ~HI %j', (reply, message) => {
    expect(() => parseHostIdentification(reply)).toThrow(message);
  });

  it('parses SGD values and "?"', () => {
    expect(parseSgdReply('"203"')).toEqual({ kind: 'value', value: '203' });
    expect(parseSgdReply('"?"\r\n')).toEqual({ kind: 'unknown' });
    expect(() => parseSgdReply('203')).toThrow(StatusParseError);
    expect(parseDpiValue('300')).toBe(300);
    expect(() => parseDpiValue('abc')).toThrow('head.resolution.in_dpi: "abc" is not a print resolution');
  });
});
