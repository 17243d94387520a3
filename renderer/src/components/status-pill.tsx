/** A printer's state as a coloured pill, with the printer's sentence as its description. */
import type { PrinterStatusState, PrinterStatusView } from '../../../src/ipc/contract';
import type { ReactNode } from 'react';
import { assertNever } from '../../../src/base/assert-never';

export function statusWords(state: PrinterStatusState): { label: string; tone: Tone } {
  switch (state) {
    case 'ready':
      return { label: 'Ready', tone: 'ok' };
    case 'paper-out':
      return { label: 'Paper out', tone: 'bad' };
    case 'head-open':
      return { label: 'Head open', tone: 'bad' };
    case 'ribbon-out':
      return { label: 'Ribbon out', tone: 'bad' };
    case 'paused':
      return { label: 'Paused', tone: 'warn' };
    case 'buffer-full':
      return { label: 'Busy', tone: 'warn' };
    case 'offline':
      return { label: 'Offline', tone: 'bad' };
    case 'unknown':
      return { label: 'Unknown', tone: 'neutral' };
    case 'no-status':
      return { label: 'No status', tone: 'neutral' };
    default:
      return assertNever(state, 'printer state');
  }
}

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral' | 'accent';

export function Pill({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`pill pill-${tone}`} title={title}>
      <span className="pill-dot" aria-hidden="true" />
      {children}
    </span>
  );
}

export function StatusPill({
  status,
  testId,
}: {
  status: PrinterStatusView | undefined;
  /** `printer-status` for the one the e2e tests read. */
  testId?: string;
}) {
  const { label, tone } = status
    ? statusWords(status.state)
    : { label: 'Checking…', tone: 'neutral' as const };
  return (
    <span
      className={`pill pill-${tone}`}
      data-testid={testId}
      data-state={status?.state ?? 'checking'}
      title={status?.message}
      role="status"
      aria-label={`Printer status: ${label}${status?.message && status.state !== 'ready' ? `. ${status.message}` : ''}`}
    >
      <span className="pill-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
