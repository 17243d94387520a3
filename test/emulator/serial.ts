/**
 * The emulator on a serial line: opens a tty (one end of a socat PTY pair, or a real port wired to the host)
 * with serialport and serves the same printer model on it. A PTY cannot be "dropped", so `dropAfterBytes`
 * only stops delivering bytes there.
 */
import { SerialPort } from 'serialport';
import type { ZebraPrinterModel } from './zebra-core';
import { serveStream } from './zebra-emulator';

export interface SerialEmulatorLink {
  close(): Promise<void>;
}

/** Serves `printer` on the tty at `path`. */
export async function serveOnSerialPort(
  printer: ZebraPrinterModel,
  path: string,
  baudRate = 9600,
): Promise<SerialEmulatorLink> {
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  const detach = serveStream(printer, port);
  return {
    close: async () => {
      detach();
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    },
  };
}
