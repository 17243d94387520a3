/**
 * The configured-printers file, shared by discovery (`labeldesk printers --printers FILE`) and the print relay
 * (`labeldesk serve --printers FILE`, where `id` is the relay's printer id):
 *
 *   [{ "id": 7, "uri": "tcp://10.0.0.5:9100", "name": "Dock 7" }]
 */
import { z } from 'zod';
import { formatProblems, problemsOf, type Problem } from '../model/errors';
import { PrinterUriSchema } from './uri';

export const ConfiguredPrinterSchema = z
  .object({
    /** Stable numeric id (the relay's `printerId`). */
    id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    /** Printer URI, normalised to its canonical form. */
    uri: PrinterUriSchema,
    name: z.string().trim().min(1).max(120),
  })
  .strict();

export const PrintersFileSchema = z.array(ConfiguredPrinterSchema).superRefine((printers, ctx) => {
  const ids = new Map<number, number>();
  printers.forEach((p, i) => {
    const first = ids.get(p.id);
    if (first !== undefined)
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `id ${p.id} is already used by [${first}]` });
    else ids.set(p.id, i);
  });
});

export type ConfiguredPrinter = z.infer<typeof ConfiguredPrinterSchema>;

export class PrintersFileError extends Error {
  override name = 'PrintersFileError';
  constructor(
    readonly problems: Problem[],
    readonly source?: string,
  ) {
    super(`${source ? `${source}: ` : ''}${formatProblems(problems)}`);
  }
}

/** Validates a parsed printers file. Throws PrintersFileError listing every problem with its path. */
export function parsePrintersFile(value: unknown, source?: string): ConfiguredPrinter[] {
  const result = PrintersFileSchema.safeParse(value, { reportInput: true });
  if (!result.success) throw new PrintersFileError(problemsOf(result.error), source);
  return result.data;
}
