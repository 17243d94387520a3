/**
 * What a printer is sent: ZPL for Zebra-type printers (TCP 9100, USB, serial, raw OS queues and Windows queues
 * with a Zebra driver, .zpl files), PDF for OS queues whose driver renders documents (office printers) and for
 * .pdf files. One decision for `labeldesk print` and the app.
 */
import { extname } from 'node:path';
import { assertNever } from '../../base/assert-never';
import { formatPrinterUri, type PrinterUri } from '../../printers/uri';
import { discoverPrinters } from './discovery';

export type PrintLanguage = 'zpl' | 'pdf';

export async function printLanguage(
  uri: PrinterUri,
  env: Record<string, string | undefined> = process.env,
): Promise<PrintLanguage> {
  switch (uri.scheme) {
    case 'tcp':
    case 'usb':
    case 'serial':
      return 'zpl';
    case 'file':
      return extname(uri.path).toLowerCase() === '.pdf' ? 'pdf' : 'zpl';
    case 'cups': {
      // A raw queue passes ZPL through to a label printer; any other queue has a driver that wants a document.
      // On Windows the queues are the spooler's: a ZDesigner or "Generic / Text Only" driver takes ZPL.
      const { printers } = await discoverPrinters({ sources: ['cups'], env });
      // Compared as canonical URIs: Windows queue names have spaces ("ZDesigner ZD421-203dpi ZPL").
      const wanted = formatPrinterUri(uri);
      const queue = printers.find((p) => p.kind === 'cups' && p.uri === wanted);
      return queue && 'zpl' in queue && queue.zpl ? 'zpl' : 'pdf';
    }
    default:
      return assertNever(uri, 'printer URI');
  }
}
