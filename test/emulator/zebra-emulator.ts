/**
 * The Zebra emulator on TCP (port 9100 style) and on any duplex byte stream (a serial PTY). The printer logic is
 * zebra-core.ts; this file adds the connection-level faults: dropping the connection after N bytes, slow and
 * stalled readers.
 *
 *   const printer = await startZebraEmulator({ dpi: 203, port: 0 });
 *   // tcp://127.0.0.1:${printer.port}
 *   printer.setFault({ paperOut: true });
 *   printer.jobs   // every format received
 *   await printer.close();
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ZebraPrinterModel, type EmulatorFaults, type EmulatorOptions, type ReceivedJob } from './zebra-core';

export interface ZebraEmulator {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** `tcp://127.0.0.1:PORT`. */
  uri: string;
  printer: ZebraPrinterModel;
  /** Every complete format received (live view). */
  jobs: ReceivedJob[];
  setFault(change: Partial<EmulatorFaults>): void;
  /** Bytes received on all connections. */
  bytesReceived(): number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export interface StartOptions extends EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
}

/** Starts the emulator on TCP. Close it in afterAll/afterEach. */
export async function startZebraEmulator(options: StartOptions): Promise<ZebraEmulator> {
  const printer = new ZebraPrinterModel(options);
  const sockets = new Set<Socket>();
  let received = 0;
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const detach = serveStream(printer, socket, {
      onBytes: (n) => {
        received += n;
      },
      drop: () => socket.resetAndDestroy(),
    });
    socket.on('close', detach);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    uri: `tcp://127.0.0.1:${port}`,
    printer,
    jobs: printer.jobs,
    setFault: (change) => printer.setFault(change),
    bytesReceived: () => received,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface StreamHooks {
  /** Counts bytes delivered to the printer. */
  onBytes?: (n: number) => void;
  /** How to drop this connection (TCP: reset). Without it, `dropAfterBytes` just stops delivering bytes. */
  drop?: () => void;
}

/**
 * Serves the printer model on one duplex stream (a socket, a PTY opened with serialport): parses what comes in,
 * writes answers back, applies the stream faults. Returns a function that detaches it.
 */
export function serveStream(printer: ZebraPrinterModel, stream: Duplex, hooks: StreamHooks = {}): () => void {
  const session = printer.openSession((bytes) => {
    if (!stream.destroyed) stream.write(bytes);
  });
  let delivered = 0;
  let dropped = false;
  let delay: ReturnType<typeof setTimeout> | undefined;

  const resumeIfAllowed = (): void => {
    if (!printer.faults.stalled && delay === undefined && !dropped && stream.isPaused()) stream.resume();
  };
  const onData = (chunk: Buffer): void => {
    if (dropped) return;
    let bytes: Uint8Array = chunk;
    const drop = printer.faults.dropAfterBytes;
    if (drop && delivered + bytes.length >= drop.bytes) {
      bytes = bytes.subarray(0, Math.max(0, drop.bytes - delivered));
      dropped = true;
      if (!drop.every) printer.setFault({ dropAfterBytes: null });
    }
    delivered += bytes.length;
    hooks.onBytes?.(bytes.length);
    session.receive(bytes);
    if (dropped) {
      session.end();
      if (hooks.drop) hooks.drop();
      return;
    }
    const { readDelayMs, stalled } = printer.faults;
    if (stalled) stream.pause();
    else if (readDelayMs > 0) {
      stream.pause();
      delay = setTimeout(() => {
        delay = undefined;
        resumeIfAllowed();
      }, readDelayMs);
    }
  };
  const onEnd = (): void => {
    session.end();
    if ('end' in stream && !stream.destroyed) stream.end();
  };
  const unsubscribe = printer.onFaultChange(() => {
    if (printer.faults.stalled) stream.pause();
    else resumeIfAllowed();
  });
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', () => session.end());
  if (printer.faults.stalled) stream.pause();
  return () => {
    unsubscribe();
    if (delay) clearTimeout(delay);
    session.end();
    stream.off('data', onData);
    stream.off('end', onEnd);
  };
}
