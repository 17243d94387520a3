/**
 * `labeldesk` — the command line. Each command is a function of (args, io) returning an exit code, so tests
 * run it in-process; `bin` below is the only place that touches process.exit.
 *
 * Exit codes: 0 success, 1 the operation failed (bad input, template not found, invalid file), 2 wrong usage.
 * User mistakes print one clear line (never a stack trace); set LABELDESK_DEBUG=1 to see stacks.
 */
import { installLastResort } from '../node/last-resort';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError, processIo, type CliIo } from './io';
import { reportError } from './report-error';
import { markupCommand, templatesCommand, validateCommand, schemaCommand } from './template-commands';
import { renderCommand } from './render-command';
import { printCommand } from './print-command';
import { captureCommand } from './capture-command';
import { keysCommand, usageCommand } from './keys-commands';
import { openApiCommand } from './openapi-command';
import { serveCommand } from './serve-command';
import { printersCommand, statusCommand } from './printer-commands';
import { jobsCommand } from './jobs-command';
import { batchCommand } from './batch-command';
import { sitePrintersCommand } from './site-printers-command';

export const VERSION = '0.1.0';

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  templates: { run: templatesCommand, summary: 'list templates with their sizes and fields' },
  markup: { run: markupCommand, summary: 'resolve a template with data into Markup JSON (route 01)' },
  print: { run: printCommand, summary: 'render a template for a printer and send it (ZPL or PDF)' },
  render: { run: renderCommand, summary: 'render labels to ZPL, PDF, SVG or PNG (routes 05-07)' },
  validate: { run: validateCommand, summary: 'check template files; every problem with its path' },
  schema: { run: schemaCommand, summary: 'print the JSON Schema of the template format' },
  capture: { run: captureCommand, summary: 'turn a hosted API template into a local template file' },
  serve: {
    run: serveCommand,
    summary: 'the seven API routes over HTTP on 127.0.0.1 (labeldesk serve --help)',
  },
  keys: { run: keysCommand, summary: 'API keys of labeldesk serve: create, regenerate, list, revoke' },
  usage: { run: usageCommand, summary: 'requests and copies rendered per API key and route' },
  openapi: { run: openApiCommand, summary: 'print the OpenAPI 3.1 document of labeldesk serve' },
  printers: {
    run: printersCommand,
    summary: 'list USB, serial, CUPS and configured network printers with their URIs',
  },
  'site-printers': {
    run: sitePrintersCommand,
    summary: "a site server's relay printers and profiles in its database: add, list, remove",
  },
  status: {
    run: statusCommand,
    summary: "a printer's state, model, firmware and dpi (labeldesk status --printer URI)",
  },
  jobs: {
    run: jobsCommand,
    summary:
      'print jobs that survive faults and crashes: add, list, show, resume, pause, cancel, reprint, audit',
  },
  batch: {
    run: batchCommand,
    summary: 'print one label per CSV row as a job, after checking every row (labeldesk batch --help)',
  },
};

export const HELP = `labeldesk ${VERSION} — label templates, rendering and printing

Usage: labeldesk <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(13)} ${c.summary}`)
  .join('\n')}

Common options:
  --template NAME|FILE   a template by exact (case-sensitive) name, or a template .json file
  --templates DIR        also load templates from DIR (overrides bundled ones of the same name);
                         default: $LABELDESK_TEMPLATES
  --data JSON|@FILE|@-   field values as a JSON object of strings
  --json                 machine-readable output
  -h, --help             help for a command

Examples:
  labeldesk templates
  labeldesk markup --template shipping-4x6 --data '{"ship_to_name":"Ada Lovelace","tracking":"1Z999AA10123456784"}'
  labeldesk render --template shipping-4x6 --format zpl --amount 2 --out labels/
  labeldesk validate my-label.json
`;

/** Runs the CLI with `args` (without node and script). Returns the exit code. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stdout(HELP);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command "${name}" (try: labeldesk --help)`);
    return await command.run(rest, io);
  } catch (e) {
    return reportError(e, io);
  }
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const io = processIo();
  installLastResort((line) => io.stderr(`labeldesk: ${line}\n`), { debug: Boolean(io.env.LABELDESK_DEBUG) });
  // A write error other than a closed pipe (EPIPE ends quietly) fails the run, whatever the command returned.
  const exitCode = (code: number): number => {
    const failure = io.outputFailure();
    if (failure === undefined) return code;
    io.stderr(`labeldesk: ${failure}\n`);
    return code === 0 ? 1 : code;
  };
  // Let stdout drain before exiting (large markup or PDF output through a pipe).
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = exitCode(code);
    },
    (e: unknown) => {
      process.exitCode = exitCode(reportError(e, io));
    },
  );
}
