/**
 * `labeldesk print`: render a template for one printer and send it. ZPL at the printer's own dpi for ZPL
 * printers (main/printers/setup.ts decides, as for jobs), PDF for OS queues that are not raw.
 * The printer profile (print width, darkness, offsets) applies to every label; a detected dpi is saved in it.
 * A printer that can report status is asked first: paper out or an open head refuses the print, with the
 * reason, instead of queueing labels into a printer that cannot print them.
 */
import { checkApiData, resolve } from '../resolve/resolve';
import { renderPdfLabels, renderZplLabels } from '../engine/render';
import { nodeRenderPorts } from '../node/render-ports';
import { defaultDataDir } from '../engine/server/data-dir';
import { PrinterError } from '../printers/transport';
import { queryStatus } from '../printers/query';
import { PrinterProfileError } from '../printers/profiles';
import { dpiOption, printerOption } from './printer-args';
import { createTransport } from '../../main/printers/open-transport';
import { createProfileStore } from '../../main/printers/profile-store';
import { printLanguage } from '../../main/printers/language';
import { decidePrinterSetup, dpiReportedBy } from '../../main/printers/setup';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import {
  loadTemplateEntry,
  parseAmount,
  parseOptions,
  templateOptions,
  warnAboutValues,
} from './template-commands';

export const PRINT_HELP = `Usage: labeldesk print --printer URI --template NAME|FILE [options]

  --data JSON|@FILE|@-   field values (a JSON object of strings)
  --amount N             copies (default 1)
  --format zpl|pdf       default: zpl for tcp/usb/serial printers and raw CUPS queues, pdf for other queues
  --dpi N                ZPL resolution when the printer cannot tell and no profile has it
  --force                print even when the printer reports a fault
  --data-dir DIR         where printer profiles live (default: $LABELDESK_DATA_DIR or the user data folder)

Printer URIs: tcp://host:9100, usb://0a5f:0181[?serial=…], serial:///dev/ttyUSB0?baud=9600,
cups://QueueName, file:///path/out.zpl
`;

const env = (io: CliIo) => ({ ...process.env, ...io.env });

export async function printCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...templateOptions,
    printer: { type: 'string' },
    data: { type: 'string' },
    amount: { type: 'string' },
    format: { type: 'string' },
    dpi: { type: 'string' },
    force: { type: 'boolean' },
    'data-dir': { type: 'string' },
  });
  if (values.help) {
    io.stdout(PRINT_HELP);
    return 0;
  }
  const { uri, text: printerText } = printerOption(values.printer);
  if (values.format !== undefined && values.format !== 'zpl' && values.format !== 'pdf') {
    throw new UsageError(`--format: expected zpl or pdf, got "${values.format}"`);
  }
  const dpiArg = dpiOption(values.dpi);

  // Everything about the label is checked before the printer is touched.
  const { template, baseDir } = await loadTemplateEntry(values, io);
  const apiData = checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io));
  const markups = resolve(template, apiData, parseAmount(values.amount));
  warnAboutValues(template, apiData, io);
  const format = (values.format as 'zpl' | 'pdf' | undefined) ?? (await printLanguage(uri, env(io)));
  const profiles = createProfileStore(values['data-dir'] ?? defaultDataDir(io.env));
  const ports = nodeRenderPorts({ baseDir });
  const transport = createTransport(uri, {
    cups: { env: env(io), contentType: format === 'pdf' ? 'pdf' : 'raw', title: template.name },
  });

  try {
    const profile = await profiles.get(printerText);
    await transport.open({ timeoutMs: 10_000 });
    try {
      if (transport.capabilities.status && !values.force) {
        const status = await queryStatus(transport);
        if (status.state !== 'ready') {
          const why = status.reasons.length ? status.reasons.join(', ') : status.state;
          throw new CliError(
            `${printerText} is not ready (${why}); nothing was printed. Fix it, or use --force.`,
          );
        }
      }
      let payload: string | Uint8Array;
      let summary: string;
      if (format === 'zpl') {
        // This command holds the printer's connection anyway, so a detected dpi is checked again each time.
        const {
          dpi,
          zpl: settings,
          save,
          warnings,
        } = await decidePrinterSetup(printerText, dpiArg, {
          profile,
          askDpi: () => dpiReportedBy(transport),
          refresh: true,
          failIfUnanswered: true,
        });
        if (save) {
          await profiles.put(save);
          io.stderr(`detected ${dpi} dpi; saved in the printer profile (${profiles.path})\n`);
        }
        for (const w of warnings) io.stderr(`warning: ${w}\n`);
        const result = await renderZplLabels(markups, { dpi, ...settings }, ports);
        payload = result.labels.join('');
        summary = `${result.count} label${result.count === 1 ? '' : 's'} as ZPL at ${dpi} dpi`;
      } else {
        const [pdf] = await renderPdfLabels(markups, ports, { merge: true, title: template.name });
        payload = pdf ?? new Uint8Array();
        summary = `${markups.length} label${markups.length === 1 ? '' : 's'} as one PDF`;
      }
      await transport.write(typeof payload === 'string' ? new TextEncoder().encode(payload) : payload, {
        timeoutMs: 60_000,
      });
      io.stderr(`sent ${summary} to ${printerText}\n`);
    } finally {
      await transport.close();
    }
  } catch (e) {
    if (e instanceof PrinterError || e instanceof PrinterProfileError)
      throw new CliError(`${printerText}: ${e.message}`);
    // Out-of-range dpi or head width from the command line; the engine's own user errors go to reportError.
    if (e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }
  return 0;
}
