/** The user's template folder for every command that reads templates (template-commands, hosted-options). */
import { resolve as resolvePath } from 'node:path';
import type { CliIo } from './io';

/** `--templates DIR`, else LABELDESK_TEMPLATES, relative to the working folder; undefined for bundled only. */
export function userDir(values: { templates?: string | undefined }, io: CliIo): string | undefined {
  const dir = values.templates ?? io.env.LABELDESK_TEMPLATES;
  return dir ? resolvePath(io.cwd, dir) : undefined;
}
