/**
 * What printer discovery finds and how a source fails: the shapes shared by discovery.ts and its sources
 * (sysfs-serial.ts, windows-queues.ts), kept apart so the sources need not import discovery itself.
 */

export type DiscoverySource = 'usb' | 'serial' | 'cups' | 'network';

interface Found {
  /** URI to print with. */
  uri: string;
  /** A name for people. */
  name: string;
  /** Whether it takes raw ZPL: true, false, or null when only trying would tell (a bare serial port). */
  zpl: boolean | null;
}

export interface UsbPrinterFound extends Found {
  kind: 'usb';
  vendorId: string;
  productId: string;
  manufacturer?: string;
  product?: string;
  serial?: string;
}

export interface SerialPortFound extends Found {
  kind: 'serial';
  path: string;
  manufacturer?: string;
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
}

export interface CupsQueueFound extends Found {
  kind: 'cups';
  queue: string;
  /** The queue's device URI (`socket://10.0.0.5:9100`, `usb://Zebra/...`). */
  deviceUri: string;
  /** A PPD-less ("raw") queue: bytes go to the device as sent. */
  raw: boolean;
  /** From `lpstat -p`. */
  state: 'idle' | 'printing' | 'disabled' | 'unknown';
  /** Windows: the queue's driver (ZDesigner …, Generic / Text Only); deviceUri is then its port (USB001, IP_10.0.0.5). */
  driver?: string;
}

export interface NetworkPrinterFound extends Found {
  kind: 'network';
  /** The id in the printers file. */
  id: number;
}

export type DiscoveredPrinter = UsbPrinterFound | SerialPortFound | CupsQueueFound | NetworkPrinterFound;

export interface DiscoveryProblem {
  source: DiscoverySource;
  /** One sentence for people that names the source ("CUPS is not running on this computer, …"). */
  message: string;
}

export interface DiscoveryResult {
  printers: DiscoveredPrinter[];
  problems: DiscoveryProblem[];
}

/** What serialport's `SerialPort.list()` returns (the fields used). */
export interface SerialPortInfo {
  path: string;
  manufacturer?: string | undefined;
  vendorId?: string | undefined;
  productId?: string | undefined;
  serialNumber?: string | undefined;
}

/** A source that could not be listed, with the sentence to show for it. */
export class DiscoverySourceError extends Error {
  override name = 'DiscoverySourceError';
}
