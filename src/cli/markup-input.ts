/**
 * `--markup FILE|@-` for `render` and `print`: Markup JSON as fetch-markups returns it (spec §4.1: "to feed a
 * caller's own renderer") — one Markup object, or the array with one per copy — rendered with no template.
 *
 * Incomplete markup (README "Incomplete markup") is accepted and said out loud: a barcode without width or
 * height is drawn at its natural size at its x/y; without x or y it sits at 0 (the stage's top-left corner,
 * where the hosted SDK's Konva puts it too). Images that cannot be loaded are the renderer's business
 * (src/engine/incomplete-markup.ts).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, resolve as resolvePath } from 'node:path';
import { prepareImages } from '../engine/incomplete-markup';
import type { RenderPorts } from '../outputs/render';
import { nodeRenderPorts } from '../node/render-ports';
import { counterFields, counterSettings } from '../resolve/counters';
import { checkApiData, resolve } from '../resolve/resolve';
import { formatProblems, problemsOf } from '../model/errors';
import { MarkupSchema, type Markup } from '../model/schema';
import { cliFonts } from './cli-fonts';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import { loadTemplateEntry, parseAmount, warnAboutValues } from './template-commands';

/** The options of `--markup` and the image policy, for a command's parseOptions. */
export const markupOptions = {
  markup: { type: 'string' },
  strict: { type: 'boolean' },
} as const;

/** What `labelsFromArgs` reads: a template with values and copies, or markup. */
export interface LabelArgs {
  markup?: string | undefined;
  strict?: boolean | undefined;
  template?: string | undefined;
  templates?: string | undefined;
  data?: string | undefined;
  amount?: string | undefined;
  /** Whose fonts/ join the bundled and the machine's fonts (`print` has it; else $LABELDESK_DATA_DIR). */
  'data-dir'?: string | undefined;
}

/** Labels ready to render: one markup per copy, and render ports holding their loaded images. */
export interface LabelsToRender {
  /** The template's name, or the markup file's (for titles and output file names). */
  name: string;
  markups: Markup[];
  ports: RenderPorts;
}

/**
 * The labels of `render` and `print`: `--markup FILE|@-`, or `--template` with `--data` and `--amount`. Warnings
 * (values, incomplete markup, images left out) go to stderr. Every image is loaded here, before any output or
 * printer is touched: one that cannot be loaded is left out with a warning, or fails with `--strict`.
 */
export async function labelsFromArgs(
  values: LabelArgs,
  io: CliIo,
  /** `print`: refuse a template whose SSCC a job must number (without one it would print its placeholder). */
  purpose: 'render' | 'print' = 'render',
): Promise<LabelsToRender> {
  let source: { name: string; baseDir: string; markups: Markup[] };
  if (values.markup !== undefined) {
    checkMarkupExclusive(values as Record<string, unknown>, ['template', 'templates', 'data', 'amount']);
    const input = await readMarkupInput(values.markup, io);
    for (const warning of input.warnings) io.stderr(`warning: ${warning}\n`);
    source = input;
  } else {
    const { template, baseDir } = await loadTemplateEntry(values, io);
    const sscc = counterFields(template).find((f) => counterSettings(f).gs1);
    if (purpose === 'print' && sscc) {
      throw new CliError(
        `${template.name}: ${sscc.label} (${sscc.name}) is an SSCC counter, which only a print job numbers; ` +
          `labeldesk print would print its placeholder "${sscc.placeholder}" — print with labeldesk jobs add or batch`,
      );
    }
    const apiData = checkApiData(
      values.data === undefined ? {} : await readJsonArg('--data', values.data, io),
    );
    const markups = resolve(template, apiData, parseAmount(values.amount));
    warnAboutValues(template, apiData, io);
    source = { name: template.name, baseDir, markups };
  }
  const prepared = await prepareImages(
    source.markups,
    nodeRenderPorts({ baseDir: source.baseDir }, cliFonts(values, io)),
    values.strict ? 'strict' : 'omit',
  );
  for (const warning of prepared.warnings) io.stderr(`warning: ${warning}\n`);
  return { name: source.name, markups: prepared.markups, ports: prepared.ports };
}

/** Markup read from a file or standard input, ready to render. */
export interface MarkupInput {
  /** One per copy. */
  markups: Markup[];
  /** Where relative image paths resolve: the file's folder, or the working folder for standard input. */
  baseDir: string;
  /** For output file names: the file's name without `.json`, or `markup` for standard input. */
  name: string;
  /** What the markup leaves out and how it is drawn anyway, one message each. */
  warnings: string[];
}

/** The most copies one markup file may hold (the API's amount maximum is far below). */
const MAX_MARKUPS = 10_000;

/** Reads and checks `--markup FILE|@-`. Throws CliError naming the file and every problem found. */
export async function readMarkupInput(spec: string, io: CliIo): Promise<MarkupInput> {
  const fromStdin = spec === '@-' || spec === '-';
  const file = fromStdin ? undefined : resolvePath(io.cwd, spec.startsWith('@') ? spec.slice(1) : spec);
  const source = file ?? 'standard input';
  let text: string;
  try {
    text = file ? await readFile(file, 'utf8') : await io.readStdin();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      `--markup: cannot read ${source}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (e) {
    throw new CliError(`--markup: ${source} is not valid JSON (${(e as Error).message})`);
  }
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw new CliError(`--markup: ${source} holds an empty list: no label to render`);
  if (list.length > MAX_MARKUPS) {
    throw new CliError(
      `--markup: ${source} holds ${list.length} labels; the most one file may hold is ${MAX_MARKUPS}`,
    );
  }
  const markups: Markup[] = [];
  const problems = [];
  for (const [i, item] of list.entries()) {
    const parsed = MarkupSchema.safeParse(item);
    const prefix = Array.isArray(raw) ? [i] : [];
    if (parsed.success) markups.push(parsed.data);
    else problems.push(...problemsOf(parsed.error, prefix));
  }
  if (problems.length > 0) {
    throw new CliError(
      `--markup: ${source} is not Markup JSON (what fetch-markups returns):\n` +
        formatProblems(problems.slice(0, 20)).replace(/^/gm, '  ') +
        (problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''),
    );
  }
  return {
    markups,
    baseDir: file ? dirname(file) : io.cwd,
    name: file ? basename(file, extname(file)) || 'markup' : 'markup',
    warnings: incompleteMarkupWarnings(list, Array.isArray(raw)),
  };
}

/** One warning per barcode drawn at its natural size, and where it goes when its position is missing too. */
export function incompleteMarkupWarnings(list: readonly unknown[], isArray: boolean): string[] {
  const out: string[] = [];
  // Copies of one label repeat the same elements: warn once per element index, naming the first copy.
  const seen = new Set<string>();
  list.forEach((item, copy) => {
    const elements = (item as { elements?: unknown } | null)?.elements;
    if (!Array.isArray(elements)) return;
    elements.forEach((el: unknown, index) => {
      const e = el as Record<string, unknown> | null;
      if (e?.type !== 'barcode' || e.visible === false) return;
      const noSize = e.width === undefined || e.height === undefined;
      if (!noSize) return;
      const noPosition = e.x === undefined || e.y === undefined;
      const message =
        `elements[${index}] (barcode ${String(e.format)}): no ${e.width === undefined && e.height === undefined ? 'width or height' : e.width === undefined ? 'width' : 'height'}, ` +
        'drawn at its natural size' +
        (noPosition
          ? ' at the top-left corner (no x/y either), where it may cover other elements'
          : ' at its x/y');
      if (seen.has(message)) return;
      seen.add(message);
      out.push(isArray ? `[${copy}].${message}` : message);
    });
  });
  return out;
}

/**
 * `--markup` on a command that also takes a template: the options that make no sense together are usage
 * errors naming the option and why.
 */
export function checkMarkupExclusive(
  values: Record<string, unknown>,
  options: readonly string[],
  why = "the markup already holds every copy's values",
): void {
  for (const option of options) {
    if (values[option] !== undefined)
      throw new UsageError(`--${option} cannot be used with --markup: ${why}`);
  }
}
