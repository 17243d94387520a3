/**
 * One small JSON document on disk (settings, the app's printer list): validated with its zod schema on
 * every read, written atomically (temp file in the same folder, flushed, renamed) so a crash mid-write never
 * leaves half a file, and written one at a time within the process. A file that does not parse is reported
 * by path and problem, never silently replaced.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { formatProblems, problemsOf } from '../../src/template/errors';
import { writeFileAtomic } from '../../src/engine/server/atomic-file';

export class JsonFileError extends Error {
  override name = 'JsonFileError';
}

export interface JsonFile<T> {
  readonly path: string;
  read(): Promise<T>;
  /** Read-modify-write, serialised with every other update of this file in this process. */
  update(change: (current: T) => T): Promise<T>;
}

export function jsonFile<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: z.output<S>,
): JsonFile<z.output<S>> {
  type T = z.output<S>;
  let queue: Promise<unknown> = Promise.resolve();

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
      throw new JsonFileError(`${path}: not valid JSON (${(e as Error).message})`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new JsonFileError(`${path}: ${formatProblems(problemsOf(parsed.error))}`);
    return parsed.data;
  };

  const write = (value: T): Promise<void> => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

  return {
    path,
    read,
    update(change) {
      const step = async () => {
        const next = schema.parse(change(await read())) as T;
        await write(next);
        return next;
      };
      const run = queue.then(step, step);
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
