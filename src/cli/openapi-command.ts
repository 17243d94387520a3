/** `labeldesk openapi`: the OpenAPI 3.1 document of `labeldesk serve` (assets/openapi.json is this output). */
import { openApiDocument } from '../label-api/openapi';
import type { CliIo } from './io';
import { parseOptions } from './template-commands';

export async function openApiCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(args, {});
  if (values.help) {
    io.stdout('Usage: labeldesk openapi > assets/openapi.json\n');
    return 0;
  }
  io.stdout(JSON.stringify(openApiDocument(), null, 2) + '\n');
  return 0;
}
