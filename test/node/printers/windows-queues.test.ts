/**
 * The Windows queue rules that Wine cannot exercise (it has no Windows drivers and no Standard TCP/IP ports:
 * test/wine/winspool.test.ts runs the real spooler path), and the winspool transport's handling of what only
 * a real Windows spooler does — short writes, access denied, a job cancelled mid-write — through the
 * `SpoolerApi` port with an in-memory spooler that records every call.
 */
import { describe, expect, it } from 'vitest';
import {
  createStatusTransport,
  createTransport,
  openStatusChannel,
} from '../../../src/node/printers/open-transport';
import { TcpTransport } from '../../../src/node/printers/tcp';
import {
  discoverWindowsQueues,
  queueFound,
  queueState,
  queueTakesZpl,
  statusUriOfQueue,
  tcpPortHost,
} from '../../../src/node/printers/windows-queues';
import { WinspoolTransport } from '../../../src/node/printers/winspool';
import {
  Win32Error,
  WIN32,
  type SpoolerApi,
  type SpoolerQueueInfo,
} from '../../../src/node/printers/windows-spooler';
import { DiscoverySourceError } from '../../../src/node/printers/discovery';
import {
  PrinterDisconnected,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterTimeout,
  PrinterUnsupported,
} from '../../../src/printers/transport';

const queue = (over: Partial<SpoolerQueueInfo>): SpoolerQueueInfo => ({
  name: 'Q',
  port: 'USB001',
  driver: 'Microsoft Print To PDF',
  status: 0,
  attributes: 0,
  jobs: 0,
  ...over,
});

/** An in-memory spooler: one queue per name, the bytes of each ended job, every call in order. */
function memorySpooler(
  queues: SpoolerQueueInfo[],
  behave: { maxPerWrite?: number; failWriteAfter?: number; openError?: number; endDocError?: number } = {},
) {
  const calls: string[] = [];
  const jobs: { queue: string; title: string; bytes: Uint8Array }[] = [];
  const open = new Map<bigint, { queue: string; title?: string; chunks: Uint8Array[] }>();
  let next = 1n;
  let written = 0;
  const api: SpoolerApi = {
    openPrinter(name) {
      calls.push(`open ${name}`);
      if (behave.openError) throw new Win32Error('OpenPrinterW', behave.openError);
      if (!queues.some((q) => q.name === name))
        throw new Win32Error('OpenPrinterW', WIN32.ERROR_INVALID_PRINTER_NAME);
      const handle = next++;
      open.set(handle, { queue: name, chunks: [] });
      return handle;
    },
    startDoc(handle, title, datatype) {
      calls.push(`startDoc ${datatype}`);
      open.get(handle)!.title = title;
      return 7;
    },
    startPage: () => void calls.push('startPage'),
    write(handle, bytes) {
      if (behave.failWriteAfter !== undefined && written >= behave.failWriteAfter)
        throw new Win32Error('WritePrinter', WIN32.ERROR_PRINT_CANCELLED);
      const n = Math.min(bytes.length, behave.maxPerWrite ?? bytes.length);
      calls.push(`write ${n}`);
      open.get(handle)!.chunks.push(bytes.slice(0, n));
      written += n;
      return n;
    },
    endPage: () => void calls.push('endPage'),
    endDoc(handle) {
      calls.push('endDoc');
      if (behave.endDocError) throw new Win32Error('EndDocPrinter', behave.endDocError);
      const job = open.get(handle)!;
      jobs.push({ queue: job.queue, title: job.title ?? '', bytes: Buffer.concat(job.chunks) });
    },
    abort: () => void calls.push('abort'),
    close(handle) {
      calls.push('close');
      open.delete(handle);
    },
    listQueues: () => queues,
  };
  return { api, calls, jobs, openHandles: () => open.size };
}

describe('Windows queue rules', () => {
  it('ZDesigner and "Generic / Text Only" drivers (or a Zebra name) take ZPL; office drivers get PDF', () => {
    expect(queueTakesZpl(queue({ driver: 'ZDesigner ZD421-203dpi ZPL' }))).toBe(true);
    expect(queueTakesZpl(queue({ driver: 'Generic / Text Only' }))).toBe(true);
    expect(queueTakesZpl(queue({ name: 'Zebra dock 7', driver: 'Generic / Text Only' }))).toBe(true);
    expect(queueTakesZpl(queue({ name: 'ZDesigner GK420d', driver: 'Some Driver' }))).toBe(true);
    expect(queueTakesZpl(queue({ name: 'HP LaserJet', driver: 'HP Universal Printing PCL 6' }))).toBe(false);
    expect(queueTakesZpl(queue({ name: 'Microsoft Print to PDF', driver: 'Microsoft Print To PDF' }))).toBe(
      false,
    );
  });

  it('reads the host of a Standard TCP/IP port from its name, and nothing from other ports', () => {
    expect(tcpPortHost('IP_10.0.0.5')).toBe('10.0.0.5');
    expect(tcpPortHost('10.0.0.5')).toBe('10.0.0.5');
    expect(tcpPortHost('192.168.1.20_1')).toBe('192.168.1.20');
    for (const port of ['USB001', 'LPT1:', 'WSD-8d6e-1c', 'CUPS:Q', 'PORTPROMPT:', '300.1.1.1', 'IP_10.0.0'])
      expect(tcpPortHost(port)).toBeUndefined();
  });

  it('shows paused, offline and error queues as disabled, printing ones as printing', () => {
    expect(queueState(queue({}))).toBe('idle');
    expect(queueState(queue({ status: 0x1 }))).toBe('disabled');
    expect(queueState(queue({ status: 0x80 }))).toBe('disabled');
    expect(queueState(queue({ attributes: 0x400 }))).toBe('disabled');
    expect(queueState(queue({ status: 0x400 }))).toBe('printing');
    expect(queueState(queue({ status: 0x10 }))).toBe('unknown');
  });

  it('lists a queue as a cups:// printer with its port and driver (names with spaces escaped)', async () => {
    const zebra = queue({ name: 'ZDesigner ZD421-203dpi ZPL', driver: 'ZDesigner ZD421-203dpi ZPL' });
    const { api } = memorySpooler([zebra]);
    expect(await discoverWindowsQueues(async () => api)).toEqual([
      {
        kind: 'cups',
        uri: 'cups://ZDesigner%20ZD421-203dpi%20ZPL',
        name: 'ZDesigner ZD421-203dpi ZPL',
        zpl: true,
        queue: 'ZDesigner ZD421-203dpi ZPL',
        deviceUri: 'USB001',
        raw: true,
        state: 'idle',
        driver: 'ZDesigner ZD421-203dpi ZPL',
      },
    ]);
    expect(queueFound(queue({ name: 'Office' }))).toMatchObject({ zpl: false, raw: false });
  });

  it('a spooler that cannot list is one sentence naming it', async () => {
    const stopped = memorySpooler([]);
    stopped.api.listQueues = () => {
      throw new Win32Error('EnumPrintersW', WIN32.RPC_S_SERVER_UNAVAILABLE);
    };
    await expect(discoverWindowsQueues(async () => stopped.api)).rejects.toThrow(
      new DiscoverySourceError(
        'The Windows Print Spooler service is not running, so its queues could not be listed; start it in Services.',
      ),
    );
    await expect(
      discoverWindowsQueues(() => Promise.reject(new Error('koffi: cannot load winspool.drv'))),
    ).rejects.toThrow(/^Windows print queues could not be listed: the print spooler could not be loaded/);
  });

  it('a queue on a TCP port is asked for status at its host on 9100; others have no status channel', async () => {
    const { api } = memorySpooler([
      queue({ name: 'Dock 7', port: 'IP_10.0.0.5', driver: 'ZDesigner ZT411-203dpi ZPL' }),
      queue({ name: 'Desk', port: 'USB001', driver: 'ZDesigner ZD421-203dpi ZPL' }),
    ]);
    expect(await statusUriOfQueue('Dock 7', async () => api)).toBe('tcp://10.0.0.5:9100');
    expect(await statusUriOfQueue('dock 7', async () => api)).toBe('tcp://10.0.0.5:9100');
    expect(await statusUriOfQueue('Desk', async () => api)).toBeUndefined();
  });
});

describe('cups:// on Windows', () => {
  it('selects the winspool transport, without status; Linux keeps lp', async () => {
    const windows = createTransport('cups://Desk', { platform: 'win32' });
    expect(windows).toBeInstanceOf(WinspoolTransport);
    expect(windows.capabilities.status).toBe(false);
    expect(createTransport('cups://Desk', { platform: 'linux' })).not.toBeInstanceOf(WinspoolTransport);
    // On Linux the status transport of a queue is the queue's own.
    expect((await createStatusTransport('cups://Desk', { platform: 'linux' })).capabilities.status).toBe(
      false,
    );
  });
});

describe('the status channel of a Windows queue', () => {
  const spooler = memorySpooler([
    queue({ name: 'Dock 7', port: 'IP_10.0.0.5', driver: 'ZDesigner ZT411-203dpi ZPL' }),
    queue({ name: 'Desk', port: 'USB001', driver: 'ZDesigner ZD421-203dpi ZPL' }),
  ]).api;
  const options = { platform: 'win32', cups: { spooler: async () => spooler } } as const;

  it('is the printer on 9100 for a queue on a TCP port, the queue itself (no status) otherwise', async () => {
    const dock = await createStatusTransport('cups://Dock%207', options);
    expect(dock).toBeInstanceOf(TcpTransport);
    expect(dock.uri).toBe('tcp://10.0.0.5:9100');
    const desk = await createStatusTransport('cups://Desk', options);
    expect(desk).toBeInstanceOf(WinspoolTransport);
    expect(await openStatusChannel('cups://Desk', options)).toBeUndefined();
  });
});

describe('usb:// on Windows', () => {
  it('a USB printer libusb cannot reach says to print to its queue', async () => {
    const t = createTransport('usb://0a5f:0181', {
      platform: 'win32',
      usb: { listDevices: async () => [] },
    });
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterNotFound);
    expect((error as Error).message).toMatch(
      /^usb:\/\/0a5f:0181: .*; on Windows print to its queue instead \(labeldesk printers and Discover list it as cups:\/\/QueueName\)$/,
    );
  });
});

describe('winspool transport (in-memory spooler)', () => {
  const target = { scheme: 'cups', queue: 'ZDesigner ZD421' } as const;
  const labels = ['^XA^FDone^FS^XZ', '^XA^FDtwo^FS^XZ'];

  it('one session is one RAW job: short writes are retried with the rest, the job ends at close', async () => {
    const spooler = memorySpooler([queue({ name: 'ZDesigner ZD421' })], { maxPerWrite: 5 });
    const t = new WinspoolTransport(target, { title: 'Parcels', spooler: async () => spooler.api });
    await t.open();
    for (const l of labels) await t.write(l);
    expect(spooler.jobs).toEqual([]);
    await t.close();
    expect(spooler.jobs).toEqual([
      { queue: 'ZDesigner ZD421', title: 'Parcels', bytes: Buffer.from(labels.join('')) },
    ]);
    expect(spooler.calls.slice(0, 4)).toEqual([
      'open ZDesigner ZD421',
      'startDoc RAW',
      'startPage',
      'write 5',
    ]);
    expect(spooler.calls.slice(-3)).toEqual(['endPage', 'endDoc', 'close']);
    expect(t.jobId).toBe(7);
    expect(spooler.openHandles()).toBe(0);
    await t.close();
  });

  it('abort deletes the unfinished job and closes the queue', async () => {
    const spooler = memorySpooler([queue({ name: 'ZDesigner ZD421' })]);
    const t = new WinspoolTransport(target, { spooler: async () => spooler.api });
    await t.open();
    await t.write(labels[0]!);
    await t.abort();
    expect(spooler.jobs).toEqual([]);
    expect(spooler.calls.slice(-2)).toEqual(['abort', 'close']);
    expect(spooler.openHandles()).toBe(0);
  });

  it('maps Win32 errors to typed printer errors naming the queue', async () => {
    const missing = new WinspoolTransport(
      { scheme: 'cups', queue: 'Nope' },
      { spooler: async () => memorySpooler([]).api },
    );
    await expect(missing.open()).rejects.toThrow(
      new PrinterNotFound('cups://Nope: no print queue named "Nope"', 'cups://Nope'),
    );
    const denied = new WinspoolTransport(target, {
      spooler: async () => memorySpooler([], { openError: WIN32.ERROR_ACCESS_DENIED }).api,
    });
    await expect(denied.open()).rejects.toBeInstanceOf(PrinterRefused);
    const other = new WinspoolTransport(target, {
      spooler: async () => memorySpooler([], { openError: 1234 }).api,
    });
    await expect(other.open()).rejects.toThrow(
      new PrinterIoError(
        'cups://ZDesigner%20ZD421: OpenPrinterW failed for queue "ZDesigner ZD421" (Windows error 1234)',
        'cups://ZDesigner%20ZD421',
      ),
    );
  });

  it('a job cancelled mid-write is a disconnect with the bytes taken; a failed end deletes the job', async () => {
    const cancelled = memorySpooler([queue({ name: 'ZDesigner ZD421' })], {
      maxPerWrite: 4,
      failWriteAfter: 8,
    });
    const t = new WinspoolTransport(target, { spooler: async () => cancelled.api });
    await t.open();
    const error = await t.write('^XA^FDcancelled^FS^XZ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterDisconnected);
    expect(error).toMatchObject({ bytesWritten: 8, totalBytes: 21 });
    await t.abort();
    expect(cancelled.openHandles()).toBe(0);

    const failing = memorySpooler([queue({ name: 'ZDesigner ZD421' })], { endDocError: 1234 });
    const u = new WinspoolTransport(target, { spooler: async () => failing.api });
    await u.open();
    await u.write(labels[0]!);
    await expect(u.close()).rejects.toBeInstanceOf(PrinterIoError);
    expect(failing.calls.slice(-3)).toEqual(['endDoc', 'abort', 'close']);
    expect(failing.openHandles()).toBe(0);
  });

  it('a spooler that stops taking bytes is a write timeout with what it took, and the job is deleted', async () => {
    const stalled = memorySpooler([queue({ name: 'ZDesigner ZD421' })], { maxPerWrite: 0 });
    const t = new WinspoolTransport(target, { spooler: async () => stalled.api });
    await t.open();
    const error = await t.write(labels[0]!, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterTimeout);
    expect(error).toMatchObject({ phase: 'write', bytesWritten: 0 });
    await t.abort();
    expect(stalled.calls.slice(-2)).toEqual(['abort', 'close']);
    expect(stalled.jobs).toEqual([]);
  });

  it('PDF to a Windows queue is refused with what to do instead; status is not available', async () => {
    const t = new WinspoolTransport(target, {
      contentType: 'pdf',
      spooler: async () => memorySpooler([queue({ name: 'ZDesigner ZD421' })]).api,
    });
    await expect(t.open()).rejects.toThrow(PrinterUnsupported);
    await expect(t.open()).rejects.toThrow(/export the labels as PDF and print them from a PDF viewer/);
    await expect(t.request()).rejects.toBeInstanceOf(PrinterUnsupported);
  });
});
