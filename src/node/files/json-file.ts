/**
 * Node-only: one small JSON document on disk (settings, the app's printer list, printer profiles, API keys,
 * usage ledgers), validated with its zod schema on every read, written atomically (temp file in the same
 * folder, flushed, renamed; see writeFileAtomic) so a crash mid-write never leaves half a file, and updated
 * one at a time within the process. A missing file reads as `empty`; a file that does not parse is reported
 * by path and problem, never silently replaced.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { serialQueue } from '../../base/serial-queue';
import { formatProblems, problemsOf } from '../../model/errors';
import { writeFileAtomic } from './atomic-file';

export class JsonFileError extends Error {
  override name = 'JsonFileError';
}

export interface JsonFileOptions<T> {
  /** The error for a file that is not JSON. Default: JsonFileError "PATH: not valid JSON (detail)". */
  notJson?: (cause: Error) => Error;
  /**
   * Validates the parsed JSON, throwing the caller's own error. Default: the schema, throwing JsonFileError
   * "PATH: problems".
   */
  parse?: (json: unknown) => T;
  /** The new file's mode (default 0600: the data folder holds label data and keys). */
  mode?: number;
}

export interface JsonFile<T> {
  readonly path: string;
  /** The document (`empty` when there is no file). */
  read(): Promise<T>;
  /**
   * Read-modify-write, serialised with every other update of this file in this process. `change` returning
   * undefined means "nothing to change": nothing is written, and the current document is the result.
   */
  update(change: (current: T) => T | undefined | Promise<T | undefined>): Promise<T>;
  /**
   * Replaces the document with `value` (a typed value, not validated again), serialised with the updates.
   * The text is made when the write runs, so a caller may pass a live object and coalesce its writes.
   */
  write(value: T): Promise<void>;
}

export function jsonFile<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: z.output<S>,
  options: JsonFileOptions<z.output<S>> = {},
): JsonFile<z.output<S>> {
  type T = z.output<S>;
  const queue = serialQueue();

  const validate =
    options.parse ??
    ((json: unknown): T => {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new JsonFileError(`${path}: ${formatProblems(problemsOf(parsed.error))}`);
      return parsed.data;
    });

  const read = async (): Promise<T> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
      throw e;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw options.notJson
        ? options.notJson(e as Error)
        : new JsonFileError(`${path}: not valid JSON (${(e as Error).message})`);
    }
    return validate(json);
  };

  const save = (value: T): Promise<void> =>
    writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options.mode);

  return {
    path,
    read,
    update: (change) =>
      queue.run(async () => {
        const current = await read();
        const changed = await change(current);
        if (changed === undefined) return current;
        const next = schema.parse(changed) as T;
        await save(next);
        return next;
      }),
    write: (value) => queue.run(() => save(value)),
  };
}
