/**
 * `labeldesk print --zpl FILE|@-` and `labeldesk jobs add --zpl` (issue #33 item 3): a ZPL file made elsewhere (a
 * carrier's label) printed through the job queue as a job of its own labels, each sent as its own bytes
 * (src/zpl/print-plan.ts), confirmed, resumed after faults, in `jobs list` with reprint. The file is read and
 * checked (budgets, the reader's warnings, settings and printer commands) before the printer is touched. The
 * printer's profile says whether settings and printer commands are kept (src/printers/zpl-file-options.ts); a
 * file made for another dpi than the printer's (src/zpl/file-dpi.ts) is re-rasterised at the printer's dpi
 * (src/zpl/reraster.ts) unless `--as-is`.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve as resolvePath } from 'node:path';
import { printLanguage } from '../node/printers/language';
import { openTransport } from '../node/printers/open-transport';
import { createProfileStore } from '../node/printers/profile-store';
import { askOverNewConnection, decidePrinterSetup } from '../node/printers/setup';
import { nodeOutputPorts } from '../node/render-ports';
import { defaultPrintWidthDots, knownDpi, type PrinterProfile } from '../printers/profiles';
import { PrinterError } from '../printers/transport';
import { canonicalPrinterUri } from '../printers/uri';
import { zplPrintOptionsFor } from '../printers/zpl-file-options';
import { sameDpi, zplFileDpi } from '../zpl/file-dpi';
import { describeFindings, planZplPrint, type ZplPrintPlan } from '../zpl/print-plan';
import { warningText, ZplBudgetError } from '../zpl/read';
import { rerasterZplLabels } from '../zpl/reraster';
import { cliFonts } from './cli-fonts';
import { CliError, UsageError, type CliIo } from './io';
import { printAndReport, withJobService, type JobArgs } from './job-run';
import { privateDataDir } from './keys-commands';
import { dpiOption, printerOption } from './printer-args';

/** The options `print --zpl` and `jobs add --zpl` take besides the job options. */
export const zplPrintOptions = {
  zpl: { type: 'string' },
  'keep-settings': { type: 'boolean' },
  'strip-settings': { type: 'boolean' },
  'allow-printer-commands': { type: 'boolean' },
  'strip-printer-commands': { type: 'boolean' },
  'as-is': { type: 'boolean' },
} as const;

export const ZPL_PRINT_HELP = `  --zpl FILE|@-          print a ZPL file as it is (a carrier's label): each ^XA…^XZ one label of a
                         job, sent as its own bytes, confirmed, resumed after faults, in jobs list
  --keep-settings        send the printer settings in the file (~SD ^MD ^PR ^MN ^MT ^MM ~TA ^LT);
                         default: the printer profile's choice (labeldesk printers set URI
                         --zpl-settings keep|strip), else they are named and taken out
  --strip-settings       take them out even when the printer's profile keeps them
  --allow-printer-commands
                         send commands that reach beyond the label (^JUS, ~JR, ~JA, ^ID, ^NS, flash
                         downloads…); default: the profile's choice, else named and taken out
  --strip-printer-commands
                         take them out even when the printer's profile allows them
  --as-is                a file made for another dpi than the printer's (^MU, or its ^PW against the
                         printer's labels): send its bytes unchanged; default: each label is
                         re-rasterised at the printer's dpi, so it keeps its size
`;

export interface ZplPrintArgs extends JobArgs {
  zpl?: string | undefined;
  printer?: string | undefined;
  dpi?: string | undefined;
  detach?: boolean | undefined;
  'keep-settings'?: boolean | undefined;
  'strip-settings'?: boolean | undefined;
  'allow-printer-commands'?: boolean | undefined;
  'strip-printer-commands'?: boolean | undefined;
  'as-is'?: boolean | undefined;
}

/** A flag pair (`--keep-settings`/`--strip-settings`): true, false, or undefined for the profile's choice. */
function choice(values: ZplPrintArgs, yes: keyof ZplPrintArgs, no: keyof ZplPrintArgs): boolean | undefined {
  if (values[yes] && values[no]) throw new UsageError(`--${yes} and --${no}: choose one`);
  return values[yes] ? true : values[no] ? false : undefined;
}

/** The file's bytes and the name it goes by (`label` for standard input). */
async function readZplArg(raw: string, io: CliIo): Promise<{ bytes: Uint8Array; name: string }> {
  if (raw === '@-') return { bytes: new TextEncoder().encode(await io.readStdin()), name: 'stdin.zpl' };
  const path = resolvePath(io.cwd, raw);
  try {
    return { bytes: new Uint8Array(await readFile(path)), name: basename(path) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      `--zpl ${raw}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? e})`}`,
    );
  }
}

/** Reads and plans the file for a printer whose profile is `profile`, telling the user what it does to the printer. */
export async function planZplFile(
  values: ZplPrintArgs,
  io: CliIo,
  profile?: Pick<PrinterProfile, 'zplFiles'>,
): Promise<{ name: string; bytes: Uint8Array; plan: ZplPrintPlan }> {
  const raw = values.zpl ?? '';
  const { bytes, name } = await readZplArg(raw, io);
  const options = zplPrintOptionsFor(profile, {
    keepSettings: choice(values, 'keep-settings', 'strip-settings'),
    allowPrinterCommands: choice(values, 'allow-printer-commands', 'strip-printer-commands'),
  });
  let plan: ZplPrintPlan;
  try {
    plan = planZplPrint(bytes, options);
  } catch (e) {
    if (e instanceof ZplBudgetError) throw new CliError(`--zpl ${raw}: ${e.message}`);
    throw e;
  }
  for (const w of plan.warnings) io.stderr(`warning: ${name}: ${warningText(w)}\n`);
  if (!plan.labels.length) throw new CliError(`--zpl ${raw}: no label (^XA…^XZ) in it; nothing was printed`);
  if (plan.settings.length) {
    const { settings: from } = options.from;
    const how = options.keepSettings
      ? from === 'profile'
        ? "sent as written (the printer's profile keeps them; --strip-settings takes them out)"
        : 'sent as written (--keep-settings)'
      : `taken out, the printer's own setup applies (${from === 'profile' ? "the printer's profile strips them; " : ''}--keep-settings sends them)`;
    io.stderr(`${name}: printer settings in the file: ${describeFindings(plan.settings)}; ${how}\n`);
  }
  if (plan.printerCommands.length) {
    const { printerCommands: from } = options.from;
    const how = options.allowPrinterCommands
      ? from === 'profile'
        ? "SENT as the printer's profile allows (--strip-printer-commands takes them out)"
        : 'SENT as asked (--allow-printer-commands)'
      : 'taken out (--allow-printer-commands sends them)';
    io.stderr(
      `warning: ${name}: commands that reach beyond the label: ${describeFindings(plan.printerCommands)}; ${how}\n`,
    );
  }
  for (const [i, label] of plan.labels.entries()) {
    if (label.carried.length)
      io.stderr(
        `${name}: label ${i + 1} carries a copy of ${label.carried.join(', ')} downloaded earlier in the file\n`,
      );
  }
  return { name, bytes, plan };
}

/**
 * The printer's dpi, print width and label length, decided as every print decides them
 * (src/node/printers/setup.ts), a detected dpi saved in the profile; `known` when someone said the dpi (`--dpi`,
 * the profile, the printer just now), not when it is only the fallback's guess.
 */
async function printerDpi(
  printer: string,
  dpiAsked: number | undefined,
  profile: PrinterProfile | undefined,
  profiles: ReturnType<typeof createProfileStore>,
  io: CliIo,
): Promise<{ dpi: number; printWidthDots: number; labelLengthDots?: number; known: boolean }> {
  const env = { ...process.env, ...io.env };
  const setup = await decidePrinterSetup(canonicalPrinterUri(printer), dpiAsked, {
    profile,
    askDpi: askOverNewConnection(printer, (p) => openTransport(p, { timeoutMs: 10_000, cups: { env } })),
    whenUnreachable: 'the job is stored and waits for the printer',
  });
  if (setup.save) {
    await profiles.put(setup.save);
    io.stderr(`detected ${setup.dpi} dpi; saved in the printer profile (${profiles.path})\n`);
  }
  for (const w of setup.warnings) io.stderr(`warning: ${w}\n`);
  const known = dpiAsked !== undefined || setup.detected || knownDpi(setup.save ?? profile) === setup.dpi;
  return {
    dpi: setup.dpi,
    printWidthDots: setup.zpl.maxWidthDots ?? defaultPrintWidthDots(setup.dpi),
    ...(setup.lengthDots !== undefined ? { labelLengthDots: setup.lengthDots } : {}),
    known,
  };
}

/**
 * The bytes each label is sent as: the plan's, or — for a file made for another dpi than the printer's, unless
 * `--as-is` — each label re-rasterised at the printer's dpi. Says which, in one sentence, when the dpis differ.
 */
function labelsFor(
  values: ZplPrintArgs,
  io: CliIo,
  file: { name: string; bytes: Uint8Array; plan: ZplPrintPlan },
  printer: string,
  target: Awaited<ReturnType<typeof printerDpi>>,
): Uint8Array[] {
  const { name, bytes, plan } = file;
  const asWritten = plan.labels.map((l) => l.bytes);
  if (!target.known) return asWritten;
  const { dpi: made, warnings } = zplFileDpi(bytes, target);
  for (const w of warnings) io.stderr(`warning: ${name}: ${warningText(w)}\n`);
  if (made.kind === 'printer-converts') {
    io.stderr(`${name}: ${made.how}; sent as it is\n`);
    return asWritten;
  }
  if (made.kind !== 'known' || sameDpi(made.dpi, target.dpi)) return asWritten;
  const mismatch = `${name} was made for ${made.dpi} dpi (${made.how}) and ${printer} prints at ${target.dpi} dpi`;
  if (values['as-is']) {
    io.stderr(
      `${mismatch}: its bytes are sent unchanged (--as-is), so each label prints at ${(made.dpi / target.dpi).toFixed(2)} × its size.\n`,
    );
    return asWritten;
  }
  io.stderr(
    `${mismatch}: each label is re-rasterised at ${target.dpi} dpi so it keeps its size (--as-is sends the file's bytes unchanged).\n`,
  );
  const ports = nodeOutputPorts(cliFonts(values, io));
  const redrawn = rerasterZplLabels(bytes, plan, {
    fromDpi: made.dpi,
    toDpi: target.dpi,
    fonts: ports.fonts,
    toMonoBitmap: ports.toMonoBitmap,
    maxWidthDots: target.printWidthDots,
    ...(ports.deflate ? { deflate: ports.deflate } : {}),
  });
  for (const { label, warning } of redrawn.warnings)
    io.stderr(`warning: ${name}: label ${label}, re-rasterised without it: ${warningText(warning)}\n`);
  return redrawn.labels;
}

/** Stores the file's labels as a job and prints it (unless `--detach`), with progress and the summary. */
export async function printZplFile(values: ZplPrintArgs, io: CliIo): Promise<number> {
  const { uri, text: printer } = printerOption(values.printer);
  const dpiAsked = dpiOption(values.dpi);
  const profiles = createProfileStore(privateDataDir(values, io));
  const profile = await profiles.get(printer);
  const file = await planZplFile(values, io, profile);
  if ((await printLanguage(uri, { ...process.env, ...io.env })) !== 'zpl') {
    throw new CliError(
      `${printer} takes documents, not ZPL; nothing was printed (labeldesk render --zpl ${values.zpl} --format pdf makes a PDF to print there)`,
    );
  }
  let target: Awaited<ReturnType<typeof printerDpi>>;
  try {
    target = await printerDpi(printer, dpiAsked, profile, profiles, io);
  } catch (e) {
    if (e instanceof PrinterError) throw new CliError(`${printer}: ${e.message}`);
    throw e;
  }
  const labels = labelsFor(values, io, file, printer, target);
  const { name, plan } = file;
  return withJobService(values, io, async (service) => {
    const { job, warnings } = await service.addZplJob({
      name,
      printer,
      labels: plan.labels.map((l, i) => ({ bytes: labels[i] ?? l.bytes, copies: l.copies })),
      dpi: target.dpi,
      start: false,
    });
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    const printed = plan.labels.reduce((sum, l) => sum + l.copies, 0);
    const copies =
      printed > plan.labels.length ? ` (${printed} printed: ^PQ copies are made by the printer)` : '';
    io.stdout(`job ${job.id}: ${job.labelCount} labels from ${name} for ${job.printer}${copies}\n`);
    if (values.detach) return 0;
    return printAndReport(service, io, [job.id], () => service.start(job.printer));
  });
}
