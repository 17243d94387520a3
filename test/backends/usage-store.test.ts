/** The Node storage of the print tally: a JSON file written atomically in the data folder. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageTally } from '../../src/backends/usage';
import { jsonFileUsageStorage } from '../../src/node/usage-store';

const dir = mkdtempSync(join(tmpdir(), 'ld-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('jsonFileUsageStorage', () => {
  it('creates the folder, writes the tally, leaves no temporary files, and reads it back', async () => {
    const file = join(dir, 'nested', 'usage.json');
    const tally = await UsageTally.open(jsonFileUsageStorage(file));
    for (let i = 0; i < 20; i++) tally.record('key-a', i % 2 ? 'render-zpl' : 'fetch-markups', 2);
    await tally.flush();
    expect(readdirSync(join(dir, 'nested'))).toEqual(['usage.json']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      keys: {
        'key-a': {
          'fetch-markups': { requests: 10, labels: 20 },
          'render-zpl': { requests: 10, labels: 20 },
        },
      },
    });
    const again = await UsageTally.open(jsonFileUsageStorage(file));
    expect(again.usage('key-a').total).toEqual({ requests: 20, labels: 40 });
  });

  it('a missing file is an empty tally; a corrupt one is reported and replaced on the next save', async () => {
    expect(await jsonFileUsageStorage(join(dir, 'none.json')).load()).toBeUndefined();
    const file = join(dir, 'corrupt.json');
    writeFileSync(file, '{"version": 1, "keys": ');
    const messages: string[] = [];
    const tally = await UsageTally.open(jsonFileUsageStorage(file), (m) => messages.push(m));
    expect(messages[0]).toMatch(
      /^the saved print tally cannot be read and starts again from zero \(.*corrupt\.json is not valid JSON/,
    );
    tally.record('k', 'render-pdf', 1);
    await tally.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).keys.k['render-pdf']).toEqual({ requests: 1, labels: 1 });
  });

  it('a failed save is reported, not thrown', async () => {
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, 'a file where a folder should be');
    const messages: string[] = [];
    const tally = await UsageTally.open(jsonFileUsageStorage(join(blocker, 'usage.json')), (m) =>
      messages.push(m),
    );
    tally.record('k', 'print', 1);
    await tally.flush();
    expect(messages.at(-1)).toMatch(/^the print tally could not be saved/);
    expect(existsSync(join(blocker, 'usage.json'))).toBe(false);
  });

  it('a save that fails at the rename leaves no temporary file (#20)', async () => {
    const folder = join(dir, 'taken');
    mkdirSync(join(folder, 'usage.json', 'inside'), { recursive: true });
    const messages: string[] = [];
    const tally = await UsageTally.open(jsonFileUsageStorage(join(folder, 'usage.json')), (m) =>
      messages.push(m),
    );
    tally.record('k', 'print', 1);
    await tally.flush();
    expect(messages.at(-1)).toMatch(/^the print tally could not be saved/);
    expect(readdirSync(folder)).toEqual(['usage.json']);
  });
});
