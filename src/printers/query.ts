/**
 * Asking a printer about itself over an open transport: status (`~HS`), identity (`~HI`) and resolution (SGD,
 * falling back to `~HI`). Pure: the transport is injected, so tests run these against the emulator.
 */
import {
  dpiFromDotsPerMm,
  hasFrames,
  interpretHostStatusReply,
  isCompleteSgdReply,
  notReady,
  parseDpiValue,
  parseHostIdentification,
  parseSgdReply,
  statusFromSilence,
  StatusParseError,
  type HostIdentification,
  type PrinterStatus,
  type SgdReply,
} from './status';
import { DEFAULT_TIMEOUTS, PrinterError, PrinterTimeout, type PrinterTransport } from './transport';

export interface QueryOptions {
  /** Longest wait for each answer, in ms. */
  timeoutMs?: number;
}

/**
 * The printer's status. Never throws for printer-side trouble: silence is `offline`, a partial or malformed
 * answer `unknown`, a transport that cannot read status `unknown` with that reason. Never `ready` unless a
 * complete, well-formed `~HS` says so.
 */
export async function queryStatus(
  transport: PrinterTransport,
  options: QueryOptions = {},
): Promise<PrinterStatus> {
  if (!transport.capabilities.status) {
    return notReady('unknown', `${transport.uri} cannot report printer status (jobs only)`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs;
  try {
    const reply = await transport.request('~HS', { timeoutMs, isComplete: (r) => hasFrames(r, 3) });
    return interpretHostStatusReply(reply);
  } catch (e) {
    if (e instanceof PrinterTimeout) {
      return e.received.length ? interpretHostStatusReply(e.received) : statusFromSilence(timeoutMs);
    }
    if (e instanceof PrinterError) return notReady('offline', e.message);
    throw e;
  }
}

/** `~HI`: model, firmware, dots/mm. Throws PrinterError / StatusParseError. */
export async function queryIdentity(
  transport: PrinterTransport,
  options: QueryOptions = {},
): Promise<HostIdentification> {
  const reply = await transport.request('~HI', {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs,
    isComplete: (r) => hasFrames(r, 1),
  });
  return parseHostIdentification(reply);
}

/** SGD `! U1 getvar "name"`. Throws PrinterError / StatusParseError. */
export async function queryVariable(
  transport: PrinterTransport,
  name: string,
  options: QueryOptions = {},
): Promise<SgdReply> {
  if (!/^[a-z0-9_.]+$/i.test(name)) throw new RangeError(`SGD variable name "${name}" is not a dotted name`);
  const reply = await transport.request(`! U1 getvar "${name}"\r\n`, {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs,
    isComplete: isCompleteSgdReply,
  });
  return parseSgdReply(reply);
}

export interface DpiResult {
  dpi: number;
  /** `sgd`: head.resolution.in_dpi; `identity`: ~HI dots/mm × 25.4, snapped to 152/203/300/600. */
  source: 'sgd' | 'identity';
  /**
   * The width the printer prints, in dots (SGD `ezpl.print_width`: the head's width unless someone set it
   * narrower), when it speaks SGD and answered a whole number in range; undefined otherwise.
   */
  printWidthDots?: number;
}

/** `ezpl.print_width` as a number of dots, when it is one a head can have (8 to 32000). */
function printWidthOf(reply: SgdReply): number | undefined {
  if (reply.kind !== 'value' || !/^\s*\d{1,5}\s*$/.test(reply.value)) return undefined;
  const width = Number(reply.value);
  return width >= 8 && width <= 32000 ? width : undefined;
}

/**
 * The print resolution: SGD `head.resolution.in_dpi` first (exact), then `~HI` dots/mm (older firmware without
 * SGD, or one that answers `"?"`). Throws the `~HI` failure when neither works.
 */
export async function queryDpi(transport: PrinterTransport, options: QueryOptions = {}): Promise<DpiResult> {
  try {
    const reply = await queryVariable(transport, 'head.resolution.in_dpi', options);
    if (reply.kind === 'value') {
      const dpi = parseDpiValue(reply.value);
      // It speaks SGD: its print width too (a 2-inch printer is not a 4-inch one at the same dpi).
      const width = await queryVariable(transport, 'ezpl.print_width', options).then(
        printWidthOf,
        (e: unknown) => {
          if (e instanceof PrinterTimeout || e instanceof StatusParseError) return undefined;
          throw e;
        },
      );
      return { dpi, source: 'sgd', ...(width !== undefined ? { printWidthDots: width } : {}) };
    }
  } catch (e) {
    if (!(e instanceof PrinterTimeout || e instanceof StatusParseError)) throw e;
  }
  const identity = await queryIdentity(transport, options);
  return { dpi: dpiFromDotsPerMm(identity.dotsPerMm), source: 'identity' };
}
