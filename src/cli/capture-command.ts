/**
 * `labeldesk capture --template NAME --fields a,b,c [--out FILE]`: a hosted template as a local template file
 * (src/backends/capture.ts), from one fetch-markups call. What could not be captured is listed on stderr.
 */
import { resolve as resolvePath } from 'node:path';
import { captureTemplate, type CaptureField } from '../backends/capture';
import { HOSTED_HELP, hostedApiOptions, hostedSetup, hostedTemplateName } from './hosted-options';
import { FileWriteError, writeFileAtomic } from '../node/files/atomic-file';
import { CliError, UsageError, type CliIo } from './io';
import { parseOptions } from './template-commands';

export const CAPTURE_HELP = `Usage: labeldesk capture --template NAME --fields a,b,c [--out FILE] [--placeholders]

Turns a hosted template into a LabelDesk template file with one fetch-markups request (it counts as a print).

  --template NAME    the hosted template's exact name
  --fields LIST      its API field names, comma-separated; mark a field that feeds an EAN/UPC/ITF barcode
                     with ":digits" (e.g. sku,gtin:digits) so it is sent a number
  --out FILE         write the template here, replacing a file of that name (default: stdout); put it in
                     your templates folder (--templates / $LABELDESK_TEMPLATES) or <data dir>/captured/ to
                     use it offline
  --placeholders     a second request (another print) to learn each field's placeholder
${HOSTED_HELP}`;

/** `a,b:digits` → fields. */
export function parseFieldList(raw: string | undefined): CaptureField[] {
  if (!raw?.trim())
    throw new UsageError("--fields a,b,c is required (the hosted template's API field names)");
  return raw.split(',').map((part) => {
    const item = part.trim();
    const [name = '', flag] = item.split(':');
    if (!name) throw new UsageError(`--fields: empty field name in "${raw}"`);
    if (flag !== undefined && flag !== 'digits')
      throw new UsageError(`--fields: "${item}": the only marker is ":digits"`);
    return flag ? { name, digits: true } : { name };
  });
}

export async function captureCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {
    template: { type: 'string' },
    fields: { type: 'string' },
    out: { type: 'string' },
    placeholders: { type: 'boolean' },
    ...hostedApiOptions,
  });
  if (values.help) {
    io.stdout(CAPTURE_HELP);
    return 0;
  }
  const templateName = hostedTemplateName(values.template);
  const fields = parseFieldList(values.fields);
  const setup = await hostedSetup(values, io);
  if (!setup)
    throw new UsageError(
      'capture needs the hosted API: --api-url, --api-key, --api-secret (or LABELDESK_API_* variables)',
    );
  try {
    const result = await captureTemplate({
      backend: setup.hosted,
      templateName,
      fields,
      placeholders: values.placeholders ?? false,
    });
    const text = JSON.stringify(result.template, null, 2) + '\n';
    if (values.out) {
      try {
        await writeFileAtomic(resolvePath(io.cwd, values.out), text, 0o644);
      } catch (e) {
        if (e instanceof FileWriteError) throw new CliError(`--out ${values.out}: ${e.message}`);
        throw e;
      }
    } else {
      io.stdout(text);
    }
    for (const note of result.notes) io.stderr(`note: ${note.message}\n`);
    const { fields: f, elements } = result.template;
    io.stderr(
      `captured "${templateName}": ${elements.length} elements, ${f.length} fields` +
        (result.notes.length ? `, ${result.notes.length} note${result.notes.length === 1 ? '' : 's'}` : '') +
        (values.out ? ` → ${resolvePath(io.cwd, values.out)}` : '') +
        '\n',
    );
    return 0;
  } finally {
    await setup.close();
  }
}
