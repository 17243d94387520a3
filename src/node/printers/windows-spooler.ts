/**
 * The Windows print spooler (winspool.drv) through koffi: the few calls LabelDesk needs, each returning data or
 * throwing a `Win32Error` with the thread's `GetLastError()` code. Windows only: koffi is imported on first use,
 * so nothing here loads on Linux or macOS. The calls are synchronous (GetLastError is per thread; koffi keeps it
 * intact for synchronous calls only); they return quickly because the spooler writes jobs to its spool file,
 * not to the printer.
 */
import type { LibraryHandle } from 'koffi';

/** A Win32 call failed; `code` is GetLastError() right after it. */
export class Win32Error extends Error {
  override name = 'Win32Error';
  constructor(
    /** The API function that failed. */
    readonly call: string,
    readonly code: number,
  ) {
    super(`${call} failed with Windows error ${code}`);
  }
}

/** The Win32 error codes the printer transport names; any other becomes an I/O error with its number. */
export const WIN32 = {
  ERROR_ACCESS_DENIED: 5,
  ERROR_INVALID_HANDLE: 6,
  ERROR_PRINT_CANCELLED: 63,
  ERROR_INSUFFICIENT_BUFFER: 122,
  RPC_S_SERVER_UNAVAILABLE: 1722,
  ERROR_INVALID_PRINTER_NAME: 1801,
  ERROR_INVALID_DATATYPE: 1804,
  ERROR_PRINTER_DELETED: 1905,
} as const;

/** `PRINTER_INFO_2W`'s fields LabelDesk reads. */
export interface SpoolerQueueInfo {
  name: string;
  /** `USB001`, `IP_10.0.0.5`, `10.0.0.5`, `LPT1:`, `WSD-…`, … */
  port: string;
  driver: string;
  /** `PRINTER_STATUS_*` bits. */
  status: number;
  /** `PRINTER_ATTRIBUTE_*` bits. */
  attributes: number;
  /** Jobs waiting in the queue. */
  jobs: number;
}

/** An open spooler handle (`HANDLE` from OpenPrinterW), as koffi represents pointers. */
export type PrinterHandle = bigint;

export interface SpoolerApi {
  /** `OpenPrinterW(name, &handle, NULL)`. */
  openPrinter(name: string): PrinterHandle;
  /** `StartDocPrinterW(handle, 1, { title, NULL, datatype })`: the job id. */
  startDoc(handle: PrinterHandle, title: string, datatype: 'RAW'): number;
  startPage(handle: PrinterHandle): void;
  /** `WritePrinter`: how many bytes the spooler took (may be fewer than given). */
  write(handle: PrinterHandle, bytes: Uint8Array): number;
  endPage(handle: PrinterHandle): void;
  /** Hands the spooled job to the printer's port: the job is submitted when this returns. */
  endDoc(handle: PrinterHandle): void;
  /** Deletes the job being spooled on this handle. */
  abort(handle: PrinterHandle): void;
  close(handle: PrinterHandle): void;
  /** `EnumPrintersW(PRINTER_ENUM_LOCAL | PRINTER_ENUM_CONNECTIONS, NULL, 2, …)`. */
  listQueues(): SpoolerQueueInfo[];
}

const PRINTER_ENUM_LOCAL = 0x2;
const PRINTER_ENUM_CONNECTIONS = 0x4;

/** Windows-only: the spooler API through koffi, loaded once. Rejects where winspool.drv cannot be loaded. */
export function loadSpooler(): Promise<SpoolerApi> {
  if (!spooler) {
    spooler = bind();
    // A failed load is not cached: the next call tries again (and reports the same problem).
    spooler.catch(() => (spooler = undefined));
  }
  return spooler;
}
let spooler: Promise<SpoolerApi> | undefined;

async function bind(): Promise<SpoolerApi> {
  const koffi = (await import('koffi')).default;
  const winspool: LibraryHandle = koffi.load('winspool.drv');
  const kernel32: LibraryHandle = koffi.load('kernel32.dll');
  // Named types, used by name in the prototypes below.
  koffi.pointer('HANDLE', koffi.opaque());
  koffi.struct('DOC_INFO_1W', {
    pDocName: 'const char16_t *',
    pOutputFile: 'const char16_t *',
    pDatatype: 'const char16_t *',
  });
  const PRINTER_INFO_2W = koffi.struct('PRINTER_INFO_2W', {
    pServerName: 'const char16_t *',
    pPrinterName: 'const char16_t *',
    pShareName: 'const char16_t *',
    pPortName: 'const char16_t *',
    pDriverName: 'const char16_t *',
    pComment: 'const char16_t *',
    pLocation: 'const char16_t *',
    pDevMode: 'void *',
    pSepFile: 'const char16_t *',
    pPrintProcessor: 'const char16_t *',
    pDatatype: 'const char16_t *',
    pParameters: 'const char16_t *',
    pSecurityDescriptor: 'void *',
    Attributes: 'uint32_t',
    Priority: 'uint32_t',
    DefaultPriority: 'uint32_t',
    StartTime: 'uint32_t',
    UntilTime: 'uint32_t',
    Status: 'uint32_t',
    cJobs: 'uint32_t',
    AveragePPM: 'uint32_t',
  });

  // koffi types its functions loosely; each is given its C signature's shape here, once.
  const getLastError = kernel32.func('uint32_t __stdcall GetLastError()') as () => number;
  const openPrinterW = winspool.func(
    'bool __stdcall OpenPrinterW(const char16_t *pPrinterName, _Out_ HANDLE *phPrinter, void *pDefault)',
  ) as (name: string, handle: [PrinterHandle | null], defaults: null) => boolean;
  const startDocPrinterW = winspool.func(
    'uint32_t __stdcall StartDocPrinterW(HANDLE hPrinter, uint32_t Level, DOC_INFO_1W *pDocInfo)',
  ) as (handle: PrinterHandle, level: 1, info: Record<string, string | null>) => number;
  const startPagePrinter = winspool.func('bool __stdcall StartPagePrinter(HANDLE hPrinter)') as (
    handle: PrinterHandle,
  ) => boolean;
  const writePrinter = winspool.func(
    'bool __stdcall WritePrinter(HANDLE hPrinter, const void *pBuf, uint32_t cbBuf, _Out_ uint32_t *pcWritten)',
  ) as (handle: PrinterHandle, bytes: Uint8Array, size: number, written: [number | null]) => boolean;
  const endPagePrinter = winspool.func('bool __stdcall EndPagePrinter(HANDLE hPrinter)') as (
    handle: PrinterHandle,
  ) => boolean;
  const endDocPrinter = winspool.func('bool __stdcall EndDocPrinter(HANDLE hPrinter)') as (
    handle: PrinterHandle,
  ) => boolean;
  const abortPrinter = winspool.func('bool __stdcall AbortPrinter(HANDLE hPrinter)') as (
    handle: PrinterHandle,
  ) => boolean;
  const closePrinter = winspool.func('bool __stdcall ClosePrinter(HANDLE hPrinter)') as (
    handle: PrinterHandle,
  ) => boolean;
  const enumPrintersW = winspool.func(
    'bool __stdcall EnumPrintersW(uint32_t Flags, const char16_t *Name, uint32_t Level, _Out_ uint8_t *pPrinterEnum, uint32_t cbBuf, _Out_ uint32_t *pcbNeeded, _Out_ uint32_t *pcReturned)',
  ) as (
    flags: number,
    name: null,
    level: 2,
    buffer: Uint8Array | null,
    size: number,
    needed: [number | null],
    returned: [number | null],
  ) => boolean;

  /** Throws the call's Win32Error when `ok` is false. */
  const check = (call: string, ok: boolean): void => {
    if (!ok) throw new Win32Error(call, getLastError());
  };

  const listQueues = (): SpoolerQueueInfo[] => {
    const flags = PRINTER_ENUM_LOCAL | PRINTER_ENUM_CONNECTIONS;
    let size = 0;
    // Queues can appear between the size query and the listing: ask again with the new size, a few times.
    for (let attempt = 0; attempt < 5; attempt++) {
      const buffer = size ? new Uint8Array(size) : null;
      const needed: [number | null] = [null];
      const returned: [number | null] = [null];
      if (enumPrintersW(flags, null, 2, buffer, size, needed, returned)) {
        const count = returned[0] ?? 0;
        if (!buffer || count === 0) return [];
        const stride = koffi.sizeof(PRINTER_INFO_2W);
        const queues: SpoolerQueueInfo[] = [];
        for (let i = 0; i < count; i++) {
          const info = koffi.decode(buffer, i * stride, PRINTER_INFO_2W) as Record<string, unknown>;
          queues.push({
            name: stringField(info.pPrinterName),
            port: stringField(info.pPortName),
            driver: stringField(info.pDriverName),
            status: Number(info.Status ?? 0),
            attributes: Number(info.Attributes ?? 0),
            jobs: Number(info.cJobs ?? 0),
          });
        }
        return queues;
      }
      const code = getLastError();
      if (code !== WIN32.ERROR_INSUFFICIENT_BUFFER) throw new Win32Error('EnumPrintersW', code);
      size = needed[0] ?? 0;
    }
    throw new Win32Error('EnumPrintersW', WIN32.ERROR_INSUFFICIENT_BUFFER);
  };

  return {
    openPrinter(name) {
      const handle: [PrinterHandle | null] = [null];
      check('OpenPrinterW', openPrinterW(name, handle, null));
      if (handle[0] === null) throw new Win32Error('OpenPrinterW', WIN32.ERROR_INVALID_HANDLE);
      return handle[0];
    },
    startDoc(handle, title, datatype) {
      const job = startDocPrinterW(handle, 1, { pDocName: title, pOutputFile: null, pDatatype: datatype });
      if (job === 0) throw new Win32Error('StartDocPrinterW', getLastError());
      return job;
    },
    startPage: (handle) => check('StartPagePrinter', startPagePrinter(handle)),
    write(handle, bytes) {
      const written: [number | null] = [null];
      check('WritePrinter', writePrinter(handle, bytes, bytes.length, written));
      return written[0] ?? 0;
    },
    endPage: (handle) => check('EndPagePrinter', endPagePrinter(handle)),
    endDoc: (handle) => check('EndDocPrinter', endDocPrinter(handle)),
    abort: (handle) => check('AbortPrinter', abortPrinter(handle)),
    close: (handle) => check('ClosePrinter', closePrinter(handle)),
    listQueues,
  };
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
