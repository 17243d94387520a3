/**
 * The print language of an OS queue, decided from the queues the OS lists (a private cupsd here): a raw queue
 * takes ZPL, a queue with a driver PDF. Queue names are compared as canonical URIs, so a name that URIs escape
 * (Windows names have spaces; CUPS allows "@") is still found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printLanguage } from '../../../src/node/printers/language';
import { parsePrinterUri } from '../../../src/printers/uri';
import { cupsdUnavailableReason, startCupsd, type Cupsd } from '../../support/cupsd';

const unavailable = cupsdUnavailableReason();
if (unavailable) console.warn(`SKIPPED print language tests: ${unavailable}`);

describe.skipIf(unavailable !== null)('printLanguage for OS queues', () => {
  let cupsd: Cupsd;
  beforeAll(async () => {
    cupsd = await startCupsd();
    cupsd.run('lpadmin', ['-p', 'Zebra@Dock', '-E', '-v', 'socket://127.0.0.1:9', '-m', 'raw']);
  });
  afterAll(async () => {
    await cupsd?.stop();
  });

  it('finds a raw queue whose name the URI escapes and sends it ZPL', async () => {
    const uri = parsePrinterUri('cups://Zebra%40Dock');
    expect(uri).toEqual({ scheme: 'cups', queue: 'Zebra@Dock' });
    expect(await printLanguage(uri, cupsd.env)).toBe('zpl');
  });

  it('a queue that is not listed gets PDF (its driver, if any, renders documents)', async () => {
    expect(await printLanguage(parsePrinterUri('cups://NoSuchQueue'), cupsd.env)).toBe('pdf');
  });
});
