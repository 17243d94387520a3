/** `labeldesk templates | markup | validate | schema`. */
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { checkValues, unknownKeys } from '../resolve/values';
import { checkApiData, resolve } from '../resolve/resolve';
import { TemplateValidationError, formatProblems } from '../model/errors';
import { TemplateSchema, type Template } from '../model/schema';
import { stageToInches } from '../units/units';
import { defaultTemplateStore, readTemplateFile } from '../node/template-store';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import { HOSTED_HELP, hostedApiOptions, hostedSetup, hostedTemplateName } from './hosted-options';
import { userDir } from './user-templates';

/** parseArgs with our error style: unknown options are usage errors naming the option. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(
      (e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, '').split('\n')[0] ?? 'bad arguments',
    );
  }
}

export const templateOptions = {
  template: { type: 'string' },
  templates: { type: 'string' },
} as const;

type TemplateArgs = { template?: string | undefined; templates?: string | undefined };

/**
 * `--template` as a file path (has a slash or ends in .json) or a template name, with the folder its relative
 * image paths resolve against (the template file's own folder, as the template format documents).
 */
export async function loadTemplateEntry(
  values: TemplateArgs,
  io: CliIo,
): Promise<{ template: Template; baseDir: string }> {
  const spec = values.template;
  if (!spec) throw new UsageError('--template NAME|FILE is required');
  if (spec.endsWith('.json') || spec.includes('/') || spec.includes('\\')) {
    const file = isAbsolute(spec) ? spec : resolvePath(io.cwd, spec);
    return { template: await readTemplateFile(file), baseDir: dirname(file) };
  }
  const entry = await defaultTemplateStore(userDir(values, io)).get(spec);
  return { template: entry.template, baseDir: entry.file ? dirname(entry.file) : io.cwd };
}

export async function loadTemplateArg(values: TemplateArgs, io: CliIo): Promise<Template> {
  return (await loadTemplateEntry(values, io)).template;
}

function sizeOf(t: Template): string {
  const { width, height, unit } = t.stage;
  return `${width}x${height} ${unit}`;
}

export async function templatesCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, { json: { type: 'boolean' }, templates: { type: 'string' } });
  if (values.help) {
    io.stdout('Usage: labeldesk templates [--json] [--templates DIR]\n');
    return 0;
  }
  const listing = await defaultTemplateStore(userDir(values, io)).list();
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          templates: listing.templates.map(({ template: t, origin, file }) => ({
            name: t.name,
            description: t.description,
            origin,
            file,
            stage: t.stage,
            widthInches: stageToInches(t.stage.width, t.stage.unit),
            heightInches: stageToInches(t.stage.height, t.stage.unit),
            fields: t.fields,
            rfid: t.elements.some((e) => e.type === 'rfid'),
          })),
          broken: listing.broken,
        },
        null,
        2,
      ) + '\n',
    );
  } else {
    const rows = listing.templates.map(({ template: t, origin }) => [
      t.name,
      sizeOf(t),
      origin,
      t.fields.map((f) => f.name + (f.required ? '*' : '')).join(', '),
    ]);
    const header = ['NAME', 'SIZE', 'ORIGIN', 'FIELDS (* required)'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    for (const row of [header, ...rows]) {
      io.stdout(row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ') + '\n');
    }
  }
  for (const b of listing.broken) {
    io.stderr(`warning: ${b.file} is not usable:\n${formatProblems(b.problems).replace(/^/gm, '  ')}\n`);
  }
  return 0;
}

export async function markupCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    ...templateOptions,
    data: { type: 'string' },
    amount: { type: 'string' },
    compact: { type: 'boolean' },
    ...hostedApiOptions,
  });
  if (values.help) {
    io.stdout(
      'Usage: labeldesk markup --template NAME|FILE [--data JSON|@FILE] [--amount N] [--compact]\n' +
        HOSTED_HELP,
    );
    return 0;
  }
  const hosted = await hostedSetup(values, io);
  if (hosted) {
    try {
      const request = {
        label_name: hostedTemplateName(values.template),
        amount: parseAmount(values.amount),
        apiData: checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io)),
      };
      const markups = await hosted.backend.fetchMarkups(request);
      io.stdout(JSON.stringify(markups, null, values.compact ? undefined : 2) + '\n');
      return 0;
    } finally {
      await hosted.close();
    }
  }
  const template = await loadTemplateArg(values, io);
  const apiData = checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io));
  const amount = parseAmount(values.amount);
  const markups = resolve(template, apiData, amount);
  warnAboutValues(template, apiData, io);
  io.stdout(JSON.stringify(markups, null, values.compact ? undefined : 2) + '\n');
  return 0;
}

/** `--amount` as given on a command line: digits only, then the resolver's range check. */
export function parseAmount(raw: string | undefined): number {
  if (raw === undefined) return 1;
  if (!/^-?\d+$/.test(raw.trim()))
    throw new CliError(`--amount: expected a whole number of copies, got "${raw}"`);
  return Number(raw);
}

/** The spec ignores unknown keys and prints placeholders; a person at a terminal still deserves to know. */
export function warnAboutValues(template: Template, apiData: Record<string, string>, io: CliIo): void {
  for (const { key, didYouMean } of unknownKeys(template, apiData)) {
    io.stderr(
      `warning: "${key}" matches no field of ${template.name} and is ignored` +
        (didYouMean ? ` (field names are case-sensitive: did you mean "${didYouMean}"?)` : '') +
        '\n',
    );
  }
  for (const p of checkValues(template, apiData)) io.stderr(`warning: ${p.path}: ${p.message}\n`);
}

export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout('Usage: labeldesk validate FILE... [--json]\n');
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('validate needs at least one template file');
  let failed = 0;
  const results = [];
  for (const file of positionals) {
    try {
      const t = await readTemplateFile(resolvePath(io.cwd, file));
      results.push({ file, ok: true, name: t.name, problems: [] });
      if (!values.json) io.stdout(`ok  ${file} (${t.name})\n`);
    } catch (e) {
      if (!(e instanceof TemplateValidationError)) throw e;
      failed++;
      results.push({ file, ok: false, problems: e.problems });
      if (!values.json) {
        io.stdout(`${file}: ${e.problems.length} problem${e.problems.length === 1 ? '' : 's'}\n`);
        io.stdout(formatProblems(e.problems).replace(/^/gm, '  ') + '\n');
      }
    }
  }
  if (values.json) io.stdout(JSON.stringify(results, null, 2) + '\n');
  return failed ? 1 : 0;
}

/** The JSON Schema for editors (assets/schema/template.schema.json is this output, checked by a test). */
export function templateJsonSchema(): unknown {
  return {
    ...z.toJSONSchema(TemplateSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://labeldesk.dev/schema/template.schema.json',
    title: 'LabelDesk template',
  };
}

export async function schemaCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {});
  if (values.help) {
    io.stdout('Usage: labeldesk schema > assets/schema/template.schema.json\n');
    return 0;
  }
  io.stdout(JSON.stringify(templateJsonSchema(), null, 2) + '\n');
  return 0;
}
