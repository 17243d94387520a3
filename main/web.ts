/**
 * `npm run web [-- --port N --data-dir DIR --printers FILE --file-printer-folder DIR]`: LabelDesk in a
 * browser. Serves the built renderer and the main-side services on 127.0.0.1 and prints the URL to open
 * (with this run's token). The hosted API secret is kept in a file only you can read (web mode has no OS
 * keychain; the desktop app encrypts it with the OS's). Stops on Ctrl+C.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/node/assets';
import { installLastResort } from '../src/node/last-resort';
import { APP_OPTIONS_HELP, AppOptionError, parseAppOptions } from './app/options';
import { plainCipher } from './app/secret-store';
import { createAppServices } from './app/services';
import { startWebServer } from './app/web-server';

async function main(): Promise<number> {
  installLastResort((line) => process.stderr.write(`labeldesk web: ${line}\n`), {
    debug: Boolean(process.env.LABELDESK_DEBUG),
  });
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`Usage: npm run web -- [options]\n\n${APP_OPTIONS_HELP}`);
    return 0;
  }
  const options = await parseAppOptions(args, process.env);
  const staticDir = join(packageRoot(), 'dist', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new AppOptionError('the renderer is not built: run `npm run build:renderer` (npm run web does it)');
  }
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  const services = await createAppServices({
    dataDir: options.dataDir,
    shell: 'web',
    version: pkg.version,
    cipher: plainCipher,
    printers: options.printers,
    ...(options.filePrinterFolder !== undefined ? { filePrinterFolder: options.filePrinterFolder } : {}),
    warn: (message) => process.stderr.write(`labeldesk web: ${message}\n`),
  });
  const server = await startWebServer({
    services,
    staticDir,
    ...(options.port !== undefined ? { port: options.port } : {}),
    log: (line) => process.stderr.write(`labeldesk web: ${line}\n`),
  });
  process.stdout.write(`LabelDesk is running. Open ${server.url}\n`);
  const stop = async () => {
    await server.close();
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof AppOptionError) {
      process.stderr.write(`labeldesk web: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`labeldesk web: ${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 70;
  },
);
