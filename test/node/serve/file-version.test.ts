/** fileVersionSync (the keys file's check on every request) says what fileVersion says. */
import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { fileVersion, fileVersionSync } from '../../../src/node/files/atomic-file';

const dir = mkdtempSync(join(tmpdir(), 'ld-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the same version as fileVersion, a new one after a replace, and missing without a file', async () => {
  const file = join(dir, 'keys.json');
  expect(fileVersionSync(file)).toBe('missing');
  expect(await fileVersion(file)).toBe('missing');
  writeFileSync(file, '{"a":1}');
  const first = fileVersionSync(file);
  expect(first).toBe(await fileVersion(file));
  writeFileSync(join(dir, 'tmp'), '{"a":1}');
  renameSync(join(dir, 'tmp'), file);
  expect(fileVersionSync(file)).not.toBe(first);
  expect(fileVersionSync(file)).toBe(await fileVersion(file));
  expect(() => fileVersionSync(join(file, 'below-a-file'))).toThrow(/ENOTDIR/);
});
