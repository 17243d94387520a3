/** The typed error of the ZPL reader: a stream over a budget that makes it unreadable as a whole. */
import { KindedError } from '../../base/error-kind';

/** A warning about one command: what, where (byte offset of its prefix in the stream), and the problem. */
export interface ZplWarning {
  /** The command as written, e.g. `^GF`, `~DG`, `^A0`; empty for a problem of the stream. */
  command: string;
  /** Byte offset of the command's prefix character in the stream. */
  offset: number;
  message: string;
}

export type ZplBudgetName = 'input-bytes' | 'labels' | 'commands-per-label';

/**
 * The stream is over a budget that cannot be met by skipping one command (too many bytes, labels or commands):
 * a user's input problem, so the kind is `request-invalid` (the CLI's exit 1, HTTP 422).
 */
export class ZplBudgetError extends KindedError {
  get kind() {
    return 'request-invalid' as const;
  }

  constructor(
    readonly budget: ZplBudgetName,
    readonly limit: number,
    message: string,
  ) {
    super(message);
    this.name = 'ZplBudgetError';
  }
}

export function warningText(w: ZplWarning): string {
  return w.command ? `${w.command} at byte ${w.offset}: ${w.message}` : `byte ${w.offset}: ${w.message}`;
}
