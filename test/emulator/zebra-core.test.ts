/** The emulator itself: tests can only trust the printer tests if the printer behaves like a Zebra. */
import { describe, expect, it } from 'vitest';
import { parseHostIdentification, parseHostStatus, parseSgdReply } from '../../src/printers/status';
import { ZebraPrinterModel } from './zebra-core';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const latin1 = (b: Uint8Array): string => String.fromCharCode(...b);

function harness(options = { dpi: 203 }) {
  const printer = new ZebraPrinterModel(options);
  const replies: string[] = [];
  const session = printer.openSession((b) => replies.push(latin1(b)));
  return { printer, replies, session, send: (s: string) => session.receive(enc(s)) };
}

describe('Zebra emulator core', () => {
  it('records each format exactly, whatever the chunking, and answers queries between and inside formats', () => {
    const stream =
      '~HS\r\n^XA\n^FO10,10~HS^GB50,50,50^FS\n^XZ\n! U1 getvar "head.resolution.in_dpi"\r\n^xa^FDlower^FS^xz~HI';
    for (const size of [1, 2, 3, 7, stream.length]) {
      const { printer, replies, send } = harness();
      for (let i = 0; i < stream.length; i += size) send(stream.slice(i, i + size));
      expect(printer.jobs.map((j) => j.zpl)).toEqual([
        '^XA\n^FO10,10~HS^GB50,50,50^FS\n^XZ',
        '^xa^FDlower^FS^xz',
      ]);
      expect(replies.length).toBe(4);
      expect(parseHostStatus(replies[0] ?? '').partialFormat).toBe(false);
      // The ~HS inside the first format sees it unfinished.
      expect(parseHostStatus(replies[1] ?? '').partialFormat).toBe(true);
      expect(parseSgdReply(replies[2] ?? '')).toEqual({ kind: 'value', value: '203' });
      expect(parseHostIdentification(replies[3] ?? '')).toMatchObject({
        model: 'ZD421-203dpi',
        dotsPerMm: 8,
      });
    }
  });

  it('answers "?" for an unknown SGD name and remembers setvar', () => {
    const { replies, send } = harness();
    send('! U1 getvar "nope.nothing"\r\n! U1 setvar "media.type" "label"\r\n! U1 getvar "media.type"\n');
    expect(replies).toEqual(['"?"', '"label"']);
  });

  it('holds formats while blocked, counts them in ~HS, prints them when every block clears', () => {
    const { printer, replies, send } = harness();
    printer.setFault({ paperOut: true, paused: true });
    send('^XA^PQ5^FDa^FS^XZ^XA^FDb^FS^XZ~HS');
    const hs = parseHostStatus(replies.pop() ?? '');
    expect(hs).toMatchObject({ paperOut: true, paused: true, formatsInBuffer: 2, labelsRemaining: 5 });
    printer.setFault({ paperOut: false });
    expect(printer.held).toHaveLength(2); // still paused
    send('~PS'); // host-side resume, as PAUSE on the printer
    expect(printer.printed.map((j) => j.quantity)).toEqual([5, 1]);
    send('~PP^XA^FDc^FS^XZ~JA~HS');
    expect(printer.jobs.at(-1)?.state).toBe('cancelled');
    expect(parseHostStatus(replies.pop() ?? '')).toMatchObject({ paused: true, formatsInBuffer: 0 });
  });

  it('stays silent to ~HS while faulted when asked to, and to everything when silent', () => {
    const { printer, replies, send } = harness();
    printer.setFault({ headOpen: true, silentWhileFaulted: true });
    send('~HS~HI');
    expect(replies).toHaveLength(1); // ~HI still answers
    printer.setFault({ headOpen: false, silentWhileFaulted: false, silent: true });
    send('~HS~HI! U1 getvar "head.resolution.in_dpi"\r\n');
    expect(replies).toHaveLength(1);
  });

  it('discards a format cut off by the end of its session', () => {
    const { printer, send, session } = harness();
    send('^XA^FDcut');
    session.end();
    expect(printer.jobs).toHaveLength(0);
    expect(parseHostStatus(printer.hostStatus()).partialFormat).toBe(false);
  });

  it('counts ~JC calibrations without answering, inside a format too, and reports the last ^MM print mode in ~HS', () => {
    const { printer, replies, send } = harness();
    expect(parseHostStatus(printer.hostStatus()).printMode).toBe(2); // tear-off, the factory setting
    send('~JC');
    send('^XA^MNM^MMP^PR3^FDx^FS~JC^XZ');
    expect(printer.calibrations).toBe(2);
    expect(replies).toHaveLength(0);
    expect(parseHostStatus(printer.hostStatus()).printMode).toBe(1); // peel-off
    send('^XA^MMC^XZ');
    expect(parseHostStatus(printer.hostStatus()).printMode).toBe(3); // cutter
    send('^XA^MMR^XZ');
    expect(parseHostStatus(printer.hostStatus()).printMode).toBe(0); // rewind
  });
});
