/**
 * The Windows print queues (EnumPrintersW level 2, local and connected): each as a `cups://Name` printer with
 * its port and driver. A queue takes ZPL when its driver (or its name) is a Zebra's — ZDesigner drivers, "Generic
 * / Text Only", a name with Zebra or ZPL in it — and is an office queue otherwise (LabelDesk sends it PDF, which
 * this version does not print on Windows: see winspool.ts). A queue on a Standard TCP/IP port ("IP_10.0.0.5",
 * "10.0.0.5") has a printer that can be asked over port 9100 directly for status and dpi; every other queue's
 * only guarantee is "accepted by the spooler".
 */
import type { CupsQueueFound } from './discovered';
import { DiscoverySourceError } from './discovered';
import { formatPrinterUri, type PrinterUri } from '../../printers/uri';
import { loadSpooler, Win32Error, WIN32, type SpoolerApi, type SpoolerQueueInfo } from './windows-spooler';

/** `PRINTER_STATUS_*` and `PRINTER_ATTRIBUTE_*` bits that decide the state shown. */
const PRINTER_STATUS_PAUSED = 0x1;
const PRINTER_STATUS_ERROR = 0x2;
const PRINTER_STATUS_OFFLINE = 0x80;
const PRINTER_STATUS_PRINTING = 0x400;
const PRINTER_ATTRIBUTE_WORK_OFFLINE = 0x400;

/** Whether a queue's driver (or name) says it is a Zebra-type printer that takes raw ZPL. */
export function queueTakesZpl(queue: Pick<SpoolerQueueInfo, 'name' | 'driver'>): boolean {
  return (
    /zdesigner|zebra|\bzpl|generic \/ text only/i.test(queue.driver) ||
    /zdesigner|zebra|\bzpl/i.test(queue.name)
  );
}

/** The state shown for a queue, from its status and attribute bits. */
export function queueState(queue: Pick<SpoolerQueueInfo, 'status' | 'attributes'>): CupsQueueFound['state'] {
  if (
    queue.status & (PRINTER_STATUS_PAUSED | PRINTER_STATUS_OFFLINE | PRINTER_STATUS_ERROR) ||
    queue.attributes & PRINTER_ATTRIBUTE_WORK_OFFLINE
  )
    return 'disabled';
  if (queue.status & PRINTER_STATUS_PRINTING) return 'printing';
  return queue.status === 0 ? 'idle' : 'unknown';
}

/**
 * The IPv4 host of a Standard TCP/IP port, read from its name as Windows makes it ("IP_10.0.0.5", "10.0.0.5",
 * "10.0.0.5_1" for a second port to the same host), or undefined for any other port (USB001, LPT1:, WSD-…, a
 * port renamed by hand — whose printer is then reached through the spooler only).
 */
export function tcpPortHost(port: string): string | undefined {
  const m = /^(?:IP_)?(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(?:_\d+)?$/i.exec(port.trim());
  if (!m?.[1]) return undefined;
  return m[1].split('.').every((n) => Number(n) <= 255) ? m[1] : undefined;
}

/** A discovered queue, in the shape of a CUPS queue (the app and CLI list both alike). */
export function queueFound(queue: SpoolerQueueInfo): CupsQueueFound {
  const zpl = queueTakesZpl(queue);
  return {
    kind: 'cups',
    uri: formatPrinterUri({ scheme: 'cups', queue: queue.name }),
    name: queue.name,
    zpl,
    queue: queue.name,
    deviceUri: queue.port,
    // RAW jobs reach the printer as sent; a ZPL queue is the Windows counterpart of a raw CUPS queue.
    raw: zpl,
    state: queueState(queue),
    driver: queue.driver,
  };
}

/** Every spooler queue, as printers to pick. Throws DiscoverySourceError with a sentence when it cannot list. */
export async function discoverWindowsQueues(
  spooler: () => Promise<SpoolerApi> = loadSpooler,
): Promise<CupsQueueFound[]> {
  return (await listQueues(spooler)).map(queueFound);
}

/**
 * For a Windows queue on a Standard TCP/IP port, the printer's own address (`tcp://host:9100`) to ask for
 * status and dpi; undefined for any other queue.
 */
export async function statusUriOfQueue(
  queue: string,
  spooler: () => Promise<SpoolerApi> = loadSpooler,
): Promise<string | undefined> {
  const found = (await listQueues(spooler)).find((q) => q.name.toLowerCase() === queue.toLowerCase());
  const host = found && tcpPortHost(found.port);
  if (!host) return undefined;
  const uri: PrinterUri = { scheme: 'tcp', host, port: 9100 };
  return formatPrinterUri(uri);
}

async function listQueues(spooler: () => Promise<SpoolerApi>): Promise<SpoolerQueueInfo[]> {
  let api: SpoolerApi;
  try {
    api = await spooler();
  } catch (e) {
    throw new DiscoverySourceError(
      `Windows print queues could not be listed: the print spooler could not be loaded (${(e as Error).message}).`,
      { cause: e },
    );
  }
  try {
    return api.listQueues();
  } catch (e) {
    if (e instanceof Win32Error && e.code === WIN32.RPC_S_SERVER_UNAVAILABLE)
      throw new DiscoverySourceError(
        'The Windows Print Spooler service is not running, so its queues could not be listed; start it in Services.',
        { cause: e },
      );
    const reason = e instanceof Win32Error ? `Windows error ${e.code}` : (e as Error).message;
    throw new DiscoverySourceError(`Windows print queues could not be listed (${reason}).`, { cause: e });
  }
}
