/**
 * Linux serial ports from sysfs, without udev: `/sys/class/tty/<name>/device` exists only for a tty with
 * hardware behind it (not for virtual consoles or PTYs), and `type` 0 marks a built-in 8250 port slot with no
 * UART fitted (ttyS1..ttyS31 on most PCs). USB adapters (ttyUSB*, ttyACM*) carry their USB vendor, product,
 * manufacturer and serial number a few folders up. A port is listed only when its `/dev` node exists, so a
 * container that sees the host's sysfs but not its devices lists nothing it cannot open.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SerialPortInfo } from './discovered';

/** The names serialport's own Linux listing accepts, so both listings agree on what a serial port is. */
const SERIAL_NAME = /^(tty(S|WCH|ACM|USB|AMA|MFD|O|XRUSB)\d|rfcomm\d)/;
/** serial_core's `type` attribute: PORT_UNKNOWN, a slot without a UART. */
const PORT_UNKNOWN = '0';
/** From the tty's device folder up to its USB device: usb-serial (ttyUSB) is two up, cdc-acm (ttyACM) one. */
const USB_LEVELS = 3;

async function readAttribute(dir: string, name: string): Promise<string | undefined> {
  try {
    const value = (await readFile(join(dir, name), 'utf8')).trim();
    return value || undefined;
  } catch {
    return undefined;
  }
}

async function isCharacterDevice(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isCharacterDevice();
  } catch {
    return false;
  }
}

/** The USB device folder above a tty's device folder (the one with idVendor), if it is on USB. */
async function usbDeviceOf(deviceDir: string): Promise<string | undefined> {
  let dir = deviceDir;
  for (let i = 0; i <= USB_LEVELS; i++) {
    if (await readAttribute(dir, 'idVendor')) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

/** One tty's entry, or undefined when it is not a serial port with hardware and a /dev node. */
async function describePort(
  ttyClass: string,
  devDir: string,
  name: string,
): Promise<SerialPortInfo | undefined> {
  if (!SERIAL_NAME.test(name)) return undefined;
  let deviceDir: string;
  try {
    deviceDir = await realpath(join(ttyClass, name, 'device'));
  } catch {
    return undefined;
  }
  if ((await readAttribute(join(ttyClass, name), 'type')) === PORT_UNKNOWN) return undefined;
  const path = join(devDir, name);
  if (!(await isCharacterDevice(path))) return undefined;
  const port: SerialPortInfo = { path };
  const usb = await usbDeviceOf(deviceDir);
  if (usb) {
    const [vendorId, productId, manufacturer, serialNumber] = await Promise.all(
      ['idVendor', 'idProduct', 'manufacturer', 'serial'].map((a) => readAttribute(usb, a)),
    );
    if (vendorId) port.vendorId = vendorId;
    if (productId) port.productId = productId;
    if (manufacturer) port.manufacturer = manufacturer;
    if (serialNumber) port.serialNumber = serialNumber;
  }
  return port;
}

/**
 * The serial ports sysfs shows, sorted by path. Rejects (with the reason as its message) only when the tty
 * class folder cannot be read at all (no /sys in a sandbox).
 *
 * @param ttyClass the tty class folder, `/sys/class/tty` on Linux
 * @param devDir where the device nodes are, `/dev`
 */
export async function listSysfsSerialPorts(
  ttyClass = '/sys/class/tty',
  devDir = '/dev',
): Promise<SerialPortInfo[]> {
  let names: string[];
  try {
    names = await readdir(ttyClass);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`${ttyClass} could not be read (${code ?? (e as Error).message})`, { cause: e });
  }
  const ports = await Promise.all(names.map((name) => describePort(ttyClass, devDir, name)));
  return ports
    .filter((p): p is SerialPortInfo => p !== undefined)
    .sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
}
