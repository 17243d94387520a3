/**
 * The last line of defence of a LabelDesk process (`labeldesk`, `labeldesk serve`, web mode, the app's main
 * process). Every failure is meant to be a typed error that the layer above decides about; a promise rejected
 * with nobody listening is a bug of ours. Node's default answer — exit at once — would stop a batch mid-job and
 * drop every client of a server for one printer's reset, so a stray rejection is logged as an internal error
 * and the process carries on; an uncaught exception (state unknown) still ends it, with a one-line message.
 *
 * Installed only by entry points, never by a module a test imports: the test suite keeps vitest's own handlers,
 * which fail the run on any unhandled rejection or exception.
 */

export interface LastResortLog {
  (line: string): void;
}

let installed = false;

/** Installs the handlers once per process; `log` gets one line per stray failure (stack only when `debug`). */
export function installLastResort(
  log: LastResortLog,
  options: { debug?: boolean; exitCode?: number } = {},
): void {
  if (installed) return;
  installed = true;
  const describe = (reason: unknown): string => {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    return options.debug && error.stack ? error.stack : `${error.name}: ${error.message}`;
  };
  process.on('unhandledRejection', (reason) => {
    log(`internal error (please report this): a background task failed and was ignored: ${describe(reason)}`);
  });
  process.on('uncaughtException', (error) => {
    log(`internal error (please report this): ${describe(error)}`);
    process.exit(options.exitCode ?? 70);
  });
}
