/**
 * A chaos printer on the link a cell of the fault matrix asks for: TCP (a port), serial (one end of a socat PTY
 * pair; the URI names the other end) or USB (the emulated device; only in-process paths can reach it).
 */
import { openPtyPair } from '../support/pty-pair';
import {
  ChaosPrinter,
  chaosUsb,
  serveChaosOnSerialPort,
  startChaosPrinter,
  type ChaosFault,
  type ChaosUsb,
} from '../emulator/chaos';

export interface ChaosTarget {
  printer: ChaosPrinter;
  /** The printer URI LabelDesk is given. */
  uri: string;
  /** USB only: the device list src/node/printers/usb.ts takes. */
  usb?: ChaosUsb;
  close(): Promise<void>;
}

export async function chaosTarget(
  link: 'tcp' | 'serial' | 'usb',
  faults: readonly ChaosFault[],
  seed: number,
): Promise<ChaosTarget> {
  switch (link) {
    case 'tcp': {
      const emulator = await startChaosPrinter({ dpi: 203, faults, seed });
      return { printer: emulator.printer, uri: emulator.uri, close: () => emulator.close() };
    }
    case 'serial': {
      const pty = await openPtyPair();
      const printer = new ChaosPrinter({ dpi: 203, faults, seed });
      const served = await serveChaosOnSerialPort(printer, pty.a);
      return {
        printer,
        uri: `serial://${pty.b}?baud=9600`,
        close: async () => {
          await served.close();
          await pty.close();
        },
      };
    }
    case 'usb': {
      const printer = new ChaosPrinter({ dpi: 203, faults, seed });
      const usb = chaosUsb(printer, { replugMs: 200 });
      return {
        printer,
        uri: 'usb://0a5f:0181',
        usb,
        close: async () => printer.dispose(),
      };
    }
  }
}
