/**
 * Test support: a PrinterTransport wired straight to an emulated printer's session, no sockets — for the pure
 * query functions. Answers travel through the same ResponseCollector the real stream transports use.
 */
import { ResponseCollector } from '../../src/printers/response-collector';
import {
  PrinterDisconnected,
  toBytes,
  type PrinterTransport,
  type RequestOptions,
} from '../../src/printers/transport';
import type { ZebraPrinterModel, ZebraSession } from '../emulator/zebra-core';

export function memoryTransport(printer: ZebraPrinterModel, uri = 'tcp://emulator:9100'): PrinterTransport {
  const collector = new ResponseCollector(uri);
  let session: ZebraSession | undefined;
  const send = async (bytes: Uint8Array): Promise<void> => {
    if (!session) throw new PrinterDisconnected(`${uri}: not open`, uri, 0, bytes.length);
    session.receive(bytes);
  };
  return {
    uri,
    capabilities: { status: true },
    open: async () => {
      // Answers arrive asynchronously, as from a real link.
      session = printer.openSession((bytes) => queueMicrotask(() => collector.push(bytes)));
    },
    write: (data) => send(toBytes(data)),
    request: (data, options: RequestOptions) => collector.request(() => send(toBytes(data)), options),
    close: async () => {
      session?.end();
      session = undefined;
    },
  };
}
