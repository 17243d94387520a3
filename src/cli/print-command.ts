/**
 * `labeldesk print`: render a template for one printer and send it. ZPL at the printer's own dpi for ZPL
 * printers (src/node/printers/setup.ts decides, as for jobs), PDF for OS queues that are not raw.
 * The printer profile (print width, darkness, offsets) applies to every label; a detected dpi is saved in it.
 * A printer that can report status is asked first: paper out or an open head refuses the print, with the
 * reason, instead of queueing labels into a printer that cannot print them.
 */
import { renderPdfLabels, renderZplLabels, zplFitCheck } from '../outputs/render';
import { fitProblem, oversizeFor, oversizeNote } from '../outputs/fit';
import { defaultDataDir } from '../node/files/data-dir';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeliveryFailed, deliverLabels, describeResends } from '../printers/deliver';
import { PrinterError, type PrinterTransport } from '../printers/transport';
import { queryStatus } from '../printers/query';
import { PrinterProfileError } from '../printers/profiles';
import {
  DEFAULT_PRINT_RETRIES,
  doesNotFitError,
  dpiOption,
  OVERSIZE_HELP,
  oversizeOption,
  oversizeOptions,
  printerOption,
  retriesOption,
} from './printer-args';
import { createTransport, openStatusChannel, openTransport } from '../node/printers/open-transport';
import { createProfileStore } from '../node/printers/profile-store';
import { printLanguage } from '../node/printers/language';
import { decidePrinterSetup, dpiReportedBy } from '../node/printers/setup';
import { CliError, UsageError, type CliIo } from './io';
import { labelsFromArgs, markupOptions } from './markup-input';
import { parseOptions, templateOptions } from './template-commands';
import { LIMITS } from '../resolve/resolve';
import { printZplFile, ZPL_PRINT_HELP, zplPrintOptions } from './print-zpl';

export const PRINT_HELP = `Usage: labeldesk print --printer URI --template NAME|FILE [options]
       labeldesk print --printer URI --markup FILE|@- [options]
       labeldesk print --printer URI --zpl FILE|@- [--as-is] [--keep-settings|--strip-settings] [--allow-printer-commands] [options]

  --data JSON|@FILE|@-   field values (a JSON object of strings)
  --amount N             copies (default 1)
  --markup FILE|@-       print Markup JSON (what fetch-markups returns: one object or the array) instead
  --strict               fail when an image cannot be loaded (default: leave it out, with a warning)
  --format zpl|pdf       default: zpl for tcp/usb/serial printers and raw CUPS queues, pdf for other queues
  --dpi N                ZPL resolution when the printer cannot tell and no profile has it
  --force                print even when the printer reports a fault
${OVERSIZE_HELP}  --retries N            reconnects after a dropped connection or an unanswered label (default 3)
  --data-dir DIR         where printer profiles (and jobs of --zpl) live
                         (default: $LABELDESK_DATA_DIR or the user data folder)
${ZPL_PRINT_HELP}  --by NAME              with --zpl: who prints, for the job and the audit log

Printer URIs: tcp://host:9100, usb://0a5f:0181[?serial=…], serial:///dev/ttyUSB0?baud=9600,
cups://QueueName, file:///path/out.zpl
`;

const env = (io: CliIo) => ({ ...process.env, ...io.env });

export async function printCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...templateOptions,
    ...markupOptions,
    printer: { type: 'string' },
    data: { type: 'string' },
    amount: { type: 'string' },
    format: { type: 'string' },
    dpi: { type: 'string' },
    force: { type: 'boolean' },
    ...oversizeOptions,
    retries: { type: 'string' },
    'data-dir': { type: 'string' },
    ...zplPrintOptions,
    by: { type: 'string' },
  });
  if (values.help) {
    io.stdout(PRINT_HELP);
    return 0;
  }
  if (values.zpl !== undefined) {
    const other = ['template', 'markup', 'data', 'amount', 'format'].find(
      (o) => values[o as keyof typeof values] !== undefined,
    );
    if (other) throw new UsageError(`--zpl prints the file as it is; --${other} cannot go with it`);
    // A print that cannot reach its printer gives up after a few reconnects (the job waits for jobs resume).
    return printZplFile({ ...values, retries: values.retries ?? String(DEFAULT_PRINT_RETRIES) }, io);
  }
  const { uri, text: printerText } = printerOption(values.printer);
  if (values.format !== undefined && values.format !== 'zpl' && values.format !== 'pdf') {
    throw new UsageError(`--format: expected zpl or pdf, got "${values.format}"`);
  }
  const dpiArg = dpiOption(values.dpi);
  const chosen = oversizeOption(values);
  const retries = retriesOption(values.retries, DEFAULT_PRINT_RETRIES);

  // Everything about the label is checked before the printer is touched.
  const { name, markups, ports } = await labelsFromArgs(values, io, 'print');
  // One print is rendered whole before the printer is touched: the same ceiling as --amount, for --markup too.
  if (markups.length > LIMITS.maxAmount) {
    throw new CliError(
      `--markup: ${markups.length} labels in one print; the maximum is ${LIMITS.maxAmount} (labeldesk jobs add or batch print more, a part at a time)`,
    );
  }
  const format = (values.format as 'zpl' | 'pdf' | undefined) ?? (await printLanguage(uri, env(io)));
  const profiles = createProfileStore(values['data-dir'] ?? defaultDataDir(io.env));
  const transportOptions = {
    cups: {
      env: env(io),
      contentType: format === 'pdf' ? ('pdf' as const) : ('raw' as const),
      title: name,
    },
  };
  const transport = createTransport(uri, transportOptions);

  try {
    const profile = await profiles.get(printerText);
    await transport.open({ timeoutMs: 10_000 });
    /** The connection opened for the status and dpi queries carries the job; a retry opens a new one. */
    let first: PrinterTransport | undefined = transport;
    // Status and dpi come from the printer's own connection; an OS queue has none, except that a Windows queue
    // on a TCP port is asked at its printer.
    let asked: PrinterTransport | undefined = transport.capabilities.status ? transport : undefined;
    try {
      asked ??= await openStatusChannel(uri, transportOptions);
      if (asked && !values.force) {
        const status = await queryStatus(asked);
        if (status.state !== 'ready') {
          const why = status.reasons.length ? status.reasons.join(', ') : status.state;
          throw new CliError(
            `${printerText} is not ready (${why}); nothing was printed. Fix it, or use --force.`,
          );
        }
      }
      let labels: (string | Uint8Array)[];
      let summary: string;
      if (format === 'zpl') {
        // This command holds the printer's connection anyway, so a detected dpi is checked again each time.
        const {
          dpi,
          zpl: settings,
          lengthDots,
          save,
          warnings,
        } = await decidePrinterSetup(printerText, dpiArg, {
          profile,
          askDpi: () => (asked ? dpiReportedBy(asked) : Promise.resolve(undefined)),
          refresh: true,
          failIfUnanswered: true,
        });
        if (save) {
          await profiles.put(save);
          io.stderr(`detected ${dpi} dpi; saved in the printer profile (${profiles.path})\n`);
        }
        for (const w of warnings) io.stderr(`warning: ${w}\n`);
        // A label wider than the head (or longer than the labels) is never cut without being asked to.
        const check = zplFitCheck(markups, {
          dpi,
          ...settings,
          ...(lengthDots !== undefined ? { labelLengthDots: lengthDots } : {}),
        });
        const oversize = oversizeFor(check, chosen);
        if (!check.fits && !oversize) {
          throw doesNotFitError(fitProblem(name, check));
        }
        if (oversize) io.stderr(`warning: ${oversizeNote(name, check, oversize)}\n`);
        const result = await renderZplLabels(
          markups,
          {
            dpi,
            ...settings,
            ...(lengthDots !== undefined ? { labelLengthDots: lengthDots } : {}),
            ...(oversize ? { oversize } : {}),
          },
          ports,
        );
        labels = result.labels;
        summary = `${result.count} label${result.count === 1 ? '' : 's'} as ZPL at ${dpi} dpi`;
      } else {
        const [pdf] = await renderPdfLabels(markups, ports, { merge: true, title: name });
        labels = [pdf ?? new Uint8Array()];
        summary = `${markups.length} label${markups.length === 1 ? '' : 's'} as one PDF`;
      }
      const report = await deliverLabels(
        async () => {
          if (first) {
            const open = first;
            first = undefined;
            return open;
          }
          return openTransport(uri, { ...transportOptions, timeoutMs: 10_000 });
        },
        labels,
        {
          retries,
          writeStallMs: 60_000,
          sleep,
          onRetry: (f) =>
            io.stderr(
              `${printerText}: label ${f.labelNumber} was not confirmed (${f.reason}); retrying in ${f.retryInMs} ms\n`,
            ),
        },
      );
      const confirmedBy =
        report.confirmedBy === 'printer'
          ? 'the printer confirmed each one'
          : 'the print queue accepted the job';
      io.stderr(`sent ${summary} to ${printerText}; ${confirmedBy}\n`);
      for (const line of describeResends(report.possibleDuplicates)) io.stderr(`warning: ${line}\n`);
    } finally {
      await transport.close().catch(() => undefined);
      if (asked && asked !== transport) await asked.close().catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof DeliveryFailed) throw new CliError(`${printerText}: ${e.message}`);
    if (e instanceof PrinterError || e instanceof PrinterProfileError)
      throw new CliError(`${printerText}: ${e.message}`);
    // Out-of-range dpi or head width from the command line; the engine's own user errors go to reportError.
    if (e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }
  return 0;
}
