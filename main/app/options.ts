/**
 * The options the desktop app and web mode share: `--data-dir DIR` (default $LABELDESK_DATA_DIR, else the
 * per-user data folder the CLI uses too, so `labeldesk jobs list` shows the app's jobs), `--printers FILE`
 * (the `labeldesk serve` printers file, to preconfigure printers) and, for web mode, `--port N`.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../../src/node/files/data-dir';
import { parseJsonText } from '../../src/model/parse';
import { parsePrintersFile, type ConfiguredPrinter } from '../../src/printers/printers-file';

export interface AppOptions {
  dataDir: string;
  printers: ConfiguredPrinter[];
  port: number | undefined;
  /** The folder "print to file" printers may write into (`--file-printer-folder DIR`). */
  filePrinterFolder: string | undefined;
}

export class AppOptionError extends Error {
  override name = 'AppOptionError';
}

export const APP_OPTIONS_HELP = `Options:
  --data-dir DIR     settings, printers, jobs and captured templates (default: $LABELDESK_DATA_DIR or the
                     user data folder)
  --printers FILE    printers to add, as for labeldesk serve: [{"id": 1, "uri": "tcp://…", "name": "…"}]
  --port N           web mode only: the port to listen on (default: a free one)
  --file-printer-folder DIR
                     the only folder print-to-file printers (file://) may write into (the desktop app
                     also offers a folder dialog in Settings)
`;

export async function parseAppOptions(
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<AppOptions> {
  let values: { 'data-dir'?: string; printers?: string; port?: string; 'file-printer-folder'?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'data-dir': { type: 'string' },
        printers: { type: 'string' },
        port: { type: 'string' },
        'file-printer-folder': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new AppOptionError((e as Error).message);
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new AppOptionError(`--port: expected a port number 0-65535, got "${values.port}"`);
    }
  }
  let printers: ConfiguredPrinter[] = [];
  if (values.printers !== undefined) {
    let text: string;
    try {
      text = await readFile(values.printers, 'utf8');
    } catch (e) {
      throw new AppOptionError(
        `--printers: cannot read ${values.printers} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
    try {
      printers = parsePrintersFile(parseJsonText(text, values.printers), values.printers);
    } catch (e) {
      throw new AppOptionError(`--printers: ${(e as Error).message}`);
    }
  }
  return {
    dataDir: values['data-dir'] ?? defaultDataDir(env),
    printers,
    port,
    filePrinterFolder: values['file-printer-folder'],
  };
}
